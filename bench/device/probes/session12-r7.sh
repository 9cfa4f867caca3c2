#!/usr/bin/env bash
# Twelfth session, device run 7 (outputs in one archive, $OUT/r7.tgz: the
# device tool returns at most a few files).
#  1. run.py --quick over every artifact of this tree (.device/pack/art-s.tgz:
#     rescale_slack = 8 with lazy_rescale on the overlapped warp-specialized
#     D = 128 kernels beyond 1024 keys; the merged database) and over the
#     D = 256 variants (.device/pack/d256v.tgz,
#     bench/device/probes/session12-d256-variants.txt);
#  2. compute-sanitizer memcheck, racecheck and synccheck on
#     attn_f16_d128_none (the slack kernel; sanitize.py's odd shapes);
#  3. pairs: this tree's D = 128 kernels against run 6's (.device/pack/art.tgz,
#     the same names, the compiler before), N = 1024 .. 16384; the D = 256
#     variants (128 x 48 / 32 with the slack, 128 x 48 without) against
#     128 x 64 without; 4 rounds;
#  4. this tree's main D = 128 / 256 kernels against cuDNN, interleaved;
#  5. the 12 main kernels timed (run.py: median, p95, cold start).
# usage (device): OUT=... bash bench/device/probes/session12-r7.sh
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/r7
source bench/device/probes/device_setup.sh 560
finish() {
  tar czf "$final/r7.tgz" -C "$out" . 2>/dev/null
  cp "$out/summary.txt" "$final/" 2>/dev/null
}
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
timeout 150 python3 bench/device/run.py --artifacts /tmp/t/art-s --runtime $L \
  --out /tmp/art-check --quick --no-isolate --kernel-timeout 60 > "$out/art-check.log" 2>&1
echo "run.py --quick: exit $?"; grep -E "FAIL|fail|passed|kernels" "$out/art-check.log" | tail -6
timeout 90 python3 bench/device/run.py --artifacts /tmp/t/d256v --runtime $L \
  --out /tmp/d256v-check --quick --no-isolate --kernel-timeout 60 > "$out/d256v-check.log" 2>&1
echo "run.py --quick d256v: exit $?"; grep -E "FAIL|fail|passed|kernels" "$out/d256v-check.log" | tail -6
echo "[$(( $(date +%s) - t0 )) s] checked"
for tool in memcheck racecheck synccheck; do
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 3 \
    python3 bench/device/sanitize.py --artifacts /tmp/t/art-s --runtime $L attn_f16_d128_none > "$out/$tool.log" 2>&1
  echo "$tool: exit $?"; grep -E "^FAIL|ERROR SUMMARY|RACECHECK SUMMARY" "$out/$tool.log" | tail -3
done
echo "[$(( $(date +%s) - t0 )) s] sanitizers"
p=""
for k in f16_d128_none bf16_d128_none f16_d128_causal_br bf16_d128_causal_br f16_d128_causal_tl; do
  p="$p${p:+,}attn_$k=attn_$k"; done
timeout 150 python3 bench/device/pair.py --artifacts /tmp/t/art-s --artifacts-b /tmp/t/art --runtime $L \
  --out "$out/pairs-d128.json" --rounds 4 --ns 1024,2048,4096,8192,16384 --pairs "$p" > "$out/pairs-d128.txt" 2>&1
echo "pairs d128 (this tree / run 6): exit $?"; grep -E "A/B" "$out/pairs-d128.txt" | cut -c1-84
p="b48s_f16_d256_none=o_f16_d256_none,b48s_bf16_d256_none=o_bf16_d256_none,b48_f16_d256_none=o_f16_d256_none,b32s_f16_d256_none=o_f16_d256_none"
timeout 100 python3 bench/device/pair.py --artifacts /tmp/t/d256v --runtime $L \
  --out "$out/pairs-d256.json" --rounds 4 --ns 1024,4096,16384 --pairs "$p" > "$out/pairs-d256.txt" 2>&1
echo "pairs d256: exit $?"; grep -E "A/B" "$out/pairs-d256.txt" | cut -c1-84
echo "[$(( $(date +%s) - t0 )) s] pairs"
p=""
for dt in f16 bf16; do for d in 128 256; do for m in none causal_br; do
  p="$p${p:+,}attn_${dt}_d${d}_$m=cudnn"; done; done; done
timeout 180 python3 bench/device/pair.py --artifacts /tmp/t/art-s --runtime $L \
  --out "$out/pairs-cudnn.json" --rounds 4 --ns 512,1024,2048,4096,8192,16384 --pairs "$p" > "$out/pairs-cudnn.txt" 2>&1
echo "pairs cudnn: exit $?"; grep -E "A/B" "$out/pairs-cudnn.txt" | cut -c1-84
echo "[$(( $(date +%s) - t0 )) s] against cuDNN"
ks=""
for dt in f16 bf16; do for d in 64 128 256; do for m in none causal_br; do ks="$ks${ks:+,}attn_${dt}_d${d}_$m"; done; done; done
timeout $(( $(left) - 15 )) python3 bench/device/run.py --artifacts /tmp/t/art-s --runtime $L \
  --out /tmp/matrix --no-isolate --kernel-timeout 60 --commit session12-r7 --kernels "$ks" > "$out/matrix.log" 2>&1
echo "run.py timed: exit $?"; tail -2 "$out/matrix.log"
cp /tmp/matrix/results.json "$out/matrix.json" 2>/dev/null \
  && python3 bench/device/make_table.py /tmp/matrix/results.json > "$out/matrix.md"
echo "[$(( $(date +%s) - t0 )) s] done"
