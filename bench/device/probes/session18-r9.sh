#!/usr/bin/env bash
# Eighteenth session, device run 9 (outputs in $OUT/r9.tgz): where the
# staged bias's remaining cost goes. Nsight Compute (the metrics of the
# seventeenth session's run 5) on nb_f16 (128 x 80 async_pv persistent, no
# bias) and sl1_f16_bias (the same with a full f16 bias, staged), N = 4096,
# from sv.tgz (session18-stage-variants.txt).
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/r9
source bench/device/probes/device_setup.sh 240
finish() { tar czf "$final/r9.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
m=""
for s in long_scoreboard short_scoreboard wait math_pipe_throttle barrier mio_throttle lg_throttle \
         not_selected selected dispatch_stall no_instruction; do
  m="$m,smsp__average_warps_issue_stalled_${s}_per_issue_active.ratio"
done
m="${m#,},smsp__inst_executed.sum,l1tex__t_sector_hit_rate.pct,gpu__time_duration.sum,smsp__issue_active.avg.pct_of_peak_sustained_active"
m="$m,smsp__inst_executed_pipe_fma.sum,smsp__inst_executed_pipe_alu.sum,smsp__inst_executed_pipe_lsu.sum,smsp__inst_executed_pipe_xu.sum,smsp__inst_executed_op_global_ld.sum"
m="$m,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,smsp__inst_executed_op_shared_ld.sum"
for k in nb_f16 sl1_f16_bias; do
  timeout 80 ncu -k regex:'nb_|sl' --launch-skip 2 --launch-count 1 --metrics "$m" \
    python3 bench/device/probes/ncu_pair.py /tmp/t/sv $L $k 4096 > "$out/ncu-$k.txt" 2>&1
  echo "== ncu $k: exit $?"
  grep -E "stalled|inst_executed|hit_rate|duration|issue_active|bank_conflicts" "$out/ncu-$k.txt" | sed 's/smsp__average_warps_issue_stalled_//; s/_per_issue_active.ratio//' | awk '{print $1, $(NF)}' | head -26
done
echo "[$(( $(date +%s) - t0 )) s] done"
