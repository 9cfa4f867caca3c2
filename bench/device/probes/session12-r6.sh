#!/usr/bin/env bash
# Twelfth session, device run 6.
#  1. the tuning keys of tune-keys-s12-2b.txt (2048 / 8192 buckets) and
#     tune-keys-s12-6b.txt (causal D = 256, all six buckets), prepared
#     into .device/pack/tune12.tgz, measured within TUNE_S (100) seconds;
#  2. run.py --quick over every artifact of this tree (.device/pack/art.tgz)
#     and over the rescale_slack kernels (.device/pack/slack.tgz: s_* with
#     lazy_rescale and rescale_slack = 8, o_* the same configurations
#     without);
#  3. compute-sanitizer memcheck on two warp-specialized kernels (the
#     quad-transposed O stores) and on one slack kernel;
#  4. pairs s_* / o_* (the slack against the same kernel without),
#     N = 1024 / 4096 / 16384, 4 rounds;
#  5. the main D = 128 / 256 kernels against cuDNN, interleaved (pair.py
#     with B = cudnn), N = 512 .. 16384, 4 rounds;
#  6. the 12 main kernels timed against cuDNN and FlashAttention-2 (run.py:
#     median and p95, cold start), as far as the time limit allows;
#  7. SASS of the D = 256 kernels (cuobjdump) for the instruction counts.
# usage (device): bash bench/device/probes/session12-r6.sh
set -uo pipefail
source bench/device/probes/device_setup.sh 570
timeout ${TUNE_S:-100} python3 bench/device/tune_loop.py measure /tmp/t/tune12 "$out/measured12.json" \
  --runtime $L --budget-s $(( ${TUNE_S:-100} - 15 )) > "$out/tune12.log" 2>&1
echo "tune: exit $?"; grep -E "measured|budget|rror" "$out/tune12.log" | tail -4
echo "[$(( $(date +%s) - t0 )) s] tuned"
timeout 150 python3 bench/device/run.py --artifacts /tmp/t/art --runtime $L \
  --out /tmp/art-check --quick --no-isolate --kernel-timeout 60 > "$out/art-check.log" 2>&1
echo "run.py --quick: exit $?"; grep -E "FAIL|fail|passed|kernels" "$out/art-check.log" | tail -6
cp /tmp/art-check/results.json "$out/art-check.json" 2>/dev/null
mkdir -p /tmp/slack && cp /tmp/t/slack-new/* /tmp/t/slack-old/* /tmp/slack/ 2>/dev/null
timeout 90 python3 bench/device/run.py --artifacts /tmp/slack --runtime $L \
  --out /tmp/slack-check --quick --no-isolate --kernel-timeout 60 > "$out/slack-check.log" 2>&1
echo "run.py --quick slack: exit $?"; grep -E "FAIL|fail|passed|kernels" "$out/slack-check.log" | tail -6
cp /tmp/slack-check/results.json "$out/slack-check.json" 2>/dev/null
echo "[$(( $(date +%s) - t0 )) s] checked"
timeout 100 compute-sanitizer --tool memcheck --error-exitcode 3 \
  python3 bench/device/sanitize.py --artifacts /tmp/t/art --runtime $L attn_f16_d256_none,attn_bf16_d128_none > "$out/memcheck.log" 2>&1
echo "memcheck: exit $?"; grep -E "^ok|^FAIL|ERROR SUMMARY" "$out/memcheck.log" | tail -6
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 3 \
  python3 bench/device/sanitize.py --artifacts /tmp/slack --runtime $L s_f16_d256_none > "$out/memcheck-slack.log" 2>&1
echo "memcheck slack: exit $?"; grep -E "^ok|^FAIL|ERROR SUMMARY" "$out/memcheck-slack.log" | tail -4
echo "[$(( $(date +%s) - t0 )) s] memcheck"
p=""
for k in f16_d256_none bf16_d256_none f16_d256_causal_br f16_d128_none bf16_d128_none f16_d128_causal_br; do
  p="$p${p:+,}s_$k=o_$k"; done
timeout 150 python3 bench/device/pair.py --artifacts /tmp/slack --runtime $L \
  --out "$out/pairs-slack.json" --rounds 4 --ns 1024,4096,16384 --pairs "$p" > "$out/pairs-slack.txt" 2>&1
echo "pairs slack: exit $?"; grep -E "A/B" "$out/pairs-slack.txt" | cut -c1-80
echo "[$(( $(date +%s) - t0 )) s] pairs"
p=""
for dt in f16 bf16; do for d in 128 256; do for m in none causal_br; do
  p="$p${p:+,}attn_${dt}_d${d}_$m=cudnn"; done; done; done
timeout 200 python3 bench/device/pair.py --artifacts /tmp/t/art --runtime $L \
  --out "$out/pairs-cudnn.json" --rounds 4 --ns 512,1024,2048,4096,8192,16384 --pairs "$p" > "$out/pairs-cudnn.txt" 2>&1
echo "pairs cudnn: exit $?"; grep -E "A/B" "$out/pairs-cudnn.txt" | cut -c1-80
echo "[$(( $(date +%s) - t0 )) s] against cuDNN"
mkdir -p "$out/sass"
for k in /tmp/t/art/attn_f16_d256_none /tmp/slack/s_f16_d256_none /tmp/slack/o_f16_d256_none; do
  cuobjdump -sass $k.sm_90a.cubin 2>&1 | gzip > "$out/sass/$(basename $k).sass.gz"; done
ks=""
for dt in f16 bf16; do for d in 64 128 256; do for m in none causal_br; do ks="$ks${ks:+,}attn_${dt}_d${d}_$m"; done; done; done
timeout $(( $(left) - 10 )) python3 bench/device/run.py --artifacts /tmp/t/art --runtime $L \
  --out /tmp/matrix --no-isolate --kernel-timeout 60 --commit session12-r6 --kernels "$ks" > "$out/matrix.log" 2>&1
echo "run.py timed: exit $?"; tail -2 "$out/matrix.log"
cp /tmp/matrix/results.json "$out/matrix.json" 2>/dev/null \
  && python3 bench/device/make_table.py /tmp/matrix/results.json > "$out/matrix.md"
echo "[$(( $(date +%s) - t0 )) s] done"
