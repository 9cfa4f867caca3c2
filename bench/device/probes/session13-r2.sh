#!/usr/bin/env bash
# Thirteenth session, device run 2 (outputs in $OUT/r2.tgz): the async_pv
# rotation of the overlap, P converted after the wait for P V (run 1: the
# conversion overwrote P's registers under the product in flight: NaN) (bench/device/probes/session13-asyncpv-variants.txt,
# .device/pack/v1.tgz): run.py --quick on every variant (odd shapes, NaN
# poisoned outputs, fp32 reference); compute-sanitizer racecheck and
# synccheck on a144_f16_d128_none; then pair.py, interleaved: async_pv
# against the plain overlap at the same tile, against the database's
# kernels (128 x 160 without the overlap at D = 128, 128 x 64 overlapped
# at D = 256) and against cuDNN.
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/r2
source bench/device/probes/device_setup.sh 420
finish() { tar czf "$final/r2.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
timeout 120 python3 bench/device/run.py --artifacts /tmp/t/v1 --runtime $L \
  --out /tmp/v1-check --quick --no-isolate --kernel-timeout 60 > "$out/check.log" 2>&1
echo "run.py --quick v1: exit $?"; grep -E "FAIL|fail|passed|kernels" "$out/check.log" | tail -8
for tool in racecheck synccheck; do
  timeout 60 compute-sanitizer --tool $tool --error-exitcode 3 \
    python3 bench/device/sanitize.py --artifacts /tmp/t/v1 --runtime $L a112_f16_d128_none > "$out/$tool.log" 2>&1
  echo "$tool a112_f16_d128_none: exit $?"; tail -2 "$out/$tool.log"
done
p="a112_f16_d128_none=o128_f16_d128_none,a112_f16_d128_none=u160_f16_d128_none,a128_f16_d128_none=u160_f16_d128_none"
p="$p,a112s_f16_d128_none=a112_f16_d128_none,a112_bf16_d128_none=u160_bf16_d128_none"
p="$p,av48_f16_d256_none=v64_f16_d256_none,av48np_f16_d256_none=v64_f16_d256_none,av64np_f16_d256_none=v64_f16_d256_none"
p="$p,ac112_f16_d128_causal_br=c160_f16_d128_causal_br,acv48_f16_d256_causal_br=cv64_f16_d256_causal_br"
p="$p,a112_f16_d128_none=cudnn,av48_f16_d256_none=cudnn"
timeout $(( $(left) - 10 )) python3 bench/device/pair.py --artifacts /tmp/t/v1 --runtime $L \
  --out "$out/pairs.json" --rounds 3 --ns 1024,4096,16384 --pairs "$p" > "$out/pairs.txt" 2>&1
echo "pairs: exit $?"; grep -E "A/B" "$out/pairs.txt" | cut -c1-90
echo "[$(( $(date +%s) - t0 )) s] done"
