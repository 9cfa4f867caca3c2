#!/usr/bin/env bash
# Forty-third session: the row sum of p on the tensor core (perf-log.md,
# forty-third session). Pack trs: the kernels of pack tA (main) rewritten
# by tensor_rowsum_ptx.py (a wgmma of P against a tile of ones gives l;
# the FADD chains and their quad shuffles go), built by
#   python3 bench/device/probes/build_rowsum.py .device/tA .device/trs \
#     attn_f16_d128_none attn_bf16_d128_none mod_f16_d128_softcap \
#     mod_bf16_d128_softcap mod_f16_d128_bias_b1h1
#   tar czf .device/pack/trs.tgz -C .device trs
#  1. SASS counts (FADD, SHFL, HGMMA) of the f16 softcap kernel, A and B;
#  2. run.py --quick on the five rewritten kernels (the kernels compute l
#     from the ones product, so the whole quick matrix checks them);
#  3. pair.py rewritten against original, 5 interleaved rounds, N = 1024 /
#     4096 / 16384, and each softcap kernel against the plain kernel of
#     its own pack (the softcap's cost, issue 8's bar).
# Carry .device/pack, .device/include.
# usage: session43.sh [LIMIT_S]
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/s43
source bench/device/probes/device_setup.sh ${1:-240}
A=/tmp/t/tA B=/tmp/t/trs
finish() { tar czf "$final/s43.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/s43-summary.txt" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
K=mod_f16_d128_softcap,mod_bf16_d128_softcap,mod_f16_d128_bias_b1h1,attn_f16_d128_none,attn_bf16_d128_none
for d in $A $B; do
  s="$out/sass-$(basename $d).txt"
  cuobjdump -sass $d/mod_f16_d128_softcap.sm_90a.cubin > "$s" 2>&1
  echo "$(basename $d) SASS (mod_f16_d128_softcap): FADD $(grep -c FADD $s) SHFL $(grep -c SHFL $s) HGMMA $(grep -c HGMMA $s) FMUL $(grep -c FMUL $s)"
done
timeout 90 python3 bench/device/run.py --artifacts $B --runtime $L --out "$out/quick-trs" --quick \
  --no-isolate --kernel-timeout 40 --commit tensor-rowsum --kernels "$K" > "$out/quick-trs.log" 2>&1
stamp "run.py --quick rewritten: exit $?"; grep -E "FAIL|passed" "$out/quick-trs.log" | cut -c1-200 | tail -12
pairs=$(echo $K | tr ',' '\n' | sed 's/.*/&=&/' | paste -sd,)
timeout $(( $(left) - 40 )) python3 bench/device/pair.py --artifacts $B --artifacts-b $A --runtime $L \
  --out "$out/trs.json" --rounds 5 --ns 1024,4096,16384 --pairs "$pairs" > "$out/trs.txt" 2>&1
stamp "rewritten vs original: exit $?"; grep -E " vs |A/B" "$out/trs.txt" | cut -c1-150
for d in $B $A; do
  timeout $(( $(left) / 2 )) python3 bench/device/pair.py --artifacts $d --runtime $L \
    --out "$out/cost-$(basename $d).json" --rounds 3 --ns 4096,16384 \
    --pairs mod_f16_d128_softcap=attn_f16_d128_none,mod_bf16_d128_softcap=attn_bf16_d128_none > "$out/cost-$(basename $d).txt" 2>&1
  stamp "softcap vs plain, $(basename $d): exit $?"; grep -E "A/B" "$out/cost-$(basename $d).txt" | cut -c1-150
done
stamp done
