#!/usr/bin/env bash
# Thirty-seventh session: attn-split-kv-loop skips the blocks a mask_mod
# region hides between visible ones (`attn.kv_range hidden`; the loops
# count positions). Builds: new11/ (this change), new10/ (9cd6a72, the
# previous session's final build), main8/ (the sink + window kernel
# compiled by main 4d837b0, before full blocks).
#  1. sink + window (mod_f16_d128_sinkwin) of new11 against new10 and
#     main8, interleaved, N = 1024 / 4096 / 16384;
#  2. run.py --quick on the mask_mod kernels of new11 (every other PTX is
#     byte-identical to new10's); memcheck and racecheck on sink + window;
#  3. f16 / bf16 softcap against the plain kernel (issue 8's bar), 5 rounds;
#  4. run.py full mode on sink + window with FlexAttention.
# Packs: new10, new11, main8. Carry .device/pack, .device/include.
# usage: session37-skip.sh [LIMIT_S]
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/skip
source bench/device/probes/device_setup.sh ${1:-570}
finish() { tar czf "$final/skip.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/skip-summary.txt" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
S=mod_f16_d128_sinkwin
M=mod_f16_d128_docmask,mod_f16_d128_docmask_none,mod_f16_d128_doc2048,mod_f16_d128_doc2048_none,mod_bf16_d64_all,$S
for b in new10 main8; do
  timeout 80 python3 bench/device/pair.py --artifacts /tmp/t/new11 --artifacts-b /tmp/t/$b --runtime $L \
    --out "$out/new11-vs-$b.json" --rounds 3 --ns 1024,4096,16384 --pairs "$S=$S" > "$out/new11-vs-$b.txt" 2>&1
  stamp "new11 vs $b: exit $?"; grep -E "A/B" "$out/new11-vs-$b.txt" | cut -c1-90
done
timeout 100 python3 bench/device/run.py --artifacts /tmp/t/new11 --runtime $L --out "$out/quick" \
  --quick --no-isolate --kernel-timeout 60 --kernels "$M" > "$out/quick.log" 2>&1
stamp "run.py --quick (mask_mod kernels): exit $?"; grep -E "FAIL|passed" "$out/quick.log" | cut -c1-200 | tail -8
for tool in memcheck racecheck; do
  timeout 60 compute-sanitizer --tool $tool --error-exitcode 3 \
    python3 bench/device/sanitize.py --artifacts /tmp/t/new11 --runtime $L "$S" > "$out/$tool.log" 2>&1
  stamp "$tool: exit $?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|^FAIL" "$out/$tool.log" | cut -c1-140 | tail -3
done
timeout 150 python3 bench/device/pair.py --artifacts /tmp/t/new11 --runtime $L \
  --out "$out/softcap-vs-plain.json" --rounds 5 --ns 1024,4096,16384 \
  --pairs "mod_f16_d128_softcap=attn_f16_d128_none,mod_bf16_d128_softcap=attn_bf16_d128_none" > "$out/softcap-vs-plain.txt" 2>&1
stamp "softcap vs plain: exit $?"; grep -E "A/B" "$out/softcap-vs-plain.txt" | cut -c1-90
timeout $(( $(left) - 10 )) python3 bench/device/run.py --artifacts /tmp/t/new11 --runtime $L --out "$out/full" \
  --no-isolate --kernel-timeout 90 --kernels "$S" > "$out/full.log" 2>&1
stamp "full mode with FlexAttention: exit $?"; grep -E "^\[|passed" "$out/full.log" | tail -5 | cut -c1-200
[ -f "$out/full/results.json" ] && python3 bench/device/make_table.py "$out/full/results.json" > "$out/full-table.md" \
  && grep -A6 "## FlexAttention" "$out/full-table.md"
stamp done
