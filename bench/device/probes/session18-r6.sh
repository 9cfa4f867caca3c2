#!/usr/bin/env bash
# Eighteenth session, device run 6 (outputs in $OUT/r6.tgz): static_check.py
# after its loop moved into sanitize.py (check_kernels), on two of run 5's
# kernels (s3.tgz); the same points must pass as in run 5.
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/r6
source bench/device/probes/device_setup.sh 200
finish() { tar czf "$final/r6.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
timeout 100 python3 bench/device/probes/static_check.py --artifacts /tmp/t/s3 --runtime $L --nk 1024 \
  sb_f16_full_cbr_1k,sb_bf16_full_cbr_1k
echo "static_check 1024: exit $?"
echo "[$(( $(date +%s) - t0 )) s] done"
