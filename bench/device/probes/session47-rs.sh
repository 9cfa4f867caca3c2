#!/usr/bin/env bash
# Forty-seventh session: the register split of the bias kernels. Nsight
# Compute (session47-ncu.sh) put the accumulate_bias kernel's P V wait
# (wgmma.wait_group 0) at the top of the softmax in SASS, where the PTX
# has it after the exponentials, and both bias kernels at the consumers'
# 232-register cap (R229 the highest register). Pack r240
# (bench/device/probes/regsplit.sh ... 24 240 mod_f16_d128_bias_b1h1):
# acc240 (the acc kernel at 24 / 240: 8 bytes spilled) and full240 (the
# default bias kernel's main kernel at 24 / 240: none; its length
# variants unchanged).
#  1. run.py --quick on both;
#  2. timing, 5 rounds, N = 4096 / 16384: acc240 / acc, full240 / full,
#     acc240 / full;
#  3. their SASS (where the P V wait lands).
# Carry .device/pack (full.tgz, acc.tgz, r240.tgz), .device/include.
# usage: session47-rs.sh [LIMIT_S]
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/rs47
source bench/device/probes/device_setup.sh ${1:-150}
finish() { cp "$out"/*.json "$out"/*.txt "$out"/*.gz "$final/" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
K=mod_f16_d128_bias_b1h1
for p in acc240 full240; do
  timeout 50 python3 bench/device/run.py --artifacts /tmp/t/$p --runtime $L --out "$out/quick-$p" --quick \
    --no-isolate --kernels "$K*" > "$out/quick-$p.txt" 2>&1
  stamp "run.py --quick ($p): exit $?"; grep -E "FAIL|passed|error" "$out/quick-$p.txt" | cut -c1-200 | tail -4
  cuobjdump -sass /tmp/t/$p/$K.sm_90a.cubin 2>/dev/null | gzip > "$out/$p.sass.gz"
done
for ab in acc240:acc full240:full acc240:full; do
  a=${ab%%:*}; b=${ab#*:}
  timeout $(( ($(left) - 5) / 3 )) python3 bench/device/pair.py --artifacts /tmp/t/$a --artifacts-b /tmp/t/$b --runtime $L \
    --out "$out/$a-$b.json" --rounds 5 --ns 4096,16384 --pairs $K=$K > "$out/$a-$b.txt" 2>&1
  stamp "$a / $b: exit $?"; grep -E "A/B" "$out/$a-$b.txt" | cut -c1-120
done
stamp done
