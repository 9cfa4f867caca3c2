#!/usr/bin/env bash
# Forty-second session: the row maximum as a balanced tree (perf-log.md,
# forty-second session). WarpMMA::rowMax reduces a thread's registers of
# a row pairwise (depth log2 n) instead of as a chain of max.NaN (depth
# n); the value is the same. Kernels of main (pack tA) and of the tree
# (pack tB), both built by build_artifacts.sh on this session's tree
# (tA at 2fdbe0e, tB with branch wip/tree-row-max), nine kernels each:
#  1. SASS: FMNMX counts of the plain f16 D = 128 kernel, A and B;
#  2. run.py --quick on the nine tree kernels (the whole quick matrix:
#     odd lengths, Nq != Nk, one row, GQA, strided, NaN / Inf inputs,
#     NaN-poisoned outputs, large scores);
#  3. pair.py, tree against main, 5 interleaved rounds, N = 1024 / 4096 /
#     16384.
# Packs: tA, tB (tar czf .device/pack/tX.tgz tX/<the nine kernels'
# files>). Carry .device/pack, .device/include.
# usage: session42.sh [LIMIT_S]
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/s42
source bench/device/probes/device_setup.sh ${1:-300}
A=/tmp/t/tA B=/tmp/t/tB
finish() { tar czf "$final/s42.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/s42-summary.txt" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
python3 -c "import torch; print('torch', torch.__version__, 'cuDNN', torch.backends.cudnn.version())"
stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
K=attn_f16_d128_none,attn_bf16_d128_none,attn_f16_d64_none,attn_f16_d256_none,attn_f16_d128_causal_br,mod_f16_d128_bias_b1h1,mod_f16_d128_bias,mod_f16_d128_softcap,mod_bf16_d128_softcap
for d in $A $B; do
  s="$out/sass-$(basename $d).txt"
  cuobjdump -sass $d/attn_f16_d128_none.sm_90a.cubin > "$s" 2>&1
  echo "$(basename $d) SASS (attn_f16_d128_none): FMNMX $(grep -c FMNMX $s) FADD $(grep -c FADD $s) MUFU.EX2 $(grep -c MUFU.EX2 $s)"
done
timeout 100 python3 bench/device/run.py --artifacts $B --runtime $L --out "$out/quick-tree" --quick \
  --no-isolate --kernel-timeout 40 --commit tree-max --kernels "$K" > "$out/quick-tree.log" 2>&1
stamp "run.py --quick tree: exit $?"; grep -E "FAIL|passed" "$out/quick-tree.log" | cut -c1-200 | tail -12
pairs=$(echo $K | tr ',' '\n' | sed 's/.*/&=&/' | paste -sd,)
timeout $(( $(left) - 5 )) python3 bench/device/pair.py --artifacts $B --artifacts-b $A --runtime $L \
  --out "$out/tree.json" --rounds 5 --ns 1024,4096,16384 --pairs "$pairs" > "$out/tree.txt" 2>&1
stamp "tree vs main: exit $?"; grep -E " vs |A/B" "$out/tree.txt" | cut -c1-150
stamp done
