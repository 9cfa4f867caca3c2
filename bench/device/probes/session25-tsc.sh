#!/usr/bin/env bash
# Twenty-fifth session, device run "tsc" (outputs in $OUT/tsc.tgz): the two
# softcap keys (f16 / bf16, D = 128, softcap 30) tuned with the 192-row
# forms beside the 128 x 176 / 192 async_pv tiles that won them before
# (written in the twenty-fifth session, when no device was lent). The
# twenty-fourth session's filter (--only='^wgmma (192x|128x(80|...|192) w8
# s2 ws overlap)' --top=24) would have timed no 192-row form: the cost
# model, which has no softmax term, ranks all of them below the 34
# 128-row kernels it emits. This one leaves 16 configurations a key, 13 of
# them 192-row (what fits the 160 registers), all timed. Prepare here:
#   build/bin/attn-tune prepare bench/device/probes/session24-tune-keys-softcap.txt .device/tsc \
#     --only='^wgmma (192x(64|80|96|112) w12|128x(176|192) w8 s2 ws overlap async_pv)' --top=16
#   mkdir -p .device/pack && tar czf .device/pack/tsc.tgz -C .device tsc
# and carry .device/pack and .device/include. tune_measure.py checks every
# candidate (fp32 reference, poisoned outputs) before timing it; a second
# run resumes with SKIP=<the first run's tuning-softcap.json>. Then here:
# attn-tune import, tune_validate.sh, tune_review.py, tune_trim.py merge
# (docs/tuning.md).
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/tsc
source bench/device/probes/device_setup.sh 570
finish() { tar czf "$final/tsc.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/tsc-summary.txt" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
skip=()
[ -n "${SKIP:-}" ] && skip=(--skip-measured "$SKIP")
timeout $(( $(left) - 10 )) python3 bench/device/tune_measure.py --runtime $L --budget-s $(( $(left) - 60 )) \
  "${skip[@]}" --out "$out/tuning-softcap.json" /tmp/t/tsc/t_*/ > "$out/tune.log" 2>&1
echo "tune_measure: exit $?"; grep -E "default|wrote|budget|rror|reject" "$out/tune.log" | cut -c1-170 | tail -90
echo "[$(( $(date +%s) - t0 )) s] done"
