#!/usr/bin/env bash
# Twentieth session, device run 2 (outputs in $OUT/r2.tgz): fma_exp2 on
# today's softcap kernel (128 x 192 async_pv persistent, with and without
# ping_pong), k = 1, 2, 3, 4, 6 of every 8 exponentials on the FMA pipe.
#  1. pair.py on scv2/ (build_variants.sh, bench/device/probes/session20-fma-exp2-variants.txt), each
#     against sc_base (bf16 against bsc_base), and sc_base against
#     nosc_base, N = 1024 / 4096 / 16384, 3 interleaved rounds;
#  2. run.py --quick on sc_e2, sc_e4, sc_ppe4, bsc_e4 (correctness with the
#     polynomial: odd shapes, NaN/Inf, poisoned outputs);
#  3. Nsight Compute on sc_e2 and sc_e4 at N = 4096: pipe utilisation.
# Pack: .device/pack/scv2.tgz.
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/r2
source bench/device/probes/device_setup.sh 400
finish() { tar czf "$final/r2.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
p="sc_e1=sc_base,sc_e2=sc_base,sc_e3=sc_base,sc_e4=sc_base,sc_e6=sc_base,sc_pp=sc_base,sc_ppe2=sc_base,sc_ppe3=sc_base,sc_ppe4=sc_base"
p="$p,sc_ppe6=sc_base,bsc_e2=bsc_base,bsc_e4=bsc_base,sc_base=nosc_base,sc_e4=nosc_base,sc_ppe4=nosc_base"
timeout 300 python3 bench/device/pair.py --artifacts /tmp/t/scv2 --runtime $L \
  --out "$out/pairs-fma-exp2.json" --rounds 3 --ns 1024,4096,16384 --pairs "$p" > "$out/pairs-fma-exp2.txt" 2>&1
echo "fma_exp2 variants: exit $?"; grep -E "A/B" "$out/pairs-fma-exp2.txt" | cut -c1-120
echo "[$(( $(date +%s) - t0 )) s]"
timeout 100 python3 bench/device/run.py --artifacts /tmp/t/scv2 --runtime $L --kernels 'sc_e2,sc_e4,sc_ppe4,bsc_e4' \
  --out /tmp/check --quick --no-isolate --kernel-timeout 40 > "$out/check.log" 2>&1
echo "run.py --quick: exit $?"; grep -E "FAIL" "$out/check.log" | cut -c1-160 | head; grep -cE "^ +ok" "$out/check.log"; grep -iE "max.*err|worst" "$out/check.log" | head -8 | cut -c1-200
m="smsp__inst_executed.sum,gpu__time_duration.sum,smsp__issue_active.avg.pct_of_peak_sustained_active"
m="$m,smsp__inst_executed_pipe_fma.sum,smsp__inst_executed_pipe_xu.sum,sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_active"
m="$m,sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active,sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_active,sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active"
for k in sc_e2 sc_e4; do
  timeout 60 ncu -k regex:'sc_' --launch-skip 2 --launch-count 1 --metrics "$m" \
    python3 bench/device/probes/ncu_pair.py /tmp/t/scv2 $L $k 4096 > "$out/ncu-$k.txt" 2>&1
  echo "== ncu $k: exit $?"
  grep -E "inst_executed|duration|issue_active|pct_of_peak|ERROR" "$out/ncu-$k.txt" | awk '{print $1, $(NF)}' | paste -sd' ' | fold -w 200
done
echo "[$(( $(date +%s) - t0 )) s] done"
