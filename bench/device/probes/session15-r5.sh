#!/usr/bin/env bash
# Fifteenth session, device run 5 (outputs in $OUT/r5.tgz): the sm_80 keys
# of the benchmark matrix not measured before
# (session15-tune-keys-sm80-matrix.txt, `attn-tune prepare --chip=sm_80
# --n=512,1024,4096,16384` at this tree, .device/pack/tune15m80.tgz),
# within the session's remaining device time; resumable with
# --skip-measured.
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/r5
source bench/device/probes/device_setup.sh 200
finish() { tar czf "$final/r5.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
timeout $(( $(left) - 10 )) python3 bench/device/tune_measure.py --runtime $L --budget-s $(( $(left) - 40 )) \
  --out "$out/m15m80.json" /tmp/t/tune15m80/*/ > "$out/tune15m80.log" 2>&1
echo "sm_80 matrix keys: exit $?"; grep -E "wrote|budget|rror" "$out/tune15m80.log" | tail -4
echo "[$(( $(date +%s) - t0 )) s] done"
