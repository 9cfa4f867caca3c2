#!/usr/bin/env bash
# Forty-fourth session, third call: the pair session44-fb2.sh left out,
# the original f16 softcap against the plain kernel on the same scaled
# queries (q x 16), beside fb against both, in one run (7 rounds).
# Carry .device/pack (full.tgz, fb.tgz), .device/include.
# usage: session44-fb3.sh [LIMIT_S]
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/fb3
source bench/device/probes/device_setup.sh ${1:-120}
finish() { cp "$out"/*.json "$out/summary.txt" "$final/" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
timeout $(( $(left) / 2 )) python3 bench/device/pair.py --artifacts /tmp/t/full --runtime $L \
  --out "$out/orig-q16.json" --rounds 7 --ns 4096,16384 --q-scale 16 \
  --pairs mod_f16_d128_softcap=attn_f16_d128_none,mod_bf16_d128_softcap=attn_bf16_d128_none > "$out/orig-q16.txt" 2>&1
stamp "q x 16: originals vs plain: exit $?"; grep -E " vs |A/B" "$out/orig-q16.txt" | cut -c1-110
timeout $(( $(left) - 5 )) python3 bench/device/pair.py --artifacts /tmp/t/fb --artifacts-b /tmp/t/full --runtime $L \
  --out "$out/fb-q16.json" --rounds 7 --ns 4096,16384 --q-scale 16 \
  --pairs mod_f16_d128_softcap=mod_f16_d128_softcap,mod_f16_d128_softcap=attn_f16_d128_none > "$out/fb-q16.txt" 2>&1
stamp "q x 16: fb vs original, vs plain: exit $?"; grep -E " vs |A/B" "$out/fb-q16.txt" | cut -c1-110
stamp done
