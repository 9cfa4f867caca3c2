#!/usr/bin/env bash
# Fifteenth session, device run 4 (outputs in $OUT/r4.tgz): attn-prefetch-loads
# (the bias tile loaded one iteration ahead). .device/pack/c1.tgz is the
# build with the pass (build_artifacts.sh, 43 kernels), b1.tgz the one
# before it (run 2's).
#  1. run.py --quick on c1's changed kernels (the bias kernels and mod_bf16_d64_all);
#  2. pair.py c1 against b1 on them, N = 1024 / 4096 / 16384;
#  3. the bias's cost: mod_*_d128_bias against attn_*_d128_none (c1).
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/r4
source bench/device/probes/device_setup.sh 280
finish() { tar czf "$final/r4.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
timeout 90 python3 bench/device/run.py --artifacts /tmp/t/c1 --runtime $L --kernels 'mod_*bias*,mod_bf16_d64_all' \
  --out /tmp/c1-check --quick --no-isolate --kernel-timeout 60 > "$out/check-c1.log" 2>&1
echo "run.py --quick c1: exit $?"; grep -E "FAILED|passed|FAIL" "$out/check-c1.log" | tail -4
echo "[$(( $(date +%s) - t0 )) s]"
p=""
for k in mod_f16_d128_bias mod_bf16_d128_bias mod_f16_d128_bias_b1 mod_f16_d128_bias_b1h1 mod_bf16_d64_all; do
  p="$p${p:+,}$k=$k"
done
timeout 90 python3 bench/device/pair.py --artifacts /tmp/t/c1 --artifacts-b /tmp/t/b1 \
  --runtime $L --out "$out/pairs-prefetch.json" --rounds 2 --ns 1024,4096,16384 --pairs "$p" > "$out/pairs-prefetch.txt" 2>&1
echo "pairs (prefetch / before): exit $?"; grep -E "A/B" "$out/pairs-prefetch.txt" | cut -c1-90
echo "[$(( $(date +%s) - t0 )) s]"
p="mod_f16_d128_bias=attn_f16_d128_none,mod_bf16_d128_bias=attn_bf16_d128_none"
timeout $(( $(left) - 10 )) python3 bench/device/pair.py --artifacts /tmp/t/c1 --runtime $L \
  --out "$out/pairs-bias.json" --rounds 2 --ns 4096,16384 --pairs "$p" > "$out/pairs-bias.txt" 2>&1
echo "bias cost: exit $?"; grep -E "A/B" "$out/pairs-bias.txt" | cut -c1-90
echo "[$(( $(date +%s) - t0 )) s] done"
