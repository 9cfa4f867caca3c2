#!/usr/bin/env bash
# Thirty-fifth session: K/V ranges narrowed by the mask_mod region
# (MaskModRange.cpp; attn.kv_range's mask_mod) and the split without a
# head loop for masks with no left bound (SplitKVLoop.cpp). The build of
# this change (new3/) against the build of main f2eca1e (new2/):
#  1. the mask_mod kernels, new against old, interleaved,
#     N = 1024 / 4096 / 16384 (B*N = 16384, H*D = 2048);
#  2. plain kernels whose PTX changed (scalar code before the loops only),
#     new against old: expected 1.00;
#  3. run.py --quick on all 47 kernels (fp32 reference, odd shapes,
#     fully masked rows, NaN/Inf, NaN-poisoned outputs);
#  4. memcheck and racecheck on the mask_mod kernels (small odd shapes);
#  5. the document mask against the plain causal kernel, interleaved;
#  6. run.py full mode on the document-mask kernel with FlexAttention
#     (same mask_mod, its block mask built before timing).
# Packs: .device/pack/new2.tgz, new3.tgz (build_artifacts.sh .device/new3;
# tar czf .device/pack/new3.tgz -C .device new3). Carry .device/pack,
# .device/include.
# usage: session35-doc.sh [LIMIT_S]
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/doc
source bench/device/probes/device_setup.sh ${1:-570}
finish() { tar czf "$final/doc.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/doc-summary.txt" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
python3 -c "import torch; print('torch', torch.__version__, 'cuDNN', torch.backends.cudnn.version())"
K=mod_f16_d128_docmask,mod_bf16_d64_all
p=""; for k in ${K//,/ }; do p="$p${p:+,}$k=$k"; done
timeout 100 python3 bench/device/pair.py --artifacts /tmp/t/new3 --artifacts-b /tmp/t/new2 --runtime $L \
  --out "$out/new-vs-old.json" --rounds 3 --ns 1024,4096,16384 --pairs "$p" > "$out/new-vs-old.txt" 2>&1
stamp "mask_mod kernels, new vs old: exit $?"; grep -E "A/B" "$out/new-vs-old.txt" | cut -c1-90
P=attn_f16_d128_none,attn_f16_d128_causal_tl,attn_bf16_d128_causal_br,attn_f16_d256_causal_br,attn_bf16_d64_causal_tl
p=""; for k in ${P//,/ }; do p="$p${p:+,}$k=$k"; done
timeout 130 python3 bench/device/pair.py --artifacts /tmp/t/new3 --artifacts-b /tmp/t/new2 --runtime $L \
  --out "$out/plain-new-vs-old.json" --rounds 3 --ns 1024,4096,16384 --pairs "$p" > "$out/plain-new-vs-old.txt" 2>&1
stamp "plain kernels, new vs old: exit $?"; grep -E "A/B" "$out/plain-new-vs-old.txt" | cut -c1-90
timeout 150 python3 bench/device/run.py --artifacts /tmp/t/new3 --runtime $L --out "$out/quick" \
  --quick --no-isolate --kernel-timeout 60 > "$out/quick.log" 2>&1
stamp "run.py --quick (47 kernels): exit $?"; grep -E "FAIL|passed" "$out/quick.log" | cut -c1-200 | tail -8
[ -f "$out/quick/results.json" ] && python3 bench/device/make_table.py "$out/quick/results.json" > "$out/quick-table.md"
for tool in memcheck racecheck; do
  timeout 60 compute-sanitizer --tool $tool --error-exitcode 3 \
    python3 bench/device/sanitize.py --artifacts /tmp/t/new3 --runtime $L "$K" > "$out/$tool.log" 2>&1
  stamp "$tool: exit $?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|^FAIL" "$out/$tool.log" | cut -c1-140 | tail -3
done
timeout 60 python3 bench/device/pair.py --artifacts /tmp/t/new3 --runtime $L \
  --out "$out/vs-plain.json" --rounds 3 --ns 1024,4096,16384 \
  --pairs "mod_f16_d128_docmask=attn_f16_d128_causal_tl" > "$out/vs-plain.txt" 2>&1
stamp "vs plain: exit $?"; grep -E "A/B" "$out/vs-plain.txt" | cut -c1-90
timeout $(( $(left) - 10 )) python3 bench/device/run.py --artifacts /tmp/t/new3 --runtime $L --out "$out/full" \
  --no-isolate --kernel-timeout 90 --kernels mod_f16_d128_docmask > "$out/full.log" 2>&1
stamp "full mode with FlexAttention: exit $?"; grep -E "^\[|passed" "$out/full.log" | tail -5 | cut -c1-200
[ -f "$out/full/results.json" ] && python3 bench/device/make_table.py "$out/full/results.json" > "$out/full-table.md" \
  && grep -A8 "## FlexAttention" "$out/full-table.md"
stamp done
