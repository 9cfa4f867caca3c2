//===- MaskModRange.h - K/V blocks a mask_mod region may show ---*- C++ -*-===//
//
// A mask_mod region says, one (query, key) pair at a time, whether a key is
// visible. A query block need not visit the K/V blocks in which the region
// hides every key; FlexAttention finds those by evaluating the mask on every
// element first (its BlockMask). Here the compiler evaluates the region on
// intervals instead: the block's query rows and keys become ranges
// [lo, hi], each op of the region is replaced by code that bounds its
// result over those ranges, and an i1 becomes the pair (may be false, may be
// true). A block whose "may be true" is false holds no visible key. The code
// runs per block, in the kernel, before the K/V loop; it costs a few scalar
// ops per block, not a pass over the elements.
//
// The same evaluation's "may be false" finds the blocks in which the region
// shows every key (FlexAttention's full blocks): their loop needs no
// element mask.
//
// Ops the evaluation does not bound (floats, bit operations, division by a
// value, anything that might wrap) give "unknown", which is "may be true":
// the result is always safe, and as tight as the region's arithmetic allows.
// Index values are bounded assuming query and key positions below
// 2^31 - 1025 (the runtime's limit on lengths; the CPU path assumes it too)
// and batch and head indices below 2^31 - 1;
// only ranges that fit a signed 32-bit integer are tracked, so the bounds hold
// for the 32-bit index arithmetic of GPU kernels and the 64-bit of the CPU.
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_DIALECT_ATTN_TRANSFORMS_MASKMODRANGE_H
#define ATTN_DIALECT_ATTN_TRANSFORMS_MASKMODRANGE_H

#include "attn/Dialect/Attn/IR/AttnDialect.h"

#include "mlir/IR/Builders.h"

namespace mlir {
namespace attn {

/// Whether the interval evaluation of a mask_mod region (arguments: batch,
/// head, query index, key index; result: i1) can ever rule a block out:
/// whether its result depends on a comparison the evaluation bounds.
bool canBoundMaskMod(Region &maskMod);

/// Shrinks the K/V block range [lower, upper) of the query rows
/// [rowStart, min(rowStart + blockM, numQueries)) to the blocks from the
/// first to the last one that `maskMod` may make visible for one of those
/// rows, or to the empty range [upper, upper) when it hides every key. All
/// operands are index values. The code searches from each end in groups of
/// blocks and stops at the first group that may show a key, so a mask whose
/// visible blocks are contiguous costs about N / (8 * blockN) evaluations.
std::pair<Value, Value> narrowKVRangeByMaskMod(OpBuilder &b, Location loc,
                                               Region &maskMod, Value batch,
                                               Value head, Value rowStart,
                                               Value numQueries, Value numKeys,
                                               int64_t blockM, int64_t blockN,
                                               Value lower, Value upper);

/// The run of "full" blocks in [max(from, lower), min(to, upper)), the
/// blocks in which `maskMod` shows every key to every one of the query
/// rows: it starts at the first such block among the first 8 and ends
/// before the first block after it that the region may hide a key in (a
/// group search, as above), or at the end. [e, e) where none of the 8 is
/// full (e = min(to, upper)). `from` and `to` may be null; [lower, upper)
/// should hold only blocks in bounds.
std::pair<Value, Value>
fullKVRangeByMaskMod(OpBuilder &b, Location loc, Region &maskMod, Value batch,
                     Value head, Value rowStart, Value numQueries,
                     Value numKeys, int64_t blockM, int64_t blockN, Value from,
                     Value to, Value lower, Value upper);

/// The first run of "hidden" blocks in [max(from, lower), min(to, upper)),
/// the blocks in which `maskMod` hides every key from every one of the
/// query rows (the blocks between attention sinks and a window, say): it
/// starts at the first such block among the first 8 and ends before the
/// first block after it that the region may show a key in (a group
/// search), or at the end. [s, s) where none of the 8 is hidden
/// (s = max(from, lower)).
std::pair<Value, Value>
hiddenKVRangeByMaskMod(OpBuilder &b, Location loc, Region &maskMod, Value batch,
                       Value head, Value rowStart, Value numQueries,
                       Value numKeys, int64_t blockM, int64_t blockN,
                       Value from, Value to, Value lower, Value upper);

/// Whether the keys `maskMod` shows to a block of rows may have a hole:
/// whether it combines conditions with `or`, `xor` or an i1 select, or
/// compares with `ne`. The usual regions without these (windows,
/// documents, causal masks: conjunctions of comparisons) show one
/// contiguous run of keys, so attn-split-kv-loop builds the search for
/// hidden blocks only where this holds: a cost heuristic (the search costs
/// up to 8 block evaluations per program), not a correctness condition.
bool maskModMayHideInterior(Region &maskMod);

/// What the lowerings of attn.kv_range with a mask_mod region call, with
/// the op's (converted) operands and the range [lower, upper) of its mask
/// attribute: narrowKVRangeByMaskMod for a `visible` range,
/// fullKVRangeByMaskMod for an `unmasked` one (`from`, `to` may be null),
/// hiddenKVRangeByMaskMod for a `hidden` one.
std::pair<Value, Value>
applyMaskModToKVRange(OpBuilder &b, KVRangeOp op, Value batch, Value head,
                      Value rowStart, Value numQueries, Value numKeys,
                      Value from, Value to, Value lower, Value upper);

} // namespace attn
} // namespace mlir

#endif // ATTN_DIALECT_ATTN_TRANSFORMS_MASKMODRANGE_H
