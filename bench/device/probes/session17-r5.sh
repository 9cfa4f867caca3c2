#!/usr/bin/env bash
# Seventeenth session, device run 5 (outputs in $OUT/r5.tgz): the bias's
# cost at one configuration. nb_f16 is pf0_f16_bias's configuration (128 x 80
# async_pv persistent) without a bias (built by build_variants.sh from session17-nobias-variant.txt into
# pf.tgz). Nsight Compute on nb_f16 (the metrics of run 4), then pair.py
# pf0_f16_bias / nb_f16 at N = 4096 / 16384.
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/r5
source bench/device/probes/device_setup.sh 240
finish() { tar czf "$final/r5.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
m=""
for s in long_scoreboard short_scoreboard wait math_pipe_throttle barrier mio_throttle lg_throttle \
         not_selected selected dispatch_stall no_instruction; do
  m="$m,smsp__average_warps_issue_stalled_${s}_per_issue_active.ratio"
done
m="${m#,},smsp__inst_executed.sum,l1tex__t_sector_hit_rate.pct,gpu__time_duration.sum,smsp__issue_active.avg.pct_of_peak_sustained_active"
m="$m,smsp__inst_executed_pipe_fma.sum,smsp__inst_executed_pipe_alu.sum,smsp__inst_executed_pipe_lsu.sum,smsp__inst_executed_pipe_xu.sum,smsp__inst_executed_op_global_ld.sum"
for k in nb_f16 pf0_f16_bias; do
  timeout 60 ncu -k regex:'nb_|pf' --launch-skip 2 --launch-count 1 --metrics "$m" \
    python3 bench/device/probes/ncu_pair.py /tmp/t/pf $L $k 4096 > "$out/ncu-$k.txt" 2>&1
  echo "== ncu $k: exit $?"
  grep -E "stalled|inst_executed|hit_rate|duration|issue_active" "$out/ncu-$k.txt" | sed 's/smsp__average_warps_issue_stalled_//; s/_per_issue_active.ratio//' | awk '{print $1, $(NF)}' | head -24
done
timeout 80 python3 bench/device/pair.py --artifacts /tmp/t/pf --runtime $L \
  --out "$out/pairs-nb.json" --rounds 2 --ns 4096,16384 --pairs "pf0_f16_bias=nb_f16" > "$out/pairs-nb.txt" 2>&1
echo "bias cost at one configuration: exit $?"; grep -E "A/B" "$out/pairs-nb.txt" | cut -c1-170
echo "[$(( $(date +%s) - t0 )) s] done"
