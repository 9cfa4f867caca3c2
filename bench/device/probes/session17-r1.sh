#!/usr/bin/env bash
# Seventeenth session, device run 1 (outputs in $OUT/r1.tgz):
#  1. the broadcast-bias keys (session17-tune-keys-bcast.txt: D = 128,
#     bias [1, H, N, N], [B, 1, N, N], [1, 1, N, N], f16 / bf16; causal
#     bottom-right [1, H, N, N]) prepared here by `attn-tune prepare` into
#     tc17.tgz, measured by tune_measure.py (checks against the fp32
#     reference with the bias, CUDA-event timings) within the time left;
#  2. a probe: whether sm_90a's tanh.approx.f16x2 / bf16x2 is one MUFU
#     operation for two values (SASS of bench/device/probes/tanh-probe.ptx
#     assembled here).
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/r1
source bench/device/probes/device_setup.sh 400
finish() { tar czf "$final/r1.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
cuobjdump -sass .device/pack/tanh-probe.cubin 2>&1 | grep -E "MUFU|HADD2|F2FP|PRMT" | sed 's/ *\/\*[0-9a-f]*\*\/ *//' | head -20
echo "[$(( $(date +%s) - t0 )) s]"
timeout $(( $(left) - 10 )) python3 bench/device/tune_measure.py --runtime $L --budget-s $(( $(left) - 40 )) \
  --out "$out/tc17.json" /tmp/t/tc17/*/ > "$out/tc17.log" 2>&1
echo "broadcast-bias keys: exit $?"; grep -E "default|wrote|budget|rror|reject" "$out/tc17.log" | cut -c1-160 | tail -24
echo "[$(( $(date +%s) - t0 )) s] done"
