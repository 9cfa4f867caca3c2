#!/usr/bin/env bash
# Thirty-sixth session, second run: the block scans of the mask_mod range
# searches stop at the first block found (they tested every block of the
# group before), and documents of 2048 keys (compute-bound) against main.
# Builds: new8/ (this change), new7/ (full blocks, scans without early
# exit), new6/ (main 4d837b0), main8/ (the two 2048-key document kernels
# compiled by main's compiler, from new8's sources).
#  1. new8 against new6 and new7 (the 256-key document kernels and
#     mod_bf16_d64_all), and against main8 (2048-key documents),
#     interleaved, N = 1024 / 4096 / 16384;
#  2. run.py --quick on all 50 kernels of new8; memcheck and racecheck on
#     the mask_mod kernels;
#  3. run.py full mode on the document masks with FlexAttention.
# Packs: new6, new7, new8, main8. Carry .device/pack, .device/include.
# usage: session36-full2.sh [LIMIT_S]
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/full2
source bench/device/probes/device_setup.sh ${1:-570}
finish() { tar czf "$final/full2.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/full2-summary.txt" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
same() { local p=""; for k in ${1//,/ }; do p="$p${p:+,}$k=$k"; done; echo "$p"; }
K=mod_f16_d128_docmask,mod_f16_d128_docmask_none,mod_bf16_d64_all
D=mod_f16_d128_doc2048,mod_f16_d128_doc2048_none
for b in new6 new7 main8; do
  P="$(same $K)"; [ $b = main8 ] && P="$(same $D)"
  timeout 90 python3 bench/device/pair.py --artifacts /tmp/t/new8 --artifacts-b /tmp/t/$b --runtime $L \
    --out "$out/new8-vs-$b.json" --rounds 3 --ns 1024,4096,16384 --pairs "$P" > "$out/new8-vs-$b.txt" 2>&1
  stamp "new8 vs $b: exit $?"; grep -E "A/B" "$out/new8-vs-$b.txt" | cut -c1-90
done
timeout 150 python3 bench/device/run.py --artifacts /tmp/t/new8 --runtime $L --out "$out/quickall" \
  --quick --no-isolate --kernel-timeout 60 > "$out/quickall.log" 2>&1
stamp "run.py --quick (all kernels): exit $?"; grep -E "FAIL|passed" "$out/quickall.log" | cut -c1-200 | tail -8
[ -f "$out/quickall/results.json" ] && python3 bench/device/make_table.py "$out/quickall/results.json" > "$out/quickall-table.md"
for tool in memcheck racecheck; do
  timeout 70 compute-sanitizer --tool $tool --error-exitcode 3 \
    python3 bench/device/sanitize.py --artifacts /tmp/t/new8 --runtime $L "$K,$D" > "$out/$tool.log" 2>&1
  stamp "$tool: exit $?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|^FAIL" "$out/$tool.log" | cut -c1-140 | tail -3
done
timeout $(( $(left) - 10 )) python3 bench/device/run.py --artifacts /tmp/t/new8 --runtime $L --out "$out/full" \
  --no-isolate --kernel-timeout 90 --kernels "mod_f16_d128_docmask,mod_f16_d128_docmask_none,$D" > "$out/full.log" 2>&1
stamp "full mode with FlexAttention: exit $?"; grep -E "^\[|passed" "$out/full.log" | tail -5 | cut -c1-200
[ -f "$out/full/results.json" ] && python3 bench/device/make_table.py "$out/full/results.json" > "$out/full-table.md" \
  && grep -A10 "## FlexAttention" "$out/full-table.md"
stamp done
