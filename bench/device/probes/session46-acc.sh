#!/usr/bin/env bash
# Forty-sixth session: the broadcast bias as Q K^T's initial accumulator
# with the scale in Q, built by the compiler (gpu_config accumulate_bias,
# attn-accumulate-bias; Q copied by the producer's TMA as usual, read back
# by the consumers, scaled and stored over itself), the form the hand edit
# of session46-ba.sh made first.
# Pack acc: attn-compile --cubin --no-length-dispatch of the f16 D = 128
# [1, 1, N, N] bias kernel at the tuned N = 16384 configuration written
# out (128 x 112, persistent, async_pv, rescale_slack 8, group_m 16) plus
# accumulate_bias (main kernel: 4 bytes spilled, as the hand edit; its TMA
# fallback 28), with the full pack's harness.json.
#  1. run.py --quick on acc (its main kernel at every length, the fallback
#     on the points TMA cannot copy);
#  2. timing, 5 rounds: acc / original at N = 2048 / 4096 / 16384, then
#     original / plain at 4096 / 16384 (the bias's cost, for the ratio).
# Carry .device/pack (full.tgz, acc.tgz), .device/include.
# usage: session46-acc.sh [LIMIT_S]
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/acc46
source bench/device/probes/device_setup.sh ${1:-300}
finish() { cp "$out"/*.json "$out"/*.txt "$final/" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
K=mod_f16_d128_bias_b1h1
for p in acc; do
  timeout 60 python3 bench/device/run.py --artifacts /tmp/t/$p --runtime $L --out "$out/quick-$p" --quick \
    --no-isolate --kernels "$K*" > "$out/quick-$p.txt" 2>&1
  stamp "run.py --quick ($p): exit $?"; grep -E "FAIL|passed|error" "$out/quick-$p.txt" | cut -c1-200 | tail -6
done
pairs() { # NAME A_DIR B_DIR PAIRS NS
  timeout $(( $(left) - 5 )) python3 bench/device/pair.py --artifacts /tmp/t/$2 --artifacts-b /tmp/t/$3 --runtime $L \
    --out "$out/$1.json" --rounds 5 --ns $5 --pairs "$4" > "$out/$1.txt" 2>&1
  stamp "$1: exit $?"; grep -E " vs |A/B" "$out/$1.txt" | cut -c1-120
}
pairs acc-orig acc full $K=$K 2048,4096,16384
pairs orig-plain full full $K=attn_f16_d128_none 4096,16384
stamp done
