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

/// A K/V loop of attn-tile: step 1, and its only loop-carried state is the
/// (max, sum, accumulator) of one attn.online_softmax, which is what makes
/// the order of its iterations irrelevant.
static bool isKVLoop(scf::ForOp loop) {
  if (!matchPattern(loop.getStep(), m_One()) ||
      loop.getNumRegionIterArgs() != 3)
    return false;
  ValueRange args = loop.getRegionIterArgs();
  auto yielded = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  for (Operation &op : loop.getBody()->without_terminator()) {
    auto softmax = dyn_cast<OnlineSoftmaxOp>(op);
    if (softmax && softmax.getMax() == args[0] &&
        softmax.getSum() == args[1] && softmax.getAcc() == args[2] &&
        yielded.getOperand(0) == softmax.getNewMax() &&
        yielded.getOperand(1) == softmax.getNewSum())
      return true;
  }
  return false;
}

/// Whether `next` continues the chain ending in `prev` (step 1 above).
static bool continuesChain(scf::ForOp prev, scf::ForOp next) {
  if (!next || !isKVLoop(next) || next.getLowerBound() != prev.getUpperBound() ||
      next.getInitArgs() != ValueRange(prev.getResults()))
    return false;
  for (Value result : prev.getResults())
    for (Operation *user : result.getUsers())
      if (user != next.getOperation())
        return false;
  return true;
}

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
    DenseSet<Operation *> taken;
    DominanceInfo dom;
    getOperation()->walk([&](scf::ForOp loop) {
      if (taken.contains(loop) || !isKVLoop(loop))
        return;
      auto program = loop->getParentOfType<ProgramOp>();
      if (!program || !program.getGpuConfigOrDefault().getReverseKv())
        return;
      SmallVector<scf::ForOp> chain{loop};
      while (auto next =
                 dyn_cast_or_null<scf::ForOp>(chain.back()->getNextNode())) {
        if (!continuesChain(chain.back(), next))
          break;
        chain.push_back(next);
      }
      for (scf::ForOp l : chain)
        taken.insert(l);
      // Every bound must be available where the positions are computed.
      for (scf::ForOp l : chain)
        for (Value bound : {l.getLowerBound(), l.getUpperBound()})
          if (!dom.properlyDominates(bound, chain.front()))
            return;
      chains.push_back(std::move(chain));
    });
    IRRewriter rewriter(&getContext());
    for (SmallVector<scf::ForOp> &chain : chains)
      reverseChain(rewriter, chain);
  }
};
} // namespace
