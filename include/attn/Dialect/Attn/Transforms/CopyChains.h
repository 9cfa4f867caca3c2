//===- CopyChains.h - the copies of a chain of K/V loops ---------*- C++ -*-===//
//
// attn-stage-shared leaves each K/V loop copying its block's K and V into
// shared buffers (attn.async_copy + attn.async_commit at the top level of
// the body). The passes that schedule those copies (attn-pipeline: a
// cp.async ring; attn-warp-specialize: a TMA producer) see the loops of
// one contiguous range of blocks as a chain whose copies are the same
// function of the block in every loop, so that a copy for block p can be
// issued from anywhere.
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_DIALECT_ATTN_TRANSFORMS_COPYCHAINS_H
#define ATTN_DIALECT_ATTN_TRANSFORMS_COPYCHAINS_H

#include "attn/Dialect/Attn/IR/AttnDialect.h"

#include "mlir/IR/IRMapping.h"

namespace mlir {
namespace attn {

/// One copy of a chain loop: the op and the commit that closes its group.
struct ChainCopy {
  AsyncCopyOp op;
  AsyncCommitOp commit;
};

/// A chain of K/V loops and what the copy schedulers need to know about it.
struct CopyChain {
  SmallVector<scf::ForOp> loops;
  /// Per loop, its copies in body order.
  SmallVector<SmallVector<ChainCopy>> copies;
  /// The buffers the copies write (the same for every loop), in order.
  SmallVector<Value> buffers;
  Value lower() { return loops.front().getLowerBound(); }
  Value upper() { return loops.back().getUpperBound(); }
};

/// The loops at the top level of `program`'s body, grouped into chains of
/// consecutive loops over one contiguous range (nothing with side effects
/// between them). Not yet checked: see checkCopyChain.
SmallVector<CopyChain> findCopyChains(ProgramOp program);

/// Fills in `chain`'s copies and buffers; true if every loop has step 1,
/// copies into the same buffers in the same order, each copy at the top
/// level of the body followed by its commit, its indices the same pure
/// function of the loop's position in every loop, and the buffers are
/// used in these loops only.
bool checkCopyChain(CopyChain &chain);

/// Whether `v`, used in `loop`'s body, is a side-effect free function of the
/// induction variable and of values defined outside the loop.
bool isPureFunctionOfIV(Value v, scf::ForOp loop);

/// Clones what `v` is computed from inside `body` (a loop's region with
/// induction variable `iv`) at `b`, with `iv` replaced by `position`.
Value cloneAt(OpBuilder &b, Value v, Region &body, Value iv, Value position,
              IRMapping &mapping);
Value cloneAt(OpBuilder &b, Value v, scf::ForOp loop, Value position,
              IRMapping &mapping);

/// The first op of `loop`'s body (at its top level) that reads `buffer`
/// (an attn.dot operand or an attn.local_load source, possibly nested).
Operation *firstReader(scf::ForOp loop, Value buffer);

} // namespace attn
} // namespace mlir

#endif // ATTN_DIALECT_ATTN_TRANSFORMS_COPYCHAINS_H
