#!/usr/bin/env bash
# Eighth session, third device run: the guarded next-block product as one
# branch over its wgmma (h_*, bench/device/build_variants.sh .device/r3 <
# guard-variants.txt with the X_ prefix made h_) against the same kernels
# without the guard (g_* of .device/r2), interleaved, after a correctness
# check of the h_* kernels.
# usage (device): ATTN_ARTIFACTS=.device/r3 bash bench/device/probes/session8-r3.sh
PAIRS="h_f16_d128_none=g_f16_d128_none,h_bf16_d128_none=g_bf16_d128_none,h_f16_d128_cbr_p=g_f16_d128_cbr_p"
PAIRS+=",h_f16_d128_cbr=g_f16_d128_cbr,h_bf16_d128_ctl=g_bf16_d128_ctl,h_f16_d128_softcap=g_f16_d128_softcap"
PAIRS+=",g_f16_d128_none=g_f16_d128_none"
ATTN_ARTIFACTS=${ATTN_ARTIFACTS:-.device/r3} KERNELS='h_*' PAIRS=$PAIRS \
  exec bash "$(dirname "$0")/check_and_pair.sh"
