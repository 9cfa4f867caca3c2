#!/usr/bin/env bash
# Thirty-fifth session, on an H200 if one comes: issue 8's softcap bar
# (f16 and bf16 softcap against the plain kernel, D = 128, interleaved,
# 5 rounds) and the document masks against FlexAttention (run.py full
# mode), with the build of cef3795 (new6/).
# Pack: .device/pack/new6.tgz. Carry .device/pack, .device/include.
# usage: session35-h200.sh [LIMIT_S]
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/h200
source bench/device/probes/device_setup.sh ${1:-400}
finish() { tar czf "$final/h200.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/h200-summary.txt" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
timeout 150 python3 bench/device/pair.py --artifacts /tmp/t/new6 --runtime $L \
  --out "$out/softcap-vs-plain.json" --rounds 5 --ns 1024,4096,16384 \
  --pairs "mod_f16_d128_softcap=attn_f16_d128_none,mod_bf16_d128_softcap=attn_bf16_d128_none" > "$out/softcap-vs-plain.txt" 2>&1
stamp "softcap vs plain: exit $?"; grep -E "A/B" "$out/softcap-vs-plain.txt" | cut -c1-90
timeout $(( $(left) - 10 )) python3 bench/device/run.py --artifacts /tmp/t/new6 --runtime $L --out "$out/full" \
  --no-isolate --kernel-timeout 90 --kernels mod_f16_d128_docmask,mod_f16_d128_docmask_none > "$out/full.log" 2>&1
stamp "full mode with FlexAttention: exit $?"; grep -E "^\[|passed" "$out/full.log" | tail -5 | cut -c1-200
[ -f "$out/full/results.json" ] && python3 bench/device/make_table.py "$out/full/results.json" > "$out/full-table.md" \
  && grep -A8 "## FlexAttention" "$out/full-table.md"
stamp done
