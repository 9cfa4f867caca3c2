#!/usr/bin/env bash
# Prepared in the fifty-first session for the next one (no device was
# left to run it):
#  1. applies session51-keypad-view.patch to this copy of the tree
#     (attn.torch passes a key-padding mask as a view with a row stride of
#     0; the runtime, since 97f0fe8, prefers the kernel's TMA fallback for
#     a box of one row) and runs torch_op_check.py (its key-padding checks
#     then also require the view and the fallback) and keypad_time.py;
#  2. on an H200 only: the whole build at N = 4096 / 16384 against cuDNN
#     (session45-h200-lean.sh) and, unless CLOCK=0, the clock probe.
# Carry .device/pack (full.tgz, torchart.tgz), .device/include.
# Writes $OUT/torch, $OUT/keypad, $OUT/h200, $OUT/clock.
set -uo pipefail
git apply bench/device/probes/session51-keypad-view.patch || patch -p1 < bench/device/probes/session51-keypad-view.patch || exit 3
exec bash bench/device/probes/session51.sh
