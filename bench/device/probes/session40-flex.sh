#!/usr/bin/env bash
# Fortieth session, second call: issue 8's score modifications next to
# FlexAttention on the H200 with today's build (c5430fc's kernels; the
# last FlexAttention figures of these kernels were an H100's): run.py full
# mode (checked, then timed with cuDNN, FlashAttention-2 and
# torch.compile(flex_attention) with the same score_mod, compiled and
# warmed before timing) on the f16 and bf16 softcap kernels and the f16
# full and [1, 1] bias kernels, D = 128.
# Pack: full. Carry .device/pack, .device/include.
# usage: session40-flex.sh [LIMIT_S]
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/flex
source bench/device/probes/device_setup.sh ${1:-300}
finish() { tar czf "$final/flex.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/flex-summary.txt" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
timeout $(( $(left) - 10 )) python3 bench/device/run.py --artifacts /tmp/t/full --runtime $L --out "$out/mods" \
  --commit c5430fc --no-isolate --kernel-timeout 100 \
  --kernels 'mod_f16_d128_softcap,mod_bf16_d128_softcap,mod_f16_d128_bias,mod_f16_d128_bias_b1h1' > "$out/mods.log" 2>&1
stamp "mods full mode: exit $?"; grep -E "^\[|passed|flex" "$out/mods.log" | tail -20 | cut -c1-200
[ -f "$out/mods/results.json" ] && python3 bench/device/make_table.py "$out/mods/results.json" > "$out/mods-table.md" && grep -A12 -i "flex" "$out/mods-table.md" | head -30
stamp done
