#!/usr/bin/env bash
# Forty-eighth session, second call:
#  1. session48-torch.sh (attn.torch with score modifications; prediction
#     in docs/perf-log.md), 150 s;
#  2. on an H200 only: session45-h200-lean.sh at N = 1024 / 4096 / 16384
#     on the full pack (the default kernels, unchanged since 03a4496).
# Carry .device/pack (torchart.tgz, full.tgz), .device/include.
# Writes $OUT/torch, $OUT/h200.
set -uo pipefail
top=${OUT:-/tmp/out}
mkdir -p "$top/torch"
OUT=$top/torch bash bench/device/probes/session48-torch.sh 150
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200; then
  mkdir -p "$top/h200"
  OUT=$top/h200 NS=1024,4096,16384 bash bench/device/probes/session45-h200-lean.sh 300 7607a54
fi
