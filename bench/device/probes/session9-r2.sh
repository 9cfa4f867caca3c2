#!/usr/bin/env bash
# Ninth session, device run 2.
#  1. correctness of the matrix built with the tuned database (run.py
#     --quick over .device/pack/art.tgz, build_artifacts.sh's kernels);
#  2. the window keys tuned again with the cost model that ranks
#     one-warpgroup kernels by their CTAs' overlap (.device/tunew);
#  3. a bias under a causal mask on the warp-specialized kernel against the
#     wgmma one it replaces (.device/exp2, build_variants.sh);
#  4. compute-sanitizer memcheck over the new tiles (block_n 80, 144, 176,
#     192) and the bias kernel;
#  5. the sm_80 keys (.device/tune80), within what is left;
#  6. the tuned kernels against the heuristic's, apart from the tuning run
#     (tune_validate.sh's pairs over .device/val, pair.py), in the rest.
# usage (device): bash bench/device/probes/session9-r2.sh
set -uo pipefail
source bench/device/probes/device_setup.sh 380
timeout 100 python3 bench/device/run.py --artifacts /tmp/t/art --runtime $L \
  --out /tmp/art-check --quick --no-isolate --kernel-timeout 60 > "$out/art-check.txt" 2>&1
echo "run.py: exit $?"; grep -E "FAIL|fail|passed|kernels" "$out/art-check.txt" | tail -12
cp /tmp/art-check/results.json "$out/art-check.json" 2>/dev/null
echo "[$(( $(date +%s) - t0 )) s] matrix checked"
tune() {  # DIR MEASURED BUDGET
  [ -d /tmp/t/$1 ] || return
  timeout $(( $3 + 30 )) python3 bench/device/tune_loop.py measure /tmp/t/$1 "$out/$2.json" \
    --runtime $L --budget-s $3 > "$out/$1.txt" 2>&1
  echo "$1: exit $?"; grep -E "measured|budget|rror" "$out/$1.txt" | tail -8
}
tune tunew measuredw 50
echo "[$(( $(date +%s) - t0 )) s] window keys tuned"
timeout 40 python3 bench/device/run.py --artifacts /tmp/t/exp2 --runtime $L \
  --out /tmp/exp2-check --quick --no-isolate --kernel-timeout 30 > "$out/exp2-check.txt" 2>&1
echo "exp2 run.py: exit $?"; grep -E "FAIL|fail|passed" "$out/exp2-check.txt" | tail -5
timeout 40 python3 bench/device/pair.py --artifacts /tmp/t/exp2 --runtime $L \
  --out "$out/exp2-pairs.json" --rounds 4 --ns 1024,4096,16384 \
  --pairs "$(cat /tmp/t/exp2/pairs.txt)" > "$out/exp2-pairs.txt" 2>&1
echo "exp2 pairs: exit $?"; cat "$out/exp2-pairs.txt"
echo "[$(( $(date +%s) - t0 )) s] bias done"
timeout 45 compute-sanitizer --tool memcheck --error-exitcode 3 \
  python3 bench/device/sanitize.py --artifacts /tmp/t/exp2 --runtime $L "$(cat /tmp/t/exp2/sanitize.txt)" \
  > "$out/sanitize.txt" 2>&1
echo "sanitize: exit $?"; tail -8 "$out/sanitize.txt"
echo "[$(( $(date +%s) - t0 )) s] sanitized"
b=$(( $(left) - 90 )); (( b > 20 )) && tune tune80 measured80 $b
echo "[$(( $(date +%s) - t0 )) s] sm_80 keys tuned"
(( $(left) > 30 )) && timeout $(( $(left) - 10 )) python3 bench/device/pair.py --artifacts /tmp/t/val --runtime $L \
  --out "$out/val-pairs.json" --rounds 3 --ns 1024,16384 \
  --pairs "$(cat /tmp/t/val/pairs.txt)" > "$out/val-pairs.txt" 2>&1
echo "val: exit $?"; tail -40 "$out/val-pairs.txt"
echo "[$(( $(date +%s) - t0 )) s] done"
