#!/usr/bin/env bash
# Ninth session, device run 1 (and 2: the same script resumes the tuning).
#  1. experiments (bench/device/probes/session9-variants.txt, built into
#     .device/exp by build_variants.sh): correctness (run.py --quick), then
#     interleaved pairs against the defaults' configurations;
#  2. the tuning runs over .device/tune (sm_90a) and .device/tune80 (sm_80)
#     (tune_loop.py measure, resumable: keys already in
#     .device/pack/measured-in.json / measured80-in.json are skipped), leaving
#     STUDY_S (150) seconds for
#  3. the full-space study (tune_measure.py --full-space) over .device/study
#     (tune_prepare.sh with ATTN_TUNE_EMIT_ALL=1, ATTN_TUNE_NS=1024,16384).
# The prepared directories travel as .device/pack/*.tgz (unpacked under /tmp/t).
# STEPS picks (default "exp study tune"); everything ends within LIMIT_S.
# usage (device): bash bench/device/probes/session9-r1.sh
set -uo pipefail
steps=${STEPS:-exp study tune}
source bench/device/probes/device_setup.sh 570
if [[ $steps == *exp* ]]; then
  timeout 110 python3 bench/device/run.py --artifacts .device/exp --runtime $L \
    --out /tmp/exp-check --quick --no-isolate --kernel-timeout 60 > "$out/exp-check.txt" 2>&1
  echo "run.py: exit $?"; grep -E "FAIL|passed|kernels" "$out/exp-check.txt" | tail -12
  P="e_f16_d128_176_noov=b_f16_d128,e_f16_d128_192_noov=b_f16_d128,e_f16_d128_144=b_f16_d128"
  P+=",e_f16_d256_80_noov=b_f16_d256,e_f16_d64_192=b_f16_d64,e_f16_d128_bias_ws=b_f16_d128_bias"
  timeout 130 python3 bench/device/pair.py --artifacts .device/exp --runtime $L \
    --out "$out/exp-pairs.json" --rounds 4 --ns 1024,4096,16384 --pairs "$P" > "$out/exp-pairs.txt" 2>&1
  echo "pair.py: exit $?"; cat "$out/exp-pairs.txt"
  echo "[$(( $(date +%s) - t0 )) s] experiments done"
fi
if [[ $steps == *tune* ]]; then
  # sm_90a keys (tune), then sm_80 keys (tune80); each resumes from
  # .device/pack/<measured>-in.json when an earlier run measured some.
  for pair in tune:measured tune80:measured80; do
    d=${pair%%:*}; m=${pair#*:}
    [ -d /tmp/t/$d ] || continue
    [ -f .device/pack/$m-in.json ] && cp .device/pack/$m-in.json "$out/$m.json"
    b=$(( $(left) - ${STUDY_S:-150} - 40 ))
    (( b > 20 )) || break
    timeout $(( $(left) - 5 )) python3 bench/device/tune_loop.py measure /tmp/t/$d "$out/$m.json" \
      --runtime $L --budget-s $b > "$out/$d.txt" 2>&1
    echo "$d: exit $?"; grep -E "^\[|budget|Error|error" "$out/$d.txt" | tail -40
  done
  echo "[$(( $(date +%s) - t0 )) s] tuning done"
fi
if [[ $steps == *study* && -d /tmp/t/study ]]; then
  timeout $(( $(left) - 5 )) python3 bench/device/tune_measure.py --runtime $L \
    --out "$out/study.json" --full-space --budget-s $(( $(left) - 40 )) /tmp/t/study/*/ > "$out/study.txt" 2>&1
  echo "study: exit $?"; tail -12 "$out/study.txt"
  echo "[$(( $(date +%s) - t0 )) s] study done"
fi
