#!/usr/bin/env bash
# Compiles the kernels the device run checks and times, on this (CPU)
# machine, into DIR (default: .device/artifacts):
#  - attn_<dt>_d<D>_<mask>: f16 and bf16; D = 64, 128, 256; masks none,
#    causal (top-left and bottom-right) and a bottom-right sliding window;
#    default configurations;
#  - default kernels of other shapes (no LSE, D != Dv, D = 192);
#  - mod_<...>: score modifications (softcap, bias full and broadcast,
#    ALiBi, a score_mod, a mask_mod), each with <name>.harness.json saying
#    what it computes, so that the harness builds an independent reference
#    and the same modification for FlexAttention.
# With ATTN_MAIN_ONLY=1 only the first group (the benchmark matrix).
# Writes PTX, cubin and JSON per kernel and the compile time of each (whole
# attn-compile run, PTX and cubin) into DIR/compile_times.txt.
# usage: bench/device/build_artifacts.sh [DIR] [CHIP]
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-.device/artifacts}
chip=${2:-sm_90a}
tool=build/bin/attn-compile
rm -rf "$out" && mkdir -p "$out/src"
: > "$out/compile_times.txt"
# The runtime is built on the GPU machine, which has no nlohmann-json
# package: carry this machine's header (Debian's nlohmann-json3-dev).
mkdir -p .device/include && cp -r /usr/include/nlohmann .device/include/
declare -A masks=(
  [none]=""
  [causal_tl]="mask = #attn.mask<causal, top_left>"
  [causal_br]="mask = #attn.mask<causal, bottom_right>"
  [window_br]="mask = #attn.mask<window, bottom_right, left = 256, right = 0>"
)

# compile NAME SRC
compile() {
  local name=$1 src=$2 start end
  start=$(date +%s.%N)
  "$tool" "$src" --chip="$chip" --cubin -o "$out" > /dev/null
  end=$(date +%s.%N)
  echo "$name $(echo "$end - $start" | bc)" >> "$out/compile_times.txt"
}

# emit_shape NAME DTYPE D DV LSE(yes|no) MASK [EXTRA_ATTRS] [MODS...]
# MODS: bias=full|b1|h1|b1h1 (a bias operand of that broadcast shape),
# alibi, and the raw text of regions after the op (score_mod/mask_mod).
emit_shape() {
  local name=$1 dt=$2 d=$3 dv=$4 lse=$5 m=$6 extra=${7:-} bias=${8:-} alibi=${9:-} regions=${10:-}
  local attrs=${masks[$m]}
  [ -n "$extra" ] && attrs="${attrs:+$attrs, }$extra"
  local lsearg="" outs="outs(%o : memref<?x?x?x${dv}x${dt}>)" extraargs="" extraops=""
  if [ "$lse" = yes ]; then
    lsearg=", %lse: memref<?x?x?xf32>"
    outs="outs(%o, %lse : memref<?x?x?x${dv}x${dt}>, memref<?x?x?xf32>)"
  fi
  if [ -n "$bias" ]; then
    local bt="?x?x?x?x${dt}"
    case $bias in b1) bt="1x?x?x?x${dt}" ;; h1) bt="?x1x?x?x${dt}" ;; b1h1) bt="1x1x?x?x${dt}" ;; esac
    extraargs="$extraargs, %bias: memref<$bt>"
    extraops="$extraops bias(%bias : memref<$bt>)"
  fi
  if [ -n "$alibi" ]; then
    extraargs="$extraargs, %slopes: memref<?xf32>"
    extraops="$extraops alibi_slopes(%slopes : memref<?xf32>)"
  fi
  local src="$out/src/$name.mlir"
  cat > "$src" <<MLIR
func.func @$name(%q: memref<?x?x?x${d}x${dt}>, %k: memref<?x?x?x${d}x${dt}>,
                 %v: memref<?x?x?x${dv}x${dt}>, %o: memref<?x?x?x${dv}x${dt}>$lsearg$extraargs) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x${d}x${dt}>, memref<?x?x?x${d}x${dt}>, memref<?x?x?x${dv}x${dt}>)$extraops
                 $outs ${attrs:+{$attrs\}} $regions
  return
}
MLIR
  compile "$name" "$src"
}

# emit NAME DTYPE D MASK: D = Dv, with LSE.
emit() {
  emit_shape "$1" "$2" "$3" "$3" yes "$4"
}

# harness NAME JSON: what the harness needs to know about a kernel that the
# metadata does not say (the semantics of its score modifications).
harness() {
  echo "$2" > "$out/$1.harness.json"
}

for dt in f16 bf16; do
  for d in 64 128 256; do
    for m in none causal_tl causal_br window_br; do
      emit "attn_${dt}_d${d}_${m}" $dt $d $m
    done
  done
done
# ATTN_MAIN_ONLY=1: the benchmark matrix's 24 kernels only (a comparison
# of two chips or two builds on it).
if [ "${ATTN_MAIN_ONLY:-0}" = 1 ]; then cat "$out/compile_times.txt"; exit 0; fi
# Correctness of the other default shapes (timed too, outside the
# benchmark's D = Dv matrix): no LSE output, D != Dv, D = 192.
emit_shape attn_f16_d128_none_nolse f16 128 128 no none
emit_shape attn_f16_d128_causal_tl_nolse f16 128 128 no causal_tl
emit_shape attn_f16_d64v128_causal_tl f16 64 128 yes causal_tl
emit_shape attn_f16_d128v64_none f16 128 64 yes none
emit_shape attn_f16_d192v64_causal_br f16 192 64 yes causal_br
emit_shape attn_f16_d192_none f16 192 192 yes none

# Score modifications (D = 128, and softcap at D = 64), the new lowering.
relpos='score_mod {
  ^bb0(%s: f32, %b: index, %h: index, %qi: index, %ki: index):
    %rel = arith.subi %ki, %qi : index
    %reli = arith.index_cast %rel : index to i32
    %relf = arith.sitofp %reli : i32 to f32
    %w = arith.constant 0.01 : f32
    %t = arith.mulf %relf, %w : f32
    %r = arith.addf %s, %t : f32
    attn.yield %r : f32
  }'
docmask='mask_mod {
  ^bb0(%b: index, %h: index, %qi: index, %ki: index):
    %c = arith.constant 256 : index
    %dq = arith.divui %qi, %c : index
    %dk = arith.divui %ki, %c : index
    %same = arith.cmpi eq, %dq, %dk : index
    attn.yield %same : i1
  }'
# Documents of 2048 keys: 16 K/V blocks of 128 per query block, all but
# the cut ones full (the kernel is bound by its products, not by the
# per-tile work the 256-key documents are).
doc2048=${docmask/256/2048}
# Attention sinks and a sliding window under a causal mask: the first 128
# keys and the 1024 before the query. The blocks between the sinks and
# the window are hidden (skipped since the thirty-sixth session).
sinkwin='mask_mod {
  ^bb0(%b: index, %h: index, %qi: index, %ki: index):
    %c128 = arith.constant 128 : index
    %c1024 = arith.constant 1024 : index
    %sink = arith.cmpi ult, %ki, %c128 : index
    %back = arith.subi %qi, %ki : index
    %near = arith.cmpi sle, %back, %c1024 : index
    %see = arith.ori %sink, %near : i1
    attn.yield %see : i1
  }' 
for dt in f16 bf16; do
  for d in 64 128; do
    emit_shape "mod_${dt}_d${d}_softcap" $dt $d $d yes none "softcap = 30.0 : f64"
    harness "mod_${dt}_d${d}_softcap" '{"mods": {"softcap": 30.0}, "flex": true, "base": "attn_'"${dt}_d${d}"'_none"}'
  done
  emit_shape "mod_${dt}_d128_bias" $dt 128 128 yes none "" full
  harness "mod_${dt}_d128_bias" '{"mods": {"bias": "full"}, "flex": true, "base": "attn_'"${dt}"'_d128_none"}'
done
emit_shape mod_f16_d128_softcap_causal_br f16 128 128 yes causal_br "softcap = 30.0 : f64"
harness mod_f16_d128_softcap_causal_br '{"mods": {"softcap": 30.0}, "flex": true, "base": "attn_f16_d128_causal_br"}'
emit_shape mod_f16_d128_bias_b1 f16 128 128 yes causal_tl "" b1
harness mod_f16_d128_bias_b1 '{"mods": {"bias": "b1"}, "flex": true, "base": "attn_f16_d128_causal_tl"}'
emit_shape mod_f16_d128_bias_causal_tl f16 128 128 yes causal_tl "" full
harness mod_f16_d128_bias_causal_tl '{"mods": {"bias": "full"}, "flex": true, "base": "attn_f16_d128_causal_tl"}'
emit_shape mod_bf16_d128_bias_causal_br bf16 128 128 yes causal_br "" full
harness mod_bf16_d128_bias_causal_br '{"mods": {"bias": "full"}, "flex": true, "base": "attn_bf16_d128_causal_br"}'
emit_shape mod_f16_d128_bias_b1h1 f16 128 128 yes none "" b1h1
harness mod_f16_d128_bias_b1h1 '{"mods": {"bias": "b1h1"}, "flex": true, "base": "attn_f16_d128_none"}'
emit_shape mod_bf16_d128_bias_b1_none bf16 128 128 yes none "" b1
harness mod_bf16_d128_bias_b1_none '{"mods": {"bias": "b1"}, "flex": true, "base": "attn_bf16_d128_none"}'
emit_shape mod_f16_d128_bias_h1 f16 128 128 yes none "" h1
harness mod_f16_d128_bias_h1 '{"mods": {"bias": "h1"}, "flex": true, "base": "attn_f16_d128_none"}'
emit_shape mod_bf16_d128_alibi_causal_br bf16 128 128 yes causal_br "" "" alibi
harness mod_bf16_d128_alibi_causal_br '{"mods": {"alibi": true}, "flex": true, "base": "attn_bf16_d128_causal_br"}'
emit_shape mod_f16_d128_relpos f16 128 128 yes none "" "" "" "$relpos"
harness mod_f16_d128_relpos '{"mods": {"score_mod": "relpos"}, "flex": true, "base": "attn_f16_d128_none"}'
emit_shape mod_f16_d128_docmask f16 128 128 yes causal_tl "" "" "" "$docmask"
harness mod_f16_d128_docmask '{"mods": {"mask_mod": "doc256"}, "flex": true, "base": "attn_f16_d128_causal_tl"}'
emit_shape mod_f16_d128_docmask_none f16 128 128 yes none "" "" "" "$docmask"
harness mod_f16_d128_docmask_none '{"mods": {"mask_mod": "doc256"}, "flex": true, "base": "attn_f16_d128_none"}'
emit_shape mod_f16_d128_doc2048 f16 128 128 yes causal_tl "" "" "" "$doc2048"
harness mod_f16_d128_doc2048 '{"mods": {"mask_mod": "doc2048"}, "flex": true, "base": "attn_f16_d128_causal_tl"}'
emit_shape mod_f16_d128_doc2048_none f16 128 128 yes none "" "" "" "$doc2048"
harness mod_f16_d128_doc2048_none '{"mods": {"mask_mod": "doc2048"}, "flex": true, "base": "attn_f16_d128_none"}'
emit_shape mod_f16_d128_sinkwin f16 128 128 yes causal_tl "" "" "" "$sinkwin"
harness mod_f16_d128_sinkwin '{"mods": {"mask_mod": "sink128win1024"}, "flex": true, "base": "attn_f16_d128_causal_tl"}'
emit_shape mod_bf16_d64_all bf16 64 64 yes causal_br "softcap = 20.0 : f64" h1 alibi "$relpos $docmask"
harness mod_bf16_d64_all '{"mods": {"softcap": 20.0, "bias": "h1", "alibi": true, "score_mod": "relpos", "mask_mod": "doc256"}, "flex": false}'
cat "$out/compile_times.txt"
