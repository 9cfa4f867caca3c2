#!/usr/bin/env bash
# Eighth session, fourth device run: tile and knob variants where the bar is
# weakest (unmasked D = 128 at short rows, D = 256), against the defaults'
# configurations, interleaved, after a correctness check of all.
# Artifacts: bench/device/build_variants.sh .device/r4 <
# bench/device/probes/session8-r4-variants.txt
# usage (device): ATTN_ARTIFACTS=.device/r4 bash bench/device/probes/session8-r4.sh
D=v_f16_d128_none_128x128s2; E=v_f16_d256_none_128x64s2
PAIRS="v_f16_d128_none_128x64s2=$D,v_f16_d128_none_128x64s3=$D"
PAIRS+=",${E}_noov_p=$E,${E}_noov=$E,$E=$E"
PAIRS+=",v_f16_d256_cbr_noov_p=v_f16_d256_cbr,v_bf16_d256_none_128x64s2_noov_p=v_bf16_d256_none_128x64s2"
ATTN_ARTIFACTS=${ATTN_ARTIFACTS:-.device/r4} PAIRS=$PAIRS \
  exec bash "$(dirname "$0")/check_and_pair.sh"
