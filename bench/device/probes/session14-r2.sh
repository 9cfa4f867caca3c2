#!/usr/bin/env bash
# Fourteenth session, device run 2 (outputs in $OUT/r2.tgz): the
# overlap's first K block in the K ring (attn-warp-specialize's lead
# position) instead of a buffer of its own. .device/pack/a2.tgz:
# build_artifacts.sh of this build; a1.tgz: run 1's build before it
# (same names); v4.tgz: FlashAttention-3's D = 256 tile, 128 x 80, with
# the overlap (it fits in shared memory now;
# bench/device/probes/session14-r2-variants.txt) and the D = 256 defaults
# of a2 beside them.
#  1. run.py --quick on a2 and v4 (odd shapes, GQA, strided, Nq != Nk,
#     NaN/Inf inputs, NaN-poisoned outputs);
#  2. compute-sanitizer racecheck and synccheck on overlapped kernels
#     (persistent: the ring goes on across tiles);
#  3. pair.py a2 against a1 on the benchmark matrix's 12 kernels;
#  4. pair.py of the 128 x 80 kernels against the defaults and cuDNN.
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/r2
source bench/device/probes/device_setup.sh 560
finish() { tar czf "$final/r2.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
for set in a2 v4; do
  timeout 130 python3 bench/device/run.py --artifacts /tmp/t/$set --runtime $L \
    --out /tmp/$set-check --quick --no-isolate --kernel-timeout 60 > "$out/check-$set.log" 2>&1
  echo "run.py --quick $set: exit $?"; grep -E "FAILED|passed|FAIL" "$out/check-$set.log" | tail -4
done
for tool in racecheck synccheck; do
  timeout 50 compute-sanitizer --tool $tool --error-exitcode 3 \
    python3 bench/device/sanitize.py --artifacts /tmp/t/v4 --runtime $L p80_f16_d256_none c80_f16_d256_causal_br attn_f16_d256_none > "$out/$tool.log" 2>&1
  echo "$tool: exit $?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|hazard" "$out/$tool.log" | tail -2
done
p=""
for dt in f16 bf16; do for d in 64 128 256; do for m in none causal_br; do
  p="$p${p:+,}attn_${dt}_d${d}_${m}=attn_${dt}_d${d}_${m}"
done; done; done
timeout 170 python3 bench/device/pair.py --artifacts /tmp/t/a2 --artifacts-b /tmp/t/a1 \
  --runtime $L --out "$out/pairs-build.json" --rounds 2 --ns 1024,4096,16384 --pairs "$p" > "$out/pairs-build.txt" 2>&1
echo "pairs (lead K / own buffer): exit $?"; grep -E "A/B" "$out/pairs-build.txt" | cut -c1-90
p="p80_f16_d256_none=attn_f16_d256_none,p80_bf16_d256_none=attn_bf16_d256_none"
p="$p,a80_f16_d256_none=attn_f16_d256_none,a80_bf16_d256_none=attn_bf16_d256_none"
p="$p,c80_f16_d256_causal_br=attn_f16_d256_causal_br,q80_f16_d256_causal_br=attn_f16_d256_causal_br"
p="$p,p80_f16_d256_none=cudnn,p80_bf16_d256_none=cudnn"
timeout $(( $(left) - 10 )) python3 bench/device/pair.py --artifacts /tmp/t/v4 --runtime $L \
  --out "$out/pairs-v4.json" --rounds 2 --ns 1024,4096,16384 --pairs "$p" > "$out/pairs-v4.txt" 2>&1
echo "pairs v4: exit $?"; grep -E "A/B" "$out/pairs-v4.txt" | cut -c1-90
echo "[$(( $(date +%s) - t0 )) s] done"
