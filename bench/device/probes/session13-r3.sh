#!/usr/bin/env bash
# Thirteenth session, device run 3 (outputs in $OUT/r3.tgz): the async_pv
# rotation of the overlap with ping-pong (a block's two products one turn),
# against async_pv alone, the database's kernels and cuDNN; run.py --quick
# on every variant first.
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/r3
source bench/device/probes/device_setup.sh 420
finish() { tar czf "$final/r3.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
timeout 120 python3 bench/device/run.py --artifacts /tmp/t/v1 --runtime $L \
  --out /tmp/v1-check --quick --no-isolate --kernel-timeout 60 > "$out/check.log" 2>&1
echo "run.py --quick v1: exit $?"; grep -E "FAIL|fail|passed|kernels" "$out/check.log" | tail -8
for tool in racecheck synccheck; do
  timeout 60 compute-sanitizer --tool $tool --error-exitcode 3 \
    python3 bench/device/sanitize.py --artifacts /tmp/t/v1 --runtime $L a112pp_f16_d128_none > "$out/$tool.log" 2>&1
  echo "$tool a112pp_f16_d128_none: exit $?"; tail -2 "$out/$tool.log"
done
p="a112pp_f16_d128_none=a112_f16_d128_none,a112pp_f16_d128_none=u160_f16_d128_none,a96pp_f16_d128_none=u160_f16_d128_none"
p="$p,a112pp_bf16_d128_none=u160_bf16_d128_none,av48pp_f16_d256_none=v64_f16_d256_none"
p="$p,ac112pp_f16_d128_causal_br=c160_f16_d128_causal_br,acv48pp_f16_d256_causal_br=cv64_f16_d256_causal_br"
p="$p,a112pp_f16_d128_none=cudnn,a112pp_bf16_d128_none=cudnn,u160_f16_d128_none=cudnn"
timeout $(( $(left) - 10 )) python3 bench/device/pair.py --artifacts /tmp/t/v1 --runtime $L \
  --out "$out/pairs.json" --rounds 3 --ns 1024,4096,8192,16384 --pairs "$p" > "$out/pairs.txt" 2>&1
echo "pairs: exit $?"; grep -E "A/B" "$out/pairs.txt" | cut -c1-90
echo "[$(( $(date +%s) - t0 )) s] done"
