#!/usr/bin/env bash
# Compiles the kernels the device run checks and times, on this (CPU)
# machine: f16 and bf16; D = 64, 128, 256; masks none, causal (top-left and
# bottom-right) and a bottom-right sliding window. Writes PTX, cubin and JSON
# per kernel into DIR (default: .device/artifacts) and the compile time of
# each into DIR/compile_times.txt.
# usage: bench/device/build_artifacts.sh [DIR] [CHIP]
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-.device/artifacts}
chip=${2:-sm_90a}
tool=build/bin/attn-compile
mkdir -p "$out/src"
: > "$out/compile_times.txt"
declare -A masks=(
  [none]=""
  [causal_tl]="{mask = #attn.mask<causal, top_left>}"
  [causal_br]="{mask = #attn.mask<causal, bottom_right>}"
  [window_br]="{mask = #attn.mask<window, bottom_right, left = 256, right = 0>}"
)
for dt in f16 bf16; do
  for d in 64 128 256; do
    for m in none causal_tl causal_br window_br; do
      name="attn_${dt}_d${d}_${m}"
      src="$out/src/$name.mlir"
      cat > "$src" <<MLIR
func.func @$name(%q: memref<?x?x?x${d}x${dt}>, %k: memref<?x?x?x${d}x${dt}>,
                 %v: memref<?x?x?x${d}x${dt}>, %o: memref<?x?x?x${d}x${dt}>,
                 %lse: memref<?x?x?xf32>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x${d}x${dt}>, memref<?x?x?x${d}x${dt}>, memref<?x?x?x${d}x${dt}>)
                 outs(%o, %lse : memref<?x?x?x${d}x${dt}>, memref<?x?x?xf32>) ${masks[$m]}
  return
}
MLIR
      start=$(date +%s.%N)
      "$tool" "$src" --chip="$chip" --cubin -o "$out" > /dev/null
      end=$(date +%s.%N)
      echo "$name $(echo "$end - $start" | bc)" >> "$out/compile_times.txt"
    done
  done
done
# Larger query blocks (8 warps) for the speed comparison.
for dt in f16 bf16; do
  for d in 64 128; do
    for m in none causal_br; do
      name="attn_${dt}_d${d}_${m}_m128"
      src="$out/src/$name.mlir"
      attrs="config = #attn.tile_config<block_m = 128, block_n = 64, warps = 8, stages = 2>"
      if [ -n "${masks[$m]}" ]; then
        attrs="$attrs, ${masks[$m]#\{}"; attrs="${attrs%\}}"
      fi
      cat > "$src" <<MLIR
func.func @$name(%q: memref<?x?x?x${d}x${dt}>, %k: memref<?x?x?x${d}x${dt}>,
                 %v: memref<?x?x?x${d}x${dt}>, %o: memref<?x?x?x${d}x${dt}>,
                 %lse: memref<?x?x?xf32>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x${d}x${dt}>, memref<?x?x?x${d}x${dt}>, memref<?x?x?x${d}x${dt}>)
                 outs(%o, %lse : memref<?x?x?x${d}x${dt}>, memref<?x?x?xf32>) {$attrs}
  return
}
MLIR
      start=$(date +%s.%N)
      "$tool" "$src" --chip="$chip" --cubin -o "$out" > /dev/null
      end=$(date +%s.%N)
      echo "$name $(echo "$end - $start" | bc)" >> "$out/compile_times.txt"
    done
  done
done
cat "$out/compile_times.txt"
