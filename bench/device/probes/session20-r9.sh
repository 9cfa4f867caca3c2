#!/usr/bin/env bash
# Twentieth session, device run 9 (outputs in $OUT/r9.tgz): the final
# build's 47 kernels (bench/device/build_artifacts.sh .device/final at
# 822bc09: the bounded softmax for bf16 softcaps, the no-LSE entries)
# checked with run.py --quick (odd lengths, Nq != Nk, GQA, strided, NaN/Inf,
# poisoned outputs), as far as the device time left allows.
# Pack: .device/pack/final.tgz.
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/r9
source bench/device/probes/device_setup.sh 230
finish() { tar czf "$final/r9.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
timeout $(( $(left) - 5 )) python3 bench/device/run.py --artifacts /tmp/t/final --runtime $L --kernels '*' \
  --out /tmp/final-check --quick --no-isolate --kernel-timeout 40 > "$out/check.log" 2>&1
echo "run.py --quick all kernels: exit $?"; grep -E "FAIL" "$out/check.log" | cut -c1-160 | head; grep -cE "^ +ok|passed" "$out/check.log"; tail -3 "$out/check.log" | cut -c1-200
echo "[$(( $(date +%s) - t0 )) s] done"
