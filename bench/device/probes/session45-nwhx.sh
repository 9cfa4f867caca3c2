#!/usr/bin/env bash
# Forty-fifth session, fifth call for the broadcast bias: what in the
# bias's copies costs. Both variants start from pack nw (no consumer work,
# no consumer wait on the bias; session45-nw.sh):
#   nwh: the bias's TMA box halved in the kernel's JSON (64 of 128 rows a
#        copy) and its expect_tx made 14336 bytes: half the bytes, the same
#        barriers and producer order;
#   nwx: the bias's cp.async.bulk.tensor deleted from the producer and its
#        expect_tx made a plain arrive: the barriers and the producer's
#        waits without the bytes.
# (A first try left the expect_tx at 28672 bytes: the barriers' pending
# transaction counts then grew every block and both kernels faulted,
# "unspecified launch failure".)
# Each against the bias kernel's tile without a bias (c112_f16). Randn,
# 5 rounds, N = 4096 / 16384. Carry .device/pack (nwhx, c112), .device/include.
# usage: session45-nwhx.sh [LIMIT_S]
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/nwhx
source bench/device/probes/device_setup.sh ${1:-120}
finish() { cp "$out"/*.json "$out/summary.txt" "$final/" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
K=mod_f16_d128_bias_b1h1
for v in nwh nwx; do
  timeout $(( $(left) / 2 - 3 )) python3 bench/device/pair.py --artifacts /tmp/t/$v --artifacts-b /tmp/t/c112 --runtime $L \
    --out "$out/$v-c112.json" --rounds 5 --ns 4096,16384 --pairs $K=c112_f16 > "$out/$v-c112.txt" 2>&1
  stamp "$v / same tile without a bias: exit $?"; grep -E " vs |A/B" "$out/$v-c112.txt" | cut -c1-120
done
stamp done
