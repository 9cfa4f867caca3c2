#!/usr/bin/env bash
# Eighteenth session, device run 3 (outputs in $OUT/r3.tgz): run 2's
# staged-bias kernels (sv.tgz, session18-stage-variants.txt; the harness
# sidecars of three sl1 kernels ask for FlexAttention with the same bias
# and name the kernel without a bias) in run.py's full mode: correctness,
# timing at N = 1024 / 4096 / 16384 next to cuDNN and FlashAttention-2
# without the bias, FlexAttention with it at N = 4096.
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/r3
source bench/device/probes/device_setup.sh 400
finish() { tar czf "$final/r3.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
timeout $(( $(left) - 10 )) python3 bench/device/run.py --artifacts /tmp/t/sv --runtime $L \
  --kernels 'sl1_f16_bias,sl1_bf16_b1h1,sl1_bf16_h1' \
  --out "$out/full-staged" --no-isolate --kernel-timeout 120 > "$out/full-staged.log" 2>&1
echo "run.py full mode (staged bias): exit $?"; grep -E "^\[|timing N|flex|passed" "$out/full-staged.log" | tail -16
echo "[$(( $(date +%s) - t0 )) s] done"
