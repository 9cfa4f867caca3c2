#!/usr/bin/env bash
# Sixteenth session, device run 1 (outputs in $OUT/r1.tgz): the bias read
# in 4-byte pairs. .device/pack/p1.tgz is the build with it
# (build_artifacts.sh, 43 kernels), b1.tgz the one before (the fifteenth
# session's run 2 build: the same PTX for every kernel without a bias).
#  1. run.py --quick on p1's 13 mod kernels;
#  2. pair.py p1 against b1 on the kernels with a bias, N = 1024 / 4096 / 16384;
#  3. the bias's cost: mod_*_d128_bias against attn_*_d128_none (p1);
#  4. run.py (full mode: p95, FlexAttention with the same bias at 4096) on
#     the two full-bias kernels;
#  5. compute-sanitizer memcheck on the bias kernel and the async_pv kernels;
#  6. the rest of the sm_80 benchmark keys (tune15m80, resumed after the
#     fifteenth session's run 5) in the time left.
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/r1
source bench/device/probes/device_setup.sh 560
finish() { tar czf "$final/r1.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
timeout 100 python3 bench/device/run.py --artifacts /tmp/t/p1 --runtime $L --kernels 'mod_*' \
  --out /tmp/p1-check --quick --no-isolate --kernel-timeout 60 > "$out/check-p1.log" 2>&1
echo "run.py --quick p1 mods: exit $?"; grep -E "FAILED|passed|FAIL" "$out/check-p1.log" | tail -4
echo "[$(( $(date +%s) - t0 )) s]"
p=""
for k in mod_f16_d128_bias mod_bf16_d128_bias mod_f16_d128_bias_b1 mod_f16_d128_bias_b1h1 mod_bf16_d64_all; do
  p="$p${p:+,}$k=$k"
done
timeout 90 python3 bench/device/pair.py --artifacts /tmp/t/p1 --artifacts-b /tmp/t/b1 \
  --runtime $L --out "$out/pairs-pairs.json" --rounds 2 --ns 1024,4096,16384 --pairs "$p" > "$out/pairs-pairs.txt" 2>&1
echo "pairs (4-byte pairs / before): exit $?"; grep -E "A/B" "$out/pairs-pairs.txt" | cut -c1-90
echo "[$(( $(date +%s) - t0 )) s]"
p="mod_f16_d128_bias=attn_f16_d128_none,mod_bf16_d128_bias=attn_bf16_d128_none"
timeout 60 python3 bench/device/pair.py --artifacts /tmp/t/p1 --runtime $L \
  --out "$out/pairs-bias.json" --rounds 2 --ns 4096,16384 --pairs "$p" > "$out/pairs-bias.txt" 2>&1
echo "bias cost: exit $?"; grep -E "A/B|bias" "$out/pairs-bias.txt" | cut -c1-110
echo "[$(( $(date +%s) - t0 )) s]"
timeout 100 python3 bench/device/run.py --artifacts /tmp/t/p1 --runtime $L --kernels 'mod_f16_d128_bias,mod_bf16_d128_bias' \
  --out "$out/full-bias" --no-isolate --kernel-timeout 90 > "$out/full-bias.log" 2>&1
echo "run.py full mode (bias): exit $?"; grep -E "timing N|FAIL|passed" "$out/full-bias.log" | tail -8
echo "[$(( $(date +%s) - t0 )) s]"
timeout 100 compute-sanitizer --tool memcheck --error-exitcode 3 \
  python3 bench/device/sanitize.py --artifacts /tmp/t/p1 --runtime $L \
  mod_f16_d128_bias,mod_bf16_d128_bias__n1024,attn_f16_d128_causal_br,attn_f16_d128_causal_br__n4096,mod_bf16_d128_softcap > "$out/memcheck.log" 2>&1
echo "memcheck: exit $?"; grep -E "ERROR SUMMARY|FAIL" "$out/memcheck.log" | tail -2
echo "[$(( $(date +%s) - t0 )) s]"
if [ "$(left)" -gt 60 ]; then
  timeout $(( $(left) - 10 )) python3 bench/device/tune_measure.py --runtime $L --budget-s $(( $(left) - 45 )) \
    --skip-measured /tmp/t/tune15m80-measured-r5.json \
    --out "$out/m15m80-r1.json" /tmp/t/tune15m80/*/ > "$out/tune15m80.log" 2>&1
  echo "sm_80 matrix keys: exit $?"; grep -E "wrote|budget|rror" "$out/tune15m80.log" | tail -4
fi
echo "[$(( $(date +%s) - t0 )) s] done"
