#!/usr/bin/env bash
# Forty-eighth session, first call: what the forty-seventh left unrun.
#  1. session47-fe.sh (the default bias kernel with P V's wait moved to
#     the loop's top; its header and the prediction in docs/perf-log.md),
#     100 s;
#  2. session48-fh.sh (the default bias kernel with half the bias's
#     bytes: the bound on TMA multicast; prediction in docs/perf-log.md),
#     70 s;
#  3. on an H200 only: session45-h200-lean.sh at N = 1024 / 4096 / 16384
#     on the full pack (the default kernels, unchanged since 03a4496).
# Carry .device/pack (full.tgz, fe.tgz, fh.tgz), .device/include.
# Writes $OUT/fe, $OUT/fh, $OUT/h200.
set -uo pipefail
top=${OUT:-/tmp/out}
mkdir -p "$top/fe"
OUT=$top/fe bash bench/device/probes/session47-fe.sh 100
mkdir -p "$top/fh"
OUT=$top/fh bash bench/device/probes/session48-fh.sh 70
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200; then
  mkdir -p "$top/h200"
  OUT=$top/h200 NS=1024,4096,16384 bash bench/device/probes/session45-h200-lean.sh 300 7607a54
fi
