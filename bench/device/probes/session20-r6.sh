#!/usr/bin/env bash
# Twentieth session, device run 6 (outputs in $OUT/r6.tgz): the softcap's
# cost against the ratio of MUFU to tensor work per score, which falls as
# D grows (2 MUFU operations per score; 4 D FLOP of products): f16, the
# same tile with and without a softcap of 30 at D = 64 (128 x 128), 128
# (128 x 192) and 256 (128 x 80), async_pv persistent
# (bench/device/probes/session20-softcap-dims-variants.txt, build_variants.sh
# into scd/), N = 1024 / 4096 / 16384, 3 interleaved rounds; run.py --quick
# on the three softcap kernels.
# Pack: .device/pack/scd.tgz.
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/r6
source bench/device/probes/device_setup.sh 240
finish() { tar czf "$final/r6.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
timeout 150 python3 bench/device/pair.py --artifacts /tmp/t/scd --runtime $L \
  --out "$out/pairs-softcap-dims.json" --rounds 3 --ns 1024,4096,16384 --pairs "sd64=nd64,sd128=nd128,sd256=nd256" > "$out/pairs.txt" 2>&1
echo "softcap / none: exit $?"; grep -E "A/B" "$out/pairs.txt" | cut -c1-110
timeout 60 python3 bench/device/run.py --artifacts /tmp/t/scd --runtime $L --kernels 'sd64,sd128,sd256' \
  --out /tmp/check --quick --no-isolate --kernel-timeout 30 > "$out/check.log" 2>&1
echo "run.py --quick: exit $?"; tail -2 "$out/check.log"
echo "[$(( $(date +%s) - t0 )) s] done"
