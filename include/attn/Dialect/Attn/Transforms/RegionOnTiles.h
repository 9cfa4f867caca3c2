//===- RegionOnTiles.h - scalar modification regions applied to tiles -*- C++
//-*-===//
//
// score_mod and mask_mod regions are written on scalars (one score, one
// query/key pair). A tile program applies them to whole score tiles: each
// scalar op of the region becomes the same op on tiles, which both
// lowerings compile as elementwise math.
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_DIALECT_ATTN_TRANSFORMS_REGIONONTILES_H
#define ATTN_DIALECT_ATTN_TRANSFORMS_REGIONONTILES_H

#include "mlir/IR/ImplicitLocOpBuilder.h"

namespace mlir {
namespace attn {

/// Clones the single-block `region` of scalar arith/math ops onto tiles of
/// `shape`: each op on the tiles of its operands (constants become splat
/// tiles), the block arguments mapped to `args`; returns the tile the
/// region yields (its attn.yield's first value).
Value cloneOntoTiles(ImplicitLocOpBuilder &b, Region &region, ValueRange args,
                     ArrayRef<int64_t> shape);

/// The i1 tile of `region` (a mask_mod: batch, head, query, key -> i1) for
/// the score tile of `shape` whose element (r, c) belongs to query
/// `rowStart + r` and key `colStart + c`.
Value buildMaskModTile(ImplicitLocOpBuilder &b, Region &region, Value batch,
                       Value head, Value rowStart, Value colStart,
                       ArrayRef<int64_t> shape);

} // namespace attn
} // namespace mlir

#endif // ATTN_DIALECT_ATTN_TRANSFORMS_REGIONONTILES_H
