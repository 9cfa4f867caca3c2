#!/usr/bin/env bash
# Twentieth session, device run 4 (outputs in $OUT/r4.tgz): the no-LSE
# keys (bench/device/probes/session20-tune-keys-nolse.txt: f16 / bf16,
# D = 64 / 128 / 256, unmasked and causal bottom-right, lse=no), prepared
# here with `attn-tune prepare --chip=sm_90a` (six buckets), measured with
# tune_measure.py.
# Pack: .device/pack/pnl.tgz.
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/r4
source bench/device/probes/device_setup.sh 560
finish() { tar czf "$final/r4.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
timeout $(( $(left) - 10 )) python3 bench/device/tune_measure.py --runtime $L --budget-s $(( $(left) - 60 )) \
  --out "$out/tuning-nolse.json" /tmp/t/pnl/*/ > "$out/tune.log" 2>&1
echo "tune_measure: exit $?"; grep -E "default|wrote|budget|rror|reject" "$out/tune.log" | cut -c1-170 | tail -90
echo "[$(( $(date +%s) - t0 )) s] done"
