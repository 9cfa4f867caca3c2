#!/usr/bin/env bash
# One probe run on the device: build the runtime, check every kernel of
# ATTN_ARTIFACTS matching KERNELS (run.py --quick: correctness only), then
# time the pairs in PAIRS (A=B,...; pair.py, interleaved, 4 rounds).
# STEPS (default "check pairs") picks either. Results under $OUT.
# usage (device): ATTN_ARTIFACTS=DIR PAIRS=... [KERNELS=glob] [STEPS=...]
#                 bash bench/device/probes/check_and_pair.sh
set -uo pipefail
out=${OUT:-/tmp/out}; mkdir -p "$out"
A=${ATTN_ARTIFACTS:?set ATTN_ARTIFACTS}
steps=${STEPS:-check pairs}
bash bench/device/build_runtime.sh /tmp/brt > "$out/build-runtime.txt" 2>&1 || { tail -20 "$out/build-runtime.txt"; exit 2; }
L=/tmp/brt/libattn_runtime.so
export PYTHONUNBUFFERED=1
if [[ $steps == *check* ]]; then
  timeout "${CHECK_TIMEOUT:-150}" python3 bench/device/run.py --artifacts "$A" --runtime $L \
    --out "$out/check" --quick --no-isolate --kernel-timeout 60 ${KERNELS:+--kernels "$KERNELS"} \
    > "$out/run.txt" 2>&1
  echo "run.py: exit $?"; grep -E "FAIL|fail|passed|kernels" "$out/run.txt" | tail -10
fi
if [[ $steps == *pairs* ]]; then
  timeout "${PAIRS_TIMEOUT:-200}" python3 bench/device/pair.py --artifacts "$A" --runtime $L \
    --out "$out/pairs.json" --rounds 4 --pairs "${PAIRS:?set PAIRS}" > "$out/pairs.txt" 2>&1
  echo "pair.py: exit $?"; cat "$out/pairs.txt"
fi
