#!/usr/bin/env bash
# Twentieth session, device run 1 (outputs in $OUT/r1.tgz): the softcap's
# cost and ping-pong.
#  1. pair.py on scv/ (build_variants.sh, bench/device/probes/session20-softcap-variants.txt of the
#     session: 128 x 192 async_pv persistent with and without ping_pong, 176-
#     and 128-column ping-pong forms; f16 and bf16 softcap 30, and no
#     softcap), N = 1024 / 4096 / 16384, 3 interleaved rounds;
#  2. Nsight Compute on sc_base, sc_pp and nosc_base at N = 4096: pipe
#     utilisation (XU = MUFU, tensor), issue, stall reasons;
#  3. the SASS of sc_base and nosc_base (cuobjdump), opcode counts.
# Pack: .device/pack/scv.tgz.
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/r1
source bench/device/probes/device_setup.sh 400
finish() { tar czf "$final/r1.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
p="sc_pp=sc_base,sc_pp176=sc_base,sc_pp128n=sc_base,sc_pp128=sc_base,bsc_pp=bsc_base,nosc_pp=nosc_base,sc_base=nosc_base"
timeout 240 python3 bench/device/pair.py --artifacts /tmp/t/scv --runtime $L \
  --out "$out/pairs-softcap.json" --rounds 3 --ns 1024,4096,16384 --pairs "$p" > "$out/pairs-softcap.txt" 2>&1
echo "softcap variants: exit $?"; grep -E "A/B" "$out/pairs-softcap.txt" | cut -c1-120
echo "[$(( $(date +%s) - t0 )) s]"
for k in sc_base nosc_base; do
  cuobjdump -sass /tmp/t/scv/$k.sm_90a.cubin > "$out/$k.sass" 2>&1
  echo "== SASS $k: $(grep -cE '^\s+/\*[0-9a-f]{4}\*/' "$out/$k.sass") instructions"
  grep -oE '^\s+/\*[0-9a-f]{4}\*/\s+(@!?U?P[0-9T] )?[A-Z0-9_]+(\.[A-Z0-9_]+)*' "$out/$k.sass" | awk '{print $NF}' | sed 's/\..*//' | sort | uniq -c | sort -rn | head -24 | paste -sd' '
done
ncu --query-metrics --chip gh100 > "$out/ncu-metrics.txt" 2>&1
tm=$(grep -oE "^sm__(pipe_tensor_op_gmma_cycles_active|inst_executed_pipe_tensor_op_gmma|pipe_tensor_cycles_active|pipe_xu_cycles_active|pipe_fma_cycles_active|pipe_alu_cycles_active)\b" "$out/ncu-metrics.txt" | sort -u | sed 's/$/.avg.pct_of_peak_sustained_active/' | paste -sd,)
echo "pipe metrics: $tm"
m=""
for s in long_scoreboard short_scoreboard wait math_pipe_throttle barrier mio_throttle not_selected selected dispatch_stall; do
  m="$m,smsp__average_warps_issue_stalled_${s}_per_issue_active.ratio"
done
m="${m#,},smsp__inst_executed.sum,gpu__time_duration.sum,smsp__issue_active.avg.pct_of_peak_sustained_active"
m="$m,smsp__inst_executed_pipe_fma.sum,smsp__inst_executed_pipe_alu.sum,smsp__inst_executed_pipe_xu.sum,sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_active"
[ -n "$tm" ] && m="$m,$tm"
for k in sc_base sc_pp nosc_base; do
  timeout 80 ncu -k regex:'sc_' --launch-skip 2 --launch-count 1 --metrics "$m" \
    python3 bench/device/probes/ncu_pair.py /tmp/t/scv $L $k 4096 > "$out/ncu-$k.txt" 2>&1
  echo "== ncu $k: exit $?"
  grep -E "stalled|inst_executed|duration|issue_active|pct_of_peak|ERROR" "$out/ncu-$k.txt" | sed 's/smsp__average_warps_issue_stalled_//; s/_per_issue_active.ratio//' | awk '{print $1, $(NF)}' | paste -sd' ' | fold -w 200
done
echo "[$(( $(date +%s) - t0 )) s] done"
