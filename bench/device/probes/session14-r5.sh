#!/usr/bin/env bash
# Fourteenth session, device run 5 (outputs in $OUT/r5.tgz): the unmasked
# D = 128 keys (session14-tune-keys-d128.txt) tuned at all six buckets
# with async_pv in the space (.device/pack/tune14b.tgz, tune_loop.py
# prepare at 01716c3), within 200 s.
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/r5
source bench/device/probes/device_setup.sh 300
finish() { tar czf "$final/r5.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
timeout 220 python3 bench/device/tune_loop.py measure /tmp/t/tune14b "$out/measured14b.json" \
  --runtime $L --budget-s 200 > "$out/tune14b.log" 2>&1
echo "tune: exit $?"; grep -E "measured|budget|rror" "$out/tune14b.log" | tail -4
echo "[$(( $(date +%s) - t0 )) s] done"
