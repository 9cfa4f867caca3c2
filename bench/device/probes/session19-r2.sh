#!/usr/bin/env bash
# Nineteenth session, device run 2 (outputs in $OUT/r2.tgz): the output
# through shared memory and TMA stores (stage_stores, the default for
# warp-specialized kernels where the buffer fits).
#  1. run.py --quick on every kernel of the new build (new/: build_artifacts.sh
#     at the working tree, all 47 sources; odd lengths, Nq != Nk, GQA,
#     strided, NaN/Inf, NaN-poisoned outputs);
#  2. pair.py new / base (base/: 618e2d8's matrix build, the same names),
#     N = 512 .. 16384, the kernels of run 1's probe;
#  3. memcheck, racecheck and synccheck on three TMA-store kernels (small odd
#     shapes; many tiles through the persistent loop);
#  4. the bias keys re-tuned with staged candidates (tb19/, attn-tune
#     prepare at 618e2d8) within the time left.
# Packs: .device/pack/new.tgz, base.tgz, tb19.tgz.
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/r2
source bench/device/probes/device_setup.sh 570
finish() { tar czf "$final/r2.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
timeout 200 python3 bench/device/run.py --artifacts /tmp/t/new --runtime $L --kernels '*' \
  --out /tmp/new-check --quick --no-isolate --kernel-timeout 60 > "$out/check.log" 2>&1
echo "run.py --quick all kernels: exit $?"; grep -E "FAIL" "$out/check.log" | cut -c1-160 | head; grep -cE "^ +ok" "$out/check.log"; tail -3 "$out/check.log" | cut -c1-200
echo "[$(( $(date +%s) - t0 )) s]"
p="attn_f16_d128_none=attn_f16_d128_none,attn_bf16_d128_none=attn_bf16_d128_none,attn_f16_d64_none=attn_f16_d64_none"
p="$p,attn_f16_d256_none=attn_f16_d256_none,attn_f16_d128_causal_br=attn_f16_d128_causal_br,attn_bf16_d64_causal_tl=attn_bf16_d64_causal_tl"
timeout 200 python3 bench/device/pair.py --artifacts /tmp/t/new --artifacts-b /tmp/t/base \
  --runtime $L --out "$out/pairs-tma-store.json" --rounds 2 --ns 512,1024,2048,4096,16384 --pairs "$p" > "$out/pairs-tma-store.txt" 2>&1
echo "TMA store / register stores: exit $?"; grep -E "A/B" "$out/pairs-tma-store.txt" | cut -c1-100
echo "[$(( $(date +%s) - t0 )) s]"
for tool in memcheck racecheck synccheck; do
  timeout 60 compute-sanitizer --tool $tool --error-exitcode 3 \
    python3 bench/device/sanitize.py --artifacts /tmp/t/new --runtime $L attn_f16_d128_none,attn_bf16_d64_causal_tl,mod_f16_d128_bias > "$out/$tool.log" 2>&1
  echo "$tool: exit $?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|SYNCCHECK SUMMARY|^FAIL" "$out/$tool.log" | cut -c1-140 | tail -4
done
echo "[$(( $(date +%s) - t0 )) s]"
timeout $(( $(left) - 10 )) python3 bench/device/tune_measure.py --runtime $L --budget-s $(( $(left) - 40 )) \
  --out "$out/tb19.json" /tmp/t/tb19/*/ > "$out/tb19.log" 2>&1
echo "bias keys: exit $?"; grep -E "default|wrote|budget|rror|reject" "$out/tb19.log" | cut -c1-160 | tail -24
echo "[$(( $(date +%s) - t0 )) s] done"
