#!/usr/bin/env bash
# One default kernel through attn-compile (PTX only); prints how many
# wgmma.mma_async and mma.sync instructions its PTX holds. Used by
# tensor-core-instructions.test.
# usage: tensor-core-kernel.sh OUTDIR ATTN_COMPILE CHIP DTYPE D DV MASK
set -euo pipefail
out=$1 compile=$2 chip=$3 dt=$4 d=$5 dv=$6 mask=$7
name="${chip}_${dt}_${d}_${dv}_$(echo "$mask" | tr -c 'a-z0-9' '_')"
attr=""
[ "$mask" != none ] && attr="{mask = #attn.mask<$mask>}"
mkdir -p "$out/$name"
cat > "$out/$name/k.mlir" <<MLIR
func.func @k(%q: memref<?x?x?x${d}x${dt}>, %k: memref<?x?x?x${d}x${dt}>,
             %v: memref<?x?x?x${dv}x${dt}>, %o: memref<?x?x?x${dv}x${dt}>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x${d}x${dt}>, memref<?x?x?x${d}x${dt}>, memref<?x?x?x${dv}x${dt}>)
                 outs(%o : memref<?x?x?x${dv}x${dt}>) $attr
  return
}
MLIR
"$compile" "$out/$name/k.mlir" --chip="$chip" -o "$out/$name" > /dev/null
ptx="$out/$name/k.$chip.ptx"
echo "$chip D=$d Dv=$dv [$mask]: wgmma $(grep -c 'wgmma.mma_async' "$ptx" || true) mma.sync $(grep -c 'mma.sync.aligned' "$ptx" || true)"
