#!/usr/bin/env bash
# Thirty-second session: the f16 D = 128 bias kernels with the conditional
# rescale (lazy_rescale, rescale_slack = 8, which the defaults give the
# plain and softcap kernels only) and with the 192 x 80 three-warpgroup
# tile (the plain kernel's at 16384 keys; the bias keys were tuned on
# 2026-12-04, before the 192-row forms were in the search space), against
# today's database kernel (128 x 112 persistent async_pv). Variants:
# session32-bias-variants.txt (bd = the database's form, bs = + slack,
# bw = 192 x 80 + slack, bp = bw persistent with group_m; fd / fs = the
# full bias without / with slack). Correctness first (run.py --quick:
# odd lengths, Nq != Nk, one row, NaN/Inf, strided: the strided and odd
# launches take the TMA fallbacks), memcheck on two, then interleaved
# pairs, then every variant against the plain f16 kernel (the `all` pack).
# About 70 s of script on an H100.
# Build: bash bench/device/build_variants.sh .device/bv < bench/device/probes/session32-bias-variants.txt
#        tar czf .device/pack/bv.tgz -C .device bv   (beside all.tgz)
# Carry .device/pack and .device/include. usage: session32-bias.sh [LIMIT_S]
set -uo pipefail
source bench/device/probes/probe_steps.sh
probe_begin bias "${1:-150}"
check_kernels /tmp/t/bv 120
memcheck /tmp/t/bv bw_f16,bs_f16 40
time_pairs pairs /tmp/t/bv bs_f16=bd_f16,bw_f16=bd_f16,bp_f16=bd_f16,fs_f16=fd_f16 $(( $(left) * 5 / 10 ))
plain=attn_f16_d128_none
time_pairs vs-plain /tmp/t/bv \
  bd_f16=$plain,bs_f16=$plain,bw_f16=$plain,bp_f16=$plain,fd_f16=$plain,fs_f16=$plain \
  $(( $(left) - 5 )) /tmp/t/all
