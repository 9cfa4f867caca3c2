#!/usr/bin/env bash
# Eighteenth session, device run 8 (outputs in $OUT/r8.tgz): the default
# build of run 7 (p7.tgz, build_artifacts.sh at dd19f1b: the bias staged,
# with TMA fallbacks) in run.py's full mode on four bias kernels (f16 full,
# f16 [1, 1, N, N], bf16 [1, H, N, N], f16 [B, 1, N, N]), FlexAttention with the
# same bias at N = 4096 where the harness asks for it: the seventeenth
# session's run 7 with the new default.
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/r8
source bench/device/probes/device_setup.sh 330
finish() { tar czf "$final/r8.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
timeout $(( $(left) - 10 )) python3 bench/device/run.py --artifacts /tmp/t/p7 --runtime $L \
  --kernels 'mod_f16_d128_bias,mod_f16_d128_bias_b1h1,mod_bf16_d128_bias_b1_none,mod_f16_d128_bias_h1' \
  --out "$out/full-bias" --no-isolate --kernel-timeout 90 > "$out/full-bias.log" 2>&1
echo "run.py full mode (bias, default build): exit $?"; grep -E "^\[|timing N|passed" "$out/full-bias.log" | tail -20
echo "[$(( $(date +%s) - t0 )) s] done"
