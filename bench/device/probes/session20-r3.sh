#!/usr/bin/env bash
# Twentieth session, device run 3 (outputs in $OUT/r3.tgz): the sm_80 keys
# whose emitted candidates now include register-fit forms (an mma.sync
# candidate that spilled, compiled again with reverse_kv / loop_local_ids:
# registerFitForms), measured again in full: tune_measure.py over the 20
# keys of bench/device/probes/session20-tune-keys-sm80-fit.txt, prepared
# here with `attn-tune prepare --chip=sm_80 --n=512,1024,4096,16384`.
# Pack: .device/pack/p80fit.tgz.
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/r3
source bench/device/probes/device_setup.sh 540
finish() { tar czf "$final/r3.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
timeout $(( $(left) - 10 )) python3 bench/device/tune_measure.py --runtime $L --budget-s $(( $(left) - 45 )) \
  --out "$out/tuning-sm80-fit.json" /tmp/t/p80fit/*/ > "$out/tune.log" 2>&1
echo "tune_measure: exit $?"; grep -E "default|wrote|budget|rror|reject" "$out/tune.log" | cut -c1-170 | tail -90
echo "[$(( $(date +%s) - t0 )) s] done"
