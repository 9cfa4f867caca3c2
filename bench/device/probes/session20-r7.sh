#!/usr/bin/env bash
# Twentieth session, device run 7 (outputs in $OUT/r7.tgz): the bounded
# online softmax (attn.online_softmax max_bound: a softcap alone with bf16
# or f32 P, no running maximum and no rescaling).
#  1. run.py --quick on mb/ (build_variants.sh,
#     bench/device/probes/session20-bound-variants.txt: bf16 softcap D = 64 /
#     128 / 256, causal, an mma.sync form, ping-pong; f16 unchanged) and on
#     mbd/ (the default build's bf16 softcap kernels at D = 64 and 128, with
#     their length-dispatch variants);
#  2. pair.py mb/ against scv/ (run 1's build, before the bound): bsc_base,
#     bsc_pp, and sc_base (f16: the same PTX), N = 1024 / 4096 / 16384,
#     3 interleaved rounds;
#  3. the softcap's cost with the bound: bsc_base / bnd128, bsd64 / bnd64,
#     bsd256 / bnd256 (the same tiles without the softcap).
# Packs: .device/pack/mb.tgz, mbd.tgz, scv.tgz.
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/r7
source bench/device/probes/device_setup.sh 420
finish() { tar czf "$final/r7.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
for a in mb mbd; do
  timeout 120 python3 bench/device/run.py --artifacts /tmp/t/$a --runtime $L --kernels '*' \
    --out /tmp/check-$a --quick --no-isolate --kernel-timeout 40 > "$out/check-$a.log" 2>&1
  echo "run.py --quick $a: exit $?"; grep -E "FAIL" "$out/check-$a.log" | cut -c1-160 | head; tail -3 "$out/check-$a.log" | cut -c1-200
done
echo "[$(( $(date +%s) - t0 )) s]"
timeout 120 python3 bench/device/pair.py --artifacts /tmp/t/mb --artifacts-b /tmp/t/scv --runtime $L \
  --out "$out/pairs-bound.json" --rounds 3 --ns 1024,4096,16384 --pairs "bsc_base=bsc_base,bsc_pp=bsc_pp,sc_base=sc_base" > "$out/pairs-bound.txt" 2>&1
echo "bounded / before: exit $?"; grep -E "A/B" "$out/pairs-bound.txt" | cut -c1-110
timeout $(( $(left) - 10 )) python3 bench/device/pair.py --artifacts /tmp/t/mb --runtime $L \
  --out "$out/pairs-cost.json" --rounds 3 --ns 1024,4096,16384 --pairs "bsc_base=bnd128,bsd64=bnd64,bsd256=bnd256" > "$out/pairs-cost.txt" 2>&1
echo "softcap / none (bounded): exit $?"; grep -E "A/B" "$out/pairs-cost.txt" | cut -c1-110
echo "[$(( $(date +%s) - t0 )) s] done"
