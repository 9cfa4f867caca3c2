#!/usr/bin/env bash
# Twentieth session, device run 8 (outputs in $OUT/r8.tgz): sm_80's default
# for a bf16 causal softcap at D = 128, whose 128 x 64 tile on four warps
# spills 4 bytes with the bounded softmax: the three forms that do not
# (128 x 64 on eight warps, 128 x 32 and 64 x 64 on four) against it,
# N = 1024 / 4096 / 16384, 3 interleaved rounds; run.py --quick on all four.
# (bench/device/probes/session20-sm80-bound-variants.txt, build_variants.sh
# .device/s80b sm_80; timed on the H200 as every sm_80 kernel here.)
# Pack: .device/pack/s80b.tgz.
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/r8
source bench/device/probes/device_setup.sh 200
finish() { tar czf "$final/r8.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
timeout 60 python3 bench/device/run.py --artifacts /tmp/t/s80b --runtime $L --kernels '*' \
  --out /tmp/check --quick --no-isolate --kernel-timeout 30 > "$out/check.log" 2>&1
echo "run.py --quick: exit $?"; grep -E "FAIL" "$out/check.log" | cut -c1-160 | head; tail -2 "$out/check.log"
timeout $(( $(left) - 10 )) python3 bench/device/pair.py --artifacts /tmp/t/s80b --runtime $L \
  --out "$out/pairs-sm80.json" --rounds 3 --ns 1024,4096,16384 \
  --pairs "c80_128x64w8=c80_128x64w4,c80_128x32w4=c80_128x64w4,c80_64x64w4=c80_128x64w4" > "$out/pairs.txt" 2>&1
echo "forms / 128 x 64 w4: exit $?"; grep -E "A/B" "$out/pairs.txt" | cut -c1-110
echo "[$(( $(date +%s) - t0 )) s] done"
