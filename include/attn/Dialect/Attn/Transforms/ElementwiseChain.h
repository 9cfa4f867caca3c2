//===- ElementwiseChain.h - a tile computed elementwise from one op -*- C++
//-*-===//
//
// attn-accumulate-bias scales Q in front of the K/V loops: extf, mulf by a
// constant, truncf. attn-assign-layouts and attn-stage-shared recognise
// such a chain to keep Q's copy and store the scaled tile over it.
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_DIALECT_ATTN_TRANSFORMS_ELEMENTWISECHAIN_H
#define ATTN_DIALECT_ATTN_TRANSFORMS_ELEMENTWISECHAIN_H

#include "mlir/IR/Value.h"

namespace mlir {
namespace attn {

/// The op that `value` is computed from elementwise: walking back from
/// `value` through side-effect free, region-free ops with one result and
/// one non-constant operand (every result but `value` used once), the first
/// op that is not one; null where an op has several non-constant operands
/// or none.
Operation *elementwiseChainRoot(Value value);

} // namespace attn
} // namespace mlir

#endif // ATTN_DIALECT_ATTN_TRANSFORMS_ELEMENTWISECHAIN_H
