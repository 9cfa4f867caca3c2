#!/usr/bin/env bash
# Eighth session, fourth device run: tile and knob variants where the bar is
# weakest (unmasked D = 128 at short rows, D = 256), against the defaults'
# configurations, interleaved (pair.py), after a correctness check of all
# (run.py --quick). Artifacts: bench/device/build_variants.sh .device/r4 <
# bench/device/probes/session8-r4-variants.txt
# usage (device): ATTN_ARTIFACTS=.device/r4 bash bench/device/probes/session8-r4.sh
set -uo pipefail
out=${OUT:-/tmp/out}; mkdir -p "$out"
A=${ATTN_ARTIFACTS:-.device/r4}
bash bench/device/build_runtime.sh /tmp/brt > "$out/build-runtime.txt" 2>&1 || { tail -20 "$out/build-runtime.txt"; exit 2; }
L=/tmp/brt/libattn_runtime.so
export PYTHONUNBUFFERED=1
timeout 150 python3 bench/device/run.py --artifacts "$A" --runtime $L --out "$out/r4" \
  --quick --no-isolate --kernel-timeout 60 > "$out/run.txt" 2>&1
echo "run.py: exit $?"; grep -E "FAIL|fail|passed|kernels" "$out/run.txt" | tail -10
D=v_f16_d128_none_128x128s2; E=v_f16_d256_none_128x64s2
PAIRS="v_f16_d128_none_128x64s2=$D,v_f16_d128_none_128x64s3=$D"
PAIRS+=",${E}_noov_p=$E,${E}_noov=$E,$E=$E"
PAIRS+=",v_f16_d256_cbr_noov_p=v_f16_d256_cbr,v_bf16_d256_none_128x64s2_noov_p=v_bf16_d256_none_128x64s2"
timeout 200 python3 bench/device/pair.py --artifacts "$A" --runtime $L --out "$out/pairs.json" \
  --rounds 4 --pairs "$PAIRS" > "$out/pairs.txt" 2>&1
echo "pair.py: exit $?"; cat "$out/pairs.txt"
