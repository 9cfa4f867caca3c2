//===- KVLoops.h - the chains of K/V loops of a tile program -----*- C++ -*-===//
//
// attn-tile builds one loop over the K/V blocks of a query block;
// attn-split-kv-loop splits it into consecutive loops (masked blocks,
// unmasked ones, masked ones). Passes that reorder or rotate those loops
// (attn-reverse-kv-loops, attn-overlap-softmax) see them as one chain.
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_DIALECT_ATTN_TRANSFORMS_KVLOOPS_H
#define ATTN_DIALECT_ATTN_TRANSFORMS_KVLOOPS_H

#include "attn/Dialect/Attn/IR/AttnDialect.h"

namespace mlir {
class Operation;
namespace attn {

/// A K/V loop of attn-tile: step 1, and its loop-carried state starts with
/// the (max, sum, accumulator) of one attn.online_softmax of its body (the
/// first three iter_args; `extraIterArgs` more may follow).
bool isKVLoop(scf::ForOp loop, unsigned extraIterArgs = 0);

/// The chains of K/V loops among the ops of `root` (walked in order): each
/// loop after the first starts at the previous one's upper bound and takes
/// all of its results, used nowhere else, as its iter_args.
SmallVector<SmallVector<scf::ForOp>> collectKVChains(Operation *root);

} // namespace attn
} // namespace mlir

#endif // ATTN_DIALECT_ATTN_TRANSFORMS_KVLOOPS_H
