#!/usr/bin/env bash
# Sixteenth session, device run 6 (outputs in $OUT/r6.tgz): the causal
# D = 128 bias keys (both alignments, f16 and bf16) of
# bench/device/probes/session16-tune-keys-bias.txt, prepared with
# `attn-tune prepare KEYS DIR --chip=sm_90a` at this tree (tb16.tgz; the
# two unmasked keys in it were measured in run 4 and are skipped).
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/r6
source bench/device/probes/device_setup.sh 300
finish() { tar czf "$final/r6.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
timeout $(( $(left) - 10 )) python3 bench/device/tune_measure.py --runtime $L --budget-s $(( $(left) - 50 )) \
  --skip-measured /tmp/t/tb16-r4.json --out "$out/tb16c.json" /tmp/t/tb16/*/ > "$out/tb16c.log" 2>&1
echo "causal bias keys: exit $?"; grep -E "default|wrote|budget|rror|reject" "$out/tb16c.log" | cut -c1-165 | tail -26
echo "[$(( $(date +%s) - t0 )) s] done"
