#!/usr/bin/env bash
# Fifteenth session, device run 2 (outputs in $OUT/r2.tgz): the database
# with run 1's sm_90a keys merged (tune_trim.py), built into
# .device/pack/b1.tgz (build_artifacts.sh, all 43 kernels); a4.tgz is the
# fourteenth session's run 6 build (the database before); s80.tgz the 24
# benchmark kernels for sm_80 (mma.sync) from the same tree.
#  1. run.py --quick on b1;
#  2. racecheck and synccheck on new async_pv kernels (causal D = 128 main
#     and 4096 bucket, the bf16 softcap's main kernel);
#  3. pair.py b1 against a4 on the 12 re-tuned kernels, N = 512 .. 16384;
#  4. b1 against cuDNN on the 18 benchmark kernels (none, causal both ways);
#  5. the softcap's cost (mod_*_d128_softcap against attn_*_d128_none, b1);
#  6. b1 (sm_90a) against s80 (sm_80) on the 12 none / causal_br kernels.
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/r2
source bench/device/probes/device_setup.sh 570
finish() { tar czf "$final/r2.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
NS=512,1024,2048,4096,8192,16384
timeout 130 python3 bench/device/run.py --artifacts /tmp/t/b1 --runtime $L \
  --out /tmp/b1-check --quick --no-isolate --kernel-timeout 60 > "$out/check-b1.log" 2>&1
echo "run.py --quick b1: exit $?"; grep -E "FAILED|passed|FAIL" "$out/check-b1.log" | tail -4
echo "[$(( $(date +%s) - t0 )) s]"
for tool in racecheck synccheck; do
  timeout 60 compute-sanitizer --tool $tool --error-exitcode 3 \
    python3 bench/device/sanitize.py --artifacts /tmp/t/b1 --runtime $L \
    attn_f16_d128_causal_br,attn_f16_d128_causal_br__n4096,mod_bf16_d128_softcap > "$out/$tool.log" 2>&1
  echo "$tool: exit $?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|FAIL" "$out/$tool.log" | tail -2
done
echo "[$(( $(date +%s) - t0 )) s]"
p=""
for k in attn_f16_d128_causal_br attn_bf16_d128_causal_br attn_f16_d128_causal_tl attn_bf16_d128_causal_tl \
         attn_f16_d64_none attn_bf16_d64_none attn_f16_d64_causal_br attn_bf16_d64_causal_br \
         attn_f16_d256_causal_tl attn_bf16_d256_causal_tl mod_f16_d128_softcap mod_bf16_d128_softcap; do
  p="$p${p:+,}$k=$k"
done
timeout 150 python3 bench/device/pair.py --artifacts /tmp/t/b1 --artifacts-b /tmp/t/a4 \
  --runtime $L --out "$out/pairs-db.json" --rounds 2 --ns $NS --pairs "$p" > "$out/pairs-db.txt" 2>&1
echo "pairs (new database / before): exit $?"; grep -E "A/B" "$out/pairs-db.txt" | cut -c1-90
echo "[$(( $(date +%s) - t0 )) s]"
p=""
for dt in f16 bf16; do for d in 64 128 256; do for m in none causal_br causal_tl; do
  p="$p${p:+,}attn_${dt}_d${d}_${m}=cudnn"
done; done; done
timeout 200 python3 bench/device/pair.py --artifacts /tmp/t/b1 --runtime $L \
  --out "$out/pairs-cudnn.json" --rounds 3 --ns $NS --pairs "$p" > "$out/pairs-cudnn.txt" 2>&1
echo "pairs vs cuDNN: exit $?"; grep -E "A/B" "$out/pairs-cudnn.txt" | cut -c1-90
echo "[$(( $(date +%s) - t0 )) s]"
p="mod_f16_d128_softcap=attn_f16_d128_none,mod_bf16_d128_softcap=attn_bf16_d128_none"
timeout 60 python3 bench/device/pair.py --artifacts /tmp/t/b1 --runtime $L \
  --out "$out/pairs-softcap.json" --rounds 3 --ns 1024,4096,16384 --pairs "$p" > "$out/pairs-softcap.txt" 2>&1
echo "softcap cost: exit $?"; grep -E "A/B" "$out/pairs-softcap.txt" | cut -c1-90
p=""
for dt in f16 bf16; do for d in 64 128 256; do for m in none causal_br; do
  p="$p${p:+,}attn_${dt}_d${d}_${m}=attn_${dt}_d${d}_${m}"
done; done; done
timeout $(( $(left) - 10 )) python3 bench/device/pair.py --artifacts /tmp/t/b1 --artifacts-b /tmp/t/s80 \
  --runtime $L --out "$out/pairs-sm80.json" --rounds 1 --ns 512,1024,4096,16384 --pairs "$p" > "$out/pairs-sm80.txt" 2>&1
echo "pairs sm_90a / sm_80: exit $?"; grep -E "A/B" "$out/pairs-sm80.txt" | cut -c1-90
echo "[$(( $(date +%s) - t0 )) s] done"
