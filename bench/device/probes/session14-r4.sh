#!/usr/bin/env bash
# Fourteenth session, device run 4 (outputs in $OUT/r4.tgz): the database
# with run 3's D = 256 keys merged (tune_trim.py), built into
# .device/pack/a3.tgz (build_artifacts.sh); a2.tgz is run 2's build (the
# database before).
#  1. run.py --quick on a3;
#  2. racecheck and synccheck on a3's D = 256 async_pv kernels (the 4096
#     bucket of the unmasked key: one CTA per tile; the causal key's main
#     kernel: the 16384 bucket);
#  3. pair.py a3 against a2 on the four D = 256 kernels, N = 512 .. 16384;
#  4. the benchmark matrix's 12 kernels of a3 against cuDNN.
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/r4
source bench/device/probes/device_setup.sh 570
finish() { tar czf "$final/r4.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
timeout 130 python3 bench/device/run.py --artifacts /tmp/t/a3 --runtime $L \
  --out /tmp/a3-check --quick --no-isolate --kernel-timeout 60 > "$out/check-a3.log" 2>&1
echo "run.py --quick a3: exit $?"; grep -E "FAILED|passed|FAIL" "$out/check-a3.log" | tail -4
for tool in racecheck synccheck; do
  timeout 60 compute-sanitizer --tool $tool --error-exitcode 3 \
    python3 bench/device/sanitize.py --artifacts /tmp/t/a3 --runtime $L \
    attn_f16_d256_none__n4096,attn_bf16_d256_causal_br > "$out/$tool.log" 2>&1
  echo "$tool: exit $?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|FAIL" "$out/$tool.log" | tail -2
done
p="attn_f16_d256_none=attn_f16_d256_none,attn_bf16_d256_none=attn_bf16_d256_none"
p="$p,attn_f16_d256_causal_br=attn_f16_d256_causal_br,attn_bf16_d256_causal_br=attn_bf16_d256_causal_br"
timeout 120 python3 bench/device/pair.py --artifacts /tmp/t/a3 --artifacts-b /tmp/t/a2 \
  --runtime $L --out "$out/pairs-db.json" --rounds 2 --ns 512,1024,2048,4096,8192,16384 --pairs "$p" > "$out/pairs-db.txt" 2>&1
echo "pairs (new database / before): exit $?"; grep -E "A/B" "$out/pairs-db.txt" | cut -c1-90
p=""
for dt in f16 bf16; do for d in 64 128 256; do for m in none causal_br; do
  p="$p${p:+,}attn_${dt}_d${d}_${m}=cudnn"
done; done; done
timeout $(( $(left) - 10 )) python3 bench/device/pair.py --artifacts /tmp/t/a3 --runtime $L \
  --out "$out/pairs-cudnn.json" --rounds 2 --ns 512,1024,2048,4096,8192,16384 --pairs "$p" > "$out/pairs-cudnn.txt" 2>&1
echo "pairs vs cuDNN: exit $?"; grep -E "A/B" "$out/pairs-cudnn.txt" | cut -c1-90
echo "[$(( $(date +%s) - t0 )) s] done"
