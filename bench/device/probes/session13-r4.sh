#!/usr/bin/env bash
# Thirteenth session, device run 4 (outputs in $OUT/r4.tgz): issue 9's
# "never slower than the sm_80 kernel": the benchmark matrix's 24 default
# kernels built for sm_90a (.device/pack/m90.tgz) against the same kernels
# built for sm_80 (.device/pack/m80.tgz; `ATTN_MAIN_ONLY=1 bash
# bench/device/build_artifacts.sh .device/m80 sm_80`, the mma.sync
# lowering, loaded on the H200), interleaved by pair.py (A = sm_90a,
# B = sm_80, same names, same inputs), N = 512 .. 16384. run.py --quick on
# the sm_80 set first (the sm_90a set is checked in every matrix run).
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/r4
source bench/device/probes/device_setup.sh 450
finish() { tar czf "$final/r4.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
timeout 150 python3 bench/device/run.py --artifacts /tmp/t/m80 --runtime $L \
  --out /tmp/m80-check --quick --no-isolate --kernel-timeout 60 > "$out/check-m80.log" 2>&1
echo "run.py --quick m80: exit $?"; grep -E "FAILED|passed" "$out/check-m80.log" | tail -3
p=""
for dt in f16 bf16; do for d in 64 128 256; do for m in none causal_br causal_tl window_br; do
  p="$p${p:+,}attn_${dt}_d${d}_${m}=attn_${dt}_d${d}_${m}"
done; done; done
timeout $(( $(left) - 10 )) python3 bench/device/pair.py --artifacts /tmp/t/m90 --artifacts-b /tmp/t/m80 \
  --runtime $L --out "$out/pairs.json" --rounds 2 --ns 512,1024,2048,4096,8192,16384 --pairs "$p" > "$out/pairs.txt" 2>&1
echo "pairs: exit $?"; grep -E "A/B" "$out/pairs.txt" | awk '{print $1, $2, $7}' | sort -k3 -n | head -12
echo "[$(( $(date +%s) - t0 )) s] done"
