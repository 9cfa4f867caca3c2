#!/usr/bin/env bash
# Forty-seventh session: where the accumulate_bias kernel waits. Nsight
# Compute (--clock-control none; WarpStateStats, SourceCounters,
# SchedulerStats, pipe counts), one launch each at N = 4096, of
#   acc/mod_f16_d128_bias_b1h1: the bias as Q K^T's initial accumulator;
#   full/mod_f16_d128_bias_b1h1: the default bias kernel it would replace.
# Per-SASS-instruction stall samples (--page source --csv --print-source
# sass) come back gzipped, for the lines around the bias's read and the
# products' issue. SPECS (dir:kernel ...) names other kernels instead.
# Carry .device/pack (full.tgz, acc.tgz; those SPECS names),
# .device/include. usage: [SPECS=...] session47-ncu.sh [LIMIT_S]
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/ncu47
source bench/device/probes/device_setup.sh ${1:-200}
finish() { cp "$out"/*.txt "$out"/*.gz "$final/" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
for spec in ${SPECS:-acc:mod_f16_d128_bias_b1h1 full:mod_f16_d128_bias_b1h1}; do
  dir=${spec%%:*}; k=${spec#*:}
  timeout $(( $(left) / 2 )) ncu --clock-control none -k regex:"$k" --launch-skip 2 --launch-count 1 \
    --section SpeedOfLight --section WarpStateStats --section SchedulerStats --section SourceCounters \
    --section InstructionStats \
    --metrics smsp__inst_executed_pipe_xu.sum,smsp__inst_executed_pipe_fma.sum,smsp__inst_executed_pipe_alu.sum,smsp__inst_executed_pipe_lsu.sum,smsp__inst_executed.sum,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active \
    -o "$out/ncu-$dir" python3 bench/device/probes/ncu_pair.py /tmp/t/$dir $L $k 4096 > "$out/ncu-$dir.log" 2>&1
  stamp "ncu $dir: exit $?"
  ncu -i "$out/ncu-$dir.ncu-rep" --page details > "$out/ncu-$dir.txt" 2>&1
  ncu -i "$out/ncu-$dir.ncu-rep" --page source --csv --print-source sass 2>&1 | gzip > "$out/ncu-$dir-sass.csv.gz"
  grep -E "Duration|Issue|Issued|Eligible|No Eligible|Stall|smsp__inst|tensor_op|Warp Cycles" "$out/ncu-$dir.txt" | grep -v "^ *-" | head -30
  cuobjdump -sass /tmp/t/$dir/$k.sm_90a.cubin 2>/dev/null | gzip > "$out/$dir.sass.gz"
done
stamp done
