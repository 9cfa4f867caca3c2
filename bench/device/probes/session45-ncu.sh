#!/usr/bin/env bash
# Forty-fifth session, third call for the broadcast bias: is the staged
# bias kernel bound by L2-to-SM traffic? Nsight Compute (SpeedOfLight and
# MemoryWorkloadAnalysis sections, one launch each, N = 4096, randn) on
#   c112_f16 (c112.tgz): the bias kernel's configuration without a bias;
#   mod_f16_d128_bias_b1h1 from nb.tgz: the bias staged, no consumer work;
#   mod_f16_d128_bias_b1h1 from full.tgz: the default bias kernel.
# Carry .device/pack (full, nb, c112), .device/include.
# usage: session45-ncu.sh [LIMIT_S]
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/ncu45
source bench/device/probes/device_setup.sh ${1:-300}
finish() { cp "$out"/*.txt "$final/" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
for spec in c112:c112_f16 nb:mod_f16_d128_bias_b1h1 full:mod_f16_d128_bias_b1h1; do
  dir=${spec%%:*}; k=${spec#*:}
  timeout 100 ncu -k regex:"$k" --launch-skip 2 --launch-count 1 \
    --section SpeedOfLight --section MemoryWorkloadAnalysis \
    python3 bench/device/probes/ncu_pair.py /tmp/t/$dir $L $k 4096 > "$out/ncu-$dir.txt" 2>&1
  stamp "ncu $dir/$k: exit $?"
  grep -E "Duration|Throughput|L2 Cache|DRAM|L1/TEX|Memory \[|Busy|Bandwidth|Hit Rate" "$out/ncu-$dir.txt" | grep -v "^==" | head -24
done
stamp done
