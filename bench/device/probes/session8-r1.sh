#!/usr/bin/env bash
# Eighth session, first device run (artifacts: bench/device/build_variants.sh
# .device/r1 < guard-variants.txt (g_*, this tree) and the same list built
# by the tree before the guarded product (o_*), plus session8-variants.txt
# and the default attn_f16_d128_causal_br / attn_bf16_d128_none):
#  1. correctness of every kernel (run.py --quick: the 17+ shapes, NaN-poisoned
#     outputs, fp32 reference);
#  2. interleaved timing (pair.py): guarded against unguarded (A/B), an A/A
#     pair, persistent causal bf16 / top-left against one CTA per tile, the
#     fma_exp2 softcap variants against fma_exp2 = 0 and against no softcap;
#  3. compute-sanitizer memcheck, racecheck, synccheck on small odd shapes of
#     the default causal kernel (persistent, mirrored tiles, guarded) and of
#     the guarded unmasked kernel.
# usage (device): ATTN_ARTIFACTS=.device/r1 [STEPS="check pairs sanitize"] [RUN=1|2] bash bench/device/probes/session8-r1.sh
set -uo pipefail
out=${OUT:-/tmp/out}; mkdir -p "$out"
A=${ATTN_ARTIFACTS:-.device/r1}
steps=${STEPS:-check pairs sanitize}
if [ "${RUN:-1}" = 1 ]; then
PAIRS="g_f16_d128_none=o_f16_d128_none,g_bf16_d128_none=o_bf16_d128_none,g_f16_d128_cbr_p=o_f16_d128_cbr_p"
PAIRS+=",g_f16_d128_cbr=o_f16_d128_cbr,g_bf16_d128_ctl=o_bf16_d128_ctl,g_f16_d128_softcap=o_f16_d128_softcap"
PAIRS+=",g_f16_d128_none=g_f16_d128_none"
PAIRS+=",p_bf16_d128_cbr=g_bf16_d128_cbr,p_f16_d128_ctl=g_f16_d128_ctl,p_bf16_d128_ctl=g_bf16_d128_ctl"
PAIRS+=",e2_f16_d128_softcap=g_f16_d128_softcap,e3_f16_d128_softcap=g_f16_d128_softcap"
PAIRS+=",e4_f16_d128_softcap=g_f16_d128_softcap,e3_bf16_d128_softcap=g_bf16_d128_softcap"
PAIRS+=",g_f16_d128_softcap=g_f16_d128_none,e3_f16_d128_softcap=g_f16_d128_none,e2_f16_d128_none=g_f16_d128_none"
else
# RUN=2: the same tree without the guard in attn-overlap-softmax (g_* are
# then the o_* kernels' PTX), so the persistent and fma_exp2 comparisons of
# run 1, made on guarded kernels, again.
PAIRS="g_f16_d128_cbr_p=g_f16_d128_cbr,p_bf16_d128_cbr=g_bf16_d128_cbr,p_f16_d128_ctl=g_f16_d128_ctl"
PAIRS+=",p_bf16_d128_ctl=g_bf16_d128_ctl,g_f16_d128_none=g_f16_d128_none"
PAIRS+=",e1_f16_d128_none=g_f16_d128_none,e2_f16_d128_none=g_f16_d128_none"
PAIRS+=",e1_f16_d128_softcap=g_f16_d128_softcap,e2_f16_d128_softcap=g_f16_d128_softcap"
PAIRS+=",e3_f16_d128_softcap=g_f16_d128_softcap,e3_bf16_d128_softcap=g_bf16_d128_softcap"
PAIRS+=",g_f16_d128_softcap=g_f16_d128_none"
fi
ATTN_ARTIFACTS=$A STEPS=$steps PAIRS=$PAIRS CHECK_TIMEOUT=170 PAIRS_TIMEOUT=220 \
  bash "$(dirname "$0")/check_and_pair.sh"
L=/tmp/brt/libattn_runtime.so
[[ $steps == *sanitize* ]] && for tool in memcheck racecheck synccheck; do
  timeout 55 compute-sanitizer --tool $tool --error-exitcode 3 python3 bench/device/sanitize.py \
    --artifacts "$A" --runtime $L attn_f16_d128_causal_br,g_f16_d128_none > "$out/sanitize-$tool.txt" 2>&1
  echo "$tool: exit $?; $(grep -c '^ok' "$out/sanitize-$tool.txt") ok; $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$out/sanitize-$tool.txt" | tail -1)"
done
