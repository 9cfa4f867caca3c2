#!/usr/bin/env bash
# Thirty-fourth session: the default kernels with ALiBi, a score_mod or a
# mask_mod at D = 128 on the warp-specialized 128 x 128 kernels
# (DefaultConfig.cpp, after session34-ws.sh), as build_artifacts.sh makes
# them now (new/) against the build of 61e4306 (full/):
#  1. run.py --quick on the three changed kernels (with their length
#     variants): fp32 reference, odd shapes, NaN/Inf, NaN-poisoned outputs;
#  2. memcheck and racecheck on them (small odd shapes);
#  3. new against old, and new against the same kernel without the
#     modification, interleaved, N = 1024 / 4096 / 16384;
#  4. run.py full mode on them with FlexAttention (same score_mod / mask_mod).
# Packs: .device/pack/full.tgz, new.tgz (build_artifacts.sh .device/new;
# tar czf .device/pack/new.tgz -C .device new). Carry .device/pack, .device/include.
# Second run: NEW=new2 PREV=new (the build with loop_local_ids for the
# index tiles, packed as new2.tgz) adds new2 against new.
# usage: [NEW=DIR] [PREV=DIR] session34-idx.sh [LIMIT_S]
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/idx
NEW=${NEW:-new}
source bench/device/probes/device_setup.sh ${1:-570}
finish() { tar czf "$final/idx.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/idx-summary.txt" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
K=mod_f16_d128_relpos,mod_bf16_d128_alibi_causal_br,mod_f16_d128_docmask
timeout 120 python3 bench/device/run.py --artifacts /tmp/t/$NEW --runtime $L --out "$out/quick" \
  --quick --no-isolate --kernel-timeout 60 --kernels "$K" > "$out/quick.log" 2>&1
stamp "run.py --quick: exit $?"; grep -E "FAIL|passed" "$out/quick.log" | cut -c1-200 | tail -8
[ -f "$out/quick/results.json" ] && python3 bench/device/make_table.py "$out/quick/results.json" > "$out/quick-table.md"
for tool in memcheck racecheck; do
  timeout 60 compute-sanitizer --tool $tool --error-exitcode 3 \
    python3 bench/device/sanitize.py --artifacts /tmp/t/$NEW --runtime $L "$K" > "$out/$tool.log" 2>&1
  stamp "$tool: exit $?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|^FAIL" "$out/$tool.log" | cut -c1-140 | tail -3
done
p=""; for k in ${K//,/ }; do p="$p${p:+,}$k=$k"; done
timeout 150 python3 bench/device/pair.py --artifacts /tmp/t/$NEW --artifacts-b /tmp/t/full --runtime $L \
  --out "$out/new-vs-old.json" --rounds 3 --ns 1024,4096,16384 --pairs "$p" > "$out/new-vs-old.txt" 2>&1
stamp "new vs old: exit $?"; grep -E "A/B" "$out/new-vs-old.txt" | cut -c1-90
if [ -n "${PREV:-}" ]; then
  timeout 100 python3 bench/device/pair.py --artifacts /tmp/t/$NEW --artifacts-b /tmp/t/$PREV --runtime $L \
    --out "$out/new-vs-prev.json" --rounds 3 --ns 1024,4096,16384 --pairs "$p" > "$out/new-vs-prev.txt" 2>&1
  stamp "$NEW vs $PREV: exit $?"; grep -E "A/B" "$out/new-vs-prev.txt" | cut -c1-90
fi
timeout 120 python3 bench/device/pair.py --artifacts /tmp/t/$NEW --runtime $L \
  --out "$out/vs-plain.json" --rounds 3 --ns 1024,4096,16384 \
  --pairs "mod_f16_d128_relpos=attn_f16_d128_none,mod_bf16_d128_alibi_causal_br=attn_bf16_d128_causal_br,mod_f16_d128_docmask=attn_f16_d128_causal_tl" > "$out/vs-plain.txt" 2>&1
stamp "vs plain: exit $?"; grep -E "A/B" "$out/vs-plain.txt" | cut -c1-90
timeout $(( $(left) - 10 )) python3 bench/device/run.py --artifacts /tmp/t/$NEW --runtime $L --out "$out/full" \
  --no-isolate --kernel-timeout 90 --kernels "$K" > "$out/full.log" 2>&1
stamp "full mode with FlexAttention: exit $?"; grep -E "^\[|passed" "$out/full.log" | tail -5 | cut -c1-200
[ -f "$out/full/results.json" ] && python3 bench/device/make_table.py "$out/full/results.json" > "$out/full-table.md" \
  && grep -A8 "## FlexAttention" "$out/full-table.md"
stamp done
