#!/usr/bin/env bash
# Fortieth session: session39-h200.sh's steps 1-2 (the compare fold's
# kernel checked and timed; on an H200 the softcap and bias bars), then
# what the thirty-eighth session left unmeasured about the offset fold:
# ALiBi (bf16, D = 128, causal bottom-right) c5430fc against 5900f72, 7
# interleaved rounds at N = 1024 / 4096 / 16384 (0.96-0.97 in 3 rounds,
# with PTX that differs by one instruction), and relpos and the D = 64
# all-modifications kernel at N = 1024 (never timed), 5 rounds; last,
# Nsight Compute (session38-ncu.sh) with what time is left.
# Packs: full, sm80, cmpf (session39-h200.sh's header), o59 (5900f72's
# ALiBi, relpos and D = 64 all-modifications artifacts from
# .device/old/full-5900f72.tgz, in a directory o59/:
# tar czf .device/pack/o59.tgz -C .device/o59 o59).
# Carry .device/pack, .device/include.
# usage: session40.sh [LIMIT_S]
set -uo pipefail
final=${OUT:-/tmp/out}; mkdir -p "$final"
limit=${1:-560}; t0=$(date +%s)
left() { echo $(( limit - ($(date +%s) - t0) )); }
SKIP_NCU=1 OUT=$final LIMIT_S=$(( limit - 90 )) bash bench/device/probes/session39-h200.sh
out=/tmp/s40; mkdir -p "$out"
exec > >(tee "$out/summary.txt") 2>&1
stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
L=/tmp/brt/libattn_runtime.so
if [ $(left) -gt 80 ]; then
timeout $(( $(left) / 2 + 10 )) python3 bench/device/pair.py --artifacts /tmp/t/full --artifacts-b /tmp/t/o59 \
  --runtime $L --out "$out/alibi.json" --rounds 7 --ns 1024,4096,16384 \
  --pairs mod_bf16_d128_alibi_causal_br=mod_bf16_d128_alibi_causal_br > "$out/alibi.txt" 2>&1
stamp "ALiBi c5430fc vs 5900f72, 7 rounds: exit $?"; grep -E "A/B" "$out/alibi.txt" | cut -c1-100
timeout $(( $(left) - 20 )) python3 bench/device/pair.py --artifacts /tmp/t/full --artifacts-b /tmp/t/o59 \
  --runtime $L --out "$out/n1024.json" --rounds 5 --ns 1024 \
  --pairs mod_f16_d128_relpos=mod_f16_d128_relpos,mod_bf16_d64_all=mod_bf16_d64_all > "$out/n1024.txt" 2>&1
stamp "relpos, D = 64 all, N = 1024: exit $?"; grep -E "A/B" "$out/n1024.txt" | cut -c1-100
fi
tar czf "$final/s40.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/s40-summary.txt"
export LIMIT_S=$(( $(left) - 5 ))
[ $LIMIT_S -gt 60 ] && OUT=$final bash bench/device/probes/session38-ncu.sh
stamp done
