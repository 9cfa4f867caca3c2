#!/usr/bin/env bash
# Nineteenth session, device run 6 (outputs in $OUT/r6.tgz): the bias and
# softcap kernels of 989495c's build (b19r/: build_artifacts.sh; the bias
# keys re-tuned staged) in full mode, FlexAttention
# (torch.compile(flex_attention), the same score modification, compiled and
# warmed before timing) on the same inputs: run.py without --quick.
# Packs: .device/pack/b19r.tgz.
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/r6
source bench/device/probes/device_setup.sh 400
finish() { tar czf "$final/r6.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
timeout $(( $(left) - 10 )) python3 bench/device/run.py --artifacts /tmp/t/b19r --runtime $L \
  --kernels 'mod_f16_d128_bias,mod_bf16_d128_bias,mod_f16_d128_bias_h1,mod_f16_d128_bias_b1h1,mod_bf16_d128_bias_b1_none,mod_f16_d128_bias_causal_tl,mod_bf16_d128_bias_causal_br,mod_f16_d128_bias_b1,mod_f16_d128_softcap,mod_bf16_d128_softcap' \
  --out "$out/full-mods" --no-isolate --kernel-timeout 90 > "$out/full-mods.log" 2>&1
echo "run.py full mode (bias, softcap): exit $?"; grep -E "^\[|passed" "$out/full-mods.log" | tail -14
[ -f "$out/full-mods/results.json" ] && python3 bench/device/make_table.py "$out/full-mods/results.json" > "$out/full-mods-table.md"
echo "[$(( $(date +%s) - t0 )) s] done"
