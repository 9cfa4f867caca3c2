#!/usr/bin/env bash
# Twenty-fourth session, device run "dg": correctness of the default
# build's kernels that group_m changed (the persistent kernels with a bias
# broadcast over batches or heads: the configuration passes add
# group_m = 16), with their length-dispatch variants and TMA fallbacks.
# Build: bash bench/device/build_artifacts.sh .device/dflt; mkdir -p .device/dg;
#   cp .device/dflt/mod_*_bias_b1* .device/dflt/mod_*_bias_h1* .device/dg/;
#   rm -f .device/pack/*.tgz; tar czf .device/pack/dg.tgz -C .device dg
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/dg
source bench/device/probes/device_setup.sh 200
finish() { cp "$out/summary.txt" "$final/dg-summary.txt" 2>/dev/null; cp "$out/check-dg.log" "$final/" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
timeout 150 python3 bench/device/run.py --artifacts /tmp/t/dg --runtime $L --kernels '*' \
  --out /tmp/check-dg --quick --no-isolate --kernel-timeout 30 > "$out/check-dg.log" 2>&1
echo "run.py --quick (dg): exit $?"; grep -E "FAIL" "$out/check-dg.log" | cut -c1-160 | head; tail -3 "$out/check-dg.log" | cut -c1-200
echo "[$(( $(date +%s) - t0 )) s] done"
