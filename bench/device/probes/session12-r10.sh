#!/usr/bin/env bash
# Twelfth session, device run 10 (outputs in $OUT/r10.tgz): the artifacts
# with the D = 128 keys tuned again (run 9, merged; .device/pack/art-t.tgz)
#  1. run.py --quick over every artifact;
#  2. pairs against run 7's artifacts (b0620be, .device/pack/art-s.tgz, the
#     same names): the D = 128 kernels, N = 1024 .. 16384, 4 rounds;
#  3. the D = 128 main kernels against cuDNN, interleaved;
#  4. those kernels timed by run.py (median, p95, cold start, the
#     correctness matrix).
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/r10
source bench/device/probes/device_setup.sh 420
finish() { tar czf "$final/r10.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
timeout 130 python3 bench/device/run.py --artifacts /tmp/t/art-t --runtime $L \
  --out /tmp/art-check --quick --no-isolate --kernel-timeout 60 > "$out/art-check.log" 2>&1
echo "run.py --quick: exit $?"; grep -E "FAIL|fail|passed|kernels" "$out/art-check.log" | tail -6
echo "[$(( $(date +%s) - t0 )) s] checked"
p=""
for k in f16_d128_none bf16_d128_none f16_d128_causal_br bf16_d128_causal_br f16_d128_causal_tl; do
  p="$p${p:+,}attn_$k=attn_$k"; done
timeout 120 python3 bench/device/pair.py --artifacts /tmp/t/art-t --artifacts-b /tmp/t/art-s --runtime $L \
  --out "$out/pairs-d128.json" --rounds 4 --ns 1024,2048,4096,8192,16384 --pairs "$p" > "$out/pairs-d128.txt" 2>&1
echo "pairs d128 (this tree / b0620be): exit $?"; grep -E "A/B" "$out/pairs-d128.txt" | cut -c1-84
p="attn_f16_d128_none=cudnn,attn_bf16_d128_none=cudnn,attn_f16_d128_causal_br=cudnn,attn_bf16_d128_causal_br=cudnn"
timeout 100 python3 bench/device/pair.py --artifacts /tmp/t/art-t --runtime $L \
  --out "$out/pairs-cudnn.json" --rounds 4 --ns 512,1024,2048,4096,8192,16384 --pairs "$p" > "$out/pairs-cudnn.txt" 2>&1
echo "pairs cudnn: exit $?"; grep -E "A/B" "$out/pairs-cudnn.txt" | cut -c1-84
echo "[$(( $(date +%s) - t0 )) s] pairs"
timeout $(( $(left) - 15 )) python3 bench/device/run.py --artifacts /tmp/t/art-t --runtime $L \
  --out /tmp/matrix --no-isolate --kernel-timeout 60 --commit session12-r10 \
  --kernels attn_f16_d128_none,attn_bf16_d128_none,attn_f16_d128_causal_br,attn_bf16_d128_causal_br > "$out/matrix.log" 2>&1
echo "run.py timed: exit $?"; tail -2 "$out/matrix.log"
cp /tmp/matrix/results.json "$out/matrix.json" 2>/dev/null \
  && python3 bench/device/make_table.py /tmp/matrix/results.json > "$out/matrix.md"
echo "[$(( $(date +%s) - t0 )) s] done"
