#!/usr/bin/env bash
# Forty-fifth session, second call for the broadcast bias: where the
# no-consumer-work kernel of session45-nb.sh loses its 13-16% against the
# plain kernel. Pack c112 (build_variants.sh .device/c112, three plain f16
# D = 128 kernels without a bias, lines below): the bias kernel's
# configuration (128 x 112, group_m = 16), the same without group_m, and
# the plain default's 128 x 192 (its PTX is the full pack's
# attn_f16_d128_none main kernel, identical). Randn inputs, 5 rounds,
# N = 4096 / 16384.
#   c112_f16  ... block_n = 112 ...; ... stage_stores = true, group_m = 16
#   c112g_f16 ... block_n = 112 ...; ... stage_stores = true
#   c192_f16  ... block_n = 192 ...; ... stage_stores = true
# (all: block_m = 128, warps = 8, stages = 2; lazy_rescale, wgmma,
# overlap_softmax, warp_specialize, persistent, rescale_slack = 8,
# async_pv). Carry .device/pack (c112.tgz, nb.tgz), .device/include.
# usage: session45-nb2.sh [LIMIT_S]
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/nb2
source bench/device/probes/device_setup.sh ${1:-120}
finish() { cp "$out"/*.json "$out/summary.txt" "$final/" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
timeout $(( $(left) / 2 )) python3 bench/device/pair.py --artifacts /tmp/t/c112 --runtime $L \
  --out "$out/tiles.json" --rounds 5 --ns 4096,16384 \
  --pairs c112_f16=c192_f16,c112g_f16=c192_f16 > "$out/tiles.txt" 2>&1
stamp "the bias kernel's tile without a bias: exit $?"; grep -E " vs |A/B" "$out/tiles.txt" | cut -c1-110
timeout $(( $(left) - 5 )) python3 bench/device/pair.py --artifacts /tmp/t/nb --artifacts-b /tmp/t/c112 --runtime $L \
  --out "$out/staging.json" --rounds 5 --ns 4096,16384 \
  --pairs mod_f16_d128_bias_b1h1=c112_f16 > "$out/staging.txt" 2>&1
stamp "the staging with no consumer work, against the same tile: exit $?"; grep -E " vs |A/B" "$out/staging.txt" | cut -c1-120
stamp done
