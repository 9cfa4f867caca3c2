#!/usr/bin/env bash
# Thirty-eighth session: Nsight Compute on the plain, broadcast-bias and
# f16 softcap kernels of 5900f72 at N = 4096 (B = 4, H = 16, D = 128), for
# where the bias's and the softcap's time goes in today's kernels: pipe
# use (tensor, FMA, ALU, XU, LSU), issue activity, instruction counts and
# L2 / shared-memory throughput (the eighteenth session's run measured an
# older bias kernel). Pack: full. Carry .device/pack, .device/include.
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/ncu
source bench/device/probes/device_setup.sh ${1:-300}
finish() { tar czf "$final/ncu.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/ncu-summary.txt" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
for k in attn_f16_d128_none mod_f16_d128_bias_b1h1 mod_f16_d128_softcap; do
  timeout $(( $(left) / 3 + 20 )) ncu -k regex:'mod_|attn_' --launch-skip 2 --launch-count 1 \
    --section SpeedOfLight --section MemoryWorkloadAnalysis --section ComputeWorkloadAnalysis \
    --section InstructionStats --section WarpStateStats --section SchedulerStats \
    --metrics smsp__inst_executed_pipe_xu.sum,smsp__inst_executed_pipe_fma.sum,smsp__inst_executed_pipe_alu.sum,smsp__inst_executed_pipe_lsu.sum,smsp__inst_executed.sum,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,lts__t_sectors.sum,lts__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum \
    -o "$out/ncu-$k" python3 bench/device/probes/ncu_pair.py /tmp/t/full $L $k 4096 > "$out/ncu-$k.log" 2>&1
  echo "== $k: ncu exit $?"
  ncu -i "$out/ncu-$k.ncu-rep" --page details > "$out/ncu-$k.txt" 2>&1
  grep -E "Duration|Throughput|Pipe|Issue|Issued|Eligible|No Eligible|Executed Instructions|Stall|smsp__inst|tensor_op|lts__|wavefronts|Hit Rate" "$out/ncu-$k.txt" | grep -v "^ *-" | head -45
done
echo "[$(( $(date +%s) - t0 )) s] done"
