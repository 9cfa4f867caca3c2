#!/usr/bin/env bash
# Eighteenth session, device run 2 (outputs in $OUT/r2.tgz; run 1, the same
# script, hung: a producer of 32 registers beside consumers of 240 asked
# for more than the CTA had): the bias
# staged through shared memory by the TMA producer (stage_loads), built by
# build_variants.sh from session18-stage-variants.txt into sv.tgz (sl0:
# the tuned 128 x 80 async_pv persistent configuration, sl1: the same with
# stage_loads, sl2: 128 x 64 with it (K's swizzled layout for the bias);
# nb: the same configuration without a bias).
#  1. run.py --quick on the staging kernels (the points whose Nk makes the
#     bias's rows a multiple of 16 bytes; the runtime refuses the others:
#     TMA);
#  2. pair.py sl1 / sl0, sl2 / sl0, N = 1024 / 4096 / 16384;
#  3. the bias's cost with the staging (against nb), N = 4096 / 16384;
#  4. memcheck and racecheck on two staging kernels (small shapes).
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/r2
source bench/device/probes/device_setup.sh 420
finish() { tar czf "$final/r2.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
timeout 90 python3 bench/device/run.py --artifacts /tmp/t/sv --runtime $L --kernels 'sl1_*,sl2_*' \
  --out /tmp/sl-check --quick --no-isolate --kernel-timeout 60 > "$out/check-sl.log" 2>&1
echo "run.py --quick staging kernels: exit $?"; grep -E "FAIL" "$out/check-sl.log" | cut -c1-150 | sort | uniq -c | sort -rn | head -30; grep -E "passed" "$out/check-sl.log" | tail -3
echo "[$(( $(date +%s) - t0 )) s]"
p="sl1_f16_bias=sl0_f16_bias,sl1_bf16_b1h1=sl0_bf16_b1h1,sl1_f16_b1_ctl=sl0_f16_b1_ctl,sl1_bf16_h1=sl0_bf16_h1,sl2_f16_bias=sl0_f16_bias,sl2_bf16_b1h1=sl0_bf16_b1h1"
timeout 150 python3 bench/device/pair.py --artifacts /tmp/t/sv \
  --runtime $L --out "$out/pairs-stage.json" --rounds 2 --ns 1024,4096,16384 --pairs "$p" > "$out/pairs-stage.txt" 2>&1
echo "pairs (staged / not): exit $?"; grep -E "A/B" "$out/pairs-stage.txt" | cut -c1-100
echo "[$(( $(date +%s) - t0 )) s]"
p="sl0_f16_bias=nb_f16,sl1_f16_bias=nb_f16,sl0_bf16_b1h1=nb_bf16,sl1_bf16_b1h1=nb_bf16"
timeout 80 python3 bench/device/pair.py --artifacts /tmp/t/sv --runtime $L \
  --out "$out/pairs-bias.json" --rounds 2 --ns 4096,16384 --pairs "$p" > "$out/pairs-bias.txt" 2>&1
echo "bias cost: exit $?"; grep -E "A/B|bias" "$out/pairs-bias.txt" | cut -c1-160
echo "[$(( $(date +%s) - t0 )) s]"
for tool in memcheck racecheck; do
  timeout 60 compute-sanitizer --tool $tool --error-exitcode 3 \
    python3 bench/device/sanitize.py --artifacts /tmp/t/sv --runtime $L sl1_f16_bias,sl2_bf16_b1h1 > "$out/$tool.log" 2>&1
  echo "$tool: exit $?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|^ok|^FAIL" "$out/$tool.log" | cut -c1-140 | tail -16
done
echo "[$(( $(date +%s) - t0 )) s] done"
