//===- MaskUtils.h - mask and K/V-range arithmetic shared by targets -*- C++ -*-===//
//
// Every lowering (CPU loops, GPU fragments) needs the same two facts about a
// mask: whether one (query, key) pair is visible, and which K/V blocks a
// query block visits. Both are built here, once, as arith ops on index
// values.
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_DIALECT_ATTN_TRANSFORMS_MASKUTILS_H
#define ATTN_DIALECT_ATTN_TRANSFORMS_MASKUTILS_H

#include "attn/Dialect/Attn/IR/AttnDialect.h"

namespace mlir {
class OpBuilder;
namespace attn {

/// i1: key `col` is in bounds (< numKeys) and visible from query `row`
/// under `mask`. All operands are index values.
Value buildIsVisible(OpBuilder &b, Location loc, MaskAttr mask, Value row,
                     Value col, Value numQueries, Value numKeys);

/// The key on query `row`'s diagonal: `row`, plus `numKeys - numQueries`
/// for bottom-right alignment. A key `col` is visible iff
/// -left <= col - diag <= right (and col < numKeys). Operands are integers
/// of one type (index here, i32 in GPU kernels).
Value buildDiagonal(OpBuilder &b, Location loc, MaskAttr mask, Value row,
                    Value numQueries, Value numKeys);

/// Whether `offset` is `blockIndex * blockSize` (an arith.muli by that
/// constant, in either operand order): the first key of K/V block
/// `blockIndex`.
bool isBlockStart(Value offset, Value blockIndex, int64_t blockSize);

/// The [lower, upper) block range of an attn.kv_range of `kind` for the
/// given (index) operands; see the op's description. For a `hidden` range,
/// which only a mask_mod region makes, the visible range its search is
/// bounded by.
std::pair<Value, Value> buildKVRange(OpBuilder &b, Location loc,
                                     KVRangeKind kind, MaskAttr mask,
                                     int64_t blockM, int64_t blockN,
                                     Value rowStart, Value numQueries,
                                     Value numKeys);

} // namespace attn
} // namespace mlir

#endif // ATTN_DIALECT_ATTN_TRANSFORMS_MASKUTILS_H
