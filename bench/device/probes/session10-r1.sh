#!/usr/bin/env bash
# Tenth session, device run 1: the build with the database whose lookup
# orders the GQA group before the bucket distance (3e1bfec).
#  1. correctness of the whole matrix (run.py --quick over build_artifacts.sh's
#     kernels, .device/pack/art.tgz);
#  2. the main kernels against cuDNN and FlashAttention-2 (run.py, timed:
#     f16/bf16, D = 64/128/256, unmasked and causal bottom-right);
#  3. the tuned kernels against the heuristic's for the keys the fix changed
#     (unmasked D = 64/128 of both dtypes and the GQA 8:1 keys; tune_validate.sh,
#     .device/pack/val.tgz), with pair.py's static head counts.
# usage (device): bash bench/device/probes/session10-r1.sh
set -uo pipefail
source bench/device/probes/device_setup.sh 560
timeout 150 python3 bench/device/run.py --artifacts /tmp/t/art --runtime $L \
  --out /tmp/art-check --quick --no-isolate --kernel-timeout 60 > "$out/art-check.txt" 2>&1
echo "run.py --quick: exit $?"; grep -E "FAIL|fail|passed|kernels" "$out/art-check.txt" | tail -12
cp /tmp/art-check/results.json "$out/art-check.json" 2>/dev/null
echo "[$(( $(date +%s) - t0 )) s] matrix checked"
ks=""
for dt in f16 bf16; do for d in 64 128 256; do for m in none causal_br; do ks="$ks${ks:+,}attn_${dt}_d${d}_$m"; done; done; done
timeout 260 python3 bench/device/run.py --artifacts /tmp/t/art --runtime $L \
  --out /tmp/matrix --no-isolate --kernel-timeout 60 --commit 3e1bfec --kernels "$ks" > "$out/matrix.txt" 2>&1
echo "run.py timed: exit $?"; tail -4 "$out/matrix.txt"
cp /tmp/matrix/results.json "$out/matrix.json" 2>/dev/null \
  && python3 bench/device/make_table.py /tmp/matrix/results.json > "$out/matrix.md"
echo "[$(( $(date +%s) - t0 )) s] matrix timed"
(( $(left) > 30 )) && timeout $(( $(left) - 10 )) python3 bench/device/pair.py --artifacts /tmp/t/val --runtime $L \
  --out "$out/val-pairs.json" --rounds 4 --ns 1024,4096,16384 \
  --pairs "$(cat /tmp/t/val/pairs.txt)" > "$out/val-pairs.txt" 2>&1
echo "val: exit $?"; tail -30 "$out/val-pairs.txt"
echo "[$(( $(date +%s) - t0 )) s] done"
