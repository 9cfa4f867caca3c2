#!/usr/bin/env bash
# Sixteenth session, device run 4 (outputs in $OUT/r4.tgz): the first keys
# with a bias in the tuning loop. tb16.tgz holds
# `attn-tune prepare KEYS DIR --chip=sm_90a` of
#   b_f16_d128_bias f16 128 none+bias
#   b_bf16_d128_bias bf16 128 none+bias
# at the six buckets (this tree); tune_measure.py builds the bias for the
# checks (fp32 reference with it) and the timings, within the time left.
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/r4
source bench/device/probes/device_setup.sh 420
finish() { tar czf "$final/r4.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
timeout $(( $(left) - 10 )) python3 bench/device/tune_measure.py --runtime $L --budget-s $(( $(left) - 50 )) \
  --out "$out/tb16.json" /tmp/t/tb16/*/ > "$out/tb16.log" 2>&1
echo "bias keys: exit $?"; grep -E "default|wrote|budget|rror|reject" "$out/tb16.log" | cut -c1-160 | tail -16
echo "[$(( $(date +%s) - t0 )) s] done"
