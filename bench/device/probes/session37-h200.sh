#!/usr/bin/env bash
# Thirty-seventh session: the whole build of 5900f72 on the H200 in one
# device call (the budget left no room for session34-final.sh's two):
#  1. run.py --quick on all 51 sm_90a kernels (odd lengths, Nq != Nk, one
#     row, fully masked rows, NaN/Inf, strided, GQA; fp32 reference,
#     NaN-poisoned outputs), and on the six mask_mod kernels compiled for
#     sm_80 (mma.sync, cp.async ring: the hidden-block skip there);
#  2. the 18 benchmark kernels (f16/bf16, D = 64/128/256, none and causal
#     in both alignments) against cuDNN (torch SDPA's CUDNN_ATTENTION,
#     same inputs), interleaved, 3 rounds, N = 512..16384;
#  3. each score modification against its unmodified kernel, interleaved,
#     5 rounds (issue 8's bars).
# Packs: full (build_artifacts.sh .device/full), sm80
# (build_artifacts.sh .device/sm80 sm_80). Carry .device/pack, .device/include.
# Not run in the thirty-seventh session (no machine started).
# usage: session37-h200.sh [LIMIT_S]
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/h200
source bench/device/probes/device_setup.sh ${1:-570}
A=/tmp/t/full
finish() { tar czf "$final/h200.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/h200-summary.txt" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
python3 -c "import torch; print('torch', torch.__version__, 'cuDNN', torch.backends.cudnn.version())"
stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
bench=""
for dt in f16 bf16; do for d in 64 128 256; do for m in none causal_br causal_tl; do
  bench="$bench${bench:+,}attn_${dt}_d${d}_${m}=cudnn"
done; done; done
timeout 120 python3 bench/device/run.py --artifacts $A --runtime $L \
  --out "$out/quick" --quick --no-isolate --kernel-timeout 60 --commit 5900f72 > "$out/quick.log" 2>&1
stamp "run.py --quick (all kernels): exit $?"; grep -E "FAIL|passed" "$out/quick.log" | cut -c1-200 | tail -8
[ -f "$out/quick/results.json" ] && python3 bench/device/make_table.py "$out/quick/results.json" > "$out/quick-table.md"
M=mod_f16_d128_docmask,mod_f16_d128_docmask_none,mod_f16_d128_doc2048,mod_f16_d128_doc2048_none,mod_bf16_d64_all,mod_f16_d128_sinkwin
timeout 60 python3 bench/device/run.py --artifacts /tmp/t/sm80 --runtime $L \
  --out "$out/sm80" --quick --no-isolate --kernel-timeout 60 --commit 5900f72 --kernels "$M" > "$out/sm80.log" 2>&1
stamp "run.py --quick (sm_80 mask_mod kernels): exit $?"; grep -E "FAIL|passed" "$out/sm80.log" | cut -c1-200 | tail -8
timeout 170 python3 bench/device/pair.py --artifacts $A --runtime $L \
  --out "$out/pairs-cudnn.json" --rounds 3 --ns 512,1024,2048,4096,8192,16384 --pairs "$bench" > "$out/pairs-cudnn.txt" 2>&1
stamp "pairs vs cuDNN: exit $?"; grep -E "A/B" "$out/pairs-cudnn.txt" | cut -c1-90
timeout $(( $(left) - 10 )) python3 bench/device/pair.py --artifacts $A --runtime $L --out "$out/mods-pairs.json" \
  --rounds 5 --bases 'mod_*' --ns 1024,4096,16384 > "$out/mods-pairs.txt" 2>&1
stamp "mods vs base: exit $?"; grep -E "A/B" "$out/mods-pairs.txt" | cut -c1-90
stamp done
