#!/usr/bin/env bash
# Nineteenth session, device run 3 (outputs in $OUT/r3.tgz): issue 9's bar
# with the build at 6da8c86 (b19/: build_artifacts.sh, 47 sources; the TMA
# stores of the output by default for Dv = 128), in one run:
#  1. the 18 benchmark kernels (f16/bf16, D = 64/128/256, none / causal
#     both alignments) against cuDNN (torch SDPA's cuDNN backend, the same
#     inputs), interleaved, 3 rounds, N = 512 .. 16384;
#  2. sm_90a against sm_80 (s80/: the 24 benchmark kernels on mma.sync,
#     same tree) on the 12 none / causal_br kernels, 1 round;
#  3. the benchmark matrix in full mode (run.py: correctness, median, p95,
#     cold start; cuDNN and FlashAttention-2 timed alone, same inputs).
# Packs: .device/pack/b19.tgz, s80.tgz.
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/r3
source bench/device/probes/device_setup.sh 570
finish() { tar czf "$final/r3.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
NS=512,1024,2048,4096,8192,16384
p=""
for dt in f16 bf16; do for d in 64 128 256; do for m in none causal_br causal_tl; do
  p="$p${p:+,}attn_${dt}_d${d}_${m}=cudnn"
done; done; done
timeout 230 python3 bench/device/pair.py --artifacts /tmp/t/b19 --runtime $L \
  --out "$out/pairs-cudnn.json" --rounds 3 --ns $NS --pairs "$p" > "$out/pairs-cudnn.txt" 2>&1
echo "pairs vs cuDNN: exit $?"; grep -E "A/B" "$out/pairs-cudnn.txt" | cut -c1-90
echo "[$(( $(date +%s) - t0 )) s]"
p=""
for dt in f16 bf16; do for d in 64 128 256; do for m in none causal_br; do
  p="$p${p:+,}attn_${dt}_d${d}_${m}=attn_${dt}_d${d}_${m}"
done; done; done
timeout 130 python3 bench/device/pair.py --artifacts /tmp/t/b19 --artifacts-b /tmp/t/s80 \
  --runtime $L --out "$out/pairs-sm80.json" --rounds 1 --ns 512,1024,4096,16384 --pairs "$p" > "$out/pairs-sm80.txt" 2>&1
echo "sm_90a / sm_80: exit $?"; grep -E "A/B" "$out/pairs-sm80.txt" | cut -c1-90
echo "[$(( $(date +%s) - t0 )) s]"
timeout $(( $(left) - 15 )) python3 bench/device/run.py --artifacts /tmp/t/b19 --runtime $L \
  --out "$out/matrix" --commit 6da8c86 --no-isolate --kernels 'attn_*' --kernel-timeout 60 > "$out/matrix.log" 2>&1
echo "matrix full mode: exit $?"; tail -3 "$out/matrix.log" | cut -c1-200
[ -f "$out/matrix/results.json" ] && python3 bench/device/make_table.py "$out/matrix/results.json" > "$out/matrix-table.md"
echo "[$(( $(date +%s) - t0 )) s] done"
