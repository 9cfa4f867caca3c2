#!/usr/bin/env bash
# Forty-fifth session: `guarded_rescale` with one warp-uniform branch a
# block (a vote over the warp's rows after all their exponentials,
# SoftmaxToNVVM guardedRows) against the thirtieth session's form (one
# divergent branch per row) and against `rescale_slack = 8` (the f16
# softcap's default), on the 192 x 80 async_pv kernel of the default at
# N > 8192 (session30-guarded-variants.txt's gs_f16 / gg_f16).
# Pack g45 (.device/g45): gs_f16 and go_f16 built at main (4b50ec9),
# gu_f16 with the uniform branch:
#   grep -E "^(gs_f16|gg_f16) " bench/device/probes/session30-guarded-variants.txt |
#     sed 's/^gg_f16/go_f16/' | bash bench/device/build_variants.sh .device/g0   # at 4b50ec9
#   grep -E "^gg_f16 " bench/device/probes/session30-guarded-variants.txt |
#     sed 's/^gg_f16/gu_f16/' | bash bench/device/build_variants.sh .device/g1  # with the change
#   (copy the three kernels into .device/g45; tar czf .device/pack/g45.tgz -C .device g45)
# Carry .device/pack (full.tgz, g45.tgz), .device/include.
# usage: session45-guarded.sh [LIMIT_S]
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/g45
source bench/device/probes/device_setup.sh ${1:-150}
finish() { cp "$out"/*.json "$out"/*.log "$out/summary.txt" "$final/" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
timeout 60 python3 bench/device/run.py --artifacts /tmp/t/g45 --runtime $L --kernels gu_f16,go_f16 \
  --out /tmp/check-g45 --quick --no-isolate --kernel-timeout 30 > "$out/g45-check.log" 2>&1
stamp "run.py --quick: exit $?"; grep -E "FAIL|passed" "$out/g45-check.log" | cut -c1-160 | head -8
timeout 40 compute-sanitizer --tool memcheck --error-exitcode 3 \
  python3 bench/device/sanitize.py --artifacts /tmp/t/g45 --runtime $L gu_f16 > "$out/g45-memcheck.log" 2>&1
stamp "memcheck: exit $?"; grep -E "ERROR SUMMARY|^FAIL" "$out/g45-memcheck.log" | cut -c1-140 | tail -2
timeout $(( $(left) * 6 / 10 )) python3 bench/device/pair.py --artifacts /tmp/t/g45 --runtime $L \
  --out "$out/g45-pairs.json" --rounds 5 --ns 1024,4096,16384 \
  --pairs gu_f16=gs_f16,go_f16=gs_f16,gu_f16=go_f16 > "$out/g45-pairs.txt" 2>&1
stamp "pairs: exit $?"; grep -E " vs |A/B" "$out/g45-pairs.txt" | cut -c1-110
timeout $(( $(left) - 5 )) python3 bench/device/pair.py --artifacts /tmp/t/g45 --artifacts-b /tmp/t/full --runtime $L \
  --out "$out/g45-vs-plain.json" --rounds 5 --ns 4096,16384 \
  --pairs gu_f16=attn_f16_d128_none,gs_f16=attn_f16_d128_none > "$out/g45-vs-plain.txt" 2>&1
stamp "against plain: exit $?"; grep -E " vs |A/B" "$out/g45-vs-plain.txt" | cut -c1-110
stamp done
