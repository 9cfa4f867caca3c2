#!/usr/bin/env bash
# Thirty-first session: `hoist_row_max` (the f16 softcap's row maximum taken
# from the product's scores before the tanh, attn-hoist-row-max) against
# the same kernels without it (session31-hoist-variants.txt: the D = 128
# softcap's 192 x 80 kernel of 16384 keys, its 128 x 128 persistent
# kernel of 1024, the causal bottom-right 128 x 128 one, the D = 64 one).
# Correctness first (run.py --quick: odd lengths, Nq != Nk, one row,
# NaN/Inf inputs, strided; memcheck on two hoisted kernels), then
# interleaved pairs, then the hoisted and plain D = 128 softcap kernels
# against the plain f16 kernel (the `all` pack). Outputs: one tarball and
# the summary.
# Build: bash bench/device/build_variants.sh .device/hm < bench/device/probes/session31-hoist-variants.txt
#        tar czf .device/pack/hm.tgz -C .device hm  (beside all.tgz)
# Carry .device/pack and .device/include. usage: session31-hoist.sh [LIMIT_S]   (230 s is enough)
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/hoist
source bench/device/probes/device_setup.sh ${1:-300}
finish() { tar czf "$final/hoist.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/hoist-summary.txt" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
timeout 100 python3 bench/device/run.py --artifacts /tmp/t/hm --runtime $L \
  --out "$out/check" --quick --no-isolate --kernel-timeout 30 > "$out/check.log" 2>&1
rc=$?; echo "[$(( $(date +%s) - t0 )) s] run.py --quick: exit $rc"; grep -E "FAIL|passed" "$out/check.log" | cut -c1-160 | head -12
[ -f "$out/check/results.json" ] && python3 bench/device/make_table.py "$out/check/results.json" > "$out/check-table.md"
timeout 40 compute-sanitizer --tool memcheck --error-exitcode 3 \
  python3 bench/device/sanitize.py --artifacts /tmp/t/hm --runtime $L nh_f16,ch_f16 > "$out/memcheck.log" 2>&1
rc=$?; echo "memcheck: exit $rc"; grep -E "ERROR SUMMARY|^FAIL" "$out/memcheck.log" | cut -c1-140 | tail -3
timeout $(( $(left) * 6 / 10 )) python3 bench/device/pair.py --artifacts /tmp/t/hm --runtime $L \
  --out "$out/pairs.json" --rounds 3 --ns 1024,4096,16384 \
  --pairs nh_f16=ns_f16,ph_f16=ps_f16,ch_f16=cs_f16,dh_f16=ds_f16 > "$out/pairs.txt" 2>&1
rc=$?; echo "[$(( $(date +%s) - t0 )) s] pairs: exit $rc"; grep -E "A/B|ERROR" "$out/pairs.txt" | cut -c1-120
timeout $(( $(left) - 5 )) python3 bench/device/pair.py --artifacts /tmp/t/hm --artifacts-b /tmp/t/all --runtime $L \
  --out "$out/vs-plain.json" --rounds 3 --ns 1024,4096,16384 \
  --pairs nh_f16=attn_f16_d128_none,ns_f16=attn_f16_d128_none > "$out/vs-plain.txt" 2>&1
rc=$?; echo "[$(( $(date +%s) - t0 )) s] pairs against plain: exit $rc"; grep -E "A/B|ERROR" "$out/vs-plain.txt" | cut -c1-120
