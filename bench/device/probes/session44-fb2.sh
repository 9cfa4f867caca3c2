#!/usr/bin/env bash
# Forty-fourth session, second call: session44-fb.sh's first call found
# the timing-only `fb` kernel faster than the plain kernel, which says its
# timing is not a bound: with randn inputs every f16 p of fb underflows
# to 0 and a P V product on zeros draws less power (the card's clock
# follows). Here the queries are scaled (pair.py --q-scale) so that the
# softcapped scores reach the cap: every row's maximum is then within a
# few units of c, fb's P is the original's P (up to e^0.5), and both
# kernels multiply the same kind of data.
# Carry .device/pack (full.tgz, fb.tgz), .device/include.
# usage: session44-fb2.sh [LIMIT_S]
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/fb2
source bench/device/probes/device_setup.sh ${1:-150}
finish() { cp "$out"/*.json "$out/summary.txt" "$final/" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
for qs in 16 64; do
  timeout $(( $(left) / 2 - 5 )) python3 bench/device/pair.py --artifacts /tmp/t/fb --artifacts-b /tmp/t/full --runtime $L \
    --out "$out/fb-q$qs.json" --rounds 5 --ns 4096,16384 --q-scale $qs \
    --pairs mod_f16_d128_softcap=mod_f16_d128_softcap,mod_f16_d128_softcap=attn_f16_d128_none > "$out/fb-q$qs.txt" 2>&1
  stamp "q x $qs: bounded f16 vs original, vs plain: exit $?"; grep -E " vs |A/B" "$out/fb-q$qs.txt" | cut -c1-110
done
stamp done
