#!/usr/bin/env bash
# Forty-eighth session: what halving the bias's bytes buys the default
# bias kernel itself, the bound on a two-CTA cluster sharing each bias
# tile by TMA multicast (built nowhere yet). Pack fh: the default f16
# [1, 1, N, N] bias kernel with the bias's TMA box halved (64 of 128 rows
# a copy) and its expect_tx 14336 bytes; everything else, the consumers'
# reads of the whole tile included, unchanged (timing only: O is wrong).
# The forty-fifth session's nwh did the same on the kernel without the
# consumers' bias work (nwh / nw 1.028 / 1.076). Built by
#   python3 bench/device/probes/half_bias_box.py .device/full .device/fh mod_f16_d128_bias_b1h1
#   tar czf .device/pack/fh.tgz -C .device fh
# Timing, 5 rounds, N = 4096 / 16384: fh / full.
# Carry .device/pack (full.tgz, fh.tgz), .device/include.
# usage: session48-fh.sh [LIMIT_S]
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/fh48
source bench/device/probes/device_setup.sh ${1:-70}
finish() { cp "$out"/*.json "$out"/*.txt "$final/" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
K=mod_f16_d128_bias_b1h1
timeout $(( $(left) - 5 )) python3 bench/device/pair.py --artifacts /tmp/t/fh --artifacts-b /tmp/t/full --runtime $L \
  --out "$out/fh-full.json" --rounds 5 --ns 4096,16384 --pairs $K=$K > "$out/fh-full.txt" 2>&1
stamp "fh / full: exit $?"; grep -E "A/B" "$out/fh-full.txt" | cut -c1-120
stamp done
