#!/usr/bin/env bash
# Nineteenth session, device run 8 (outputs in $OUT/r8.tgz): issue 9's bar
# once more in one run, the build at 989495c (b19r/; the benchmark kernels'
# PTX is the same as run 3's): the 18 benchmark kernels against cuDNN,
# interleaved, 3 rounds, N = 1024 .. 16384.
# Packs: .device/pack/b19r.tgz.
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/r8
source bench/device/probes/device_setup.sh 300
finish() { tar czf "$final/r8.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
p=""
for dt in f16 bf16; do for d in 64 128 256; do for m in none causal_br causal_tl; do
  p="$p${p:+,}attn_${dt}_d${d}_${m}=cudnn"
done; done; done
timeout $(( $(left) - 10 )) python3 bench/device/pair.py --artifacts /tmp/t/b19r --runtime $L \
  --out "$out/pairs-cudnn.json" --rounds 3 --ns 1024,2048,4096,8192,16384 --pairs "$p" > "$out/pairs-cudnn.txt" 2>&1
echo "pairs vs cuDNN: exit $?"; grep -E "A/B" "$out/pairs-cudnn.txt" | cut -c1-90
echo "[$(( $(date +%s) - t0 )) s] done"
