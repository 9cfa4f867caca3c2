#!/usr/bin/env bash
# Twenty-second session, device run "nsw" (outputs in $OUT/nsw.tgz): the
# staged bias in 32- and 64-byte swizzled column blocks (--narrow-swizzles)
# against the same kernels with unswizzled rows, then read with ldmatrix.x4
# (--ldmatrix-local-loads) against 4-byte loads. Written in the twenty-
# second session, when no device was lent: not run then. Build first:
#   v=bench/device/probes/session22-nsw-variants.txt
#   bash bench/device/build_variants.sh .device/nsw0 < $v
#   ATTN_COMPILE_FLAGS=--narrow-swizzles bash bench/device/build_variants.sh .device/nsw1 < $v
#   ATTN_COMPILE_FLAGS="--narrow-swizzles --ldmatrix-local-loads" \
#     bash bench/device/build_variants.sh .device/nsw2 < $v
#   mkdir -p .device/pack && tar czf .device/pack/nsw.tgz -C .device nsw0 nsw1 nsw2
# and carry .device/pack and .device/include.
#  1. run.py --quick on nsw1 and nsw2 (every bias kind, odd lengths whose
#     last key block is a partial box, Nq != Nk, GQA, strided views,
#     NaN/Inf inputs, poisoned outputs): the swizzle the compiler reads
#     must be the one TMA writes, which only the device can tell;
#     compute-sanitizer memcheck and racecheck on two nsw2 kernels;
#  2. pair.py, A = nsw1 (narrow swizzles), B = nsw0 (unswizzled), the same
#     kernel: 112 / 80 columns (2-way conflicts before), 96 (4-way), the
#     three-warpgroup 192 x 96 form, D = 64, early_qk, and nb112 (no bias:
#     the same PTX, the noise floor); A = nsw2 (ldmatrix), B = nsw1; and
#     the bias's cost (the nsw2 bias kernel against the same tile without
#     a bias); N = 1024 / 4096 / 16384, 3 interleaved rounds.
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/nsw
source bench/device/probes/device_setup.sh 560
finish() { tar czf "$final/nsw.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/nsw-summary.txt" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
for d in nsw1 nsw2; do
  timeout 120 python3 bench/device/run.py --artifacts /tmp/t/$d --runtime $L --kernels '*' \
    --out /tmp/check-$d --quick --no-isolate --kernel-timeout 30 > "$out/check-$d.log" 2>&1
  echo "run.py --quick ($d): exit $?"; grep -E "FAIL" "$out/check-$d.log" | cut -c1-160 | head; tail -3 "$out/check-$d.log" | cut -c1-200
  echo "[$(( $(date +%s) - t0 )) s]"
done
# compute-sanitizer on small odd shapes: the ldmatrix reads of the narrow
# spans (racecheck: the bias ring's release after the reads).
for tool in memcheck racecheck; do
  timeout 60 compute-sanitizer --tool $tool --error-exitcode 3 \
    python3 bench/device/sanitize.py --artifacts /tmp/t/nsw2 --runtime $L bb80,bh112 > "$out/$tool.log" 2>&1
  echo "$tool: exit $?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|^FAIL" "$out/$tool.log" | cut -c1-140 | tail -4
done
echo "[$(( $(date +%s) - t0 )) s]"
p="bb112=bb112,bf112=bf112,bh112=bh112,cb112=cb112,bb80=bb80,bb96=bb96,bw96=bw96,bd64=bd64,beq96=beq96,nb112=nb112"
timeout $(( $(left) - 150 )) python3 bench/device/pair.py --artifacts /tmp/t/nsw1 --artifacts-b /tmp/t/nsw0 \
  --runtime $L --out "$out/pairs-nsw.json" --rounds 3 --ns 1024,4096,16384 --pairs "$p" > "$out/pairs-nsw.txt" 2>&1
echo "pairs narrow / unswizzled: exit $?"; grep -E "A/B" "$out/pairs-nsw.txt" | cut -c1-120
echo "[$(( $(date +%s) - t0 )) s]"
p="bb112=bb112,bb80=bb80,bb96=bb96,bd64=bd64"
timeout $(( $(left) - 60 )) python3 bench/device/pair.py --artifacts /tmp/t/nsw2 --artifacts-b /tmp/t/nsw1 \
  --runtime $L --out "$out/pairs-ldm.json" --rounds 3 --ns 1024,4096,16384 --pairs "$p" > "$out/pairs-ldm.txt" 2>&1
echo "pairs ldmatrix / 4-byte loads: exit $?"; grep -E "A/B" "$out/pairs-ldm.txt" | cut -c1-120
echo "[$(( $(date +%s) - t0 )) s]"
p="bb112=nb112,bb80=nb80,bb96=nb96,bd64=nd64_112"
timeout $(( $(left) - 10 )) python3 bench/device/pair.py --artifacts /tmp/t/nsw2 --artifacts-b /tmp/t/nsw0 \
  --runtime $L --out "$out/pairs-cost.json" --rounds 3 --ns 1024,4096,16384 --pairs "$p" > "$out/pairs-cost.txt" 2>&1
echo "pairs bias (narrow, ldmatrix) / no bias: exit $?"; grep -E "A/B" "$out/pairs-cost.txt" | cut -c1-120
echo "[$(( $(date +%s) - t0 )) s] done"
