#!/usr/bin/env bash
# Thirty-sixth session, third run: the full-block search runs within the
# visible range (`from %lo to %hi`; it ran to the mask attribute's unmasked
# upper bound before). Builds: new10/ (this change, 9cd6a72, with the
# sink + window kernel mod_f16_d128_sinkwin), new8/ (second run's build),
# new6/ (main 4d837b0), main8/ (the 2048-key document and sink + window
# kernels compiled by main's compiler).
#  1. new10 against new8, new6 (256-key documents, mod_bf16_d64_all) and
#     main8 (2048-key documents, sink + window), interleaved,
#     N = 1024 / 4096 / 16384;
#  2. run.py --quick on all 51 kernels of new10; memcheck and racecheck on
#     the mask_mod kernels;
#  3. run.py full mode on the mask_mod kernels with FlexAttention.
# Packs: new6, new8, new10, main8. Carry .device/pack, .device/include.
# usage: session36-full3.sh [LIMIT_S]
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/full3
source bench/device/probes/device_setup.sh ${1:-570}
finish() { tar czf "$final/full3.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/full3-summary.txt" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
same() { local p=""; for k in ${1//,/ }; do p="$p${p:+,}$k=$k"; done; echo "$p"; }
K=mod_f16_d128_docmask,mod_f16_d128_docmask_none,mod_bf16_d64_all
D=mod_f16_d128_doc2048,mod_f16_d128_doc2048_none,mod_f16_d128_sinkwin
for b in new8 new6 main8; do
  P="$(same $K)"; [ $b = main8 ] && P="$(same $D)"; [ $b = new8 ] && P="$(same $K,mod_f16_d128_doc2048,mod_f16_d128_doc2048_none)"
  timeout 100 python3 bench/device/pair.py --artifacts /tmp/t/new10 --artifacts-b /tmp/t/$b --runtime $L \
    --out "$out/new10-vs-$b.json" --rounds 3 --ns 1024,4096,16384 --pairs "$P" > "$out/new10-vs-$b.txt" 2>&1
  stamp "new10 vs $b: exit $?"; grep -E "A/B" "$out/new10-vs-$b.txt" | cut -c1-90
done
timeout 150 python3 bench/device/run.py --artifacts /tmp/t/new10 --runtime $L --out "$out/quickall" \
  --quick --no-isolate --kernel-timeout 60 > "$out/quickall.log" 2>&1
stamp "run.py --quick (all kernels): exit $?"; grep -E "FAIL|passed" "$out/quickall.log" | cut -c1-200 | tail -8
[ -f "$out/quickall/results.json" ] && python3 bench/device/make_table.py "$out/quickall/results.json" > "$out/quickall-table.md"
for tool in memcheck racecheck; do
  timeout 70 compute-sanitizer --tool $tool --error-exitcode 3 \
    python3 bench/device/sanitize.py --artifacts /tmp/t/new10 --runtime $L "$K,$D" > "$out/$tool.log" 2>&1
  stamp "$tool: exit $?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|^FAIL" "$out/$tool.log" | cut -c1-140 | tail -3
done
timeout $(( $(left) - 10 )) python3 bench/device/run.py --artifacts /tmp/t/new10 --runtime $L --out "$out/full" \
  --no-isolate --kernel-timeout 90 --kernels "mod_f16_d128_docmask,mod_f16_d128_docmask_none,$D" > "$out/full.log" 2>&1
stamp "full mode with FlexAttention: exit $?"; grep -E "^\[|passed" "$out/full.log" | tail -5 | cut -c1-200
[ -f "$out/full/results.json" ] && python3 bench/device/make_table.py "$out/full/results.json" > "$out/full-table.md" \
  && grep -A10 "## FlexAttention" "$out/full-table.md"
stamp done
