#!/usr/bin/env bash
# Forty-sixth session: the broadcast bias as Q K^T's initial accumulator,
# with the scale moved into Q (design A of the forty-fifth session's
# perf-log), probed through the compiler's own lowering: the tile IR of
# the default f16 D = 128 [1, 1, N, N] bias kernel at its N = 16384
# configuration (128 x 112, persistent, async_pv) printed before
# convert-attn-tile-to-nvvm, edited by bias_init_edit.py (Q scaled in
# shared memory once per tile; block j's bias tile loaded before block
# j's product is issued and given to it as its accumulator; no FMA on the
# scores; the bias ring on K's positions, a lead tile and the clamped
# next block, so that no branch is added), then the rest of the pipeline
# (attn-opt --nvptx-short-ptr, the G5-G6 passes, format=isa) and ptxas
# -O3 here: 168 registers, 4 bytes spilled (the original: none).
# Pack ba: mod_f16_d128_bias_b1h1* of the full pack with the main kernel
# replaced and its JSON's dispatch table removed, so that every length
# runs the edited kernel (the quick check's odd shapes included).
#  1. run.py --quick on the edited kernel (fp32 reference, NaN-poisoned
#     outputs, odd lengths, one row, NaN/Inf, strided, large scores);
#  2. timing: edited / original bias kernel, and each / the plain kernel,
#     5 rounds, N = 2048 / 4096 / 16384;
#  3. what the per-tile scaling of Q costs: pack baq, the same edit
#     without it (bias_init_edit.py ... noq; timing only, its scores lack
#     the scale) against ba, 5 rounds.
# Carry .device/pack (full.tgz, ba.tgz, baq.tgz), .device/include.
# usage: session46-ba.sh [LIMIT_S]
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/ba46
source bench/device/probes/device_setup.sh ${1:-200}
finish() { cp "$out"/*.json "$out"/*.txt "$final/" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
K=mod_f16_d128_bias_b1h1
timeout 60 python3 bench/device/run.py --artifacts /tmp/t/ba --runtime $L --out "$out/quick" --quick \
  --no-isolate --kernels $K > "$out/quick.txt" 2>&1
stamp "run.py --quick (edited kernel at every length): exit $?"; grep -E "FAIL|passed|error" "$out/quick.txt" | cut -c1-200 | tail -8
timeout $(( $(left) - 5 )) python3 bench/device/pair.py --artifacts /tmp/t/ba --artifacts-b /tmp/t/full --runtime $L \
  --out "$out/ba.json" --rounds 5 --ns 2048,4096,16384 \
  --pairs $K=$K,$K=attn_f16_d128_none > "$out/ba.txt" 2>&1
stamp "edited vs original, vs plain: exit $?"; grep -E " vs |A/B" "$out/ba.txt" | cut -c1-120
timeout $(( $(left) - 3 )) python3 bench/device/pair.py --artifacts /tmp/t/full --runtime $L \
  --out "$out/orig.json" --rounds 5 --ns 2048,4096,16384 --pairs $K=attn_f16_d128_none > "$out/orig.txt" 2>&1
stamp "original vs plain: exit $?"; grep -E " vs |A/B" "$out/orig.txt" | cut -c1-120
timeout $(( $(left) - 3 )) python3 bench/device/pair.py --artifacts /tmp/t/baq --artifacts-b /tmp/t/ba --runtime $L \
  --out "$out/baq.json" --rounds 5 --ns 2048,4096,16384 --pairs $K=$K > "$out/baq.txt" 2>&1
stamp "without the Q pass vs with: exit $?"; grep -E " vs |A/B" "$out/baq.txt" | cut -c1-120
stamp done
