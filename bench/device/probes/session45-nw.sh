#!/usr/bin/env bash
# Forty-fifth session, fourth call for the broadcast bias: the
# no-consumer-work kernel (pack nb, session45-nb.sh) against the same with
# the consumers' wait for each staged bias tile deleted too (pack nw,
# bias_nowait_ptx.py on nb's main PTX, ptxas -arch=sm_90a -O3: 168
# registers, no spill), and nw against the bias kernel's tile without a
# bias (c112_f16, pack c112). Randn inputs, 5 rounds, N = 4096 / 16384.
# If nw runs at c112's speed, the staging costs the consumers' wait for a
# tile that arrives late; if not, the copies themselves cost it.
# Carry .device/pack (nb, nw, c112), .device/include.
# usage: session45-nw.sh [LIMIT_S]
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/nw45
source bench/device/probes/device_setup.sh ${1:-120}
finish() { cp "$out"/*.json "$out/summary.txt" "$final/" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
K=mod_f16_d128_bias_b1h1
timeout $(( $(left) / 2 )) python3 bench/device/pair.py --artifacts /tmp/t/nw --artifacts-b /tmp/t/nb --runtime $L \
  --out "$out/nw-nb.json" --rounds 5 --ns 4096,16384 --pairs $K=$K > "$out/nw-nb.txt" 2>&1
stamp "no wait / no consumer work: exit $?"; grep -E " vs |A/B" "$out/nw-nb.txt" | cut -c1-110
timeout $(( $(left) - 5 )) python3 bench/device/pair.py --artifacts /tmp/t/nw --artifacts-b /tmp/t/c112 --runtime $L \
  --out "$out/nw-c112.json" --rounds 5 --ns 4096,16384 --pairs $K=c112_f16 > "$out/nw-c112.txt" 2>&1
stamp "no wait / same tile without a bias: exit $?"; grep -E " vs |A/B" "$out/nw-c112.txt" | cut -c1-120
stamp done
