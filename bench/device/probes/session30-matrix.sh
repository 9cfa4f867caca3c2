#!/usr/bin/env bash
# Thirtieth session: device correctness of the whole default matrix as the
# build now makes it (build_artifacts.sh: the 24 benchmark kernels, the
# other default shapes, every score modification, the TMA fallbacks),
# run.py --quick (odd lengths, Nq != Nk, one row, fully masked rows, NaN/Inf
# inputs, strided views, GQA; fp32 reference, NaN-poisoned outputs), then
# memcheck on a few kernels of each kind while time is left. Outputs: one
# tarball and the summary (the device returns a limited number of files).
# Build: bash bench/device/build_artifacts.sh .device/all; tar czf .device/pack/all.tgz -C .device all
# (and move the other packs out of .device/pack). Carry .device/pack and
# .device/include. usage: session30-matrix.sh [LIMIT_S]
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/matrix
source bench/device/probes/device_setup.sh ${1:-560}
finish() { tar czf "$final/matrix.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/matrix-summary.txt" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
timeout $(( $(left) - 60 )) python3 bench/device/run.py --artifacts /tmp/t/all --runtime $L \
  --out "$out/quick" --quick --no-isolate --kernel-timeout 60 > "$out/quick.log" 2>&1
rc=$?; echo "[$(( $(date +%s) - t0 )) s] run.py --quick (whole matrix): exit $rc"
grep -E "FAIL|passed" "$out/quick.log" | cut -c1-200 | tail -15
[ -f "$out/quick/results.json" ] && python3 bench/device/make_table.py "$out/quick/results.json" > "$out/quick-table.md"
timeout $(( $(left) - 5 )) compute-sanitizer --tool memcheck --error-exitcode 3 \
  python3 bench/device/sanitize.py --artifacts /tmp/t/all --runtime $L \
  attn_f16_d128_causal_br,mod_f16_d128_softcap,mod_f16_d128_bias_b1h1,mod_bf16_d64_all > "$out/memcheck.log" 2>&1
rc=$?; echo "[$(( $(date +%s) - t0 )) s] memcheck: exit $rc"; grep -E "ERROR SUMMARY|^FAIL" "$out/memcheck.log" | cut -c1-140 | tail -3
