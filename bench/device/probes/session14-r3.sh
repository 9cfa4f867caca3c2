#!/usr/bin/env bash
# Fourteenth session, device run 3 (outputs in $OUT/r3.tgz):
#  1. compute-sanitizer racecheck and synccheck on the 128 x 80 D = 256
#     kernels of run 2 (.device/pack/v4.tgz: persistent overlapped,
#     async_pv, causal) and the default (run 2's script passed them as
#     separate arguments, which sanitize.py refused);
#  2. the D = 256 keys (session14-tune-keys.txt) tuned at all six buckets
#     with the search space that has async_pv (.device/pack/tune14.tgz from
#     tune_loop.py prepare), within 200 s;
#  3. the 128 x 80 async_pv kernels against cuDNN, N = 512 .. 16384.
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/r3
source bench/device/probes/device_setup.sh 560
finish() { tar czf "$final/r3.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
for tool in racecheck synccheck; do
  timeout 80 compute-sanitizer --tool $tool --error-exitcode 3 \
    python3 bench/device/sanitize.py --artifacts /tmp/t/v4 --runtime $L \
    p80_f16_d256_none,a80_f16_d256_none,c80_f16_d256_causal_br,attn_f16_d256_none > "$out/$tool.log" 2>&1
  echo "$tool: exit $?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|hazard|passed|FAIL" "$out/$tool.log" | tail -3
done
timeout 220 python3 bench/device/tune_loop.py measure /tmp/t/tune14 "$out/measured14.json" \
  --runtime $L --budget-s 200 > "$out/tune14.log" 2>&1
echo "tune: exit $?"; grep -E "measured|budget|rror|\[" "$out/tune14.log" | tail -6
p="a80_f16_d256_none=cudnn,a80_bf16_d256_none=cudnn,attn_f16_d256_none=cudnn,attn_bf16_d256_none=cudnn"
timeout $(( $(left) - 10 )) python3 bench/device/pair.py --artifacts /tmp/t/v4 --runtime $L \
  --out "$out/pairs-cudnn.json" --rounds 2 --ns 512,1024,2048,4096,8192,16384 --pairs "$p" > "$out/pairs-cudnn.txt" 2>&1
echo "pairs: exit $?"; grep -E "A/B" "$out/pairs-cudnn.txt" | cut -c1-90
echo "[$(( $(date +%s) - t0 )) s] done"
