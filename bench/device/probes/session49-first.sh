#!/usr/bin/env bash
# Forty-ninth session, first call.
#  1. session45-h200-lean.sh (on either card) at N = 4096 / 16384 on the
#     full pack (the whole build against cuDNN; run.py --quick first), 300 s;
#  2. session48-torch.sh (it applied session49-torch-bool-mask.patch to
#     this copy of the tree; the patch landed in the fiftieth session after
#     its checks passed, so main's attn.torch is checked now), 70 s;
#  3. clock_probe.py: the f16 / bf16 softcap against plain in sustained
#     2 s segments with the SM clock sampled (prediction in
#     docs/perf-log.md, forty-ninth session).
# Carry .device/pack (full.tgz, torchart.tgz), .device/include.
# Writes $OUT/h200, $OUT/torch, $OUT/clock.
set -uo pipefail
top=${OUT:-/tmp/out}
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader
# On an H100 too (cuDNN is timed in the same run), into $OUT/h100.
card=h100; nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && card=h200
# LEAN_S=0 skips it (a small device budget: the other two take ~230 s).
if [ "${LEAN_S:-300}" -gt 0 ]; then
  mkdir -p "$top/$card"
  OUT=$top/$card NS=4096,16384 bash bench/device/probes/session45-h200-lean.sh ${LEAN_S:-300} f998dda
fi
mkdir -p "$top/torch"
OUT=$top/torch bash bench/device/probes/session48-torch.sh 70
mkdir -p "$top/clock"
timeout 150 python3 bench/device/probes/clock_probe.py --artifacts /tmp/t/full \
  --runtime /tmp/brt/libattn_runtime.so --out "$top/clock/clock.json" --ns 4096,16384 \
  --pairs mod_f16_d128_softcap=attn_f16_d128_none,mod_bf16_d128_softcap=attn_bf16_d128_none \
  2>&1 | tee "$top/clock/clock.txt"
echo "clock_probe: exit ${PIPESTATUS[0]}"
