#!/usr/bin/env bash
# One default kernel through attn-compile and ptxas; prints ptxas's resource
# line prefixed with the case. Used by ptxas-default-configs.test.
# usage: attention-kernel.sh OUTDIR ATTN_COMPILE PTXAS CHIP DTYPE D DV LSE(yes|no) MASK...
# MASK is `none` or the body of an #attn.mask<...>.
set -euo pipefail
out=$1 compile=$2 ptxas=$3 chip=$4 dt=$5 d=$6 dv=$7 lse=$8; shift 8
mask="$*"
name="${chip}_${dt}_${d}_${dv}_${lse}_$(echo "$mask" | tr -c 'a-z0-9' '_')"
attr=""
[ "$mask" != none ] && attr="{mask = #attn.mask<$mask>}"
if [ "$lse" = yes ]; then
  args=", %lse: memref<?x?x?xf32>"
  outs="outs(%o, %lse : memref<?x?x?x${dv}x${dt}>, memref<?x?x?xf32>)"
else
  args=""
  outs="outs(%o : memref<?x?x?x${dv}x${dt}>)"
fi
mkdir -p "$out/$name"
cat > "$out/$name/k.mlir" <<MLIR
func.func @k(%q: memref<?x?x?x${d}x${dt}>, %k: memref<?x?x?x${d}x${dt}>,
             %v: memref<?x?x?x${dv}x${dt}>, %o: memref<?x?x?x${dv}x${dt}>$args) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x${d}x${dt}>, memref<?x?x?x${d}x${dt}>, memref<?x?x?x${dv}x${dt}>)
                 $outs $attr
  return
}
MLIR
"$compile" "$out/$name/k.mlir" --chip="$chip" -o "$out/$name" > /dev/null
"$ptxas" -arch="$chip" -v "$out/$name/k.$chip.ptx" -o /dev/null 2>&1 \
  | grep 'bytes stack frame' | sed -e "s/^/$chip $dt D=$d Dv=$dv lse=$lse [$mask]: /"
