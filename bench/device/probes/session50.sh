#!/usr/bin/env bash
# Fiftieth session, second call (a small budget left: about 200 s).
#  1. session48-torch.sh with the boolean mask as a bias and masks
#     broadcast along rows or columns written out (in this tree, not yet
#     committed), 100 s;
#  2. sdpa_mask_repro.py: does SDPA itself fault ("misaligned address",
#     first call) on an attn_mask of shape (64, 1) or (1, 64)? 90 s.
# Carry .device/pack (torchart.tgz), .device/include.
set -uo pipefail
top=${OUT:-/tmp/out}
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader
mkdir -p "$top/torch"
OUT=$top/torch bash bench/device/probes/session48-torch.sh 100
mkdir -p "$top/sdpa"
timeout 90 python3 bench/device/probes/sdpa_mask_repro.py "$top/sdpa/sdpa-mask.json" 2>&1 | tee "$top/sdpa/sdpa-mask.txt"
