#!/usr/bin/env bash
# Tenth session, device run 1.
#  1. the persistent tile loop with LLVM's LICM off (attn-loop-annotations):
#     correctness (run.py --quick) and the new kernels against the old ones
#     (n_* / o_*, session10-licm-{new,old}.txt, .device/pack/licm.tgz), and
#     the D = 256 persistent kernels that no longer spill against the
#     non-persistent defaults (n_* / d_*);
#  2. correctness of the whole matrix built with this change and the
#     database whose lookup orders the GQA group first (.device/pack/art.tgz);
#  3. the main kernels against cuDNN and FlashAttention-2 (run.py, timed:
#     f16/bf16, D = 64/128/256, unmasked and causal bottom-right);
#  4. the tuned kernels against the heuristic's for the keys the lookup fix
#     changed (unmasked D = 64/128, both dtypes, and the GQA 8:1 keys;
#     tune_validate.sh, .device/pack/val.tgz).
# usage (device): bash bench/device/probes/session10-r1.sh
set -uo pipefail
source bench/device/probes/device_setup.sh 570
timeout 60 python3 bench/device/run.py --artifacts /tmp/t/licm --runtime $L \
  --out /tmp/licm-check --quick --no-isolate --kernel-timeout 30 > "$out/licm-check.txt" 2>&1
echo "licm run.py --quick: exit $?"; grep -E "FAIL|fail|passed" "$out/licm-check.txt" | tail -5
p=""
for k in f16_d128_none f16_d128_causal_br bf16_d128_none f16_d64_none f16_d256_none bf16_d256_none f16_d256_causal_br; do
  p="$p${p:+,}n_$k=o_$k"; done
for k in f16_d256_none bf16_d256_none f16_d256_causal_br; do p="$p,n_$k=d_$k"; done
timeout 150 python3 bench/device/pair.py --artifacts /tmp/t/licm --runtime $L \
  --out "$out/licm-pairs.json" --rounds 4 --ns 1024,4096,16384 --pairs "$p" > "$out/licm-pairs.txt" 2>&1
echo "licm pairs: exit $?"; cat "$out/licm-pairs.txt"
echo "[$(( $(date +%s) - t0 )) s] licm done"
timeout 150 python3 bench/device/run.py --artifacts /tmp/t/art --runtime $L \
  --out /tmp/art-check --quick --no-isolate --kernel-timeout 60 > "$out/art-check.txt" 2>&1
echo "run.py --quick: exit $?"; grep -E "FAIL|fail|passed|kernels" "$out/art-check.txt" | tail -12
cp /tmp/art-check/results.json "$out/art-check.json" 2>/dev/null
echo "[$(( $(date +%s) - t0 )) s] matrix checked"
ks=""
for dt in f16 bf16; do for d in 64 128 256; do for m in none causal_br; do ks="$ks${ks:+,}attn_${dt}_d${d}_$m"; done; done; done
b=$(( $(left) - 75 )); (( b > 240 )) && b=240
timeout $b python3 bench/device/run.py --artifacts /tmp/t/art --runtime $L \
  --out /tmp/matrix --no-isolate --kernel-timeout 60 --commit session10-r1 --kernels "$ks" > "$out/matrix.txt" 2>&1
echo "run.py timed: exit $?"; tail -4 "$out/matrix.txt"
cp /tmp/matrix/results.json "$out/matrix.json" 2>/dev/null \
  && python3 bench/device/make_table.py /tmp/matrix/results.json > "$out/matrix.md"
echo "[$(( $(date +%s) - t0 )) s] matrix timed"
(( $(left) > 30 )) && timeout $(( $(left) - 10 )) python3 bench/device/pair.py --artifacts /tmp/t/val --runtime $L \
  --out "$out/val-pairs.json" --rounds 4 --ns 1024,4096,16384 \
  --pairs "$(cat /tmp/t/val/pairs.txt)" > "$out/val-pairs.txt" 2>&1
echo "val: exit $?"; tail -30 "$out/val-pairs.txt"
echo "[$(( $(date +%s) - t0 )) s] done"
