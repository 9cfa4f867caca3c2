#!/usr/bin/env bash
# Fifty-first session's call.
#  1. session48-torch.sh: torch_op_check.py with key-padding masks (a
#     row broadcast; first call: read through a row stride of 0, second:
#     written out in one pass), in this tree, not yet committed (100 s);
#  2. keypad_time.py: that key-padding mask timed against the old path
#     (written out in full), no mask and SDPA's backends (100 s);
#  3. on an H200 only (the H100 had both in the fiftieth session):
#     session45-h200-lean.sh at N = 4096 / 16384 on the full pack (the whole
#     build, run.py --quick, then against cuDNN), and clock_probe.py (the
#     softcap against plain under sustained load).
# Carry .device/pack (full.tgz, torchart.tgz), .device/include.
# Writes $OUT/torch, $OUT/keypad, $OUT/h200, $OUT/clock.
set -uo pipefail
top=${OUT:-/tmp/out}
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader
card=h100; nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && card=h200
mkdir -p "$top/torch" "$top/keypad"
OUT=$top/torch bash bench/device/probes/session48-torch.sh 100
ATTN_RUNTIME_LIBRARY=/tmp/brt/libattn_runtime.so ATTN_ARTIFACTS=/tmp/t/torchart \
  ATTN_CACHE_DIR=/tmp/attn-cache timeout 100 python3 bench/device/probes/keypad_time.py \
  "$top/keypad/keypad.json" 2>&1 | tee "$top/keypad/keypad.txt"
echo "keypad_time: exit ${PIPESTATUS[0]}"
[ $card = h200 ] || exit 0
mkdir -p "$top/h200" "$top/clock"
OUT=$top/h200 NS=4096,16384 bash bench/device/probes/session45-h200-lean.sh 200 f998dda
[ "${CLOCK:-1}" = 0 ] && exit 0  # a small budget: the clock probe skipped
timeout 150 python3 bench/device/probes/clock_probe.py --artifacts /tmp/t/full \
  --runtime /tmp/brt/libattn_runtime.so --out "$top/clock/clock.json" --ns 4096,16384 \
  --pairs mod_f16_d128_softcap=attn_f16_d128_none,mod_bf16_d128_softcap=attn_bf16_d128_none \
  2>&1 | tee "$top/clock/clock.txt"
echo "clock_probe: exit ${PIPESTATUS[0]}"
