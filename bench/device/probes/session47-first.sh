#!/usr/bin/env bash
# Forty-seventh session, first call: what the forty-sixth left unrun.
#  1. session46-eq.sh (accumulate_bias with early_qk; its header and the
#     prediction in docs/perf-log.md), 110 s;
#  2. compute-sanitizer memcheck and racecheck on the accumulate_bias
#     kernel (pack acc: main kernel at every length, TMA fallback where
#     TMA cannot copy) on sanitize.py's small odd shapes;
#  3. on an H200 only: session45-h200-lean.sh at N = 1024 / 4096 / 16384
#     on the full pack (the default kernels, unchanged since 03a4496).
# Carry .device/pack (full.tgz, acc.tgz, acceq.tgz, eqoff.tgz),
# .device/include. Writes $OUT/eq, $OUT/san, $OUT/h200.
set -uo pipefail
top=${OUT:-/tmp/out}
mkdir -p "$top/eq" "$top/san"
OUT=$top/eq bash bench/device/probes/session46-eq.sh 110
(
  OUT=$top/san
  source bench/device/probes/device_setup.sh 130
  for tool in memcheck racecheck; do
    timeout 60 compute-sanitizer --tool $tool --error-exitcode 3 \
      python3 bench/device/sanitize.py --artifacts /tmp/t/acc --runtime $L mod_f16_d128_bias_b1h1 > "$out/$tool.log" 2>&1
    echo "$tool: exit $?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|^FAIL" "$out/$tool.log" | cut -c1-140 | tail -4
  done
) 2>&1 | tee "$top/san/summary.txt"
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200; then
  mkdir -p "$top/h200"
  OUT=$top/h200 NS=1024,4096,16384 bash bench/device/probes/session45-h200-lean.sh 260 7607a54
fi
