#!/usr/bin/env bash
# Compiles the kernels the device run checks and times, on this (CPU)
# machine: f16 and bf16; D = 64, 128, 256; masks none, causal (top-left and
# bottom-right) and a bottom-right sliding window, with the default tile
# configuration; plus, for comparison, top-left causal D = 128 kernels with
# the 128 x 64 tile of the unmasked default (not a default there: ptxas
# spills). Writes PTX, cubin and JSON per kernel into DIR (default: .device/artifacts) and the compile time of each (whole
# attn-compile run, PTX and cubin) into DIR/compile_times.txt.
# usage: bench/device/build_artifacts.sh [DIR] [CHIP]
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-.device/artifacts}
chip=${2:-sm_90a}
tool=build/bin/attn-compile
rm -rf "$out" && mkdir -p "$out/src"
: > "$out/compile_times.txt"
declare -A masks=(
  [none]=""
  [causal_tl]="mask = #attn.mask<causal, top_left>"
  [causal_br]="mask = #attn.mask<causal, bottom_right>"
  [window_br]="mask = #attn.mask<window, bottom_right, left = 256, right = 0>"
)

# emit NAME DTYPE D MASK [CONFIG]
emit() {
  local name=$1 dt=$2 d=$3 m=$4 cfg=${5:-}
  local attrs=${masks[$m]}
  if [ -n "$cfg" ]; then
    attrs="config = #attn.tile_config<$cfg>${attrs:+, $attrs}"
  fi
  local src="$out/src/$name.mlir"
  cat > "$src" <<MLIR
func.func @$name(%q: memref<?x?x?x${d}x${dt}>, %k: memref<?x?x?x${d}x${dt}>,
                 %v: memref<?x?x?x${d}x${dt}>, %o: memref<?x?x?x${d}x${dt}>,
                 %lse: memref<?x?x?xf32>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x${d}x${dt}>, memref<?x?x?x${d}x${dt}>, memref<?x?x?x${d}x${dt}>)
                 outs(%o, %lse : memref<?x?x?x${d}x${dt}>, memref<?x?x?xf32>) ${attrs:+{$attrs\}}
  return
}
MLIR
  local start end
  start=$(date +%s.%N)
  "$tool" "$src" --chip="$chip" --cubin -o "$out" > /dev/null
  end=$(date +%s.%N)
  echo "$name $(echo "$end - $start" | bc)" >> "$out/compile_times.txt"
}

for dt in f16 bf16; do
  for d in 64 128 256; do
    for m in none causal_tl causal_br window_br; do
      emit "attn_${dt}_d${d}_${m}" $dt $d $m
    done
  done
  # Not a default: the top-left causal D = 128 default before 2026-11-30
  # (third session), 128 x 32, for comparison in the same run.
  emit "attn_${dt}_d128_causal_tl_n32" $dt 128 causal_tl "block_m = 128, block_n = 32, warps = 4, stages = 2"
done
cat "$out/compile_times.txt"
