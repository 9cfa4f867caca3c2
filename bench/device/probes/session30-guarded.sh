#!/usr/bin/env bash
# Thirtieth session: `guarded_rescale` (the f16 softcap's reference moved
# only when a partial row sum of p passes 2^15, no per-score maximum)
# against `rescale_slack = 8`, same kernels otherwise
# (session30-guarded-variants.txt: the 192 x 80 async_pv kernel of the
# f16 softcap default, not persistent (16384) and persistent (2048-8192);
# the causal bottom-right softcap's 128 x 128 default, eager, with the
# slack and guarded). Correctness first (run.py --quick: odd lengths,
# Nq != Nk, one row, NaN/Inf inputs, strided; sanitizers on the guarded
# kernels), then interleaved pairs, then the guarded kernel against the
# plain f16 kernel (bases.tgz).
# Build: bash bench/device/build_variants.sh .device/gd < bench/device/probes/session30-guarded-variants.txt
#        tar czf .device/pack/gd.tgz -C .device gd
# Carry .device/pack and .device/include. usage: session30-guarded.sh [LIMIT_S]
set -uo pipefail
source bench/device/probes/device_setup.sh ${1:-240}
exec > >(tee "$out/guarded-summary.txt") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
timeout 90 python3 bench/device/run.py --artifacts /tmp/t/gd --runtime $L --kernels 'g*,c*' \
  --out /tmp/check-gd --quick --no-isolate --kernel-timeout 30 > "$out/gd-check.log" 2>&1
rc=$?; echo "[$(( $(date +%s) - t0 )) s] run.py --quick: exit $rc"; grep -E "FAIL|passed" "$out/gd-check.log" | cut -c1-160 | head -12
for tool in memcheck racecheck; do
  timeout 50 compute-sanitizer --tool $tool --error-exitcode 3 \
    python3 bench/device/sanitize.py --artifacts /tmp/t/gd --runtime $L gg_f16,cg_f16 > "$out/gd-$tool.log" 2>&1
  rc=$?; echo "$tool: exit $rc"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|^FAIL" "$out/gd-$tool.log" | cut -c1-140 | tail -3
done
timeout $(( $(left) * 6 / 10 )) python3 bench/device/pair.py --artifacts /tmp/t/gd --runtime $L \
  --out "$out/gd-pairs.json" --rounds 3 --ns 1024,4096,16384 \
  --pairs gg_f16=gs_f16,ggp_f16=gsp_f16,cg_f16=cc_f16,cs_f16=cc_f16 > "$out/gd-pairs.txt" 2>&1
rc=$?; echo "[$(( $(date +%s) - t0 )) s] pairs: exit $rc"; grep -E "A/B|ERROR" "$out/gd-pairs.txt" | cut -c1-120
timeout $(( $(left) - 5 )) python3 bench/device/pair.py --artifacts /tmp/t/gd --artifacts-b /tmp/t/bases --runtime $L \
  --out "$out/gd-vs-plain.json" --rounds 3 --ns 1024,4096,16384 \
  --pairs gg_f16=attn_f16_d128_none,gs_f16=attn_f16_d128_none > "$out/gd-vs-plain.txt" 2>&1
rc=$?; echo "[$(( $(date +%s) - t0 )) s] pairs against plain: exit $rc"; grep -E "A/B|ERROR" "$out/gd-vs-plain.txt" | cut -c1-120
