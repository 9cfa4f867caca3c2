#!/usr/bin/env bash
# Sixteenth session, device run 5 (outputs in $OUT/r5.tgz): the database
# with run 4's bias keys merged (tune_trim.py), built into p3.tgz
# (build_artifacts.sh, 43 kernels; the full and the fully broadcast D = 128
# bias kernels change: 128 x 80 async_pv persistent); p1.tgz the build
# before (run 1's pairs).
#  1. run.py --quick on p3's bias kernels (odd shapes, GQA, strided, NaN/Inf);
#  2. memcheck and racecheck on the new kernels;
#  3. pair.py p3 against p1 on them, N = 1024 / 4096 / 16384;
#  4. the bias's cost (against attn_*_d128_none, p3);
#  5. run.py full mode on the two full-bias kernels (p95, FlexAttention at 4096).
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/r5
source bench/device/probes/device_setup.sh 420
finish() { tar czf "$final/r5.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
timeout 60 python3 bench/device/run.py --artifacts /tmp/t/p3 --runtime $L --kernels 'mod_*bias*' \
  --out /tmp/p3-check --quick --no-isolate --kernel-timeout 60 > "$out/check-p3.log" 2>&1
echo "run.py --quick p3 bias: exit $?"; grep -E "FAILED|passed|FAIL" "$out/check-p3.log" | tail -4
for tool in memcheck racecheck; do
  timeout 60 compute-sanitizer --tool $tool --error-exitcode 3 \
    python3 bench/device/sanitize.py --artifacts /tmp/t/p3 --runtime $L \
    mod_f16_d128_bias,mod_bf16_d128_bias__n512 > "$out/$tool.log" 2>&1
  echo "$tool: exit $?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|FAIL" "$out/$tool.log" | tail -2
done
echo "[$(( $(date +%s) - t0 )) s]"
p="mod_f16_d128_bias=mod_f16_d128_bias,mod_bf16_d128_bias=mod_bf16_d128_bias,mod_f16_d128_bias_b1h1=mod_f16_d128_bias_b1h1"
timeout 70 python3 bench/device/pair.py --artifacts /tmp/t/p3 --artifacts-b /tmp/t/p1 \
  --runtime $L --out "$out/pairs-tuned.json" --rounds 2 --ns 1024,4096,16384 --pairs "$p" > "$out/pairs-tuned.txt" 2>&1
echo "pairs (tuned / before): exit $?"; grep -E "A/B" "$out/pairs-tuned.txt" | cut -c1-90
p="mod_f16_d128_bias=attn_f16_d128_none,mod_bf16_d128_bias=attn_bf16_d128_none"
timeout 60 python3 bench/device/pair.py --artifacts /tmp/t/p3 --runtime $L \
  --out "$out/pairs-bias.json" --rounds 2 --ns 4096,16384 --pairs "$p" > "$out/pairs-bias.txt" 2>&1
echo "bias cost: exit $?"; grep -E "A/B|bias" "$out/pairs-bias.txt" | cut -c1-110
echo "[$(( $(date +%s) - t0 )) s]"
timeout $(( $(left) - 10 )) python3 bench/device/run.py --artifacts /tmp/t/p3 --runtime $L --kernels 'mod_f16_d128_bias,mod_bf16_d128_bias' \
  --out "$out/full-bias" --no-isolate --kernel-timeout 90 > "$out/full-bias.log" 2>&1
echo "run.py full mode (bias): exit $?"; grep -E "timing N|FAIL|passed" "$out/full-bias.log" | tail -8
echo "[$(( $(date +%s) - t0 )) s] done"
