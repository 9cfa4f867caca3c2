#!/usr/bin/env bash
# Twelfth session, device run 11 (outputs in $OUT/r11.tgz): the closing
# matrix of this tree (.device/pack/art-t.tgz, as run 10):
#  1. compute-sanitizer memcheck and racecheck on attn_bf16_d128_none (its
#     long-row kernels are now 128 x 160-192 without the overlap);
#  2. the 12 main kernels against cuDNN, interleaved (pair.py, 3 rounds);
#  3. the 12 main kernels timed by run.py (median, p95, cold start, the
#     correctness matrix).
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/r11
source bench/device/probes/device_setup.sh 330
finish() { tar czf "$final/r11.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
for tool in memcheck racecheck; do
  timeout 60 compute-sanitizer --tool $tool --error-exitcode 3 \
    python3 bench/device/sanitize.py --artifacts /tmp/t/art-t --runtime $L attn_bf16_d128_none > "$out/$tool.log" 2>&1
  echo "$tool: exit $?"; grep -E "^FAIL|ERROR SUMMARY|RACECHECK SUMMARY" "$out/$tool.log" | tail -2
done
ks=""
for dt in f16 bf16; do for d in 64 128 256; do for m in none causal_br; do ks="$ks${ks:+,}attn_${dt}_d${d}_$m"; done; done; done
timeout 90 python3 bench/device/run.py --artifacts /tmp/t/art-t --runtime $L \
  --out /tmp/matrix --no-isolate --kernel-timeout 60 --commit session12-r11 --kernels "$ks" > "$out/matrix.log" 2>&1
echo "run.py timed: exit $?"; tail -2 "$out/matrix.log"
cp /tmp/matrix/results.json "$out/matrix.json" 2>/dev/null \
  && python3 bench/device/make_table.py /tmp/matrix/results.json > "$out/matrix.md"
echo "[$(( $(date +%s) - t0 )) s] matrix"
p=""; for k in ${ks//,/ }; do p="$p${p:+,}$k=cudnn"; done
timeout $(( $(left) - 10 )) python3 bench/device/pair.py --artifacts /tmp/t/art-t --runtime $L \
  --out "$out/pairs-cudnn.json" --rounds 3 --ns 512,1024,2048,4096,8192,16384 --pairs "$p" > "$out/pairs-cudnn.txt" 2>&1
echo "pairs cudnn: exit $?"; grep -E "A/B" "$out/pairs-cudnn.txt" | cut -c1-84
echo "[$(( $(date +%s) - t0 )) s] done"
