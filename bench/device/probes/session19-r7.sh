#!/usr/bin/env bash
# Nineteenth session, device run 7 (outputs in $OUT/r7.tgz): run 6's
# kernels whose FlexAttention figures came from dynamo's eager fallback
# (the recompilation limit after four kernels), again in full mode with
# run.py resetting dynamo before each kernel's FlexAttention.
# Packs: .device/pack/b19r.tgz.
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/r7
source bench/device/probes/device_setup.sh 300
finish() { tar czf "$final/r7.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
timeout $(( $(left) - 10 )) python3 bench/device/run.py --artifacts /tmp/t/b19r --runtime $L \
  --kernels 'mod_f16_d128_bias_b1,mod_f16_d128_bias_b1h1,mod_f16_d128_bias_causal_tl,mod_f16_d128_bias_h1' \
  --out "$out/full-bias" --no-isolate --kernel-timeout 90 > "$out/full-bias.log" 2>&1
echo "run.py full mode: exit $?"; grep -E "^\[|passed" "$out/full-bias.log" | tail -8
echo "[$(( $(date +%s) - t0 )) s] done"
