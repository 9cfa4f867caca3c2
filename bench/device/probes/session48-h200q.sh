#!/usr/bin/env bash
# Forty-eighth session, with what device time is left: on an H200 only,
# session45-h200-lean.sh at N = 4096 / 16384 within LIMIT_S (default 230) s (run.py --quick
# on every kernel of the full pack first, then as many cuDNN pairs as
# fit). On another card it runs nothing.
# Carry .device/pack (full.tgz), .device/include. Writes $OUT.
# usage: session48-h200q.sh [LIMIT_S]
set -uo pipefail
nvidia-smi --query-gpu=name --format=csv,noheader
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200; then
  NS=4096,16384 bash bench/device/probes/session45-h200-lean.sh ${1:-230} 7607a54
fi
