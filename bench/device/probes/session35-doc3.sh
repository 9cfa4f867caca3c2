#!/usr/bin/env bash
# Thirty-fifth session, third run: the document-mask kernels persistent
# again (at every length under a causal mask) with 32 registers for the
# producer, which runs the range search beside the tile loop (at 24 it
# spilled 4 bytes; WarpSpecialize.cpp). Builds: new6/ (this change), new5/
# (not persistent), pers/ (persistent, producer 24, spilling), new2/ (main
# f2eca1e).
#  1. new6 against new5, pers and new2, interleaved, N = 1024 / 4096 / 16384;
#  2. run.py --quick on all 48 kernels; memcheck and racecheck on the
#     mask_mod kernels;
#  3. the document masks against their plain kernels, interleaved;
#  4. run.py full mode on the document masks with FlexAttention.
# Packs: new2, new5, new6, pers. Carry .device/pack, .device/include.
# usage: session35-doc3.sh [LIMIT_S]
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/doc3
source bench/device/probes/device_setup.sh ${1:-570}
finish() { tar czf "$final/doc3.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/doc3-summary.txt" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
same() { local p=""; for k in ${1//,/ }; do p="$p${p:+,}$k=$k"; done; echo "$p"; }
K=mod_f16_d128_docmask,mod_bf16_d64_all
D=mod_f16_d128_docmask,mod_f16_d128_docmask_none
for b in new5 pers new2; do
  case $b in pers) P="$(same $D)" ;; new5) P="$(same $D,mod_bf16_d64_all)" ;; *) P="$(same $K,mod_f16_d128_docmask_none)" ;; esac
  [ $b = new2 ] && P="$(same $K)"
  timeout 70 python3 bench/device/pair.py --artifacts /tmp/t/new6 --artifacts-b /tmp/t/$b --runtime $L \
    --out "$out/new6-vs-$b.json" --rounds 3 --ns 1024,4096,16384 --pairs "$P" > "$out/new6-vs-$b.txt" 2>&1
  stamp "new6 vs $b: exit $?"; grep -E "A/B" "$out/new6-vs-$b.txt" | cut -c1-90
done
timeout 150 python3 bench/device/run.py --artifacts /tmp/t/new6 --runtime $L --out "$out/quickall" \
  --quick --no-isolate --kernel-timeout 60 > "$out/quickall.log" 2>&1
stamp "run.py --quick (all kernels): exit $?"; grep -E "FAIL|passed" "$out/quickall.log" | cut -c1-200 | tail -8
[ -f "$out/quickall/results.json" ] && python3 bench/device/make_table.py "$out/quickall/results.json" > "$out/quickall-table.md"
for tool in memcheck racecheck; do
  timeout 60 compute-sanitizer --tool $tool --error-exitcode 3 \
    python3 bench/device/sanitize.py --artifacts /tmp/t/new6 --runtime $L "$K,mod_f16_d128_docmask_none" > "$out/$tool.log" 2>&1
  stamp "$tool: exit $?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|^FAIL" "$out/$tool.log" | cut -c1-140 | tail -3
done
timeout 60 python3 bench/device/pair.py --artifacts /tmp/t/new6 --runtime $L \
  --out "$out/vs-plain.json" --rounds 3 --ns 1024,4096,16384 \
  --pairs "mod_f16_d128_docmask=attn_f16_d128_causal_tl,mod_f16_d128_docmask_none=attn_f16_d128_none" > "$out/vs-plain.txt" 2>&1
stamp "vs plain: exit $?"; grep -E "A/B" "$out/vs-plain.txt" | cut -c1-90
timeout $(( $(left) - 10 )) python3 bench/device/run.py --artifacts /tmp/t/new6 --runtime $L --out "$out/full" \
  --no-isolate --kernel-timeout 90 --kernels "$D" > "$out/full.log" 2>&1
stamp "full mode with FlexAttention: exit $?"; grep -E "^\[|passed" "$out/full.log" | tail -5 | cut -c1-200
[ -f "$out/full/results.json" ] && python3 bench/device/make_table.py "$out/full/results.json" > "$out/full-table.md" \
  && grep -A8 "## FlexAttention" "$out/full-table.md"
stamp done
