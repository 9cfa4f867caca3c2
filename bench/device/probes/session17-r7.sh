#!/usr/bin/env bash
# Seventeenth session, device run 7 (outputs in $OUT/r7.tgz): the final
# build (p3.tgz: build_artifacts.sh at 322d928, the broadcast-bias keys and
# the contracted scale + bias) in full mode on four bias kernels (full,
# [1, 1, N, N], [1, H, N, N], [B, 1, N, N]; FlexAttention with the same
# bias at N = 4096), and the bias's cost against the kernels without it.
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/r7
source bench/device/probes/device_setup.sh 420
finish() { tar czf "$final/r7.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
p="mod_f16_d128_bias=attn_f16_d128_none,mod_f16_d128_bias_b1h1=attn_f16_d128_none,mod_bf16_d128_bias_b1_none=attn_bf16_d128_none,mod_f16_d128_bias_h1=attn_f16_d128_none"
timeout 100 python3 bench/device/pair.py --artifacts /tmp/t/p3 --runtime $L \
  --out "$out/pairs-bias.json" --rounds 2 --ns 4096,16384 --pairs "$p" > "$out/pairs-bias.txt" 2>&1
echo "bias cost: exit $?"; grep -E "A/B|bias" "$out/pairs-bias.txt" | cut -c1-160
echo "[$(( $(date +%s) - t0 )) s]"
timeout $(( $(left) - 10 )) python3 bench/device/run.py --artifacts /tmp/t/p3 --runtime $L \
  --kernels 'mod_f16_d128_bias,mod_f16_d128_bias_b1h1,mod_bf16_d128_bias_b1_none,mod_f16_d128_bias_h1' \
  --out "$out/full-bias" --no-isolate --kernel-timeout 90 > "$out/full-bias.log" 2>&1
echo "run.py full mode (bias): exit $?"; grep -E "timing N|FAIL|passed|flex" "$out/full-bias.log" | tail -12
echo "[$(( $(date +%s) - t0 )) s] done"
