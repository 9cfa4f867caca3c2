#!/usr/bin/env bash
# Thirty-third session, third run: the default f16 D = 128 bias kernels
# with the conditional rescale (withKeyLengthSchedule's bias rule, from
# 1024 keys on the database's async_pv kernels) against the same kernels
# built before the change: correctness of the new ones (run.py --quick,
# every length variant and TMA fallback it launches; memcheck on one),
# then old against new, interleaved.
# Build (this machine): build_artifacts.sh before and after the change,
# then copy the unmasked f16 D = 128 bias artifacts (mod_f16_d128_bias.*,
# mod_f16_d128_bias__*, mod_f16_d128_bias_{b1h1,h1}*) into .device/bnew
# and .device/bold; tar czf .device/pack/bnew.tgz -C .device bnew bold.
# Carry .device/pack and .device/include. usage: session33-bias-default.sh [LIMIT_S]
set -uo pipefail
source bench/device/probes/probe_steps.sh
probe_begin biasdef "${1:-200}"
k=mod_f16_d128_bias,mod_f16_d128_bias_b1h1,mod_f16_d128_bias_h1
check_kernels /tmp/t/bnew 150 "$k"
memcheck /tmp/t/bnew mod_f16_d128_bias_b1h1 40
ROUNDS=5 time_pairs new-vs-old /tmp/t/bnew \
  mod_f16_d128_bias=mod_f16_d128_bias,mod_f16_d128_bias_b1h1=mod_f16_d128_bias_b1h1,mod_f16_d128_bias_h1=mod_f16_d128_bias_h1 \
  $(( $(left) - 5 )) /tmp/t/bold
