//===- PeelLastBlock.h - the overlapped chain without its spare product -*- C++ -*-===//
//
// attn-overlap-softmax issues block j + 1's Q K^T in iteration j; the last
// iteration computes the last block's scores again (position clamped)
// rather than guarding the product, which ptxas would serialize (C7515).
// With few blocks per query tile that spare product is a large share of
// the work: 1 in 2 x (blocks) products, 12.5% at 4 blocks (N = 512 with
// 128-key blocks), 6% at 8. attn-warp-specialize calls this on the
// consumers of an overlapped program whose #attn.gpu_config has
// `peel_last_block` (set for short key lengths only: at long rows it cost
// persistent kernels up to 7%): the chain's loops stop one block
// early and a copy of the last loop's body without the next product runs
// the last block once, after the chain.
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_DIALECT_ATTN_TRANSFORMS_PEELLASTBLOCK_H
#define ATTN_DIALECT_ATTN_TRANSFORMS_PEELLASTBLOCK_H

#include "attn/Dialect/Attn/IR/AttnDialect.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

#include <string>

namespace mlir {
namespace attn {

/// Peels block `upper - 1` off the overlapped chain `loops` (warp-specialized
/// consumers, blocks [lower, upper)): every loop's upper bound becomes
/// min(its bound, upper - 1) and, after the last loop, `scf.if lower <
/// upper` runs the last loop's body at position upper - 1 without its
/// asynchronous product and that product's wait; the chain's results are
/// the if's. The ring barriers of the peeled position are waited for and
/// arrived at as before, so that the producer's copies and the phases stay
/// as they are. False with `why` (nothing changed) where the chain is not
/// as attn-overlap-softmax and attn-warp-specialize leave it, or where the
/// last loop's body is not valid for every block (it lacks the program's
/// mask while an earlier loop has it).
bool peelLastBlock(ProgramOp program, ArrayRef<scf::ForOp> loops,
                   Value lower, Value upper, std::string &why);

} // namespace attn
} // namespace mlir

#endif // ATTN_DIALECT_ATTN_TRANSFORMS_PEELLASTBLOCK_H
