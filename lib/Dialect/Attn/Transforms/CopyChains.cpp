//===- CopyChains.cpp - the copies of a chain of K/V loops ----------------===//

#include "attn/Dialect/Attn/Transforms/CopyChains.h"

#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::attn;

bool attn::isPureFunctionOfIV(Value v, scf::ForOp loop) {
  if (v == loop.getInductionVar())
    return true;
  Region &body = loop.getRegion();
  if (auto arg = dyn_cast<BlockArgument>(v))
    return !body.isAncestor(arg.getParentRegion());
  Operation *def = v.getDefiningOp();
  if (!body.isAncestor(def->getParentRegion()))
    return true;
  if (def->getNumRegions() != 0 || !isMemoryEffectFree(def))
    return false;
  return llvm::all_of(def->getOperands(),
                      [&](Value o) { return isPureFunctionOfIV(o, loop); });
}

/// Whether `a` in loop `la` and `b` in loop `lb` are the same function of
/// their induction variables (both pure, checked by the caller).
static bool sameFunctionOfIV(Value a, scf::ForOp la, Value b, scf::ForOp lb) {
  if (a == la.getInductionVar() || b == lb.getInductionVar())
    return a == la.getInductionVar() && b == lb.getInductionVar();
  Operation *da = a.getDefiningOp(), *db = b.getDefiningOp();
  bool aInside = da && la.getRegion().isAncestor(da->getParentRegion());
  bool bInside = db && lb.getRegion().isAncestor(db->getParentRegion());
  if (!aInside || !bInside)
    return !aInside && !bInside && a == b;
  if (da->getName() != db->getName() ||
      da->getAttrDictionary() != db->getAttrDictionary() ||
      da->getNumOperands() != db->getNumOperands() ||
      cast<OpResult>(a).getResultNumber() != cast<OpResult>(b).getResultNumber())
    return false;
  for (auto [oa, ob] : llvm::zip(da->getOperands(), db->getOperands()))
    if (!sameFunctionOfIV(oa, la, ob, lb))
      return false;
  return true;
}

Value attn::cloneAt(OpBuilder &b, Value v, Region &body, Value iv,
                     Value position, IRMapping &mapping) {
  if (v == iv)
    return position;
  if (Value mapped = mapping.lookupOrNull(v))
    return mapped;
  Operation *def = v.getDefiningOp();
  if (!def || !body.isAncestor(def->getParentRegion()))
    return v;
  if (!mapping.contains(iv))
    mapping.map(iv, position);
  for (Value operand : def->getOperands())
    cloneAt(b, operand, body, iv, position, mapping);
  b.clone(*def, mapping);
  return mapping.lookup(v);
}

Value attn::cloneAt(OpBuilder &b, Value v, scf::ForOp loop, Value position,
                     IRMapping &mapping) {
  return cloneAt(b, v, loop.getRegion(), loop.getInductionVar(), position,
                 mapping);
}

static bool analyzeLoop(scf::ForOp loop, SmallVectorImpl<ChainCopy> &copies) {
  if (!matchPattern(loop.getStep(), m_One()))
    return false;
  bool ok = true;
  loop.getBody()->walk([&](AsyncCopyOp copy) {
    auto commit = dyn_cast_or_null<AsyncCommitOp>(copy->getNextNode());
    bool pure = llvm::all_of(copy.getIndices(), [&](Value v) {
      return isPureFunctionOfIV(v, loop);
    });
    Operation *alloc = copy.getDest().getDefiningOp();
    if (copy->getBlock() != loop.getBody() || !commit || !pure ||
        !isa_and_nonnull<LocalAllocOp>(alloc) ||
        loop->isAncestor(alloc))
      ok = false;
    copies.push_back({copy, commit});
  });
  // Shared memory written otherwise (a tile staged from registers) is not
  // pipelined.
  loop.getBody()->walk([&](LocalStoreOp) { ok = false; });
  return ok && !copies.empty();
}

SmallVector<CopyChain> attn::findCopyChains(ProgramOp program) {
  SmallVector<CopyChain> chains;
  Block &body = program.getBody().front();
  for (Operation &op : body) {
    auto loop = dyn_cast<scf::ForOp>(op);
    if (!loop)
      continue;
    CopyChain *last = chains.empty() ? nullptr : &chains.back();
    if (last && last->upper() == loop.getLowerBound() &&
        last->loops.back()->isBeforeInBlock(loop)) {
      // Contiguous with the previous chain and nothing with side effects
      // between them.
      bool between = false;
      for (Operation *o = last->loops.back()->getNextNode(); o != loop;
           o = o->getNextNode())
        between |= !isMemoryEffectFree(o);
      if (!between) {
        last->loops.push_back(loop);
        continue;
      }
    }
    chains.push_back(CopyChain{{loop}, {}, {}});
  }
  return chains;
}

bool attn::checkCopyChain(CopyChain &chain) {
  for (scf::ForOp loop : chain.loops) {
    SmallVector<ChainCopy> copies;
    if (!analyzeLoop(loop, copies))
      return false;
    chain.copies.push_back(std::move(copies));
  }
  MutableArrayRef<ChainCopy> first = chain.copies.front();
  for (ChainCopy &c : first)
    chain.buffers.push_back(c.op.getDest());
  for (size_t i = 1; i < chain.loops.size(); ++i) {
    MutableArrayRef<ChainCopy> copies = chain.copies[i];
    if (copies.size() != first.size())
      return false;
    for (auto [a, b] : llvm::zip(first, copies)) {
      if (a.op.getDest() != b.op.getDest() ||
          a.op.getSource() != b.op.getSource())
        return false;
      for (auto [ia, ib] : llvm::zip(a.op.getIndices(), b.op.getIndices()))
        if (!sameFunctionOfIV(ia, chain.loops.front(), ib, chain.loops[i]))
          return false;
    }
  }
  // The buffers are the chain's alone: written by these copies, read in
  // these loops.
  for (Value buffer : chain.buffers)
    for (Operation *user : buffer.getUsers())
      if (!llvm::any_of(chain.loops,
                        [&](scf::ForOp l) { return l->isAncestor(user); }))
        return false;
  return true;
}

Operation *attn::firstReader(scf::ForOp loop, Value buffer) {
  for (Operation &op : loop.getBody()->without_terminator()) {
    bool reads = false;
    op.walk([&](Operation *o) {
      if (auto dot = dyn_cast<DotOp>(o))
        reads |= dot.getA() == buffer || dot.getB() == buffer;
      else if (auto load = dyn_cast<LocalLoadOp>(o))
        reads |= load.getSource() == buffer;
    });
    if (reads)
      return &op;
  }
  return nullptr;
}

