#!/usr/bin/env bash
# Tenth session, device run 3.
#  1. the D = 256 and D = 192 keys tuned again with the compiler whose
#     persistent tile loop does not spill and whose overlapped chains have
#     no spare product (tune_loop.py measure over .device/pack/tune10.tgz,
#     tune-keys-s10.txt), within TUNE_S (default 240) seconds;
#  2. the main kernels of that build against cuDNN and FlashAttention-2
#     (run.py, timed: f16/bf16, D = 64/128/256, unmasked and causal
#     bottom-right; .device/pack/art.tgz, the committed database), after
#     run.py --quick over all of its kernels;
#  3. compute-sanitizer racecheck over attn_f16_d128_none (its <= 1024-key
#     variant is peeled: sanitize.py's shapes run it), 120 s.
# usage (device): bash bench/device/probes/session10-r3.sh
set -uo pipefail
source bench/device/probes/device_setup.sh 560
timeout ${TUNE_S:-240} python3 bench/device/tune_loop.py measure /tmp/t/tune10 "$out/measured10.json" \
  --runtime $L --budget-s $(( ${TUNE_S:-240} - 20 )) > "$out/tune10.log" 2>&1
echo "tune: exit $?"; grep -E "measured|budget|rror|\[" "$out/tune10.log" | tail -14
echo "[$(( $(date +%s) - t0 )) s] tuned"
timeout 120 python3 bench/device/run.py --artifacts /tmp/t/art --runtime $L \
  --out /tmp/art-check --quick --no-isolate --kernel-timeout 60 > "$out/art-check.log" 2>&1
echo "run.py --quick: exit $?"; grep -E "FAIL|fail|passed|kernels" "$out/art-check.log" | tail -6
ks=""
for dt in f16 bf16; do for d in 64 128 256; do for m in none causal_br; do ks="$ks${ks:+,}attn_${dt}_d${d}_$m"; done; done; done
timeout $(( $(left) - 130 )) python3 bench/device/run.py --artifacts /tmp/t/art --runtime $L \
  --out /tmp/matrix --no-isolate --kernel-timeout 60 --commit session10-r3 --kernels "$ks" > "$out/matrix.log" 2>&1
echo "run.py timed: exit $?"; tail -3 "$out/matrix.log"
python3 bench/device/make_table.py /tmp/matrix/results.json > "$out/matrix.md" 2>/dev/null
echo "[$(( $(date +%s) - t0 )) s] matrix timed"
timeout $(( $(left) - 5 )) compute-sanitizer --tool racecheck --error-exitcode 3 \
  python3 bench/device/sanitize.py --artifacts /tmp/t/art --runtime $L attn_f16_d128_none > "$out/racecheck.log" 2>&1
echo "racecheck: exit $?"; tail -3 "$out/racecheck.log"
echo "[$(( $(date +%s) - t0 )) s] done"
