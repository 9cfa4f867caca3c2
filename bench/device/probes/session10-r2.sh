#!/usr/bin/env bash
# Tenth session, device run 2: the overlapped chain without the last
# block's spare product (PeelLastBlock.cpp).
#  1. correctness of the peeled kernels and their unpeeled twins
#     (run.py --quick over .device/pack/peel.tgz: n_* peeled, o_* the
#     same configurations from the compiler before the peel,
#     session10-peel-{new,old}.txt), then n_* against o_* interleaved
#     (pair.py, N = 512 / 1024 / 4096 / 16384);
#  2. compute-sanitizer memcheck, synccheck and racecheck on small odd
#     shapes (sanitize.py) over three peeled kernels;
#  3. the whole matrix built with the peel and the D = 256 persistent
#     default (build_artifacts.sh, .device/pack/art.tgz), run.py --quick.
# usage (device): bash bench/device/probes/session10-r2.sh
set -uo pipefail
source bench/device/probes/device_setup.sh 500
timeout 60 python3 bench/device/run.py --artifacts /tmp/t/peel --runtime $L \
  --out /tmp/peel-check --quick --no-isolate --kernel-timeout 30 > "$out/peel-check.txt" 2>&1
echo "peel run.py --quick: exit $?"; grep -E "FAIL|fail|passed" "$out/peel-check.txt" | tail -5
p=""
for k in f16_d128_none f16_d128_144_none bf16_d128_none f16_d128_causal_br f16_d128_causal_br_np \
         f16_d256_none bf16_d256_causal_br f16_d64_none f16_d192_none; do p="$p${p:+,}n_$k=o_$k"; done
timeout 200 python3 bench/device/pair.py --artifacts /tmp/t/peel --runtime $L \
  --out "$out/peel-pairs.json" --rounds 4 --ns 512,1024,4096,16384 --pairs "$p" > "$out/peel-pairs.log" 2>&1
echo "peel pairs: exit $?"; cat "$out/peel-pairs.log"
echo "[$(( $(date +%s) - t0 )) s] peel timed"
san=n_f16_d128_none,n_f16_d128_causal_br,n_f16_d256_none
for tool in memcheck synccheck racecheck; do
  (( $(left) > 60 )) || break
  timeout 50 compute-sanitizer --tool $tool --error-exitcode 3 \
    python3 bench/device/sanitize.py --artifacts /tmp/t/peel --runtime $L "$san" > "$out/sanitize-$tool.log" 2>&1
  echo "sanitize $tool: exit $?"; tail -3 "$out/sanitize-$tool.log"
done
echo "[$(( $(date +%s) - t0 )) s] sanitized"
timeout $(( $(left) - 5 )) python3 bench/device/run.py --artifacts /tmp/t/art --runtime $L \
  --out /tmp/art-check --quick --no-isolate --kernel-timeout 60 > "$out/art-check.log" 2>&1
echo "run.py --quick: exit $?"; grep -E "FAIL|fail|passed|kernels" "$out/art-check.log" | tail -12
echo "[$(( $(date +%s) - t0 )) s] done"
