#!/usr/bin/env bash
# Thirty-ninth session: the compare fold's kernel on the device, issue 8's
# two open bars if the card is an H200, then session38-ncu.sh's profile of
# the plain, broadcast-bias and f16 softcap kernels (never run in the
# thirty-eighth session).
#  1. the compare fold (ElementwiseOnTiles: `cmpi (d + k), C` ->
#     `cmpi d, C - k`): the sink + window kernel, the one whose PTX
#     changed (no spill now; 16 bytes at 16384 keys before), checked with
#     run.py --quick for sm_90a and sm_80, compute-sanitizer memcheck
#     and racecheck (sm_90a), and timed against c5430fc's, 5 rounds;
#  2. on an H200 with 270 s left only: f16 / bf16 softcap against plain, D = 128,
#     interleaved, 9 rounds, N = 4096 / 16384; the f16 full, [1, H] and
#     [1, 1] biases against plain, 5 rounds, N = 1024 / 4096 / 16384
#     (pair.py prints the bias bytes and their copy ceiling);
#  3. Nsight Compute, N = 4096 (session38-ncu.sh), with what time is left.
# Packs: full (c5430fc's PTX: build_artifacts.sh .device/full at c5430fc,
# tar czf .device/pack/full.tgz -C .device full), cmpf (the sink + window
# kernels with the fold: build_artifacts.sh .device/cmp and .device/cmp80
# sm_80 at 6138141 or later, their mod_f16_d128_sinkwin* files copied
# into .device/cmpf/cmpf and .device/cmpf/cmpf80, tar czf
# .device/pack/cmpf.tgz -C .device/cmpf cmpf cmpf80). Carry .device/pack,
# .device/include.
# usage: [SKIP_NCU=1] session39-h200.sh [LIMIT_S]
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/s39
source bench/device/probes/device_setup.sh ${1:-420}
A=/tmp/t/full
finish() { tar czf "$final/s39.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/s39-summary.txt" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
python3 -c "import torch; print('torch', torch.__version__, 'cuDNN', torch.backends.cudnn.version())"
stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
for c in cmpf cmpf80; do
  timeout 40 python3 bench/device/run.py --artifacts /tmp/t/$c --runtime $L \
    --out "$out/quick-$c" --quick --no-isolate --kernel-timeout 30 --commit compare-fold > "$out/quick-$c.log" 2>&1
  stamp "run.py --quick $c: exit $?"; grep -E "FAIL|passed" "$out/quick-$c.log" | cut -c1-200 | tail -4
done
for tool in memcheck racecheck; do
  timeout 60 compute-sanitizer --tool $tool --error-exitcode 3 \
    python3 bench/device/sanitize.py --artifacts /tmp/t/cmpf --runtime $L mod_f16_d128_sinkwin > "$out/$tool.log" 2>&1
  stamp "$tool: exit $?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|^FAIL" "$out/$tool.log" | cut -c1-140 | tail -3
done
timeout 90 python3 bench/device/pair.py --artifacts /tmp/t/cmpf --artifacts-b $A \
  --runtime $L --out "$out/sinkwin.json" --rounds 5 --ns 1024,4096,16384 \
  --pairs mod_f16_d128_sinkwin=mod_f16_d128_sinkwin > "$out/sinkwin.txt" 2>&1
stamp "sink + window, fold vs c5430fc: exit $?"; grep -E "A/B" "$out/sinkwin.txt" | cut -c1-100
h200=0; nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && h200=1
if [ $h200 = 1 ] && [ $(left) -gt 270 ]; then
timeout 150 python3 bench/device/pair.py --artifacts $A --runtime $L \
  --out "$out/softcap9.json" --rounds 9 --ns 4096,16384 \
  --pairs mod_f16_d128_softcap=attn_f16_d128_none,mod_bf16_d128_softcap=attn_bf16_d128_none > "$out/softcap9.txt" 2>&1
stamp "softcap vs plain, 9 rounds: exit $?"; grep -E "A/B" "$out/softcap9.txt" | cut -c1-110
timeout 100 python3 bench/device/pair.py --artifacts $A --runtime $L --out "$out/bias.json" \
  --rounds 5 --ns 1024,4096,16384 \
  --pairs mod_f16_d128_bias=attn_f16_d128_none,mod_f16_d128_bias_h1=attn_f16_d128_none,mod_f16_d128_bias_b1h1=attn_f16_d128_none > "$out/bias.txt" 2>&1
stamp "biases vs base: exit $?"; grep -E "A/B|bias .*MB" "$out/bias.txt" | cut -c1-110
else
  stamp "not an H200, or under 270 s left: step 2 (the bars) skipped"
fi
[ -n "${SKIP_NCU:-}" ] && { stamp "done (SKIP_NCU: step 3 left to the caller)"; exit 0; }
export LIMIT_S=$(( $(left) - 5 ))
OUT=$final bash bench/device/probes/session38-ncu.sh
stamp done
