#!/usr/bin/env bash
# Forty-fifth session, sixth call for the broadcast bias: does the bias
# kernel's shared-memory footprint cost by itself? Pack c112s: c112_f16
# (the bias kernel's configuration without a bias, pack c112) with its
# JSON's shared_bytes raised from its own 182272 to the bias kernel's
# 206848, so that the runtime launches it with as much dynamic shared
# memory (and as little L1 left) as the bias kernel, none of it used.
# Also c112n_f16: the same configuration without stage_stores (149504
# bytes), since the bias kernel's staged output does not fit beside its
# bias stages and it stores O from registers. Both against c112_f16,
# randn, 5 rounds, N = 4096 / 16384.
# Carry .device/pack (c112, c112s), .device/include.
# usage: session45-c112s.sh [LIMIT_S]
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/c112s
source bench/device/probes/device_setup.sh ${1:-60}
finish() { cp "$out"/*.json "$out/summary.txt" "$final/" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
timeout $(( $(left) - 3 )) python3 bench/device/pair.py --artifacts /tmp/t/c112s --artifacts-b /tmp/t/c112 --runtime $L \
  --out "$out/c112s.json" --rounds 5 --ns 4096,16384 --pairs c112_f16=c112_f16,c112n_f16=c112_f16 > "$out/c112s.txt" 2>&1
stamp "206848 bytes / its own; no stage_stores / with: exit $?"; grep -E " vs |A/B" "$out/c112s.txt" | cut -c1-120
stamp done
