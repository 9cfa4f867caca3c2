#!/usr/bin/env bash
# Eighteenth session, device run 7 (outputs in $OUT/r7.tgz): the default
# build with the bias staged and its TMA fallback (p7.tgz:
# `bash bench/device/build_artifacts.sh DIR sm_90a`, the D = 128 bias
# kernels each with <kernel>__unstaged beside it).
#  1. fallback_check.py on the eight D = 128 bias kernels: aligned Nk runs
#     the kernel, Nk = 77 / 4097 / 130 its fallback (last_variant,
#     last_fallback), every point against the fp32 reference;
#  2. run.py --quick on every bias kernel (the whole correctness matrix);
#  3. memcheck and racecheck (sanitize.py: odd shapes, the fallback; many
#     tiles with Nk = 200, the kernel);
#  4. pair.py kernel / its fallback (the previous default, unstaged) at
#     N = 1024 / 4096 / 16384 on four of them.
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/r7
source bench/device/probes/device_setup.sh 540
finish() { tar czf "$final/r7.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
K=mod_f16_d128_bias,mod_bf16_d128_bias,mod_f16_d128_bias_b1,mod_f16_d128_bias_causal_tl,mod_bf16_d128_bias_causal_br,mod_f16_d128_bias_b1h1,mod_bf16_d128_bias_b1_none,mod_f16_d128_bias_h1
timeout 120 python3 bench/device/probes/fallback_check.py --artifacts /tmp/t/p7 --runtime $L $K > "$out/fallback.log" 2>&1
echo "fallback_check: exit $?"; grep -c "^ok" "$out/fallback.log"; grep -v "^ok" "$out/fallback.log" | cut -c1-200 | head; grep -m3 "__unstaged" "$out/fallback.log" | cut -c1-220
echo "[$(( $(date +%s) - t0 )) s]"
timeout 150 python3 bench/device/run.py --artifacts /tmp/t/p7 --runtime $L --kernels 'mod_*bias*' \
  --out /tmp/p7-check --quick --no-isolate --kernel-timeout 60 > "$out/check.log" 2>&1
echo "run.py --quick bias kernels: exit $?"; grep -E "FAIL" "$out/check.log" | cut -c1-160 | head; grep -cE "^ +ok" "$out/check.log"
echo "[$(( $(date +%s) - t0 )) s]"
for tool in memcheck racecheck; do
  timeout 70 compute-sanitizer --tool $tool --error-exitcode 3 \
    python3 bench/device/sanitize.py --artifacts /tmp/t/p7 --runtime $L mod_f16_d128_bias,mod_bf16_d128_bias_b1_none > "$out/$tool.log" 2>&1
  echo "$tool: exit $?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|^FAIL" "$out/$tool.log" | cut -c1-140 | tail -4
done
echo "[$(( $(date +%s) - t0 )) s]"
p="mod_f16_d128_bias=mod_f16_d128_bias__unstaged,mod_f16_d128_bias_b1h1=mod_f16_d128_bias_b1h1__unstaged,mod_bf16_d128_bias_causal_br=mod_bf16_d128_bias_causal_br__unstaged,mod_f16_d128_bias_h1=mod_f16_d128_bias_h1__unstaged"
timeout $(( $(left) - 10 )) python3 bench/device/pair.py --artifacts /tmp/t/p7 --runtime $L \
  --out "$out/pairs-default.json" --rounds 2 --ns 1024,4096,16384 --pairs "$p" > "$out/pairs-default.txt" 2>&1
echo "pairs (default staged / its fallback): exit $?"; grep -E "A/B" "$out/pairs-default.txt" | cut -c1-100
echo "[$(( $(date +%s) - t0 )) s] done"
