#!/usr/bin/env bash
# Fifteenth session, device run 1 (outputs in $OUT/r1.tgz): tuning
# measurements with the runtime-only measurer (the H200 has no MLIR, so
# not attn-tune measure):
#  1. the sm_90a keys of session15-tune-keys.txt and the D = 128 softcap
#     keys at six buckets (.device/pack/tune15.tgz, prepared at c872ec6);
#  2. the sm_80 weak keys of session15-tune-keys-sm80.txt at four
#     (.device/pack/tune15a80.tgz).
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/r1
source bench/device/probes/device_setup.sh 570
finish() { tar czf "$final/r1.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
timeout 340 python3 bench/device/tune_measure.py --runtime $L --budget-s 320 \
  --out "$out/m15.json" /tmp/t/tune15/*/ > "$out/tune15.log" 2>&1
echo "sm_90a: exit $?"; grep -E "wrote|budget|rror" "$out/tune15.log" | tail -4
timeout $(( $(left) - 15 )) python3 bench/device/tune_measure.py --runtime $L --budget-s $(( $(left) - 60 )) \
  --out "$out/m15a80.json" /tmp/t/tune15a80/*/ > "$out/tune15a80.log" 2>&1
echo "sm_80: exit $?"; grep -E "wrote|budget|rror" "$out/tune15a80.log" | tail -4
echo "[$(( $(date +%s) - t0 )) s] done"
