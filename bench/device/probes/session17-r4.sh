#!/usr/bin/env bash
# Seventeenth session, device run 4 (outputs in $OUT/r4.tgz): where the
# bias's time goes. Nsight Compute on one launch each of the bias kernel
# without and with the L1 prefetch (run 3's pf0_f16_bias, pf1_f16_bias)
# and the same kernel without a bias (p2's attn_f16_d128_none), N = 4096:
# warp stall reasons per issued instruction, instructions, L1 hit rate.
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/r4
source bench/device/probes/device_setup.sh 300
finish() { tar czf "$final/r4.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
m=""
for s in long_scoreboard short_scoreboard wait math_pipe_throttle barrier mio_throttle lg_throttle \
         not_selected selected dispatch_stall membar sleeping no_instruction branch_resolving drain tex_throttle misc; do
  m="$m,smsp__average_warps_issue_stalled_${s}_per_issue_active.ratio"
done
m="${m#,},smsp__inst_executed.sum,l1tex__t_sector_hit_rate.pct,gpu__time_duration.sum,smsp__issue_active.avg.pct_of_peak_sustained_active"
for spec in "pf:pf0_f16_bias" "pf:pf1_f16_bias" "p2:attn_f16_d128_none"; do
  dir=${spec%%:*}; k=${spec#*:}
  timeout 80 ncu -k regex:'pf|attn_' --launch-skip 2 --launch-count 1 --metrics "$m" \
    python3 bench/device/probes/ncu_pair.py /tmp/t/$dir $L $k 4096 > "$out/ncu-$k.txt" 2>&1
  echo "== ncu $k: exit $?"
  grep -E "stalled|inst_executed|hit_rate|duration|issue_active" "$out/ncu-$k.txt" | sed 's/smsp__average_warps_issue_stalled_//; s/_per_issue_active.ratio//' | awk '{print $1, $(NF)}' | head -24
  echo "[$(( $(date +%s) - t0 )) s]"
done
echo "[$(( $(date +%s) - t0 )) s] done"
