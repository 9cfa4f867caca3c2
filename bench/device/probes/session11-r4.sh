#!/usr/bin/env bash
# Eleventh session, device run 4.
#  1. the re-tuned D = 256 / 192 keys (run 3's measurement merged into the
#     committed database: /tmp/v10/cand.json) validated against the
#     heuristic, apart from the run that chose them: tune_validate.sh's
#     pairs (.device/pack/tval10.tgz), pair.py, 4 rounds, N = 512 / 1024 /
#     4096 / 16384, for tune_review.py;
#  2. the output stores' cost: the heuristic D = 128 / 256 kernels against
#     themselves with every st.global predicated off (store_off.py;
#     .device/pack/probe11.tgz), N = 1024 / 4096 / 16384;
#  3. Nsight Compute on attn_f16_d256_none (persistent, overlapped) and
#     cuDNN's kernel at N = 4096: speed of light, pipes, warp stalls.
# usage (device): bash bench/device/probes/session11-r4.sh
set -uo pipefail
source bench/device/probes/device_setup.sh 560
timeout 300 python3 bench/device/pair.py --artifacts /tmp/t/tval10 --runtime $L \
  --out "$out/val-pairs.json" --rounds 4 --ns 512,1024,4096,16384 \
  --pairs "$(cat /tmp/t/tval10/pairs.txt)" > "$out/val-pairs.txt" 2>&1
echo "val: exit $?"; cat "$out/val-pairs.txt"
echo "[$(( $(date +%s) - t0 )) s] validated"
p="s_attn_f16_d256_none=attn_f16_d256_none,s_attn_bf16_d256_none=attn_bf16_d256_none,s_attn_f16_d128_none=attn_f16_d128_none"
timeout 120 python3 bench/device/pair.py --artifacts /tmp/t/probe11 --runtime $L \
  --out "$out/store-pairs.json" --rounds 4 --ns 1024,4096,16384 --pairs "$p" > "$out/store-pairs.txt" 2>&1
echo "store pairs: exit $?"; cat "$out/store-pairs.txt"
echo "[$(( $(date +%s) - t0 )) s] stores probed"
timeout $(( $(left) - 10 )) ncu -k regex:'attn_|sdpa|fmha|cudnn|flash' --launch-skip 2 --launch-count 2 \
  --section SpeedOfLight --section ComputeWorkloadAnalysis --section WarpStateStats \
  --section SchedulerStats --section InstructionStats --section Occupancy --section LaunchStats \
  -o "$out/ncu-d256" python3 bench/device/probes/ncu_pair.py /tmp/t/probe11 $L attn_f16_d256_none 4096 > "$out/ncu.log" 2>&1
echo "ncu: exit $?"; tail -5 "$out/ncu.log"
ncu -i "$out/ncu-d256.ncu-rep" --page details > "$out/ncu-details.txt" 2>&1
ncu -i "$out/ncu-d256.ncu-rep" --page raw --csv > "$out/ncu-raw.csv" 2>&1
grep -E "^  [a-z_0-9]+.*\(|Duration|Throughput|Pipe|Stall|Issued|Eligible|Active" "$out/ncu-details.txt" | head -80
echo "[$(( $(date +%s) - t0 )) s] done"
