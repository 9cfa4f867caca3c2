#!/usr/bin/env bash
# Sixteenth session, device run 2 (outputs in $OUT/r2.tgz): what limits the
# bias kernels after the 4-byte pairs. p1.tgz is the build with the pairs
# (run 1's), q1.tgz an experiment build (not committed) whose bias tile is
# read 16 bytes per lane and exchanged across the quad (4x fewer L1
# wavefronts than the pairs; spills 20 bytes).
#  1. run.py --quick on q1 and s1 (the bias staged through shared memory
#     with cp.async and read back with ldmatrix; spills 4-36 bytes) bias kernels;
#  2. pair.py q1 against p1 on the bias kernels, N = 1024 / 4096 / 16384;
#  3. ncu on p1's f16 bias kernel at N = 4096 (run with ncu_mod.py, since
#     folded into ncu_pair.py).
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/r2
source bench/device/probes/device_setup.sh 520
finish() { tar czf "$final/r2.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
for v in s1 q1; do
  timeout 60 python3 bench/device/run.py --artifacts /tmp/t/$v --runtime $L --kernels 'mod_*bias*,mod_bf16_d64_all' \
    --out /tmp/$v-check --quick --no-isolate --kernel-timeout 60 > "$out/check-$v.log" 2>&1
  echo "run.py --quick $v bias: exit $?"; grep -E "FAILED|passed|FAIL" "$out/check-$v.log" | tail -4
done
timeout 60 compute-sanitizer --tool racecheck --error-exitcode 3 \
  python3 bench/device/sanitize.py --artifacts /tmp/t/s1 --runtime $L mod_f16_d128_bias,mod_f16_d128_bias__n1024 > "$out/racecheck-s1.log" 2>&1
echo "racecheck s1: exit $?"; grep -E "RACECHECK SUMMARY|ERROR SUMMARY|FAIL" "$out/racecheck-s1.log" | tail -2
p="mod_f16_d128_bias=mod_f16_d128_bias,mod_bf16_d128_bias=mod_bf16_d128_bias,mod_f16_d128_bias_b1h1=mod_f16_d128_bias_b1h1,mod_bf16_d64_all=mod_bf16_d64_all"
for v in s1 q1; do
  timeout 80 python3 bench/device/pair.py --artifacts /tmp/t/$v --artifacts-b /tmp/t/p1 \
    --runtime $L --out "$out/pairs-$v.json" --rounds 2 --ns 1024,4096,16384 --pairs "$p" > "$out/pairs-$v.txt" 2>&1
  echo "pairs ($v / pairs): exit $?"; grep -E "A/B" "$out/pairs-$v.txt" | cut -c1-90
done
echo "[$(( $(date +%s) - t0 )) s]"
for k in mod_f16_d128_bias; do
  timeout 120 ncu -k regex:'mod_|attn_' --launch-skip 2 --launch-count 1 \
    --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats \
    --section SchedulerStats --section InstructionStats --section ComputeWorkloadAnalysis \
    -o "$out/ncu-$k" python3 bench/device/probes/ncu_pair.py /tmp/t/p1 $L $k 4096 > "$out/ncu-$k.log" 2>&1
  echo "ncu $k: exit $?"; tail -2 "$out/ncu-$k.log"
  ncu -i "$out/ncu-$k.ncu-rep" --page details > "$out/ncu-$k.txt" 2>&1
  grep -E "Duration|Throughput|Pipe|Stall|Issued|Eligible|Wavefronts|L1/TEX Hit|Bank|Excessive" "$out/ncu-$k.txt" | head -40
  echo "[$(( $(date +%s) - t0 )) s]"
done
echo "[$(( $(date +%s) - t0 )) s] done"
