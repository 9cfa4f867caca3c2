#!/usr/bin/env bash
# Thirty-fifth session, second run: the mask_mod range search in groups of
# 8 blocks from both ends (MaskModRange.cpp) and the mask_mod kernels that
# narrow the range no longer persistent (DefaultConfig.cpp: persistent
# they spill 4 bytes). Builds: new5/ (this change), new3/ (the first run's
# one-level scan), new2/ (main f2eca1e), pers/ (new5's two document-mask
# kernels forced persistent, spilling 4 bytes).
#  1. new5 against new3 and against new2 (mask_mod kernels), interleaved,
#     N = 1024 / 4096 / 16384;
#  2. new5 against pers (persistence);
#  3. run.py --quick on the mask_mod kernels, memcheck and racecheck;
#  4. the document masks against their plain kernels, interleaved;
#  5. run.py full mode on the document masks with FlexAttention.
# Packs: new2, new3, new5, pers (.device/pack/*.tgz). Carry .device/pack,
# .device/include.
# usage: session35-doc2.sh [LIMIT_S]
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/doc2
source bench/device/probes/device_setup.sh ${1:-570}
finish() { tar czf "$final/doc2.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/doc2-summary.txt" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
same() { local p=""; for k in ${1//,/ }; do p="$p${p:+,}$k=$k"; done; echo "$p"; }
K=mod_f16_d128_docmask,mod_bf16_d64_all
D=mod_f16_d128_docmask,mod_f16_d128_docmask_none
for b in new3 new2; do
  timeout 70 python3 bench/device/pair.py --artifacts /tmp/t/new5 --artifacts-b /tmp/t/$b --runtime $L \
    --out "$out/new5-vs-$b.json" --rounds 3 --ns 1024,4096,16384 --pairs "$(same $K)" > "$out/new5-vs-$b.txt" 2>&1
  stamp "new5 vs $b: exit $?"; grep -E "A/B" "$out/new5-vs-$b.txt" | cut -c1-90
done
timeout 70 python3 bench/device/pair.py --artifacts /tmp/t/new5 --artifacts-b /tmp/t/pers --runtime $L \
  --out "$out/new5-vs-pers.json" --rounds 3 --ns 1024,4096,16384 --pairs "$(same $D)" > "$out/new5-vs-pers.txt" 2>&1
stamp "new5 vs persistent: exit $?"; grep -E "A/B" "$out/new5-vs-pers.txt" | cut -c1-90
timeout 100 python3 bench/device/run.py --artifacts /tmp/t/new5 --runtime $L --out "$out/quick" \
  --quick --no-isolate --kernel-timeout 60 --kernels "$K,mod_f16_d128_docmask_none" > "$out/quick.log" 2>&1
stamp "run.py --quick: exit $?"; grep -E "FAIL|passed" "$out/quick.log" | cut -c1-200 | tail -8
[ -f "$out/quick/results.json" ] && python3 bench/device/make_table.py "$out/quick/results.json" > "$out/quick-table.md"
for tool in memcheck racecheck; do
  timeout 60 compute-sanitizer --tool $tool --error-exitcode 3 \
    python3 bench/device/sanitize.py --artifacts /tmp/t/new5 --runtime $L "$K,mod_f16_d128_docmask_none" > "$out/$tool.log" 2>&1
  stamp "$tool: exit $?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|^FAIL" "$out/$tool.log" | cut -c1-140 | tail -3
done
timeout 60 python3 bench/device/pair.py --artifacts /tmp/t/new5 --runtime $L \
  --out "$out/vs-plain.json" --rounds 3 --ns 1024,4096,16384 \
  --pairs "mod_f16_d128_docmask=attn_f16_d128_causal_tl,mod_f16_d128_docmask_none=attn_f16_d128_none" > "$out/vs-plain.txt" 2>&1
stamp "vs plain: exit $?"; grep -E "A/B" "$out/vs-plain.txt" | cut -c1-90
timeout $(( $(left) - 10 )) python3 bench/device/run.py --artifacts /tmp/t/new5 --runtime $L --out "$out/full" \
  --no-isolate --kernel-timeout 90 --kernels "$D" > "$out/full.log" 2>&1
stamp "full mode with FlexAttention: exit $?"; grep -E "^\[|passed" "$out/full.log" | tail -5 | cut -c1-200
[ -f "$out/full/results.json" ] && python3 bench/device/make_table.py "$out/full/results.json" > "$out/full-table.md" \
  && grep -A8 "## FlexAttention" "$out/full-table.md"
stamp done
