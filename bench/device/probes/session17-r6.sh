#!/usr/bin/env bash
# Seventeenth session, device run 6 (outputs in $OUT/r6.tgz): the score's
# scale and the bias's add contracted into one FMA. fc.tgz: the pf0_*
# kernels of session17-prefetch-variants.txt (tuned 128 x 80 async_pv
# persistent, no prefetch) built with the contraction; pf.tgz: the same
# built before it (run 3).
#  1. run.py --quick on fc's pf0 kernels;
#  2. pair.py fc / pf, N = 1024 / 4096 / 16384.
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/r6
source bench/device/probes/device_setup.sh 300
finish() { tar czf "$final/r6.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
timeout 80 python3 bench/device/run.py --artifacts /tmp/t/fc --runtime $L --kernels 'pf0_*' \
  --out /tmp/fc-check --quick --no-isolate --kernel-timeout 60 > "$out/check-fc.log" 2>&1
echo "run.py --quick fc: exit $?"; grep -E "FAILED|passed|FAIL" "$out/check-fc.log" | tail -4
p="pf0_f16_bias=pf0_f16_bias,pf0_bf16_b1h1=pf0_bf16_b1h1,pf0_f16_b1_ctl=pf0_f16_b1_ctl,pf0_bf16_h1=pf0_bf16_h1"
timeout $(( $(left) - 10 )) python3 bench/device/pair.py --artifacts /tmp/t/fc --artifacts-b /tmp/t/pf \
  --runtime $L --out "$out/pairs-fma.json" --rounds 2 --ns 1024,4096,16384 --pairs "$p" > "$out/pairs-fma.txt" 2>&1
echo "pairs (fma / mul+add): exit $?"; grep -E "A/B" "$out/pairs-fma.txt" | cut -c1-100
echo "[$(( $(date +%s) - t0 )) s] done"
