#!/usr/bin/env bash
# Twenty-fourth session, device run "grp" (outputs in $OUT/grp.tgz): the
# grouped tile order of persistent kernels (gpu_config's group_m) for a
# bias broadcast over batches or heads. Build first:
#   bash bench/device/build_variants.sh .device/grp < bench/device/probes/session24-grp-variants.txt
#   mkdir -p .device/pack && rm -f .device/pack/*.tgz && tar czf .device/pack/grp.tgz -C .device grp
# and carry .device/pack and .device/include.
#  1. run.py --quick on every variant (odd lengths, grid_m not a multiple
#     of the group, Nq = 1, GQA, strided views, NaN/Inf, poisoned outputs);
#     compute-sanitizer memcheck on two grouped kernels;
#  2. pair.py, the same kernel with and without group_m (16, and 4 / 8 /
#     32 for the [1, 1, N, N] bias), each bias kind, causal, no bias, D = 64;
#     the bias's cost (grouped and not) against the same tile without a
#     bias; N = 1024 / 4096 / 16384, 3 interleaved rounds.
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/grp
source bench/device/probes/device_setup.sh 400
finish() { tar czf "$final/grp.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/grp-summary.txt" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
timeout 120 python3 bench/device/run.py --artifacts /tmp/t/grp --runtime $L --kernels '*' \
  --out /tmp/check-grp --quick --no-isolate --kernel-timeout 30 > "$out/check-grp.log" 2>&1
echo "run.py --quick (grp): exit $?"; grep -E "FAIL" "$out/check-grp.log" | cut -c1-160 | head; tail -3 "$out/check-grp.log" | cut -c1-200
echo "[$(( $(date +%s) - t0 )) s]"
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 3 \
  python3 bench/device/sanitize.py --artifacts /tmp/t/grp --runtime $L g16,c16 > "$out/memcheck.log" 2>&1
echo "memcheck: exit $?"; grep -E "ERROR SUMMARY|^FAIL" "$out/memcheck.log" | cut -c1-140 | tail -3
echo "[$(( $(date +%s) - t0 )) s]"
p="g16=g0,g8=g0,g32=g0,g4=g0,h16=h0,c16=c0,f16g=f0,n16=n0,d16=d0,g16=n0,g0=n0,d16=nd0,d0=nd0"
timeout $(( $(left) - 10 )) python3 bench/device/pair.py --artifacts /tmp/t/grp \
  --runtime $L --out "$out/pairs-grp.json" --rounds 3 --ns 1024,4096,16384 --pairs "$p" > "$out/pairs-grp.txt" 2>&1
echo "pairs: exit $?"; grep -E "A/B" "$out/pairs-grp.txt" | cut -c1-160
echo "[$(( $(date +%s) - t0 )) s] done"
