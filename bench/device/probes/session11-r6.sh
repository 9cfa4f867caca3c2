#!/usr/bin/env bash
# Eleventh session, device run 6.
#  1. the D = 256 / 192 keys tuned at the 2048 and 8192 buckets
#     (.device/pack/tune11.tgz: ATTN_TUNE_NS=2048,8192 tune_prepare.sh <
#     tune-keys-s11.txt), within TUNE_S (default 100) seconds;
#  2. run.py --quick over every artifact of this tree (the O stores through
#     the quad transpose in warp-specialized kernels, one row at a time; the
#     D = 192 heuristic);
#  3. compute-sanitizer memcheck on two warp-specialized kernels with the
#     new stores (sanitize.py's odd shapes: rows past the end, Nq != Nk);
#  4. pairs, as in run 5, of the committed form (.device/pack/r6.tgz,
#     session11-r5-build.sh with this tree's compiler into .device/r6);
#  5. the 12 main kernels timed against cuDNN and FlashAttention-2.
# usage (device): bash bench/device/probes/session11-r6.sh
set -uo pipefail
source bench/device/probes/device_setup.sh 560
timeout ${TUNE_S:-100} python3 bench/device/tune_loop.py measure /tmp/t/tune11 "$out/measured11.json" \
  --runtime $L --budget-s $(( ${TUNE_S:-100} - 15 )) > "$out/tune11.log" 2>&1
echo "tune: exit $?"; grep -E "measured|budget|rror" "$out/tune11.log" | tail -4
echo "[$(( $(date +%s) - t0 )) s] tuned"
timeout 120 python3 bench/device/run.py --artifacts /tmp/t/art --runtime $L \
  --out /tmp/art-check --quick --no-isolate --kernel-timeout 60 > "$out/art-check.log" 2>&1
echo "run.py --quick: exit $?"; grep -E "FAIL|fail|passed|kernels" "$out/art-check.log" | tail -8
echo "[$(( $(date +%s) - t0 )) s] matrix checked"
timeout 90 compute-sanitizer --tool memcheck --error-exitcode 3 \
  python3 bench/device/sanitize.py --artifacts /tmp/t/art --runtime $L attn_f16_d256_none,attn_bf16_d128_none > "$out/memcheck.log" 2>&1
echo "memcheck: exit $?"; grep -E "^ok|^FAIL|ERROR SUMMARY" "$out/memcheck.log" | tail -12
echo "[$(( $(date +%s) - t0 )) s] memcheck"
p="n_attn_f16_d256_none=attn_f16_d256_none,n_attn_bf16_d256_none=attn_bf16_d256_none,n_attn_f16_d128_none=attn_f16_d128_none"
p="$p,g_f16_d192_none=h_f16_d192_none,g_bf16_d192_none=h_bf16_d192_none,g_f16_d192_causal_br=h_f16_d192_causal_br"
timeout 120 python3 bench/device/pair.py --artifacts /tmp/t/r6 --runtime $L \
  --out "$out/pairs.json" --rounds 4 --ns 512,1024,4096,16384 --pairs "$p" > "$out/pairs.txt" 2>&1
echo "pairs: exit $?"; grep -E "A/B" "$out/pairs.txt" | cut -c1-80
echo "[$(( $(date +%s) - t0 )) s] pairs"
ks=""
for dt in f16 bf16; do for d in 64 128 256; do for m in none causal_br; do ks="$ks${ks:+,}attn_${dt}_d${d}_$m"; done; done; done
timeout $(( $(left) - 10 )) python3 bench/device/run.py --artifacts /tmp/t/art --runtime $L \
  --out /tmp/matrix --no-isolate --kernel-timeout 60 --commit session11-r6 --kernels "$ks" > "$out/matrix.log" 2>&1
echo "run.py timed: exit $?"; tail -2 "$out/matrix.log"
cp /tmp/matrix/results.json "$out/matrix.json" 2>/dev/null \
  && python3 bench/device/make_table.py /tmp/matrix/results.json > "$out/matrix.md"
echo "[$(( $(date +%s) - t0 )) s] done"
