#!/usr/bin/env bash
# Thirty-third session, sixth run: session33-bias-default.sh for the bf16
# bias kernels that the bias rule's extension to bf16 changes
# (mod_bf16_d128_bias, mod_bf16_d128_bias_b1_none): correctness of the new
# ones (run.py --quick, every length variant and TMA fallback; memcheck on
# one), then new against old, 5 rounds.
# Build: build_artifacts.sh before and after the change; copy
# mod_bf16_d128_bias.*, mod_bf16_d128_bias__*, mod_bf16_d128_bias_b1_none*
# into .device/cnew and .device/cold; tar czf .device/pack/cnew.tgz -C .device cnew cold.
# Carry .device/pack and .device/include. usage: session33-bf16-default.sh [LIMIT_S]
set -uo pipefail
source bench/device/probes/probe_steps.sh
probe_begin bf16def "${1:-200}"
check_kernels /tmp/t/cnew 150 mod_bf16_d128_bias,mod_bf16_d128_bias_b1_none
memcheck /tmp/t/cnew mod_bf16_d128_bias_b1_none 40
ROUNDS=5 time_pairs new-vs-old /tmp/t/cnew \
  mod_bf16_d128_bias=mod_bf16_d128_bias,mod_bf16_d128_bias_b1_none=mod_bf16_d128_bias_b1_none \
  $(( $(left) - 5 )) /tmp/t/cold
