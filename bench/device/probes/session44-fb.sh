#!/usr/bin/env bash
# Forty-fourth session, timing only: how fast the f16 D = 128 softcap
# kernel would be without its running maximum. Pack `fb`: today's
# mod_f16_d128_softcap compiled with softmaxMaxBound() temporarily
# accepting f16 (attn-tile's max_bound, as bf16 has: a fixed reference,
# no row maximum, no rescale), same 192 x 80 configuration, 0 spills.
# Its O is wrong for ordinary rows (every p below 2^-24 underflows in f16
# P): it is a bound on what a speculative reference could reach, not a
# kernel. Timed against the original and the plain kernel, and the bf16
# softcap against its plain kernel, in one run (5 rounds).
# Build: patch softmaxMaxBound's type test to accept f16, then
#   build/bin/attn-compile .device/full/src/mod_f16_d128_softcap.mlir \
#     --chip=sm_90a --cubin -o .device/fb
#   cp .device/full/mod_f16_d128_softcap.harness.json .device/fb/
#   tar czf .device/pack/fb.tgz -C .device fb
# Carry .device/pack (with full.tgz), .device/include.
# usage: session44-fb.sh [LIMIT_S]
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/fb
source bench/device/probes/device_setup.sh ${1:-150}
finish() { cp "$out"/*.json "$out/summary.txt" "$final/" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
timeout $(( $(left) - 60 )) python3 bench/device/pair.py --artifacts /tmp/t/fb --artifacts-b /tmp/t/full --runtime $L \
  --out "$out/fb.json" --rounds 5 --ns 4096,16384 \
  --pairs mod_f16_d128_softcap=mod_f16_d128_softcap,mod_f16_d128_softcap=attn_f16_d128_none > "$out/fb.txt" 2>&1
stamp "bounded f16 vs original, vs plain: exit $?"; grep -E " vs |A/B" "$out/fb.txt" | cut -c1-110
timeout $(( $(left) - 5 )) python3 bench/device/pair.py --artifacts /tmp/t/full --runtime $L \
  --out "$out/base.json" --rounds 5 --ns 4096,16384 \
  --pairs mod_f16_d128_softcap=attn_f16_d128_none,mod_bf16_d128_softcap=attn_bf16_d128_none > "$out/base.txt" 2>&1
stamp "originals vs plain: exit $?"; grep -E " vs |A/B" "$out/base.txt" | cut -c1-110
stamp done
