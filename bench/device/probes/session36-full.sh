#!/usr/bin/env bash
# Thirty-sixth session: full blocks for mask_mod regions (the K/V blocks a
# region shows in full run without the element mask: attn.kv_range
# unmasked with the region, attn-split-kv-loop, attn-expand-mask-mods).
# Builds: new7/ (this change), new6/ (main 4d837b0 = cef3795's kernels).
#  1. new7 against new6 on the three mask_mod kernels, interleaved,
#     N = 1024 / 4096 / 16384;
#  2. run.py --quick on all 48 kernels of new7; memcheck and racecheck on
#     the mask_mod kernels;
#  3. softcap against the plain kernel (issue 8's bar; the H200 is the
#     card it names), 5 rounds;
#  4. run.py full mode on the document masks with FlexAttention.
# Packs: new6, new7 (bench/device/build_artifacts.sh .device/newN; tar czf
# .device/pack/newN.tgz -C .device newN). Carry .device/pack, .device/include.
# usage: session36-full.sh [LIMIT_S]
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/full
source bench/device/probes/device_setup.sh ${1:-570}
finish() { tar czf "$final/full.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/full-summary.txt" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
K=mod_f16_d128_docmask,mod_f16_d128_docmask_none,mod_bf16_d64_all
P=""; for k in ${K//,/ }; do P="$P${P:+,}$k=$k"; done
timeout 90 python3 bench/device/pair.py --artifacts /tmp/t/new7 --artifacts-b /tmp/t/new6 --runtime $L \
  --out "$out/new7-vs-new6.json" --rounds 3 --ns 1024,4096,16384 --pairs "$P" > "$out/new7-vs-new6.txt" 2>&1
stamp "new7 vs new6: exit $?"; grep -E "A/B" "$out/new7-vs-new6.txt" | cut -c1-90
timeout 150 python3 bench/device/run.py --artifacts /tmp/t/new7 --runtime $L --out "$out/quickall" \
  --quick --no-isolate --kernel-timeout 60 > "$out/quickall.log" 2>&1
stamp "run.py --quick (all kernels): exit $?"; grep -E "FAIL|passed" "$out/quickall.log" | cut -c1-200 | tail -8
[ -f "$out/quickall/results.json" ] && python3 bench/device/make_table.py "$out/quickall/results.json" > "$out/quickall-table.md"
for tool in memcheck racecheck; do
  timeout 60 compute-sanitizer --tool $tool --error-exitcode 3 \
    python3 bench/device/sanitize.py --artifacts /tmp/t/new7 --runtime $L "$K" > "$out/$tool.log" 2>&1
  stamp "$tool: exit $?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|^FAIL" "$out/$tool.log" | cut -c1-140 | tail -3
done
timeout 120 python3 bench/device/pair.py --artifacts /tmp/t/new7 --runtime $L \
  --out "$out/softcap-vs-plain.json" --rounds 5 --ns 1024,4096,16384 \
  --pairs "mod_f16_d128_softcap=attn_f16_d128_none,mod_bf16_d128_softcap=attn_bf16_d128_none" > "$out/softcap-vs-plain.txt" 2>&1
stamp "softcap vs plain: exit $?"; grep -E "A/B" "$out/softcap-vs-plain.txt" | cut -c1-90
timeout $(( $(left) - 10 )) python3 bench/device/run.py --artifacts /tmp/t/new7 --runtime $L --out "$out/full" \
  --no-isolate --kernel-timeout 90 --kernels mod_f16_d128_docmask,mod_f16_d128_docmask_none > "$out/full.log" 2>&1
stamp "full mode with FlexAttention: exit $?"; grep -E "^\[|passed" "$out/full.log" | tail -5 | cut -c1-200
[ -f "$out/full/results.json" ] && python3 bench/device/make_table.py "$out/full/results.json" > "$out/full-table.md" \
  && grep -A8 "## FlexAttention" "$out/full-table.md"
stamp done
