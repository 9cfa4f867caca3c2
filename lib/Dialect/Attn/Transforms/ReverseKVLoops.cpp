//===- ReverseKVLoops.cpp - visit K/V blocks last to first ----------------===//
//
// Algorithm:
//  1. In each attn.program whose tile configuration has reverse_kv, collect
//     chains of K/V loops: consecutive scf.for ops with step 1 whose
//     body holds an attn.online_softmax, where each loop starts at the
//     previous one's upper bound and takes all of its results (used nowhere
//     else) as iter_args. The bounds must be defined before the chain.
//  2. Before the chain compute last = hi - 1 and, for each loop over
//     [a, b), its positions [hi - b, hi - a). Inside, the block index is
//     last - p.
//  3. Put the loops in the opposite order and rethread the softmax state:
//     the chain's initial state enters the (formerly) last loop, and the
//     (formerly) first loop's results replace the chain's results.
//
//===----------------------------------------------------------------------===//

#include "attn/Dialect/Attn/Transforms/Passes.h"
#include "attn/Dialect/Attn/Transforms/KVLoops.h"

#include "mlir/IR/Dominance.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace attn {
#define GEN_PASS_DEF_ATTNREVERSEKVLOOPS
#include "attn/Dialect/Attn/Transforms/Passes.h.inc"
} // namespace attn
} // namespace mlir

using namespace mlir;
using namespace mlir::attn;

static void reverseChain(RewriterBase &rewriter, SmallVector<scf::ForOp> chain) {
  scf::ForOp first = chain.front(), lastLoop = chain.back();
  rewriter.setInsertionPoint(first);
  ImplicitLocOpBuilder b(first.getLoc(), rewriter);
  Value hi = lastLoop.getUpperBound();
  Value last =
      arith::SubIOp::create(b, hi, arith::ConstantIndexOp::create(b, 1));
  // hi - bound, once per bound: a loop's upper position is the next one's
  // lower position as one SSA value, as the GPU lowering's copy pipeline
  // requires of consecutive loops.
  DenseMap<Value, Value> positionOf;
  auto position = [&](Value bound) {
    Value &p = positionOf[bound];
    if (!p)
      p = arith::SubIOp::create(b, hi, bound);
    return p;
  };
  SmallVector<std::pair<Value, Value>> positions;
  for (scf::ForOp loop : chain)
    positions.push_back(
        {position(loop.getUpperBound()), position(loop.getLowerBound())});

  SmallVector<Value> initial(first.getInitArgs());
  // The chain's results now come from its first loop, which runs last.
  if (first != lastLoop)
    rewriter.replaceAllUsesWith(lastLoop.getResults(), first.getResults());
  for (size_t i = 0; i < chain.size(); ++i) {
    scf::ForOp loop = chain[i];
    Value blockIndex;
    rewriter.modifyOpInPlace(loop, [&] {
      loop.setLowerBound(positions[i].first);
      loop.setUpperBound(positions[i].second);
      if (i + 1 < chain.size())
        loop.getInitArgsMutable().assign(chain[i + 1].getResults());
      else
        loop.getInitArgsMutable().assign(initial);
    });
    Value iv = loop.getInductionVar();
    rewriter.setInsertionPointToStart(loop.getBody());
    blockIndex = arith::SubIOp::create(rewriter, loop.getLoc(), last, iv);
    rewriter.replaceAllUsesExcept(iv, blockIndex,
                                  blockIndex.getDefiningOp());
  }
  // Opposite order: chain.back() first, chain.front() last.
  for (size_t i = chain.size() - 1; i-- > 0;)
    rewriter.moveOpAfter(chain[i], chain[i + 1]);
}

namespace {
struct AttnReverseKVLoopsPass
    : public attn::impl::AttnReverseKVLoopsBase<AttnReverseKVLoopsPass> {
  void runOnOperation() override {
    SmallVector<SmallVector<scf::ForOp>> chains;
    DominanceInfo dom;
    for (SmallVector<scf::ForOp> &chain : collectKVChains(getOperation())) {
      auto program = chain.front()->getParentOfType<ProgramOp>();
      if (!program || !program.getGpuConfigOrDefault().getReverseKv())
        continue;
      // Every bound must be available where the positions are computed.
      bool available = llvm::all_of(chain, [&](scf::ForOp l) {
        return dom.properlyDominates(l.getLowerBound(), chain.front()) &&
               dom.properlyDominates(l.getUpperBound(), chain.front());
      });
      if (available)
        chains.push_back(std::move(chain));
    }
    IRRewriter rewriter(&getContext());
    for (SmallVector<scf::ForOp> &chain : chains)
      reverseChain(rewriter, chain);
  }
};
} // namespace
