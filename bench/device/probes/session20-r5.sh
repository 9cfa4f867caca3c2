#!/usr/bin/env bash
# Twentieth session, device run 5 (outputs in $OUT/r5.tgz): the no-LSE
# kernels with their own database entries (run 4's measurement merged into
# data/tuning/h200-sm_90a.json) against the heuristic's:
# bench/device/probes/session20-build-nolse.sh .device/nl .device/nl0.
#  1. run.py --quick on nl/ (12 kernels: odd shapes, NaN/Inf, poisoned
#     outputs);
#  2. pair.py nl / nl0, N = 512 .. 16384, 2 interleaved rounds.
# Packs: .device/pack/nl.tgz, nl0.tgz.
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/r5
source bench/device/probes/device_setup.sh 300
finish() { tar czf "$final/r5.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
timeout 100 python3 bench/device/run.py --artifacts /tmp/t/nl --runtime $L --kernels '*' \
  --out /tmp/nl-check --quick --no-isolate --kernel-timeout 60 > "$out/check-nl.log" 2>&1
echo "run.py --quick no-LSE kernels: exit $?"; grep -E "FAIL" "$out/check-nl.log" | cut -c1-160 | head; tail -3 "$out/check-nl.log" | cut -c1-200
echo "[$(( $(date +%s) - t0 )) s]"
p=""
for dt in f16 bf16; do for d in 64 128 256; do for m in none causal_br; do
  p="$p${p:+,}nl_${dt}_d${d}_${m}=nl_${dt}_d${d}_${m}"
done; done; done
timeout $(( $(left) - 10 )) python3 bench/device/pair.py --artifacts /tmp/t/nl --artifacts-b /tmp/t/nl0 \
  --runtime $L --out "$out/pairs-nolse.json" --rounds 2 --ns 512,1024,2048,4096,8192,16384 --pairs "$p" > "$out/pairs-nolse.txt" 2>&1
echo "no LSE, own entries / heuristic: exit $?"; grep -E "A/B" "$out/pairs-nolse.txt" | cut -c1-100
echo "[$(( $(date +%s) - t0 )) s] done"
