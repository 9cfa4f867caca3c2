#!/usr/bin/env bash
# Twenty-third session (outputs in $OUT/rnd.tgz): a correctness sweep over
# random configurations, not run then (no device was lent). Every
# configuration the compiler accepts must compute attention, not only the
# tuned ones; utils/fuzz.py's generator (mostly consistent flag sets:
# wgmma, warp specialization, overlap, async_pv, early_qk, ping-pong,
# persistent, stage_loads, 192-row tiles; sometimes any combination) on
# random element types, head dims, masks, softcaps and biases. Build first:
#   python3 bench/device/random_variants.py --seed 23 --count 64 --prefix r9_ > /tmp/v90.txt
#   bash bench/device/build_variants.sh .device/rnd90 sm_90a < /tmp/v90.txt
#   python3 bench/device/random_variants.py --seed 24 --count 24 --prefix r8_ --chip sm_80 > /tmp/v80.txt
#   bash bench/device/build_variants.sh .device/rnd80 sm_80 < /tmp/v80.txt
#   mkdir -p .device/pack && tar czf .device/pack/rnd.tgz -C .device rnd90 rnd80
# and carry .device/pack and .device/include. run.py --quick on both
# (odd lengths, Nq != Nk, GQA, strided views, NaN/Inf inputs, poisoned
# outputs, the fp32 reference). A failure is a compiler bug: the kernel's
# source is in the pack's src/.
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/rnd
source bench/device/probes/device_setup.sh 500
finish() { tar czf "$final/rnd.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/rnd-summary.txt" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
for d in rnd90 rnd80; do
  timeout $(( $(left) / 2 )) python3 bench/device/run.py --artifacts /tmp/t/$d --runtime $L --kernels '*' \
    --out /tmp/check-$d --quick --no-isolate --kernel-timeout 30 > "$out/check-$d.log" 2>&1
  echo "run.py --quick ($d): exit $?"; grep -E "FAIL" "$out/check-$d.log" | cut -c1-160 | head -20; tail -3 "$out/check-$d.log" | cut -c1-200
  echo "[$(( $(date +%s) - t0 )) s]"
done
