//===- OverlapSoftmax.cpp - Q K^T of the next block under the softmax -----===//
//
// On wgmma a product is issued and runs on the tensor cores while the
// warpgroup goes on; a block of FlashAttention is Q K^T, the softmax (ALU
// and MUFU work, no tensor cores) and P V, each waiting for the one
// before. This pass rotates each chain of K/V loops by one product, in the
// spirit of FlashAttention-3's intra-warpgroup pipelining, so that block
// j + 1's scores are computed under block j's softmax:
//
//   S = Q K[lo]^T                                  (before the chain)
//   for j in [lo, hi):                             (every loop of the chain)
//     Sn = Q K[min(j + 1, hi - 1)]^T               (async)
//     P, m', l' = mask / score modifications / online softmax of S
//     Sn = wait(Sn)
//     acc = P V[j] + alpha(m, m') acc
//     S = Sn                                       (a fourth iter_arg)
//
// The accumulator is rescaled after the wait, not by the softmax: ptxas
// serializes every wgmma of a pipeline stage (C7515) when other
// instructions write the accumulator registers of one of them (here those
// of P V) between its first issue and the wait.
//
// Algorithm (per attn.program with #attn.gpu_config<overlap_softmax>):
//  1. Each chain of K/V loops (KVLoops.h) must be the shape attn-tile
//     builds: per loop body, a first attn.dot whose A is defined outside the
//     loop (Q) and whose B is an attn.load in the body (K, used by that dot
//     alone, its indices a function of the position), with an accumulator
//     defined outside (zero) or computed in the body from the position
//     (a bias tile, attn-accumulate-bias: side-effect free ops and loads of
//     buffers the program does not write, the same function in every loop
//     of the chain); the online softmax rescales the loop's
//     accumulator, which a later attn.dot (P V) alone then updates, its
//     result only yielded. Otherwise the chain is left alone, with a
//     warning.
//  2. Before the chain: K and the product for block lo (synchronous), with
//     its accumulator computed for block lo where the body computes it.
//  3. In every loop: the scores of block j become a fourth iter_arg; K of
//     block j + 1 is loaded where K of j was (so attn-stage-shared and
//     attn-pipeline stage it like any load of the position; the position
//     is clamped to hi - 1, so the last block's product is computed twice
//     rather than guarded; `peel_last_block` removes that product after
//     warp specialization, PeelLastBlock.h), its product issued async (an
//     accumulator the body computes is computed for block j + 1 right
//     before it, and block j's, which came with its scores, goes); the
//     softmax gets a zero accumulator (its rescaled copy is dead); before
//     P V, attn.dot_wait {pending = 0} and the rescale, written out as tile
//     ops. Nothing async crosses an iteration, so the barriers that guard
//     the shared buffers stay where attn-pipeline puts them.
//  4. With `async_pv` (FlashAttention-3's rotation): block j + 1's product
//     is issued after the softmax and the rescale, right before P V, and
//     P V is issued async too and stays in flight across the iteration:
//
//       for j in [lo, hi):
//         P, m', l' = mask / score modifications / online softmax of S
//         acc, P = wait(acc, P)                    (P V of block j - 1)
//         acc = alpha(m, m') acc
//         Sn = Q K[min(j + 1, hi - 1)]^T           (async)
//         acc = P V[j] + acc                       (async, yielded)
//         Sn = wait(Sn)                            (pending = 1: P V runs on)
//         S = Sn
//       acc = wait(acc)                            (after the chain)
//
//     Block j + 1's softmax then runs under block j's P V (as in step 3 it
//     runs under block j + 1's Q K^T), but only one score tile is live
//     while it does: the one it reads. The first iteration waits for
//     nothing (its accumulator is the zero tile). P goes through the wait
//     because P V reads its registers until it completes and the next
//     block's P is written to the same ones. attn-warp-specialize releases
//     V's stage after the next iteration's wait.
//  5. With `early_qk` (and async_pv) block j + 1's product stays before
//     the softmax, as in step 3, and P V stays in flight as in step 4:
//
//       for j in [lo, hi):
//         Sn = Q K[min(j + 1, hi - 1)]^T           (async)
//         P, m', l' = mask / score modifications / online softmax of S
//         acc, P, Sn = wait(acc, P, Sn)            (pending = 0)
//         acc = alpha(m, m') acc
//         acc = P V[j] + acc                       (async, yielded)
//         S = Sn
//
//     Both products run under every softmax, for a second live score
//     tile: where the softmax is as long as the products (a softcap's
//     tanh and ex2 at D = 128), a warpgroup then never waits for its next
//     scores with no softmax to run. The accumulator's wait completes
//     block j + 1's product as well (it ran under the softmax): leaving it
//     pending there (wait_group 1, P V of block j - 1 being the older
//     group) made ptxas serialize every wgmma (C7514), as it cannot tell
//     which group such a wait completes, and the rescale then reads the
//     accumulator of P V of block j - 1. Sn goes through that wait, so
//     that attn-warp-specialize releases K's stage there, before the
//     rescale and P V's issue, not after P V (a second wait of Sn after
//     P V would complete nothing but hold K's stage longer).
////  6. With `loads_ahead` the register tiles each body loads for its
//     block's scores (a bias: loads before the softmax whose operands are
//     functions of the position, K's aside) are loaded a block ahead as K
//     is: block lo's before the chain, block min(j + 1, hi - 1)'s right
//     before the wait that completes block j + 1's scores, carried in
//     iter_args (in front of the scores, which stay last):
//
//       B = load B[lo]                             (before the chain)
//       for j in [lo, hi):
//         ... as above, block j's scores modified with B ...
//         Bn = load B[min(j + 1, hi - 1)]
//         Sn = wait(Sn)
//         B = Bn
//
//     The load then runs under block j + 1's product (with a staged bias,
//     attn-stage-loads stages the one before the chain too, which
//     attn-warp-specialize takes as the ring's lead, as it does K's)
//     instead of after the scores' wait, on the softmax's path. The wait
//     itself stays in the iteration: left pending across the back edge
//     (wait_group 1 at the next iteration's top), it made ptxas serialize
//     every wgmma (C7514), as it cannot tell which group a wait completes
//     across iterations.
//
//===----------------------------------------------------------------------===//

#include "attn/Dialect/Attn/Transforms/KVLoops.h"
#include "attn/Dialect/Attn/Transforms/Passes.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"

#include <limits>

namespace mlir {
namespace attn {
#define GEN_PASS_DEF_ATTNOVERLAPSOFTMAX
#include "attn/Dialect/Attn/Transforms/Passes.h.inc"
} // namespace attn
} // namespace mlir

using namespace mlir;
using namespace mlir::attn;

namespace {

/// The two products of one K/V loop body (step 1).
struct LoopProducts {
  DotOp scores; // Q K^T
  LoadOp key;   // its B
  DotOp values; // P V
  OnlineSoftmaxOp softmax;
  /// The body's ops that compute Q K^T's accumulator from the position, in
  /// order (step 1); empty where it comes from outside the loop.
  SmallVector<Operation *> accSlice;
};

/// Whether `v` is computed in `loop`'s body from the induction variable and
/// values from outside only, without side effects.
static bool isPositionFunction(Value v, scf::ForOp loop) {
  if (v == loop.getInductionVar())
    return true;
  Operation *def = v.getDefiningOp();
  if (!def)
    return !loop.getRegion().isAncestor(
        cast<BlockArgument>(v).getParentRegion());
  if (!loop->isAncestor(def))
    return true;
  if (def->getNumRegions() != 0 || !isMemoryEffectFree(def))
    return false;
  return llvm::all_of(def->getOperands(), [&](Value operand) {
    return isPositionFunction(operand, loop);
  });
}

/// The ops of `loop`'s body that compute `acc` (Q K^T's accumulator, in
/// the body) from the position, in order: side-effect free ops at the
/// body's top level and loads at indices of the position from buffers
/// defined outside the loop that no store of the program writes (so that
/// the tile of block j + 1 may be loaded in iteration j).
static FailureOr<SmallVector<Operation *>>
accumulatorSlice(scf::ForOp loop, Value acc, std::string &why) {
  llvm::SmallDenseSet<Value> written;
  if (auto program = loop->getParentOfType<ProgramOp>())
    program.walk([&](StoreOp store) { written.insert(store.getDest()); });
  SetVector<Operation *> slice;
  std::function<LogicalResult(Value)> collect = [&](Value v) -> LogicalResult {
    if (v == loop.getInductionVar())
      return success();
    Operation *def = v.getDefiningOp();
    if (!def)
      return success(!loop.getRegion().isAncestor(
          cast<BlockArgument>(v).getParentRegion()));
    if (!loop->isAncestor(def) || slice.contains(def))
      return success();
    if (def->getBlock() != loop.getBody() || def->getNumRegions() != 0)
      return failure();
    if (auto load = dyn_cast<LoadOp>(def)) {
      if (written.contains(load.getSource()) ||
          loop->isAncestor(load.getSource().getParentBlock()->getParentOp()))
        return failure();
    } else if (!isMemoryEffectFree(def)) {
      return failure();
    }
    for (Value operand : def->getOperands())
      if (failed(collect(operand)))
        return failure();
    slice.insert(def);
    return success();
  };
  if (failed(collect(acc))) {
    why = "the first product's accumulator is not a function of the "
          "position (side-effect free ops and loads of buffers the program "
          "does not write)";
    return failure();
  }
  return SmallVector<Operation *>(slice.begin(), slice.end());
}

static FailureOr<LoopProducts> matchProducts(scf::ForOp loop,
                                             std::string &why) {
  SmallVector<DotOp> dots;
  for (Operation &op : loop.getBody()->without_terminator())
    if (auto dot = dyn_cast<DotOp>(op))
      dots.push_back(dot);
  if (dots.size() != 2) {
    why = "the body has " + std::to_string(dots.size()) +
          " products at its top level, not two (Q K^T, P V)";
    return failure();
  }
  LoopProducts p{dots[0], nullptr, dots[1], nullptr};
  for (Operation &op : loop.getBody()->without_terminator())
    if (auto softmax = dyn_cast<OnlineSoftmaxOp>(op))
      if (softmax.getAcc() == loop.getRegionIterArgs()[2])
        p.softmax = softmax;
  if (!p.softmax || !loop.getRegionIterArgs()[2].hasOneUse() ||
      p.values.getAcc() != p.softmax.getNewAcc() ||
      !p.softmax.getNewAcc().hasOneUse()) {
    why = "the accumulator is not rescaled by the softmax and then "
          "updated by the second product alone";
    return failure();
  }
  auto outside = [&](Value v) {
    Operation *def = v.getDefiningOp();
    return def ? !loop->isAncestor(def)
               : !loop.getRegion().isAncestor(
                     cast<BlockArgument>(v).getParentRegion());
  };
  p.key = p.scores.getB().getDefiningOp<LoadOp>();
  if (!outside(p.scores.getAcc())) {
    FailureOr<SmallVector<Operation *>> slice =
        accumulatorSlice(loop, p.scores.getAcc(), why);
    if (failed(slice))
      return failure();
    p.accSlice = std::move(*slice);
  }
  if (!outside(p.scores.getA()) || !p.key ||
      p.key->getBlock() != loop.getBody() || !p.key->hasOneUse() ||
      !llvm::all_of(p.key.getIndices(),
                    [&](Value v) { return isPositionFunction(v, loop); })) {
    why = "the first product is not Q K^T of a K block loaded in the body "
          "(A from outside the loop, B a load of the position used by it "
          "alone)";
    return failure();
  }
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  if (!p.values.getResult().hasOneUse() ||
      *p.values.getResult().getUsers().begin() != yield.getOperation()) {
    why = "the result of the second product (P V) is used other than by the "
          "yield";
    return failure();
  }
  for (DotOp dot : {p.scores, p.values}) {
    auto mma = dyn_cast_or_null<MmaLayoutAttr>(dot.getType().getEncoding());
    if (!mma || !mma.isWarpgroup()) {
      why = "the products are not wgmma (#attn.mma<version = 3>)";
      return failure();
    }
  }
  return p;
}

/// The loads of `loop`'s body that step 6 moves a block ahead: at its top
/// level before the softmax, not K, register tiles of a buffer defined
/// outside the loop that `written` (the program's stores) does not hold,
/// at indices that are functions of the position.
static SmallVector<LoadOp>
aheadLoads(scf::ForOp loop, LoopProducts p,
           const llvm::SmallDenseSet<Value> &written) {
  SmallVector<LoadOp> loads;
  for (Operation &op : loop.getBody()->without_terminator()) {
    if (&op == p.softmax.getOperation())
      break;
    auto load = dyn_cast<LoadOp>(op);
    if (!load || load == p.key || llvm::is_contained(p.accSlice, load) ||
        !isa_and_nonnull<MmaLayoutAttr, RowsLayoutAttr>(
            load.getType().getEncoding()) ||
        written.contains(load.getSource()) ||
        loop->isAncestor(load.getSource().getParentBlock()->getParentOp()) ||
        !llvm::all_of(load.getIndices(),
                      [&](Value v) { return isPositionFunction(v, loop); }))
      continue;
    loads.push_back(load);
  }
  return loads;
}

/// `load` (in `loop`'s body) for block `position`, cloned at `b` with what
/// its indices are computed from in the body.
static Value cloneLoad(OpBuilder &b, LoadOp load, scf::ForOp loop,
                       Value position) {
  IRMapping mapping;
  mapping.map(loop.getInductionVar(), position);
  SetVector<Operation *> defs;
  std::function<void(Value)> collect = [&](Value v) {
    Operation *def = v.getDefiningOp();
    if (!def || !loop->isAncestor(def) || defs.contains(def))
      return;
    for (Value operand : def->getOperands())
      collect(operand);
    defs.insert(def);
  };
  for (Value idx : load.getIndices())
    collect(idx);
  for (Operation *def : defs)
    b.clone(*def, mapping);
  return b.clone(*load, mapping)->getResult(0);
}

/// `p`'s accumulator for block `position`, at `b`: its slice cloned there
/// (the clones appended to `cloned`), or the value from outside the loop.
static Value cloneAccumulator(OpBuilder &b, LoopProducts p, scf::ForOp loop,
                              Value position,
                              SmallVectorImpl<Operation *> &cloned) {
  IRMapping mapping;
  mapping.map(loop.getInductionVar(), position);
  for (Operation *op : p.accSlice)
    cloned.push_back(b.clone(*op, mapping));
  return mapping.lookupOrDefault(p.scores.getAcc());
}

/// The scores product of `p` on `key` at `b`, with accumulator `acc`.
static Value cloneScores(OpBuilder &b, LoopProducts p, Value key, Value acc,
                         bool async) {
  auto dot = cast<DotOp>(b.clone(*p.scores));
  dot.setOperand(1, key);
  dot.setOperand(2, acc);
  dot.setAsync(async);
  return dot.getResult();
}

static Value splat(OpBuilder &b, Location loc, Type type, double v) {
  auto tile = cast<RankedTensorType>(type);
  return arith::ConstantOp::create(
      b, loc,
      DenseElementsAttr::get(
          tile, FloatAttr::get(tile.getElementType(), v).getValue()));
}

/// acc * alpha (alpha = exp2(m - ref) per row, ref = m_new but 0 for rows
/// with nothing visible yet), the rescale of attn.online_softmax written
/// out (the op's semantics), with the hardware exp2.
static Value rescale(OpBuilder &b, Location loc, Value acc, Value max,
                     Value newMax) {
  Type rowT = max.getType();
  Value empty = arith::CmpFOp::create(
      b, loc, arith::CmpFPredicate::OEQ, newMax,
      splat(b, loc, rowT, -std::numeric_limits<double>::infinity()));
  Value ref = arith::SelectOp::create(b, loc, empty, splat(b, loc, rowT, 0.0),
                                      newMax);
  Value alpha = math::Exp2Op::create(
      b, loc, arith::SubFOp::create(b, loc, max, ref),
      arith::FastMathFlags::afn);
  return arith::MulFOp::create(
      b, loc, acc, BroadcastRowsOp::create(b, loc, acc.getType(), alpha));
}

/// Whether `a` in `loopA`'s body and `b` in `loopB`'s are the same function
/// of their loops' positions (both isPositionFunction).
static bool samePositionFunction(Value a, scf::ForOp loopA, Value b,
                                 scf::ForOp loopB) {
  if (a == loopA.getInductionVar() || b == loopB.getInductionVar())
    return a == loopA.getInductionVar() && b == loopB.getInductionVar();
  Operation *defA = a.getDefiningOp(), *defB = b.getDefiningOp();
  bool insideA = defA && loopA->isAncestor(defA);
  bool insideB = defB && loopB->isAncestor(defB);
  if (!insideA || !insideB)
    return !insideA && !insideB && a == b;
  return defA->getName() == defB->getName() &&
         defA->getAttrDictionary() == defB->getAttrDictionary() &&
         defA->getResultTypes() == defB->getResultTypes() &&
         cast<OpResult>(a).getResultNumber() ==
             cast<OpResult>(b).getResultNumber() &&
         defA->getNumOperands() == defB->getNumOperands() &&
         llvm::all_of(llvm::zip(defA->getOperands(), defB->getOperands()),
                      [&](auto pair) {
                        return samePositionFunction(std::get<0>(pair), loopA,
                                                    std::get<1>(pair), loopB);
                      });
}

/// Per loop of `chain`, its loads for step 6; empty where the loops do not
/// load the same tiles as the same function of the position (a warning
/// then says so): the last block a loop loads ahead is the next loop's
/// first.
static SmallVector<SmallVector<LoadOp>>
chainAheadLoads(ArrayRef<scf::ForOp> chain, ArrayRef<LoopProducts> products) {
  // A tile loaded ahead must not be one that a store of this kernel may
  // change in between.
  llvm::SmallDenseSet<Value> written;
  if (auto program = chain.front()->getParentOfType<ProgramOp>())
    program.walk([&](StoreOp store) { written.insert(store.getDest()); });
  SmallVector<SmallVector<LoadOp>> loads;
  for (auto [loop, p] : llvm::zip(chain, products))
    loads.push_back(aheadLoads(loop, p, written));
  scf::ForOp first = chain.front();
  for (auto [loop, other] :
       llvm::zip(chain.drop_front(), ArrayRef(loads).drop_front()))
    if (other.size() != loads.front().size() ||
        !llvm::all_of(llvm::zip(other, loads.front()), [&](auto pair) {
          LoadOp a = std::get<0>(pair), b = std::get<1>(pair);
          return a.getType() == b.getType() &&
                 a->getNumOperands() == b->getNumOperands() &&
                 llvm::all_of(llvm::zip(a->getOperands(), b->getOperands()),
                              [&](auto ops) {
                                return samePositionFunction(
                                    std::get<0>(ops), loop, std::get<1>(ops),
                                    first);
                              });
        })) {
      scf::ForOp(chain.front()).emitWarning()
          << "loads_ahead: not applied: the K/V loops of the chain do not "
             "load the same tiles for their scores";
      return {};
    }
  return loads;
}

/// Whether every loop of `chain` computes Q K^T's accumulator as the same
/// function of its position, where one computes it in its body: the last
/// block of a loop computes the next loop's first scores with its own
/// slice (a warning says where not).
static bool sameAccumulators(ArrayRef<scf::ForOp> chain,
                             ArrayRef<LoopProducts> products) {
  if (llvm::all_of(products,
                   [](const LoopProducts &p) { return p.accSlice.empty(); }))
    return true;
  scf::ForOp first = chain.front();
  Value firstAcc = DotOp(products.front().scores).getAcc();
  for (auto [loop, p] : llvm::zip(chain, products)) {
    if (!p.accSlice.empty() &&
        samePositionFunction(DotOp(p.scores).getAcc(), loop, firstAcc, first))
      continue;
    scf::ForOp(loop).emitWarning()
        << "overlap_softmax: K/V loops not overlapped: the loops of the "
           "chain do not compute the scores' accumulator alike";
    return false;
  }
  return true;
}

static void rotateChain(RewriterBase &rewriter, ArrayRef<scf::ForOp> chain,
                        ArrayRef<LoopProducts> products, bool asyncPV,
                        bool earlyQK, bool loadsAhead) {
  scf::ForOp first = chain.front();
  LoopProducts p0 = products.front();
  Value lo = first.getLowerBound();
  Value hi = scf::ForOp(chain.back()).getUpperBound();
  scf::ForOp lastLoop; // the rotated chain's last loop
  SmallVector<SmallVector<LoadOp>> ahead;
  if (loadsAhead)
    ahead = chainAheadLoads(chain, products);
  // Step 2: block lo's scores (and step 6's tiles), before the chain.
  rewriter.setInsertionPoint(first);
  SmallVector<Value> carried;
  if (!ahead.empty())
    for (LoadOp load : ahead.front())
      carried.push_back(cloneLoad(rewriter, load, first, lo));
  SmallVector<Operation *> accOps;
  Value acc0 = cloneAccumulator(rewriter, p0, first, lo, accOps);
  Value scores =
      cloneScores(rewriter, p0, cloneLoad(rewriter, p0.key, first, lo), acc0,
                  /*async=*/false);
  Value zeroAcc =
      splat(rewriter, first.getLoc(), p0.softmax.getAcc().getType(), 0.0);

  for (auto [index, loopRef, pRef] : llvm::enumerate(chain, products)) {
    scf::ForOp loop = loopRef;
    LoopProducts p = pRef;
    Location loc = loop.getLoc();
    ArrayRef<LoadOp> loads;
    if (!ahead.empty())
      loads = ahead[index];
    // Step 3: the scores as a fourth iter_arg (last; step 6's tiles in
    // front of it, yielded as they are until step 6 replaces them).
    SmallVector<Value> inits(carried);
    inits.push_back(scores);
    auto newLoop = cast<scf::ForOp>(*loop.replaceWithAdditionalYields(
        rewriter, inits, /*replaceInitOperandUsesInLoop=*/false,
        [&](OpBuilder &, Location, ArrayRef<BlockArgument>) {
          SmallVector<Value> yielded;
          for (LoadOp load : loads)
            yielded.push_back(load.getResult());
          yielded.push_back(p.scores.getResult());
          return yielded;
        }));
    Value current = newLoop.getRegionIterArgs().back();
    auto yield = cast<scf::YieldOp>(newLoop.getBody()->getTerminator());

    // Block j + 1's K where block j's was: at the top level of the body,
    // where the copy pipeline expects a copy of the position. The last
    // block of the chain computes its own scores again (position clamped
    // to hi - 1, a block the query block sees, as every copied block is):
    // a guard would merge the in-flight product with a zero tile in a phi,
    // whose moves ptxas counts as writes to the product's accumulator,
    // and it then serializes every wgmma of the kernel (C7515). The op's
    // own guard (`attn.dot ... if`) avoids that but costs more than the
    // duplicate product, interleaved against this form at D = 128
    // (results/h200/2026-12-02-guard.md): 0.77-0.96x with each wgmma
    // predicated (ptxas makes each a group of its own), 0.87-1.00x with
    // one branch over them.
    rewriter.setInsertionPoint(p.key);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    Value following =
        arith::AddIOp::create(rewriter, loc, newLoop.getInductionVar(), one);
    Value last = arith::SubIOp::create(rewriter, loc, hi, one);
    Value next = arith::MinSIOp::create(rewriter, loc, following, last);
    Value nextKey = cloneLoad(rewriter, p.key, newLoop, next);
    accOps.clear();
    Value nextAcc = cloneAccumulator(rewriter, p, newLoop, next, accOps);
    Value nextScores =
        cloneScores(rewriter, p, nextKey, nextAcc, /*async=*/true);
    // Block j's scores come from the iter_arg.
    rewriter.replaceAllUsesWith(p.scores.getResult(), current);

    // The softmax leaves the accumulator alone (it gets a zero tile, its
    // rescaled copy is dead): the rescale waits for the scores of j + 1.
    OnlineSoftmaxOp softmax = p.softmax;
    Value acc = softmax.getAcc(), oldMax = softmax.getMax();
    rewriter.modifyOpInPlace(softmax,
                             [&] { softmax.getAccMutable().assign(zeroAcc); });
    rewriter.setInsertionPoint(p.values);
    if (asyncPV) {
      // Step 4: P V of block j - 1 is waited for right after block j's
      // softmax; block j + 1's product moves after the rescale. The wait
      // takes the probabilities too: P V of block j - 1 reads P's 16-bit
      // registers until it completes, and the next P is written to the
      // same registers (a value of the loop body has one register in
      // every iteration), so its conversion must follow the wait (as
      // FlashAttention-3 converts P after warpgroup_wait<0>).
      // With early_qk block j + 1's product stays where step 3 issued it,
      // before the softmax, and this wait completes it too (see step 5).
      rewriter.setInsertionPointAfter(softmax);
      Value probs = softmax.getProbs();
      SmallVector<Value> waited{acc, probs};
      if (earlyQK)
        waited.push_back(nextScores);
      auto accWait = DotWaitOp::create(rewriter, loc, waited, /*pending=*/0);
      rewriter.replaceAllUsesExcept(probs, accWait.getResult(1), accWait);
      acc = accWait.getResult(0);
      if (earlyQK)
        nextScores = accWait.getResult(2);
      Value rescaled =
          softmax.getMaxBound()
              ? acc
              : rescale(rewriter, loc, acc, oldMax, softmax.getNewMax());
      if (!earlyQK) {
        // The accumulator's tile is computed right before the product that
        // reads it, not held in registers across the softmax.
        for (Operation *op : accOps)
          op->moveBefore(p.values);
        nextScores.getDefiningOp()->moveBefore(p.values);
      }
      rewriter.modifyOpInPlace(p.values, [&] {
        p.values.getAccMutable().assign(rescaled);
        p.values.setAsync(true);
      });
      if (!earlyQK) {
        rewriter.setInsertionPointAfter(p.values);
        nextScores = DotWaitOp::create(rewriter, loc, ValueRange{nextScores},
                                       /*pending=*/1)
                         .getResult(0);
      }
    } else {
      nextScores = DotWaitOp::create(rewriter, loc, ValueRange{nextScores},
                                     /*pending=*/0)
                       .getResult(0);
      // With max_bound alpha is 0 only where acc is still 0 (see the op).
      Value rescaled =
          softmax.getMaxBound()
              ? acc
              : rescale(rewriter, loc, acc, oldMax, softmax.getNewMax());
      rewriter.modifyOpInPlace(
          p.values, [&] { p.values.getAccMutable().assign(rescaled); });
    }
    rewriter.modifyOpInPlace(yield, [&] {
      yield->setOperand(yield.getNumOperands() - 1, nextScores);
    });
    // Step 6: the next block's tiles right before the wait that completes
    // its scores; this block's from the iter_args.
    if (!loads.empty()) {
      unsigned firstArg = newLoop.getNumRegionIterArgs() - 1 - loads.size();
      rewriter.setInsertionPoint(nextScores.getDefiningOp());
      for (auto [i, loadRef] : llvm::enumerate(loads)) {
        LoadOp load = loadRef;
        Value nextTile = cloneLoad(rewriter, load, newLoop, next);
        rewriter.replaceAllUsesWith(load.getResult(),
                                    newLoop.getRegionIterArgs()[firstArg + i]);
        rewriter.modifyOpInPlace(
            yield, [&] { yield->setOperand(firstArg + i, nextTile); });
        rewriter.eraseOp(load);
      }
      carried.clear();
      for (unsigned i = 0; i < loads.size(); ++i)
        carried.push_back(newLoop.getResult(firstArg + i));
    }
    rewriter.eraseOp(p.scores);
    rewriter.eraseOp(p.key);
    // Block j's accumulator came with its scores from the iteration before.
    for (Operation *op : llvm::reverse(p.accSlice))
      if (op->use_empty())
        rewriter.eraseOp(op);
    scores = newLoop.getResults().back();
    lastLoop = newLoop;
  }
  if (!asyncPV)
    return;
  // The last P V, waited for after the chain; its users take the wait's
  // result.
  rewriter.setInsertionPointAfter(lastLoop);
  Value result = lastLoop.getResult(2);
  auto wait = DotWaitOp::create(rewriter, lastLoop.getLoc(), ValueRange{result},
                                /*pending=*/0);
  rewriter.replaceAllUsesExcept(result, wait.getResult(0), wait);
}

struct AttnOverlapSoftmaxPass
    : public attn::impl::AttnOverlapSoftmaxBase<AttnOverlapSoftmaxPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    for (SmallVector<scf::ForOp> &chain : collectKVChains(getOperation())) {
      auto program = chain.front()->getParentOfType<ProgramOp>();
      if (!program || !program.getGpuConfigOrDefault().getOverlapSoftmax())
        continue;
      SmallVector<LoopProducts> products;
      for (scf::ForOp loop : chain) {
        std::string why;
        FailureOr<LoopProducts> p = matchProducts(loop, why);
        if (failed(p)) {
          loop.emitWarning() << "overlap_softmax: K/V loop not overlapped: "
                             << why;
          break;
        }
        products.push_back(*p);
      }
      if (products.size() == chain.size() && !sameAccumulators(chain, products))
        continue;
      GpuConfigAttr gpu = program.getGpuConfigOrDefault();
      if (products.size() == chain.size())
        rotateChain(rewriter, chain, products, gpu.getAsyncPv(),
                    gpu.getEarlyQk(), gpu.getLoadsAhead());
    }
  }
};
} // namespace
