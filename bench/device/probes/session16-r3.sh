#!/usr/bin/env bash
# Sixteenth session, device run 3 (outputs in $OUT/r3.tgz): attn-prefetch-
# loads over the 4-byte pairs. p2.tgz is the build with the pass
# (build_artifacts.sh), p1.tgz the pairs without it (run 1's).
#  1. run.py --quick on p2's bias kernels and mod_bf16_d64_all;
#  2. pair.py p2 against p1 on them, N = 1024 / 4096 / 16384;
#  3. the bias's cost in p2 (mod_*_d128_bias against attn_*_d128_none).
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/r3
source bench/device/probes/device_setup.sh 300
finish() { tar czf "$final/r3.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
timeout 60 python3 bench/device/run.py --artifacts /tmp/t/p2 --runtime $L --kernels 'mod_*bias*,mod_bf16_d64_all' \
  --out /tmp/p2-check --quick --no-isolate --kernel-timeout 60 > "$out/check-p2.log" 2>&1
echo "run.py --quick p2: exit $?"; grep -E "FAILED|passed|FAIL" "$out/check-p2.log" | tail -4
p=""
for k in mod_f16_d128_bias mod_bf16_d128_bias mod_f16_d128_bias_b1 mod_f16_d128_bias_b1h1 mod_bf16_d64_all; do
  p="$p${p:+,}$k=$k"
done
timeout 90 python3 bench/device/pair.py --artifacts /tmp/t/p2 --artifacts-b /tmp/t/p1 \
  --runtime $L --out "$out/pairs-prefetch.json" --rounds 2 --ns 1024,4096,16384 --pairs "$p" > "$out/pairs-prefetch.txt" 2>&1
echo "pairs (prefetch / pairs): exit $?"; grep -E "A/B" "$out/pairs-prefetch.txt" | cut -c1-90
echo "[$(( $(date +%s) - t0 )) s]"
p="mod_f16_d128_bias=attn_f16_d128_none,mod_bf16_d128_bias=attn_bf16_d128_none"
timeout 60 python3 bench/device/pair.py --artifacts /tmp/t/p2 --runtime $L \
  --out "$out/pairs-bias.json" --rounds 2 --ns 4096,16384 --pairs "$p" > "$out/pairs-bias.txt" 2>&1
echo "bias cost: exit $?"; grep -E "A/B|bias" "$out/pairs-bias.txt" | cut -c1-110
echo "[$(( $(date +%s) - t0 )) s] done"
