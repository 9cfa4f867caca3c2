#!/usr/bin/env bash
# Fourteenth session, device run 6 (outputs in $OUT/r6.tgz): the database
# with run 5's unmasked D = 128 keys merged, built into .device/pack/a4.tgz;
# a3.tgz is run 4's build (the database before).
#  1. run.py --quick on a4; racecheck and synccheck on its new D = 128
#     kernels (the 8192 bucket's and the main one, 16384);
#  2. pair.py a4 against a3 and against cuDNN on the unmasked D = 128
#     kernels, N = 512 .. 16384.
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/r6
source bench/device/probes/device_setup.sh 400
finish() { tar czf "$final/r6.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
timeout 130 python3 bench/device/run.py --artifacts /tmp/t/a4 --runtime $L \
  --out /tmp/a4-check --quick --no-isolate --kernel-timeout 60 > "$out/check-a4.log" 2>&1
echo "run.py --quick a4: exit $?"; grep -E "FAILED|passed|FAIL" "$out/check-a4.log" | tail -4
for tool in racecheck synccheck; do
  timeout 60 compute-sanitizer --tool $tool --error-exitcode 3 \
    python3 bench/device/sanitize.py --artifacts /tmp/t/a4 --runtime $L \
    attn_f16_d128_none__n8192,attn_bf16_d128_none > "$out/$tool.log" 2>&1
  echo "$tool: exit $?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|FAIL" "$out/$tool.log" | tail -2
done
p="attn_f16_d128_none=attn_f16_d128_none,attn_bf16_d128_none=attn_bf16_d128_none"
timeout 70 python3 bench/device/pair.py --artifacts /tmp/t/a4 --artifacts-b /tmp/t/a3 \
  --runtime $L --out "$out/pairs-db.json" --rounds 2 --ns 512,1024,2048,4096,8192,16384 --pairs "$p" > "$out/pairs-db.txt" 2>&1
echo "pairs (new database / before): exit $?"; grep -E "A/B" "$out/pairs-db.txt" | cut -c1-90
p="attn_f16_d128_none=cudnn,attn_bf16_d128_none=cudnn"
timeout $(( $(left) - 10 )) python3 bench/device/pair.py --artifacts /tmp/t/a4 --runtime $L \
  --out "$out/pairs-cudnn.json" --rounds 3 --ns 512,1024,2048,4096,8192,16384 --pairs "$p" > "$out/pairs-cudnn.txt" 2>&1
echo "pairs vs cuDNN: exit $?"; grep -E "A/B" "$out/pairs-cudnn.txt" | cut -c1-90
echo "[$(( $(date +%s) - t0 )) s] done"
