#!/usr/bin/env bash
# Eighth session, third device run: the guarded next-block product as one
# branch over its wgmma (h_*, bench/device/build_variants.sh .device/r3 <
# guard-variants.txt with the X_ prefix made h_) against the same kernels
# without the guard (g_* of .device/r2), interleaved (pair.py), after a
# correctness check of the h_* kernels (run.py --quick).
# usage (device): ATTN_ARTIFACTS=.device/r3 bash bench/device/probes/session8-r3.sh
set -uo pipefail
out=${OUT:-/tmp/out}; mkdir -p "$out"
A=${ATTN_ARTIFACTS:-.device/r3}
bash bench/device/build_runtime.sh /tmp/brt > "$out/build-runtime.txt" 2>&1 || { tail -20 "$out/build-runtime.txt"; exit 2; }
L=/tmp/brt/libattn_runtime.so
export PYTHONUNBUFFERED=1
timeout 150 python3 bench/device/run.py --artifacts "$A" --runtime $L --out "$out/r3" \
  --quick --no-isolate --kernel-timeout 60 --kernels 'h_*' > "$out/run.txt" 2>&1
echo "run.py: exit $?"; grep -E "FAIL|fail|passed|kernels" "$out/run.txt" | tail -10
PAIRS="h_f16_d128_none=g_f16_d128_none,h_bf16_d128_none=g_bf16_d128_none,h_f16_d128_cbr_p=g_f16_d128_cbr_p"
PAIRS+=",h_f16_d128_cbr=g_f16_d128_cbr,h_bf16_d128_ctl=g_bf16_d128_ctl,h_f16_d128_softcap=g_f16_d128_softcap"
PAIRS+=",g_f16_d128_none=g_f16_d128_none"
timeout 200 python3 bench/device/pair.py --artifacts "$A" --runtime $L --out "$out/pairs.json" \
  --rounds 4 --pairs "$PAIRS" > "$out/pairs.txt" 2>&1
echo "pair.py: exit $?"; cat "$out/pairs.txt"
