#!/usr/bin/env bash
# Compiles the kernels the device run checks and times, on this (CPU)
# machine: f16 and bf16; D = 64, 128, 256; masks none, causal (top-left and
# bottom-right) and a bottom-right sliding window, with the default tile
# configuration; plus, for comparison, top-left causal D = 128 kernels with
# the previous default tile (128 x 32), and default kernels of other shapes
# (no LSE, D != Dv, D = 192) for correctness. Writes PTX, cubin and JSON per kernel into DIR (default: .device/artifacts) and the compile time of each (whole
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

# emit_shape NAME DTYPE D DV LSE(yes|no) MASK [CONFIG]
emit_shape() {
  local name=$1 dt=$2 d=$3 dv=$4 lse=$5 m=$6 cfg=${7:-}
  local attrs=${masks[$m]}
  if [ -n "$cfg" ]; then
    attrs="config = #attn.tile_config<$cfg>${attrs:+, $attrs}"
  fi
  local lsearg="" outs="outs(%o : memref<?x?x?x${dv}x${dt}>)"
  if [ "$lse" = yes ]; then
    lsearg=", %lse: memref<?x?x?xf32>"
    outs="outs(%o, %lse : memref<?x?x?x${dv}x${dt}>, memref<?x?x?xf32>)"
  fi
  local src="$out/src/$name.mlir"
  cat > "$src" <<MLIR
func.func @$name(%q: memref<?x?x?x${d}x${dt}>, %k: memref<?x?x?x${d}x${dt}>,
                 %v: memref<?x?x?x${dv}x${dt}>, %o: memref<?x?x?x${dv}x${dt}>$lsearg) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x${d}x${dt}>, memref<?x?x?x${d}x${dt}>, memref<?x?x?x${dv}x${dt}>)
                 $outs ${attrs:+{$attrs\}}
  return
}
MLIR
  local start end
  start=$(date +%s.%N)
  "$tool" "$src" --chip="$chip" --cubin -o "$out" > /dev/null
  end=$(date +%s.%N)
  echo "$name $(echo "$end - $start" | bc)" >> "$out/compile_times.txt"
}

# emit NAME DTYPE D MASK [CONFIG]: D = Dv, with LSE.
emit() {
  emit_shape "$1" "$2" "$3" "$3" yes "$4" "${5:-}"
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
# Correctness of the other default shapes (timed too, outside the
# benchmark's D = Dv matrix): no LSE output, D != Dv, D = 192.
emit_shape attn_f16_d128_none_nolse f16 128 128 no none
emit_shape attn_f16_d128_causal_tl_nolse f16 128 128 no causal_tl
emit_shape attn_f16_d64v128_causal_tl f16 64 128 yes causal_tl
emit_shape attn_f16_d128v64_none f16 128 64 yes none
emit_shape attn_f16_d192v64_causal_br f16 192 64 yes causal_br
emit_shape attn_f16_d192_none f16 192 192 yes none
cat "$out/compile_times.txt"
