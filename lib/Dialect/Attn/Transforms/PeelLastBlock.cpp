//===- PeelLastBlock.cpp - the overlapped chain without its spare product -===//
//
// Algorithm (on the consumers of a warp-specialized, overlapped program):
//  1. Check: every chain loop has one asynchronous attn.dot at its top
//     level (block j + 1's scores), waited for by one attn.dot_wait whose
//     result only the yield takes (the scores iter_arg, last); the last
//     loop's body masks as the program does (an attn.mask of the program's
//     kind), or the chain is one loop: that body is then right for
//     whichever block is last.
//  2. Each loop's upper bound becomes min(bound, upper - 1): the loops
//     visit [lower, upper - 1), their products reach block upper - 1.
//  3. After the last loop, under `lower < upper`: the last loop's body
//     cloned with the induction variable at upper - 1 and the loop's
//     results as its iter_args, without the asynchronous product and its
//     wait (the scores it yields are dead after the chain: the loop's);
//     the ring waits and arrivals stay, so the producer, which copies for
//     every position (the K it copies for the spare product included),
//     and the barriers' phases are unchanged. The chain's results are the
//     if's.
//
// The if's results merge completed accumulators only (P V is waited for
// inside), which ptxas does not count against a wgmma in flight.
//
//===----------------------------------------------------------------------===//

#include "attn/Dialect/Attn/Transforms/PeelLastBlock.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::attn;

namespace {
/// The next block's product of a chain loop and its wait (step 1).
struct SpareProduct {
  DotOp dot;
  DotWaitOp wait;
};
} // namespace

static FailureOr<SpareProduct> matchSpare(scf::ForOp loop, std::string &why) {
  SpareProduct s{nullptr, nullptr};
  for (Operation &op : loop.getBody()->without_terminator())
    if (auto dot = dyn_cast<DotOp>(op); dot && dot.getAsync()) {
      if (s.dot) {
        why = "a K/V loop has two asynchronous products";
        return failure();
      }
      s.dot = dot;
    }
  if (!s.dot || !s.dot.getResult().hasOneUse()) {
    why = "a K/V loop has no asynchronous product waited for once";
    return failure();
  }
  s.wait = dyn_cast<DotWaitOp>(*s.dot.getResult().getUsers().begin());
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  if (!s.wait || s.wait->getBlock() != loop.getBody() ||
      s.wait.getNumResults() != 1 || !s.wait.getResult(0).hasOneUse() ||
      *s.wait.getResult(0).getUsers().begin() != yield.getOperation() ||
      yield.getOperand(yield.getNumOperands() - 1) != s.wait.getResult(0)) {
    why = "the asynchronous product's wait is not yielded as the last "
          "iter_arg alone";
    return failure();
  }
  return s;
}

static bool masksAsProgram(ProgramOp program, scf::ForOp loop) {
  auto mask = program->getAttrOfType<MaskAttr>("attn.mask");
  bool found = false;
  loop.getBody()->walk([&](MaskOp op) {
    if (!mask || op.getMask() == mask)
      found = true;
  });
  return found;
}

bool mlir::attn::peelLastBlock(ProgramOp program, ArrayRef<scf::ForOp> loops,
                               Value lower, Value upper, std::string &why) {
  // Step 1.
  SmallVector<SpareProduct> spares;
  for (scf::ForOp loop : loops) {
    FailureOr<SpareProduct> s = matchSpare(loop, why);
    if (failed(s))
      return false;
    spares.push_back(*s);
  }
  scf::ForOp last = loops.back();
  if (loops.size() > 1 && !masksAsProgram(program, last)) {
    why = "the last K/V loop does not mask as the program does, so its body "
          "is not right for every block";
    return false;
  }

  // Step 2.
  Location loc = last.getLoc();
  OpBuilder b(loops.front());
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value lastBlock = arith::SubIOp::create(b, loc, upper, one);
  for (scf::ForOp loop : loops) {
    b.setInsertionPoint(loop);
    Value bound = arith::MinSIOp::create(b, loc, loop.getUpperBound(),
                                         lastBlock);
    loop.getUpperBoundMutable().assign(bound);
  }

  // Step 3.
  b.setInsertionPointAfter(last);
  Value any = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, lower,
                                    upper);
  auto tail = scf::IfOp::create(b, loc, last.getResultTypes(), any,
                                /*withElseRegion=*/true);
  // Uses of the chain's results now take the if's (not the if's own yield).
  for (auto [from, to] : llvm::zip(last.getResults(), tail.getResults()))
    from.replaceAllUsesExcept(to, tail);
  OpBuilder tb = OpBuilder::atBlockBegin(tail.elseBlock());
  scf::YieldOp::create(tb, loc, last.getResults());
  tb.setInsertionPointToStart(tail.thenBlock());
  IRMapping mapping;
  mapping.map(last.getInductionVar(), lastBlock);
  for (auto [arg, result] :
       llvm::zip(last.getRegionIterArgs(), last.getResults()))
    mapping.map(arg, result);
  SpareProduct spare = spares.back();
  mapping.map(spare.wait.getResult(0), last.getResults().back());
  for (Operation &op : last.getBody()->without_terminator())
    if (&op != spare.dot.getOperation() && &op != spare.wait.getOperation())
      tb.clone(op, mapping);
  SmallVector<Value> yielded;
  for (Value v : last.getBody()->getTerminator()->getOperands())
    yielded.push_back(mapping.lookupOrDefault(v));
  scf::YieldOp::create(tb, loc, yielded);
  return true;
}
