#!/usr/bin/env bash
# Thirty-third session, fifth run: the conditional rescale (slack 8) on
# the bf16 D = 128 bias kernels of the database (128 x 112 persistent
# async_pv; broadcast [1, 1, N, N] with group_m 16, and full), which the
# bias rule of withKeyLengthSchedule leaves out as unmeasured. Correctness
# (run.py --quick), memcheck on one, then with against without, 5 rounds,
# and an A/A pair. Variants: session33-bf16-variants.txt
# (cd / gd = database form, cs / gs = + slack).
# Build: bash bench/device/build_variants.sh .device/bb < bench/device/probes/session33-bf16-variants.txt
#        tar czf .device/pack/bb.tgz -C .device bb
# Carry .device/pack and .device/include. usage: session33-bf16.sh [LIMIT_S]
set -uo pipefail
source bench/device/probes/probe_steps.sh
probe_begin bf16 "${1:-200}"
check_kernels /tmp/t/bb 120
memcheck /tmp/t/bb cs_bf16 40
ROUNDS=5 time_pairs pairs /tmp/t/bb cs_bf16=cd_bf16,gs_bf16=gd_bf16 $(( $(left) * 7 / 10 ))
ROUNDS=5 time_pairs control /tmp/t/bb cd_bf16=cd_bf16 $(( $(left) - 5 )) /tmp/t/bb
