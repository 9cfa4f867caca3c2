#!/usr/bin/env bash
# Seventeenth session, device run 2 (outputs in $OUT/r2.tgz): run 1's
# broadcast-bias keys merged into the database (tune_trim.py), built into
# p2.tgz (build_artifacts.sh, 47 kernels: two more broadcast-bias kernels,
# mod_bf16_d128_bias_b1_none and mod_f16_d128_bias_h1); p1.tgz the same
# sources built from the database before.
#  1. run.py --quick on p2's bias kernels (odd shapes, GQA, strided, NaN/Inf);
#  2. memcheck and racecheck on two of the newly tuned kernels;
#  3. pair.py p2 against p1 on the four broadcast-bias kernels, N = 1024 /
#     4096 / 16384;
#  4. the broadcast biases' cost (against attn_*_d128_none / causal_tl, p2).
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/r2
source bench/device/probes/device_setup.sh 430
finish() { tar czf "$final/r2.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
timeout 90 python3 bench/device/run.py --artifacts /tmp/t/p2 --runtime $L --kernels 'mod_*bias*' \
  --out /tmp/p2-check --quick --no-isolate --kernel-timeout 60 > "$out/check-p2.log" 2>&1
echo "run.py --quick p2 bias: exit $?"; grep -E "FAILED|passed|FAIL" "$out/check-p2.log" | tail -4
for tool in memcheck racecheck; do
  timeout 60 compute-sanitizer --tool $tool --error-exitcode 3 \
    python3 bench/device/sanitize.py --artifacts /tmp/t/p2 --runtime $L \
    mod_bf16_d128_bias_b1_none,mod_f16_d128_bias_h1__n1024 > "$out/$tool.log" 2>&1
  echo "$tool: exit $?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|FAIL" "$out/$tool.log" | tail -2
done
echo "[$(( $(date +%s) - t0 )) s]"
p="mod_f16_d128_bias_b1=mod_f16_d128_bias_b1,mod_f16_d128_bias_b1h1=mod_f16_d128_bias_b1h1,mod_bf16_d128_bias_b1_none=mod_bf16_d128_bias_b1_none,mod_f16_d128_bias_h1=mod_f16_d128_bias_h1"
timeout 120 python3 bench/device/pair.py --artifacts /tmp/t/p2 --artifacts-b /tmp/t/p1 \
  --runtime $L --out "$out/pairs-tuned.json" --rounds 2 --ns 1024,4096,16384 --pairs "$p" > "$out/pairs-tuned.txt" 2>&1
echo "pairs (tuned / before): exit $?"; grep -E "A/B" "$out/pairs-tuned.txt" | cut -c1-100
echo "[$(( $(date +%s) - t0 )) s]"
p="mod_f16_d128_bias_b1h1=attn_f16_d128_none,mod_bf16_d128_bias_b1_none=attn_bf16_d128_none,mod_f16_d128_bias_h1=attn_f16_d128_none,mod_f16_d128_bias_b1=attn_f16_d128_causal_tl"
timeout $(( $(left) - 10 )) python3 bench/device/pair.py --artifacts /tmp/t/p2 --runtime $L \
  --out "$out/pairs-bias.json" --rounds 2 --ns 4096,16384 --pairs "$p" > "$out/pairs-bias.txt" 2>&1
echo "broadcast bias cost: exit $?"; grep -E "A/B|bias" "$out/pairs-bias.txt" | cut -c1-120
echo "[$(( $(date +%s) - t0 )) s] done"
