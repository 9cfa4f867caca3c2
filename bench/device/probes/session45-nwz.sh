#!/usr/bin/env bash
# Forty-fifth session, seventh call for the broadcast bias: the third
# ring's protocol against the one FMUL a score. Pack nwz: nwx (pack nwhx:
# no bias bytes, no consumer work or waits; session45-nwhx.sh) with the
# bias ring's barrier traffic deleted as well (the producer's wait on the
# bias's empty barrier, its arrival on the full one, the consumers'
# arrivals on the empty one; ptxas -arch=sm_90a -O3: 168 registers, no
# spill). What is left of the bias is the scores' multiply by the scale
# (one FMUL a score, where the plain kernel folds the scale into its
# exponential's FMA) and dead address arithmetic. nwz against c112_f16 (the
# same tile without a bias) and nwx against nwz. Randn, 5 rounds,
# N = 4096 / 16384. Carry .device/pack (nwz, nwhx, c112), .device/include.
# usage: session45-nwz.sh [LIMIT_S]
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/nwz
source bench/device/probes/device_setup.sh ${1:-80}
finish() { cp "$out"/*.json "$out/summary.txt" "$final/" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
K=mod_f16_d128_bias_b1h1
timeout $(( $(left) / 2 - 3 )) python3 bench/device/pair.py --artifacts /tmp/t/nwz --artifacts-b /tmp/t/c112 --runtime $L \
  --out "$out/nwz-c112.json" --rounds 5 --ns 4096,16384 --pairs $K=c112_f16 > "$out/nwz-c112.txt" 2>&1
stamp "nwz / same tile without a bias: exit $?"; grep -E " vs |A/B" "$out/nwz-c112.txt" | cut -c1-120
timeout $(( $(left) - 3 )) python3 bench/device/pair.py --artifacts /tmp/t/nwx --artifacts-b /tmp/t/nwz --runtime $L \
  --out "$out/nwx-nwz.json" --rounds 5 --ns 4096,16384 --pairs $K=$K > "$out/nwx-nwz.txt" 2>&1
stamp "nwx / nwz: exit $?"; grep -E " vs |A/B" "$out/nwx-nwz.txt" | cut -c1-120
stamp done
