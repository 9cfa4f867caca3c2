#!/usr/bin/env bash
# Seventeenth session, device run 3 (outputs in $OUT/r3.tgz): the bias
# prefetched into L1 one block ahead (prefetch_loads), built by
# build_variants.sh from session17-prefetch-variants.txt into pf.tgz
# (pf0: the tuned 128 x 80 async_pv persistent configuration, pf1: the
# same with prefetch_loads, pf2: 128 x 64 with it); p2.tgz (run 2's build)
# for the kernels without a bias.
#  1. run.py --quick on the prefetching kernels; memcheck on two;
#  2. pair.py pf1 / pf0 and pf2 / pf0, N = 1024 / 4096 / 16384;
#  3. the bias's cost with and without the prefetch (against p2's
#     attn_*_d128_none), N = 4096 / 16384.
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/r3
source bench/device/probes/device_setup.sh 430
finish() { tar czf "$final/r3.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
timeout 90 python3 bench/device/run.py --artifacts /tmp/t/pf --runtime $L --kernels 'pf1_*,pf2_*' \
  --out /tmp/pf-check --quick --no-isolate --kernel-timeout 60 > "$out/check-pf.log" 2>&1
echo "run.py --quick prefetch kernels: exit $?"; grep -E "FAILED|passed|FAIL" "$out/check-pf.log" | tail -4
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 3 \
  python3 bench/device/sanitize.py --artifacts /tmp/t/pf --runtime $L pf1_f16_bias,pf1_f16_b1_ctl > "$out/memcheck.log" 2>&1
echo "memcheck: exit $?"; grep -E "ERROR SUMMARY|FAIL" "$out/memcheck.log" | tail -2
echo "[$(( $(date +%s) - t0 )) s]"
p="pf1_f16_bias=pf0_f16_bias,pf1_bf16_b1h1=pf0_bf16_b1h1,pf1_f16_b1_ctl=pf0_f16_b1_ctl,pf1_bf16_h1=pf0_bf16_h1,pf2_f16_bias=pf0_f16_bias,pf2_bf16_b1h1=pf0_bf16_b1h1"
timeout 150 python3 bench/device/pair.py --artifacts /tmp/t/pf \
  --runtime $L --out "$out/pairs-prefetch.json" --rounds 2 --ns 1024,4096,16384 --pairs "$p" > "$out/pairs-prefetch.txt" 2>&1
echo "pairs (prefetch / not): exit $?"; grep -E "A/B" "$out/pairs-prefetch.txt" | cut -c1-100
echo "[$(( $(date +%s) - t0 )) s]"
p="pf0_f16_bias=attn_f16_d128_none,pf1_f16_bias=attn_f16_d128_none,pf0_bf16_b1h1=attn_bf16_d128_none,pf1_bf16_b1h1=attn_bf16_d128_none"
timeout $(( $(left) - 10 )) python3 bench/device/pair.py --artifacts /tmp/t/pf --artifacts-b /tmp/t/p2 --runtime $L \
  --out "$out/pairs-bias.json" --rounds 2 --ns 4096,16384 --pairs "$p" > "$out/pairs-bias.txt" 2>&1
echo "bias cost: exit $?"; grep -E "A/B|bias" "$out/pairs-bias.txt" | cut -c1-160
echo "[$(( $(date +%s) - t0 )) s] done"
