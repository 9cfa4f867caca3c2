#!/usr/bin/env bash
# Forty-fourth session: the whole build of main (the README's headline
# figures were last measured on an H200 at the fifteenth session's build;
# the thirty-eighth session's whole-build run got an H100). One call:
#  1. run.py --quick on every sm_90a kernel of the build (odd lengths,
#     Nq != Nk, one row, fully masked rows, NaN/Inf, strided, GQA,
#     large scores; fp32 reference, NaN-poisoned outputs), and on the six
#     mask_mod kernels compiled for sm_80;
#  2. compute-sanitizer memcheck and racecheck on four defaults (causal,
#     softcap, broadcast bias, all modifications at D = 64) on small odd
#     shapes;
#  3. the 18 benchmark kernels (f16/bf16, D = 64/128/256, none and causal
#     in both alignments) against cuDNN, interleaved, 3 rounds,
#     N = 512..16384 (B * N = 16384, H * D = 2048), then the unmasked and
#     bottom-right causal ones against FlashAttention-2 (SDPA's FLASH
#     backend), 3 rounds, N = 1024 / 4096 / 16384;
#  4. each score modification against its unmodified kernel, interleaved,
#     5 rounds (issue 8's bars).
# Packs: full (build_artifacts.sh .device/full), sm80
# (build_artifacts.sh .device/sm80 sm_80). Carry .device/pack, .device/include.
# usage: session44-h200.sh [LIMIT_S] [COMMIT]
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/h200
source bench/device/probes/device_setup.sh ${1:-570}
commit=${2:-main}
A=/tmp/t/full
finish() { tar czf "$final/h200.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/h200-summary.txt" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
python3 -c "import torch; print('torch', torch.__version__, 'cuDNN', torch.backends.cudnn.version())"
stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
cudnn="" fa2=""
for dt in f16 bf16; do for d in 64 128 256; do
  for m in none causal_br causal_tl; do cudnn="$cudnn${cudnn:+,}attn_${dt}_d${d}_${m}=cudnn"; done
  for m in none causal_br; do fa2="$fa2${fa2:+,}attn_${dt}_d${d}_${m}=flash2"; done
done; done
timeout 150 python3 bench/device/run.py --artifacts $A --runtime $L \
  --out "$out/quick" --quick --no-isolate --kernel-timeout 60 --commit $commit > "$out/quick.log" 2>&1
stamp "run.py --quick (all kernels): exit $?"; grep -E "FAIL|passed" "$out/quick.log" | cut -c1-200 | tail -8
[ -f "$out/quick/results.json" ] && python3 bench/device/make_table.py "$out/quick/results.json" > "$out/quick-table.md"
M=mod_f16_d128_docmask,mod_f16_d128_docmask_none,mod_f16_d128_doc2048,mod_f16_d128_doc2048_none,mod_bf16_d64_all,mod_f16_d128_sinkwin
timeout 60 python3 bench/device/run.py --artifacts /tmp/t/sm80 --runtime $L \
  --out "$out/sm80" --quick --no-isolate --kernel-timeout 60 --commit $commit --kernels "$M" > "$out/sm80.log" 2>&1
stamp "run.py --quick (sm_80 mask_mod kernels): exit $?"; grep -E "FAIL|passed" "$out/sm80.log" | cut -c1-200 | tail -8
S=attn_f16_d128_causal_br,mod_f16_d128_softcap,mod_f16_d128_bias_b1h1,mod_bf16_d64_all
for tool in memcheck racecheck; do
  timeout 80 compute-sanitizer --tool $tool --error-exitcode 3 \
    python3 bench/device/sanitize.py --artifacts $A --runtime $L $S > "$out/$tool.log" 2>&1
  stamp "$tool: exit $?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|^FAIL" "$out/$tool.log" | cut -c1-140 | tail -3
done
timeout 200 python3 bench/device/pair.py --artifacts $A --runtime $L \
  --out "$out/pairs-cudnn.json" --rounds 3 --ns 512,1024,2048,4096,8192,16384 --pairs "$cudnn" > "$out/pairs-cudnn.txt" 2>&1
stamp "pairs vs cuDNN: exit $?"; grep -E "A/B" "$out/pairs-cudnn.txt" | cut -c1-90
timeout 90 python3 bench/device/pair.py --artifacts $A --runtime $L \
  --out "$out/pairs-fa2.json" --rounds 3 --ns 1024,4096,16384 --pairs "$fa2" > "$out/pairs-fa2.txt" 2>&1
stamp "pairs vs FlashAttention-2: exit $?"; grep -E "A/B" "$out/pairs-fa2.txt" | cut -c1-90
timeout $(( $(left) - 10 )) python3 bench/device/pair.py --artifacts $A --runtime $L --out "$out/mods-pairs.json" \
  --rounds 5 --bases 'mod_*' --ns 1024,4096,16384 > "$out/mods-pairs.txt" 2>&1
stamp "mods vs base: exit $?"; grep -E "A/B" "$out/mods-pairs.txt" | cut -c1-90
stamp done
