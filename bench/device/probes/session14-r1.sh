#!/usr/bin/env bash
# Fourteenth session, device run 1 (outputs in $OUT/r1.tgz): packed_exp2
# (the softmax's exponentials two at a time, ex2.approx.f16x2). .device/
# pack/a1.tgz: build_artifacts.sh of this commit (knob off: the default
# PTX is byte-identical to main's); b1.tgz: the same with packed_exp2 on
# every wgmma kernel (ATTN_EXPERIMENT_PACKED=1, a local patch of
# withKeyLengthSchedule). run.py --quick on b1 (every artifact: odd
# shapes, GQA, strided, NaN/Inf inputs, NaN-poisoned outputs), then
# pair.py b1 against a1 (same names), then the softcap's cost in each.
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/r1
source bench/device/probes/device_setup.sh 540
finish() { tar czf "$final/r1.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
timeout 200 python3 bench/device/run.py --artifacts /tmp/t/b1 --runtime $L \
  --out /tmp/b1-check --quick --no-isolate --kernel-timeout 60 > "$out/check-b1.log" 2>&1
echo "run.py --quick b1: exit $?"; grep -E "FAILED|passed" "$out/check-b1.log" | tail -5
cp /tmp/b1-check/*.md "$out/" 2>/dev/null
p=""
for dt in f16 bf16; do
  for k in d64_none d64_causal_br d128_none d128_causal_br d256_none d256_causal_br; do
    p="$p${p:+,}attn_${dt}_$k=attn_${dt}_$k"
  done
  for k in d64_softcap d128_softcap; do p="$p,mod_${dt}_$k=mod_${dt}_$k"; done
done
p="$p,mod_f16_d128_softcap_causal_br=mod_f16_d128_softcap_causal_br"
timeout 250 python3 bench/device/pair.py --artifacts /tmp/t/b1 --artifacts-b /tmp/t/a1 \
  --runtime $L --out "$out/pairs-build.json" --rounds 2 --ns 1024,4096,16384 --pairs "$p" > "$out/pairs-build.txt" 2>&1
echo "pairs (packed / off): exit $?"; grep -E "A/B" "$out/pairs-build.txt" | cut -c1-90
p="mod_f16_d128_softcap=attn_f16_d128_none,mod_bf16_d128_softcap=attn_bf16_d128_none"
for set in b1 a1; do
  timeout $(( $(left) / 2 )) python3 bench/device/pair.py --artifacts /tmp/t/$set --runtime $L \
    --out "$out/pairs-softcap-$set.json" --rounds 2 --ns 4096,16384 --pairs "$p" > "$out/pairs-softcap-$set.txt" 2>&1
  echo "softcap cost $set: exit $?"; grep -E "A/B" "$out/pairs-softcap-$set.txt" | cut -c1-90
done
echo "[$(( $(date +%s) - t0 )) s] done"
