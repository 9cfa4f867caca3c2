#!/usr/bin/env bash
# Twenty-ninth session: the f16 softcap kernel (192 x 80, 12 warps,
# async_pv, stage_stores: the tuned H200 winner at 16384, PTX identical to
# session28-sc.sh's sc192_f16) with the lazy rescale and a slack of 8 / 4
# (the reference maximum moves only when a row's maximum passes it by more
# than the slack; the output's rescale runs under a warp vote), which the
# configuration passes set only for plain D = 128 kernels ("score
# modifications: not measured"). bf16 softcap kernels take max_bound and
# have no rescale; f16 P cannot, so f16 pays the row maximum and the
# rescale, the difference between their costs (1.17x against 1.09x).
# Pack: .device/sl built by
#   C="block_m = 192, block_n = 80, warps = 12, stages = 2; wgmma = true, overlap_softmax = true, warp_specialize = true, async_pv = true, stage_stores = true"
#   printf '%s\n' "scb_f16 f16 128 none+softcap=30.0 $C" \
#     "scl_f16 f16 128 none+softcap=30.0 $C, lazy_rescale = true, rescale_slack = 8" \
#     "scl4_f16 f16 128 none+softcap=30.0 $C, lazy_rescale = true, rescale_slack = 4" |
#     bash bench/device/build_variants.sh .device/sl
# plus attn_f16_d128_none* of the default build (session28-sc.sh's
# .device/sc), then tar czf .device/pack/sl.tgz -C .device sl. Carry
# .device/pack and .device/include.
set -uo pipefail
source bench/device/probes/device_setup.sh ${1:-300}
exec > >(tee "$out/summary.txt") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
timeout 120 python3 bench/device/run.py --artifacts /tmp/t/sl --runtime $L --kernels 'scl_f16,scl4_f16,scb_f16' \
  --out /tmp/check-sl --quick --no-isolate --kernel-timeout 40 > "$out/check.log" 2>&1
echo "run.py --quick: exit $?"; grep -E "FAIL" "$out/check.log" | cut -c1-160 | head; tail -2 "$out/check.log" | cut -c1-200
for tool in memcheck racecheck; do
  timeout 60 compute-sanitizer --tool $tool --error-exitcode 3 \
    python3 bench/device/sanitize.py --artifacts /tmp/t/sl --runtime $L scl_f16 > "$out/$tool.log" 2>&1
  echo "$tool: exit $?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|^FAIL" "$out/$tool.log" | cut -c1-140 | tail -3
done
timeout $(( $(left) - 5 )) python3 bench/device/pair.py --artifacts /tmp/t/sl --runtime $L \
  --out "$out/pairs.json" --rounds 3 --ns 1024,4096,16384 \
  --pairs scl_f16=scb_f16,scl4_f16=scb_f16,scb_f16=attn_f16_d128_none,scl_f16=attn_f16_d128_none,scl4_f16=attn_f16_d128_none > "$out/pairs.txt" 2>&1
echo "pairs: exit $?"; grep -E "A/B" "$out/pairs.txt" | cut -c1-130
