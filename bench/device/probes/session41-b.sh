#!/usr/bin/env bash
# Forty-first session, second probe: what the staged bias's f16 -> f32
# conversions cost (perf-log.md, forty-first session). The f16 D = 128
# [1, 1, N, N] bias kernel of the full pack with every conversion of its
# staged tile removed (bias_nocvt_ptx.py; wrong values, timing only)
# against the original, and the original against the plain kernel, in one
# run: 5 interleaved rounds, N = 1024 / 4096 / 16384. SASS counts first.
# Packs: full; nocvt (bias_nocvt_ptx.py on full's
# mod_f16_d128_bias_b1h1*.sm_90a.ptx, ptxas -arch=sm_90a -O3, JSON and
# harness copied, in a directory nocvt/). Carry .device/pack,
# .device/include.
# usage: session41-b.sh [LIMIT_S]
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/s41b
source bench/device/probes/device_setup.sh ${1:-200}
A=/tmp/t/full N=/tmp/t/nocvt
finish() { tar czf "$final/s41b.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/s41b-summary.txt" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
for d in $A $N; do
  cuobjdump -sass $d/mod_f16_d128_bias_b1h1.sm_90a.cubin > "$out/sass-$(basename $d).txt" 2>&1
  s="$out/sass-$(basename $d).txt"
  echo "$(basename $d) SASS: HADD2.F32 $(grep -c 'HADD2.F32' $s) LDS $(grep -cE 'LDS' $s) FFMA $(grep -c FFMA $s) FADD $(grep -c FADD $s) MUFU.EX2 $(grep -c MUFU.EX2 $s)"
done
timeout $(( $(left) - 10 )) python3 bench/device/pair.py --artifacts $N --artifacts-b $A --runtime $L \
  --out "$out/nocvt.json" --rounds 5 --ns 1024,4096,16384 \
  --pairs mod_f16_d128_bias_b1h1=mod_f16_d128_bias_b1h1,mod_f16_d128_bias_b1h1=attn_f16_d128_none > "$out/nocvt.txt" 2>&1
stamp "no conversions vs original, and vs plain: exit $?"; grep -E " vs |A/B" "$out/nocvt.txt" | cut -c1-150
timeout $(( $(left) - 5 )) python3 bench/device/pair.py --artifacts $A --runtime $L \
  --out "$out/bias.json" --rounds 5 --ns 1024,4096,16384 \
  --pairs mod_f16_d128_bias_b1h1=attn_f16_d128_none > "$out/bias.txt" 2>&1
stamp "original vs plain: exit $?"; grep -E "A/B" "$out/bias.txt" | cut -c1-150
stamp done
