#!/usr/bin/env bash
# Nineteenth session, device run 4 (outputs in $OUT/r4.tgz):
#  1. attention without an LSE output now takes the database's entries
#     measured with one (TuningDB::lookup): nl/ (12 kernels, f16/bf16,
#     D = 64/128/256, none / causal bottom-right, no LSE, default build)
#     checked (run.py --quick) and timed against nl0/ (the same sources
#     with --tuning-db=none: what they compiled to before, the database
#     having no key without an LSE), N = 512 .. 16384, 2 rounds;
#  2. run 3's bimodal point again: attn_bf16_d128_none (and f16) against
#     cuDNN at N = 4096 / 8192, 6 rounds (b19/);
#  3. the bias keys re-tuned with staged candidates (tb19/, tune_measure.py
#     now checking at Nk = 520) within the time left.
# Packs: .device/pack/nl.tgz, nl0.tgz, b19.tgz, tb19.tgz.
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/r4
source bench/device/probes/device_setup.sh 570
finish() { tar czf "$final/r4.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
timeout 100 python3 bench/device/run.py --artifacts /tmp/t/nl --runtime $L --kernels '*' \
  --out /tmp/nl-check --quick --no-isolate --kernel-timeout 60 > "$out/check-nl.log" 2>&1
echo "run.py --quick no-LSE kernels: exit $?"; grep -E "FAIL" "$out/check-nl.log" | cut -c1-160 | head; tail -3 "$out/check-nl.log" | cut -c1-200
echo "[$(( $(date +%s) - t0 )) s]"
p=""
for dt in f16 bf16; do for d in 64 128 256; do for m in none causal_br; do
  p="$p${p:+,}nl_${dt}_d${d}_${m}=nl_${dt}_d${d}_${m}"
done; done; done
timeout 200 python3 bench/device/pair.py --artifacts /tmp/t/nl --artifacts-b /tmp/t/nl0 \
  --runtime $L --out "$out/pairs-nolse.json" --rounds 2 --ns 512,1024,2048,4096,8192,16384 --pairs "$p" > "$out/pairs-nolse.txt" 2>&1
echo "no LSE, database / heuristic: exit $?"; grep -E "A/B" "$out/pairs-nolse.txt" | cut -c1-100
echo "[$(( $(date +%s) - t0 )) s]"
timeout 60 python3 bench/device/pair.py --artifacts /tmp/t/b19 --runtime $L \
  --out "$out/pairs-cudnn-4096.json" --rounds 6 --ns 4096,8192 \
  --pairs "attn_bf16_d128_none=cudnn,attn_f16_d128_none=cudnn" > "$out/pairs-cudnn-4096.txt" 2>&1
echo "again vs cuDNN: exit $?"; grep -E "A/B" "$out/pairs-cudnn-4096.txt" | cut -c1-100
echo "[$(( $(date +%s) - t0 )) s]"
timeout $(( $(left) - 10 )) python3 bench/device/tune_measure.py --runtime $L --budget-s $(( $(left) - 40 )) \
  --out "$out/tb19.json" /tmp/t/tb19/*/ > "$out/tb19.log" 2>&1
echo "bias keys: exit $?"; grep -E "default|wrote|budget|rror|reject" "$out/tb19.log" | cut -c1-160 | tail -24
echo "[$(( $(date +%s) - t0 )) s] done"
