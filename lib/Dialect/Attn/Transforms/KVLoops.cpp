//===- KVLoops.cpp - the chains of K/V loops of a tile program -----------===//

#include "attn/Dialect/Attn/Transforms/KVLoops.h"

#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::attn;

bool attn::isKVLoop(scf::ForOp loop, unsigned extraIterArgs) {
  if (!matchPattern(loop.getStep(), m_One()) ||
      loop.getNumRegionIterArgs() != 3 + extraIterArgs)
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

/// Whether `next` continues the chain ending in `prev`.
static bool continuesChain(scf::ForOp prev, scf::ForOp next) {
  if (!next || !isKVLoop(next) ||
      next.getLowerBound() != prev.getUpperBound() ||
      next.getInitArgs() != ValueRange(prev.getResults()))
    return false;
  for (Value result : prev.getResults())
    for (Operation *user : result.getUsers())
      if (user != next.getOperation())
        return false;
  return true;
}

SmallVector<SmallVector<scf::ForOp>> attn::collectKVChains(Operation *root) {
  SmallVector<SmallVector<scf::ForOp>> chains;
  DenseSet<Operation *> taken;
  root->walk([&](scf::ForOp loop) {
    if (taken.contains(loop) || !isKVLoop(loop))
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
    chains.push_back(std::move(chain));
  });
  return chains;
}
