#!/usr/bin/env bash
# Forty-fifth session: what the speculative reference's per-block check
# would cost on the fixed-reference f16 softcap kernel (pack fb,
# session44-fb*.sh), timing only. spec_check_ptx.py rewrites fb's 192 x 80
# kernel (the default at N > 8192); two variants, each assembled here with
# ptxas -arch=sm_90a -O3:
#   scb: K's stage released after the softmax instead of after the wait for
#        its scores (what a redo of the block needs); ptxas: no spill;
#   scc: scb plus, per block, a vote on `row sum > 2^15` and a branch over
#        a one-store block that these inputs never take; ptxas: 84 bytes of
#        spill (any branch there spills at 160 registers: a `trap` 812, an
#        `exit` 56).
# Queries scaled by 16 (pair.py --q-scale 16), so that fb's fixed
# reference (the softcap's bound) gives the P of the running maximum, as
# in session44-fb2.sh / fb3.sh. N = 16384, 7 rounds.
# Packs: full, fb, sc (tar czf .device/pack/sc.tgz -C .device scb scc; the
# variants are fb's directory with the main kernel's PTX and cubin
# replaced). Carry .device/pack, .device/include.
# usage: session45-spec.sh [LIMIT_S]
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/s45
source bench/device/probes/device_setup.sh ${1:-150}
finish() { cp "$out"/*.json "$out/summary.txt" "$final/" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
K=mod_f16_d128_softcap
for v in scb scc; do
  timeout $(( $(left) / 4 )) python3 bench/device/pair.py --artifacts /tmp/t/$v --artifacts-b /tmp/t/fb --runtime $L \
    --out "$out/$v-fb.json" --rounds 7 --ns 16384 --q-scale 16 --pairs $K=$K > "$out/$v-fb.txt" 2>&1
  stamp "$v vs fb: exit $?"; grep -E " vs |A/B" "$out/$v-fb.txt" | cut -c1-110
done
timeout $(( $(left) - 5 )) python3 bench/device/pair.py --artifacts /tmp/t/fb --artifacts-b /tmp/t/full --runtime $L \
  --out "$out/fb-orig.json" --rounds 7 --ns 16384 --q-scale 16 \
  --pairs $K=$K,$K=attn_f16_d128_none > "$out/fb-orig.txt" 2>&1
stamp "fb vs original, vs plain: exit $?"; grep -E " vs |A/B" "$out/fb-orig.txt" | cut -c1-110
stamp done
