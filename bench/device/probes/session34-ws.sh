#!/usr/bin/env bash
# Thirty-fourth session: the score modifications that still ran on the
# 128 x 64 wgmma kernel without a producer warpgroup (ALiBi, a score_mod
# region, a mask_mod region at D = 128) on warp-specialized forms:
#   rp_*: mod_f16_d128_relpos (score_mod: s + 0.01 (k - q)), unmasked;
#   al_*: mod_bf16_d128_alibi_causal_br (ALiBi, causal bottom-right);
#   dm_*: mod_f16_d128_docmask (mask_mod: documents of 256, causal top-left).
# ALiBi needed attn-warp-specialize to let the slope's scalar load run on
# the producer's threads too (before this session: "not applied").
# Sources in .device/ws/src (attn-compile SRC --chip=sm_90a --cubin).
# Steps: run.py --quick on every variant (fp32 reference, odd shapes,
# NaN/Inf, NaN-poisoned outputs); memcheck and racecheck on one of each;
# each variant against the default kernel (build_artifacts.sh), interleaved.
# Packs: .device/pack/full.tgz (build_artifacts.sh .device/full), ws.tgz
# (tar czf .device/pack/ws.tgz -C .device ws). Carry .device/pack, .device/include.
# usage: session34-ws.sh [LIMIT_S]
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/ws
source bench/device/probes/device_setup.sh ${1:-570}
finish() { tar czf "$final/ws.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/ws-summary.txt" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
timeout 150 python3 bench/device/run.py --artifacts /tmp/t/ws --runtime $L --out "$out/quick" \
  --quick --no-isolate --kernel-timeout 60 > "$out/quick.log" 2>&1
stamp "run.py --quick (variants): exit $?"; grep -E "FAIL|passed" "$out/quick.log" | cut -c1-200 | tail -15
[ -f "$out/quick/results.json" ] && python3 bench/device/make_table.py "$out/quick/results.json" > "$out/quick-table.md"
p=""
for k in rp_a rp_b rp_e rp_f rp_h; do p="$p${p:+,}$k=mod_f16_d128_relpos"; done
for k in al_a al_b al_d al_f al_g; do p="$p,$k=mod_bf16_d128_alibi_causal_br"; done
for k in dm_a dm_b dm_d; do p="$p,$k=mod_f16_d128_docmask"; done
timeout 260 python3 bench/device/pair.py --artifacts /tmp/t/ws --artifacts-b /tmp/t/full --runtime $L \
  --out "$out/pairs.json" --rounds 3 --ns 1024,4096,16384 --pairs "$p" > "$out/pairs.txt" 2>&1
stamp "variants vs default: exit $?"; grep -E "A/B" "$out/pairs.txt" | cut -c1-90
for tool in memcheck racecheck; do
  timeout $(( $(left) / 2 - 5 )) compute-sanitizer --tool $tool --error-exitcode 3 \
    python3 bench/device/sanitize.py --artifacts /tmp/t/ws --runtime $L rp_a,al_a,dm_a > "$out/$tool.log" 2>&1
  stamp "$tool: exit $?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|^FAIL" "$out/$tool.log" | cut -c1-140 | tail -3
done
stamp done
