#!/usr/bin/env bash
# Thirty-second session: the f16 D = 128 bias kernels with the conditional
# rescale (lazy_rescale, rescale_slack = 8, which the defaults give the
# plain and softcap kernels only) and with the 192 x 80 three-warpgroup
# tile (the plain kernel's at 16384 keys; the bias keys were tuned on
# 2026-12-04, before the 192-row forms were in the search space), against
# today's database kernel (128 x 112 persistent async_pv). Variants:
# session32-bias-variants.txt (bd = the database's form, bs = + slack,
# bw = 192 x 80 + slack, bp = bw persistent with group_m; fd / fs = the
# full bias without / with slack). Correctness first (run.py --quick:
# odd lengths, Nq != Nk, one row, NaN/Inf, strided: the strided and odd
# launches take the TMA fallbacks), memcheck on two, then interleaved
# pairs, then every variant against the plain f16 kernel (the `all` pack).
# Build: bash bench/device/build_variants.sh .device/bv < bench/device/probes/session32-bias-variants.txt
#        tar czf .device/pack/bv.tgz -C .device bv   (beside all.tgz)
# Carry .device/pack and .device/include. usage: session32-bias.sh [LIMIT_S]
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/bias
source bench/device/probes/device_setup.sh ${1:-300}
finish() { tar czf "$final/bias.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/bias-summary.txt" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
timeout 120 python3 bench/device/run.py --artifacts /tmp/t/bv --runtime $L \
  --out "$out/check" --quick --no-isolate --kernel-timeout 30 > "$out/check.log" 2>&1
rc=$?; echo "[$(( $(date +%s) - t0 )) s] run.py --quick: exit $rc"; grep -E "FAIL|passed" "$out/check.log" | cut -c1-160 | head -12
[ -f "$out/check/results.json" ] && python3 bench/device/make_table.py "$out/check/results.json" > "$out/check-table.md"
timeout 40 compute-sanitizer --tool memcheck --error-exitcode 3 \
  python3 bench/device/sanitize.py --artifacts /tmp/t/bv --runtime $L bw_f16,bs_f16 > "$out/memcheck.log" 2>&1
rc=$?; echo "memcheck: exit $rc"; grep -E "ERROR SUMMARY|^FAIL" "$out/memcheck.log" | cut -c1-140 | tail -3
timeout $(( $(left) * 5 / 10 )) python3 bench/device/pair.py --artifacts /tmp/t/bv --runtime $L \
  --out "$out/pairs.json" --rounds 3 --ns 1024,4096,16384 \
  --pairs bs_f16=bd_f16,bw_f16=bd_f16,bp_f16=bd_f16,fs_f16=fd_f16 > "$out/pairs.txt" 2>&1
rc=$?; echo "[$(( $(date +%s) - t0 )) s] pairs: exit $rc"; grep -E "A/B|ERROR" "$out/pairs.txt" | cut -c1-120
timeout $(( $(left) - 5 )) python3 bench/device/pair.py --artifacts /tmp/t/bv --artifacts-b /tmp/t/all --runtime $L \
  --out "$out/vs-plain.json" --rounds 3 --ns 1024,4096,16384 \
  --pairs bd_f16=attn_f16_d128_none,bs_f16=attn_f16_d128_none,bw_f16=attn_f16_d128_none,bp_f16=attn_f16_d128_none,fd_f16=attn_f16_d128_none,fs_f16=attn_f16_d128_none > "$out/vs-plain.txt" 2>&1
rc=$?; echo "[$(( $(date +%s) - t0 )) s] pairs against plain: exit $rc"; grep -E "A/B|ERROR" "$out/vs-plain.txt" | cut -c1-120
