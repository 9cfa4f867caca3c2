#!/usr/bin/env bash
# Forty-sixth session: accumulate_bias measured no faster than the default
# bias kernel (session46-acc.sh: 0.975 / 1.002 / 0.970 at N = 2048 / 4096 /
# 16384, H100). There block j + 1's tile is read and converted between the
# softmax and the product's issue (async_pv), on the path to both
# products' issue. With early_qk block j + 1's product is issued before
# block j's softmax instead. Pack acceq: the acc configuration plus
# early_qk (8 bytes spilled); pack eqoff: the same without accumulate_bias
# (24 bytes spilled). Both attn-compile --cubin
# --no-length-dispatch, main kernel at every length.
#  1. run.py --quick on acceq;
#  2. timing, 5 rounds, N = 4096 / 16384: acceq / original default,
#     acceq / eqoff.
# Carry .device/pack (full.tgz, acceq.tgz, eqoff.tgz), .device/include.
# usage: session46-eq.sh [LIMIT_S]
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/eq46
source bench/device/probes/device_setup.sh ${1:-150}
finish() { cp "$out"/*.json "$out"/*.txt "$final/" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
K=mod_f16_d128_bias_b1h1
timeout 60 python3 bench/device/run.py --artifacts /tmp/t/acceq --runtime $L --out "$out/quick-acceq" --quick \
  --no-isolate --kernels "$K*" > "$out/quick-acceq.txt" 2>&1
stamp "run.py --quick (acceq): exit $?"; grep -E "FAIL|passed|error" "$out/quick-acceq.txt" | cut -c1-200 | tail -6
timeout $(( $(left) / 2 )) python3 bench/device/pair.py --artifacts /tmp/t/acceq --artifacts-b /tmp/t/full --runtime $L \
  --out "$out/acceq-orig.json" --rounds 5 --ns 4096,16384 --pairs $K=$K > "$out/acceq-orig.txt" 2>&1
stamp "acceq / original: exit $?"; grep -E " vs |A/B" "$out/acceq-orig.txt" | cut -c1-120
timeout $(( $(left) - 5 )) python3 bench/device/pair.py --artifacts /tmp/t/acceq --artifacts-b /tmp/t/eqoff --runtime $L \
  --out "$out/acceq-eqoff.json" --rounds 5 --ns 4096,16384 --pairs $K=$K > "$out/acceq-eqoff.txt" 2>&1
stamp "acceq / eqoff: exit $?"; grep -E " vs |A/B" "$out/acceq-eqoff.txt" | cut -c1-120
stamp done
