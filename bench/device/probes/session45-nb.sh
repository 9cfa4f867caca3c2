#!/usr/bin/env bash
# Forty-fifth session: the bound of moving the broadcast bias's per-score
# work off the consumers. Pack nb: the default f16 D = 128 [1, 1, N, N]
# bias kernel (mod_f16_d128_bias_b1h1 of the full pack) with its main
# kernel's PTX rewritten by bias_noconsumer_ptx.py (the bias still staged
# through shared memory by TMA, nothing added to the scores) and assembled
# here with ptxas -arch=sm_90a -O3 (168 registers, no spill, as the
# original). Timing only (its O is attention without the bias): against
# the original bias kernel and the plain kernel, randn inputs, 5 rounds,
# N = 4096 / 16384 (the main kernel; shorter rows dispatch to variants
# that are not rewritten).
# Build: mkdir .device/nb; cp .device/full/mod_f16_d128_bias_b1h1* .device/nb/;
#   bias_noconsumer_ptx.py the main PTX, ptxas it into the main cubin;
#   tar czf .device/pack/nb.tgz -C .device nb
# Carry .device/pack (full.tgz, nb.tgz), .device/include.
# usage: session45-nb.sh [LIMIT_S]
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/nb45
source bench/device/probes/device_setup.sh ${1:-120}
finish() { cp "$out"/*.json "$out/summary.txt" "$final/" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
K=mod_f16_d128_bias_b1h1
timeout $(( $(left) - 5 )) python3 bench/device/pair.py --artifacts /tmp/t/nb --artifacts-b /tmp/t/full --runtime $L \
  --out "$out/nb.json" --rounds 5 --ns 4096,16384 \
  --pairs $K=$K,$K=attn_f16_d128_none > "$out/nb.txt" 2>&1
stamp "nb vs the bias kernel, vs plain: exit $?"; grep -E " vs |A/B" "$out/nb.txt" | cut -c1-120
stamp done
