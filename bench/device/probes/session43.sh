#!/usr/bin/env bash
# Forty-third session: the row sum of p on the tensor core (perf-log.md,
# forty-third session), as PTX rewrites of pack tA (main) by
# tensor_rowsum_ptx.py; the kernels compute l from the product with ones,
# so run.py checks them. Two forms:
#  - wide (the softcap kernels, 192 x 80 tiles): P V becomes one
#    m64n136k16 product against V and a chunk of ones placed after each V
#    stage (V's stages and chunks re-laid, O's staging moved up 20 KiB);
#  - group (the f16 [1, 1, N, N] bias kernel): one m64n8k16 wgmma per
#    group of the f16x2 sum of the group's A fragments against 1 KiB of
#    ones (per-k-step wgmmas, and the group form on the 192-row and
#    128 x 192 kernels, make ptxas serialize the wgmmas: C7512).
# Packs, built on this machine from tA:
#   python3 bench/device/probes/build_rowsum.py --wide .device/tA .device/wide \
#     mod_f16_d128_softcap mod_bf16_d128_softcap
#   python3 bench/device/probes/build_rowsum.py .device/tA .device/trs mod_f16_d128_bias_b1h1
#   tar czf .device/pack/wide.tgz -C .device wide; tar czf .device/pack/trs.tgz -C .device trs
#  1. SASS counts (FADD, SHFL, HGMMA) of the f16 softcap kernel, A and B;
#  2. run.py --quick on the rewritten kernels (the softcaps' __all copies
#     run the default kernel at every point; the dispatching ones the
#     8192-key variant up to 8192 keys);
#  3. pair.py rewritten against original, 5 interleaved rounds (softcaps at
#     N = 4096 / 16384, the same variant on both sides; the bias at 1024 /
#     4096 / 16384), and each softcap against the plain kernel (the
#     softcap's cost, issue 8's bar), rewritten and original, 3 rounds.
# Carry .device/pack, .device/include.
# usage: session43.sh [LIMIT_S]
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/s43
source bench/device/probes/device_setup.sh ${1:-240}
A=/tmp/t/tA W=/tmp/t/wide G=/tmp/t/trs
finish() { tar czf "$final/s43.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/s43-summary.txt" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
for d in $A $W; do
  s="$out/sass-$(basename $d).txt"
  cuobjdump -sass $d/mod_f16_d128_softcap.sm_90a.cubin > "$s" 2>&1
  echo "$(basename $d) SASS (mod_f16_d128_softcap): FADD $(grep -c FADD $s) SHFL $(grep -c SHFL $s) HGMMA $(grep -c HGMMA $s) FMUL $(grep -c FMUL $s)"
done
for d in $W $G; do
  timeout 80 python3 bench/device/run.py --artifacts $d --runtime $L --out "$out/quick-$(basename $d)" --quick \
    --no-isolate --kernel-timeout 40 --commit tensor-rowsum > "$out/quick-$(basename $d).log" 2>&1
  stamp "run.py --quick $(basename $d): exit $?"; grep -E "FAIL|passed" "$out/quick-$(basename $d).log" | cut -c1-200 | tail -8
done
timeout $(( ($(left) - 30) / 2 )) python3 bench/device/pair.py --artifacts $W --artifacts-b $A --runtime $L \
  --out "$out/wide.json" --rounds 5 --ns 4096,16384 \
  --pairs mod_f16_d128_softcap=mod_f16_d128_softcap,mod_bf16_d128_softcap=mod_bf16_d128_softcap > "$out/wide.txt" 2>&1
stamp "wide vs original: exit $?"; grep -E "A/B" "$out/wide.txt" | cut -c1-150
timeout $(( ($(left) - 30) / 2 )) python3 bench/device/pair.py --artifacts $G --artifacts-b $A --runtime $L \
  --out "$out/group.json" --rounds 5 --ns 1024,4096,16384 \
  --pairs mod_f16_d128_bias_b1h1=mod_f16_d128_bias_b1h1 > "$out/group.txt" 2>&1
stamp "group (bias) vs original: exit $?"; grep -E "A/B" "$out/group.txt" | cut -c1-150
for d in $W $A; do
  timeout $(( ($(left) - 5) / 2 )) python3 bench/device/pair.py --artifacts $d --artifacts-b $A --runtime $L \
    --out "$out/cost-$(basename $d).json" --rounds 3 --ns 4096,16384 \
    --pairs mod_f16_d128_softcap=attn_f16_d128_none,mod_bf16_d128_softcap=attn_bf16_d128_none > "$out/cost-$(basename $d).txt" 2>&1
  stamp "softcap vs plain, $(basename $d): exit $?"; grep -E "A/B" "$out/cost-$(basename $d).txt" | cut -c1-150
done
stamp done
