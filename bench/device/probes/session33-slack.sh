#!/usr/bin/env bash
# Thirty-third session, second run: session32-bias.sh's slack pairs again
# with 7 interleaved rounds instead of 3 (its 16384-key rounds spread
# +-5% on the H100), and an A/A pair (the database kernel against itself)
# for the method's noise floor; then the SASS instruction mix of the bias
# kernel (which unit converts the f16 bias: HADD2.F32 on the FMA pipe or
# F2F). The kernels are session32-bias-variants.txt's, checked by run.py
# --quick and memcheck in this session's first run (same cubins).
# Carry .device/pack (bv.tgz) and .device/include. usage: session33-slack.sh [LIMIT_S]
set -uo pipefail
source bench/device/probes/probe_steps.sh
probe_begin slack "${1:-150}"
ROUNDS=7 time_pairs pairs /tmp/t/bv bs_f16=bd_f16,fs_f16=fd_f16 $(( $(left) * 6 / 10 ))
ROUNDS=7 time_pairs control /tmp/t/bv bd_f16=bd_f16 $(( $(left) - 15 )) /tmp/t/bv
for k in bd_f16 fd_f16; do
  cuobjdump -sass /tmp/t/bv/$k.sm_90a.cubin > "$out/$k.sass" 2>&1
  echo "$k SASS mix (conversion and MUFU):"
  grep -oE "\b(F2F|HADD2\.F32|HADD2|HFMA2|PRMT|F2FP|MUFU|FFMA|FMUL|FADD|FMNMX|LDS|LDSM)[A-Z0-9_.]*" "$out/$k.sass" |
    sort | uniq -c | sort -rn | head -16
done
