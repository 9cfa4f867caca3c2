#!/usr/bin/env bash
# One default kernel with a score modification through attn-compile and
# ptxas; prints ptxas's resource line prefixed with the case. Used by
# ptxas-default-configs.test.
# usage: mod-kernel.sh OUTDIR ATTN_COMPILE PTXAS CHIP DTYPE D MOD MASK...
# MOD: softcap, bias (full [B, H, Nq, Nk]), alibi, relpos (a score_mod
# region), docmask (a mask_mod region: documents of 256 keys) or sinkwin
# (a mask_mod region: the first 128 keys and a window of 1024 back); MASK
# is `none` or the body of an #attn.mask<...>.
set -euo pipefail
out=$1 compile=$2 ptxas=$3 chip=$4 dt=$5 d=$6 mod=$7; shift 7
mask="$*"
name="${chip}_${dt}_${d}_${mod}_$(echo "$mask" | tr -c 'a-z0-9' '_')"
t="memref<?x?x?x${d}x${dt}>"
attrs=""
[ "$mask" != none ] && attrs="mask = #attn.mask<$mask>"
args="" ops="" region=""
case $mod in
  softcap) attrs="${attrs:+$attrs, }softcap = 30.0 : f64" ;;
  bias) args=", %bias: memref<?x?x?x?x${dt}>"; ops=" bias(%bias : memref<?x?x?x?x${dt}>)" ;;
  alibi) args=", %slopes: memref<?xf32>"; ops=" alibi_slopes(%slopes : memref<?xf32>)" ;;
  relpos) region='score_mod {
  ^bb0(%s: f32, %b: index, %h: index, %qi: index, %ki: index):
    %rel = arith.subi %ki, %qi : index
    %reli = arith.index_cast %rel : index to i32
    %relf = arith.sitofp %reli : i32 to f32
    %w = arith.constant 0.01 : f32
    %t = arith.mulf %relf, %w : f32
    %r = arith.addf %s, %t : f32
    attn.yield %r : f32
  }' ;;
  docmask) region='mask_mod {
  ^bb0(%b: index, %h: index, %qi: index, %ki: index):
    %c256 = arith.constant 256 : index
    %dq = arith.divui %qi, %c256 : index
    %dk = arith.divui %ki, %c256 : index
    %same = arith.cmpi eq, %dq, %dk : index
    attn.yield %same : i1
  }' ;;
  sinkwin) region='mask_mod {
  ^bb0(%b: index, %h: index, %qi: index, %ki: index):
    %c128 = arith.constant 128 : index
    %c1024 = arith.constant 1024 : index
    %sink = arith.cmpi ult, %ki, %c128 : index
    %back = arith.subi %qi, %ki : index
    %near = arith.cmpi sle, %back, %c1024 : index
    %see = arith.ori %sink, %near : i1
    attn.yield %see : i1
  }' ;;
  *) echo "unknown modification $mod" >&2; exit 2 ;;
esac
mkdir -p "$out/$name"
cat > "$out/$name/k.mlir" <<MLIR
func.func @k(%q: $t, %k: $t, %v: $t, %o: $t, %lse: memref<?x?x?xf32>$args) {
  attn.attention ins(%q, %k, %v : $t, $t, $t)$ops
                 outs(%o, %lse : $t, memref<?x?x?xf32>) ${attrs:+{$attrs\}} $region
  return
}
MLIR
"$compile" "$out/$name/k.mlir" --chip="$chip" -o "$out/$name" > /dev/null
"$ptxas" -arch="$chip" -v "$out/$name/k.$chip.ptx" -o /dev/null 2>&1 \
  | grep 'bytes stack frame' | sed -e "s/^/$chip $dt D=$d $mod [$mask]: /"
