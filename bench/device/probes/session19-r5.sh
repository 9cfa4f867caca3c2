#!/usr/bin/env bash
# Nineteenth session, device run 5 (outputs in $OUT/r5.tgz): the bias keys
# re-tuned with staged candidates (run 4) merged into the database, their
# TMA fallbacks on the heuristic's configuration (compileToGPU); b19n/ is
# build_artifacts.sh with that database, b19/ the build before (6da8c86).
#  1. run.py --quick on every kernel of b19n;
#  2. fallback_check.py on the bias kernels (the fallback runs where TMA
#     cannot copy the bias, the kernel elsewhere);
#  3. pair.py b19n / b19 on the eight bias kernels, N = 1024 / 4096 / 16384;
#  4. the bias's cost against the kernels without it (b19n), N = 4096 / 16384;
#  5. memcheck and racecheck on two re-tuned bias kernels.
# Packs: .device/pack/b19n.tgz, b19.tgz.
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/r5
source bench/device/probes/device_setup.sh 500
finish() { tar czf "$final/r5.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
timeout 150 python3 bench/device/run.py --artifacts /tmp/t/b19n --runtime $L --kernels '*' \
  --out /tmp/b19n-check --quick --no-isolate --kernel-timeout 60 > "$out/check.log" 2>&1
echo "run.py --quick all kernels: exit $?"; grep -E "FAIL" "$out/check.log" | cut -c1-160 | head; tail -3 "$out/check.log" | cut -c1-200
echo "[$(( $(date +%s) - t0 )) s]"
K=mod_f16_d128_bias,mod_bf16_d128_bias,mod_f16_d128_bias_b1,mod_f16_d128_bias_causal_tl,mod_bf16_d128_bias_causal_br,mod_f16_d128_bias_b1h1,mod_bf16_d128_bias_b1_none,mod_f16_d128_bias_h1
timeout 100 python3 bench/device/probes/fallback_check.py --artifacts /tmp/t/b19n --runtime $L $K > "$out/fallback.log" 2>&1
echo "fallback_check: exit $?"; grep -c "^ok" "$out/fallback.log"; grep -v "^ok" "$out/fallback.log" | cut -c1-200 | head
echo "[$(( $(date +%s) - t0 )) s]"
p=""
for k in ${K//,/ }; do p="$p${p:+,}$k=$k"; done
timeout 150 python3 bench/device/pair.py --artifacts /tmp/t/b19n --artifacts-b /tmp/t/b19 \
  --runtime $L --out "$out/pairs-retuned.json" --rounds 2 --ns 1024,4096,16384 --pairs "$p" > "$out/pairs-retuned.txt" 2>&1
echo "re-tuned / before: exit $?"; grep -E "A/B" "$out/pairs-retuned.txt" | cut -c1-100
echo "[$(( $(date +%s) - t0 )) s]"
p="mod_f16_d128_bias=attn_f16_d128_none,mod_bf16_d128_bias=attn_bf16_d128_none,mod_f16_d128_bias_h1=attn_f16_d128_none,mod_f16_d128_bias_b1h1=attn_f16_d128_none"
timeout 80 python3 bench/device/pair.py --artifacts /tmp/t/b19n --runtime $L \
  --out "$out/pairs-bias-cost.json" --rounds 2 --ns 4096,16384 --pairs "$p" > "$out/pairs-bias-cost.txt" 2>&1
echo "bias cost: exit $?"; grep -E "A/B|bias" "$out/pairs-bias-cost.txt" | cut -c1-170
echo "[$(( $(date +%s) - t0 )) s]"
for tool in memcheck racecheck; do
  timeout 60 compute-sanitizer --tool $tool --error-exitcode 3 \
    python3 bench/device/sanitize.py --artifacts /tmp/t/b19n --runtime $L mod_f16_d128_bias_h1,mod_bf16_d128_bias_causal_br > "$out/$tool.log" 2>&1
  echo "$tool: exit $?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|^FAIL" "$out/$tool.log" | cut -c1-140 | tail -4
done
echo "[$(( $(date +%s) - t0 )) s] done"
