#!/usr/bin/env bash
# Twelfth session, device run 9 (outputs in $OUT/r9.tgz): the D = 128 keys
# (tune-keys-s12-d128.txt) tuned at all six buckets with this compiler
# (.device/pack/tune12b.tgz from tune_prepare.sh), within TUNE_S (150) s.
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/r9
source bench/device/probes/device_setup.sh 300
finish() { tar czf "$final/r9.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
timeout ${TUNE_S:-150} python3 bench/device/tune_loop.py measure /tmp/t/tune12b "$out/measured12b.json" \
  --runtime $L --budget-s $(( ${TUNE_S:-150} - 15 )) > "$out/tune12b.log" 2>&1
echo "tune: exit $?"; grep -E "measured|budget|rror" "$out/tune12b.log" | tail -4
echo "[$(( $(date +%s) - t0 )) s] done"
