#!/usr/bin/env bash
# Eighteenth session, device run 4 (outputs in $OUT/r4.tgz): the default
# configuration with a static key length (st.tgz: attn-compile's defaults,
# the H200 database and withKeyLengthSchedule, for D = 128 attention with
# K/V of 4096 keys and a bias [B, H, Nq, 4096] f16 or [1, 1, Nq, 4096]
# bf16: stage_loads on; dy_*: the same with every extent dynamic, the
# unstaged default before).
#  1. static_check.py on the staged kernels (odd Nq, one row, GQA, many
#     tiles, [B, N, H, D], NaN/Inf); memcheck and racecheck on small shapes;
#  2. pair.py st / dy at N = 4096.
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/r4
source bench/device/probes/device_setup.sh 300
finish() { tar czf "$final/r4.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
timeout 90 python3 bench/device/probes/static_check.py --artifacts /tmp/t/st --runtime $L --nk 4096 \
  st_f16_bias,st_bf16_b1h1 > "$out/check.log" 2>&1
echo "static_check: exit $?"; cat "$out/check.log" | cut -c1-140
for tool in memcheck racecheck; do
  timeout 60 compute-sanitizer --tool $tool --error-exitcode 3 \
    python3 bench/device/probes/static_check.py --artifacts /tmp/t/st --runtime $L --nk 4096 --small \
    st_f16_bias,st_bf16_b1h1 > "$out/$tool.log" 2>&1
  echo "$tool: exit $?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|FAIL" "$out/$tool.log" | cut -c1-140 | tail -4
done
echo "[$(( $(date +%s) - t0 )) s]"
timeout $(( $(left) - 10 )) python3 bench/device/pair.py --artifacts /tmp/t/st --runtime $L \
  --out "$out/pairs-static.json" --rounds 2 --ns 4096 --pairs "st_f16_bias=dy_f16_bias,st_bf16_b1h1=dy_bf16_b1h1" > "$out/pairs-static.txt" 2>&1
echo "pairs (static staged / dynamic): exit $?"; grep -E "A/B" "$out/pairs-static.txt" | cut -c1-100
echo "[$(( $(date +%s) - t0 )) s] done"
