#!/usr/bin/env bash
# Twenty-fifth session, device run "la" (outputs in $OUT/la.tgz): the bias
# tile loaded a block ahead (gpu_config's loads_ahead: the next block's
# bias read from its stage under the next block's Q K^T, before the wait
# for its scores, instead of after it on the softmax's path). Written in
# the twenty-fifth session, when no device was lent: not run then. Build:
#   bash bench/device/build_variants.sh .device/la < bench/device/probes/session25-la-variants.txt
#   bash bench/device/probes/regsplit.sh .device/la .device/lar 24 240 la112 h16la f16la c16la eqla g16
#   mkdir -p .device/pack && tar czf .device/pack/la.tgz -C .device la lar
# and carry .device/pack and .device/include.
#  1. run.py --quick on every variant of la and lar (the ring's lead bias
#     tile before the chain, the tile carried across the loops of a split
#     chain, the TMA fallbacks with the lead as a register load; odd
#     lengths, Nq != Nk, Nq = 1, GQA, strided views, NaN/Inf inputs,
#     poisoned outputs); compute-sanitizer memcheck and racecheck on la96
#     and c16la (the lead stage's release, the bias ring's phases); the
#     SASS of four kernels (cuobjdump) for reading here;
#  2. pair.py, N = 1024 / 4096 / 16384, 3 interleaved rounds: each
#     loads_ahead kernel against the same tile without (attn-warp-
#     specialize's register split: producer 32 / consumers 232, where the
#     112-column forms spill 56-112 bytes), the 96 / 80-column tiles
#     against the tuned 112, the bias's cost (against n16, no bias); then
#     the 112-column forms with the split 24 / 240 (lar: 8-38 bytes
#     spilled) against la's.
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/la
source bench/device/probes/device_setup.sh 480
finish() { tar czf "$final/la.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/la-summary.txt" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
for d in la lar; do
  timeout 150 python3 bench/device/run.py --artifacts /tmp/t/$d --runtime $L --kernels '*' \
    --out /tmp/check-$d --quick --no-isolate --kernel-timeout 30 > "$out/check-$d.log" 2>&1
  echo "run.py --quick ($d): exit $?"; grep -E "FAIL" "$out/check-$d.log" | cut -c1-160 | head; tail -3 "$out/check-$d.log" | cut -c1-200
  echo "[$(( $(date +%s) - t0 )) s]"
done
# SASS of the baseline, two loads_ahead forms and the kernel without a
# bias, for reading the loops' instruction mix here (this machine has no
# cuobjdump): what a bias adds per score (the f16 -> f32 conversion's
# instruction, the shared-memory reads, where ptxas put them).
for k in g16 la96 la112 n16; do
  cuobjdump -sass /tmp/t/la/$k.sm_90a.cubin 2>/dev/null | gzip > "$out/$k.sass.gz"
done
for tool in memcheck racecheck; do
  timeout 60 compute-sanitizer --tool $tool --error-exitcode 3 \
    python3 bench/device/sanitize.py --artifacts /tmp/t/la --runtime $L la96,c16la > "$out/$tool.log" 2>&1
  echo "$tool: exit $?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|^FAIL" "$out/$tool.log" | cut -c1-140 | tail -4
done
echo "[$(( $(date +%s) - t0 )) s]"
p="la112=g16,la96=g16,la80=g16,g96=g16,g80=g16,la96=g96,la80=g80,h16la=h16,f16la=f16g,c16la=c16,d16la=d16,g16=n16,la96=n16,la112=n16"
timeout $(( $(left) - 90 )) python3 bench/device/pair.py --artifacts /tmp/t/la \
  --runtime $L --out "$out/pairs-la.json" --rounds 3 --ns 1024,4096,16384 --pairs "$p" > "$out/pairs-la.txt" 2>&1
echo "pairs loads_ahead / not: exit $?"; grep -E "A/B" "$out/pairs-la.txt" | cut -c1-120
echo "[$(( $(date +%s) - t0 )) s]"
p="la112=la112,la112=g16,h16la=h16,f16la=f16g,c16la=c16"
timeout $(( $(left) - 10 )) python3 bench/device/pair.py --artifacts /tmp/t/lar --artifacts-b /tmp/t/la \
  --runtime $L --out "$out/pairs-lar.json" --rounds 3 --ns 1024,4096,16384 --pairs "$p" > "$out/pairs-lar.txt" 2>&1
echo "pairs split 24/240 / la: exit $?"; grep -E "A/B" "$out/pairs-lar.txt" | cut -c1-120
echo "[$(( $(date +%s) - t0 )) s] done"
