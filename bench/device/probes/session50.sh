#!/usr/bin/env bash
# Fiftieth session, second call.
#  1. sdpa_mask_repro.py: does SDPA itself fault ("misaligned address",
#     first call) on an attn_mask of shape (64, 1) or (1, 64)? ~80 s;
#  2. session48-torch.sh with the boolean mask as a bias and masks
#     broadcast along rows or columns written out (in this tree, not yet
#     committed), 100 s;
#  3. on an H200 only: session45-h200-lean.sh at N = 4096 / 16384 (the
#     whole build against cuDNN), 300 s.
# Carry .device/pack (full.tgz, torchart.tgz), .device/include.
set -uo pipefail
top=${OUT:-/tmp/out}
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader
mkdir -p "$top/sdpa"
timeout 110 python3 bench/device/probes/sdpa_mask_repro.py "$top/sdpa/sdpa-mask.json" 2>&1 | tee "$top/sdpa/sdpa-mask.txt"
mkdir -p "$top/torch"
OUT=$top/torch bash bench/device/probes/session48-torch.sh 100
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200; then
  mkdir -p "$top/h200"
  OUT=$top/h200 NS=4096,16384 bash bench/device/probes/session45-h200-lean.sh 300 f998dda
fi
