#!/usr/bin/env bash
# Sixteenth session, device run 7 (outputs in $OUT/r7.tgz): the database
# with run 6's causal bias keys merged, after the tuning key learned the
# bias's broadcast shape (bias, bias_b1, bias_h1, bias_b1h1). p4.tgz:
# build_artifacts.sh (45 kernels: two new full-bias causal kernels,
# mod_f16_d128_bias_causal_tl and mod_bf16_d128_bias_causal_br; the fully
# broadcast bias kernel back on the heuristic); p4h.tgz: the two new ones
# with --tuning-db=none (the heuristic).
#  1. run.py --quick on p4's bias kernels;
#  2. memcheck and racecheck on the new causal kernels;
#  3. pair.py p4 against p4h on them, N = 1024 / 4096 / 16384.
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/r7
source bench/device/probes/device_setup.sh 300
finish() { tar czf "$final/r7.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
timeout 70 python3 bench/device/run.py --artifacts /tmp/t/p4 --runtime $L --kernels 'mod_*bias*' \
  --out /tmp/p4-check --quick --no-isolate --kernel-timeout 60 > "$out/check-p4.log" 2>&1
echo "run.py --quick p4 bias: exit $?"; grep -E "FAILED|passed|FAIL" "$out/check-p4.log" | tail -4
for tool in memcheck racecheck; do
  timeout 60 compute-sanitizer --tool $tool --error-exitcode 3 \
    python3 bench/device/sanitize.py --artifacts /tmp/t/p4 --runtime $L \
    mod_f16_d128_bias_causal_tl__n8192,mod_bf16_d128_bias_causal_br > "$out/$tool.log" 2>&1
  echo "$tool: exit $?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|FAIL" "$out/$tool.log" | tail -2
done
echo "[$(( $(date +%s) - t0 )) s]"
p="mod_f16_d128_bias_causal_tl=mod_f16_d128_bias_causal_tl,mod_bf16_d128_bias_causal_br=mod_bf16_d128_bias_causal_br"
timeout $(( $(left) - 10 )) python3 bench/device/pair.py --artifacts /tmp/t/p4 --artifacts-b /tmp/t/p4h \
  --runtime $L --out "$out/pairs-causal.json" --rounds 2 --ns 1024,4096,16384 --pairs "$p" > "$out/pairs-causal.txt" 2>&1
echo "pairs (tuned / heuristic): exit $?"; grep -E "A/B" "$out/pairs-causal.txt" | cut -c1-90
echo "[$(( $(date +%s) - t0 )) s] done"
