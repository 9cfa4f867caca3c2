#!/usr/bin/env bash
# Thirteenth session, device run 5 (outputs in $OUT/r5.tgz): zero-initialized
# score products by scale-d. run.py --quick on the benchmark matrix's 24
# default kernels of this build (.device/pack/m90z.tgz, ATTN_MAIN_ONLY=1
# build_artifacts.sh) and on the async_pv variants (.device/pack/v5.tgz,
# bench/device/probes/session13-r5-variants.txt); pair.py of the 12 main
# kernels against the previous build's (.device/pack/m90.tgz, run 4's),
# then the variants against the database's configuration and cuDNN.
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/r5
source bench/device/probes/device_setup.sh 500
finish() { tar czf "$final/r5.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
for set in m90z v5; do
  timeout 150 python3 bench/device/run.py --artifacts /tmp/t/$set --runtime $L \
    --out /tmp/$set-check --quick --no-isolate --kernel-timeout 60 > "$out/check-$set.log" 2>&1
  echo "run.py --quick $set: exit $?"; grep -E "FAILED|passed" "$out/check-$set.log" | tail -3
done
p=""
for dt in f16 bf16; do for d in 64 128 256; do for m in none causal_br; do
  p="$p${p:+,}attn_${dt}_d${d}_${m}=attn_${dt}_d${d}_${m}"
done; done; done
timeout 200 python3 bench/device/pair.py --artifacts /tmp/t/m90z --artifacts-b /tmp/t/m90 \
  --runtime $L --out "$out/pairs-build.json" --rounds 2 --ns 1024,4096,16384 --pairs "$p" > "$out/pairs-build.txt" 2>&1
echo "pairs (this build / before): exit $?"; grep -E "A/B" "$out/pairs-build.txt" | cut -c1-84
p="av64_f16_d256_none=v64_f16_d256_none,av64_bf16_d256_none=v64_bf16_d256_none,acv64_f16_d256_causal_br=cv64_f16_d256_causal_br"
p="$p,a112_f16_d128_none=u160_f16_d128_none,av64_f16_d256_none=cudnn,v64_f16_d256_none=cudnn"
timeout $(( $(left) - 10 )) python3 bench/device/pair.py --artifacts /tmp/t/v5 --runtime $L \
  --out "$out/pairs-v5.json" --rounds 3 --ns 1024,4096,16384 --pairs "$p" > "$out/pairs-v5.txt" 2>&1
echo "pairs v5: exit $?"; grep -E "A/B" "$out/pairs-v5.txt" | cut -c1-84
echo "[$(( $(date +%s) - t0 )) s] done"
