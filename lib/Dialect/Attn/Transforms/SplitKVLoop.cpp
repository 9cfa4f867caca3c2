//===- SplitKVLoop.cpp - peel masked K/V blocks from unmasked ones --------===//
//
// Algorithm:
//  1. Collect the scf.for loops that are safe to split: their bounds are
//     exactly the two results of one `attn.kv_range visible`, their step is
//     the constant 1, their body holds at least one attn.mask, and every
//     attn.mask in it applies the kv_range's mask attribute to the kv_range's
//     query block (same row_start, num_queries and num_keys). Other loops are
//     left alone.
//  2. Before each, compute the `unmasked` range for the same query block and
//     clamp it into the visible one: lo <= a <= b <= hi. Where the range
//     carries a mask_mod region, so does the unmasked one: its blocks are
//     those the region shows in full too (a run of them within [lo, hi)),
//     and the masks in the loop carry the same region.
//  3. Clone the loop twice in front of it: [lo, a) keeps its masks, [a, b)
//     loses them; the original becomes [b, hi).
//     The loop-carried softmax state flows from one to the next.
//  4. Where the region may hide blocks between visible ones (attention
//     sinks and a window; see maskModMayHideInterior), first find the run
//     [g0, g1) of such blocks (an `attn.kv_range hidden` within [lo, hi))
//     and look for full blocks after it. The loops then count positions
//     t in [lo, hi - (g1 - g0)), not blocks: the body works on block
//     t + (t >= g0 ? g1 - g0 : 0), as attn-reverse-kv-loops maps positions
//     to blocks too. The loops stay one contiguous chain of positions
//     (what attn-pipeline and attn-warp-specialize, persistent or not,
//     schedule copies over), and the hidden blocks are never visited: they
//     add nothing to the softmax state.
//
//===----------------------------------------------------------------------===//

#include "attn/Dialect/Attn/Transforms/MaskModRange.h"
#include "attn/Dialect/Attn/Transforms/MaskUtils.h"
#include "attn/Dialect/Attn/Transforms/Passes.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace attn {
#define GEN_PASS_DEF_ATTNSPLITKVLOOP
#include "attn/Dialect/Attn/Transforms/Passes.h.inc"
} // namespace attn
} // namespace mlir

using namespace mlir;
using namespace mlir::attn;

/// Whether `mask` is the mask that `range` describes for block `j`: the
/// unmasked range comes from the kv_range's mask attribute, query block and
/// block sizes, so an attn.mask that the split removes must apply that mask
/// to the same rows of a problem of the same size, to a block_m x block_n
/// score tile whose keys start at j * block_n.
static bool masksLikeRange(MaskOp mask, KVRangeOp range, Value j) {
  ArrayRef<int64_t> shape = mask.getType().getShape();
  // A mask_mod region on the mask must be the range's, for the same batch
  // and head: the unmasked range then proves it shows every key too.
  if (!mask.getMaskMod().empty() &&
      (range.getMaskMod().empty() ||
       mask.getBatchHead() != range.getBatchHead() ||
       !OperationEquivalence::isRegionEquivalentTo(
           &mask.getMaskMod(), &range.getMaskMod(),
           OperationEquivalence::IgnoreLocations)))
    return false;
  return mask.getMask() == range.getMask() &&
         mask.getRowStart() == range.getRowStart() &&
         mask.getNumQueries() == range.getNumQueries() &&
         mask.getNumKeys() == range.getNumKeys() &&
         shape[0] == range.getBlockM() && shape[1] == range.getBlockN() &&
         isBlockStart(mask.getColStart(), j, range.getBlockN());
}

/// The visible-range op that bounds `loop`, if `loop` is a masked K/V loop
/// that is safe to split (step 1 of the overview above).
static KVRangeOp getSplittableRange(scf::ForOp loop) {
  auto range = loop.getLowerBound().getDefiningOp<KVRangeOp>();
  if (!range || range.getKind() != KVRangeKind::Visible ||
      loop.getLowerBound() != range.getLower() ||
      loop.getUpperBound() != range.getUpper())
    return {};
  // With another step, restarting at a and b would visit other blocks.
  if (!matchPattern(loop.getStep(), m_One()))
    return {};
  bool masked = false;
  WalkResult walk = loop.getBody()->walk([&](MaskOp mask) {
    if (!masksLikeRange(mask, range, loop.getInductionVar()))
      return WalkResult::interrupt();
    masked = true;
    return WalkResult::advance();
  });
  return masked && !walk.wasInterrupted() ? range : KVRangeOp();
}

/// A range of `kind` like `visible`, with its mask_mod region, searched
/// within [from, to).
static KVRangeOp createRangeWithRegion(ImplicitLocOpBuilder &b,
                                       KVRangeKind kind, KVRangeOp visible,
                                       Value from, Value to) {
  auto range = KVRangeOp::create(b, kind, visible.getRowStart(),
                                 visible.getNumQueries(), visible.getNumKeys(),
                                 from, to, visible.getBatchHead()[0],
                                 visible.getBatchHead()[1], visible.getMask(),
                                 visible.getBlockM(), visible.getBlockN());
  IRMapping mapping;
  visible.getMaskMod().cloneInto(&range.getMaskMod(), mapping);
  return range;
}

/// Makes `loop` count positions: its body works on block
/// t + (t >= gapStart ? gap : 0) for position t (step 4 of the overview).
static void skipBlocks(RewriterBase &rewriter, scf::ForOp loop, Value gapStart,
                       Value gap, Value zero) {
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToStart(loop.getBody());
  ImplicitLocOpBuilder b(loop.getLoc(), rewriter);
  Value t = loop.getInductionVar();
  Value after =
      arith::CmpIOp::create(b, arith::CmpIPredicate::sge, t, gapStart);
  Value offset = arith::SelectOp::create(b, after, gap, zero);
  Value block = arith::AddIOp::create(b, t, offset);
  rewriter.replaceAllUsesExcept(
      t, block,
      SmallPtrSet<Operation *, 2>{after.getDefiningOp(),
                                  block.getDefiningOp()});
}

static void splitLoop(RewriterBase &rewriter, scf::ForOp loop,
                      KVRangeOp visible) {
  rewriter.setInsertionPoint(loop);
  ImplicitLocOpBuilder b(loop.getLoc(), rewriter);
  Value lo = visible.getLower(), hi = visible.getUpper();
  // With a mask_mod region the unmasked blocks are those the region shows
  // in full as well, searched for within the visible blocks, after the
  // hidden ones where the region may hide some between visible ones.
  bool region = !visible.getMaskMod().empty();
  Value from = lo, gap;
  if (region && maskModMayHideInterior(visible.getMaskMod())) {
    KVRangeOp hidden =
        createRangeWithRegion(b, KVRangeKind::Hidden, visible, lo, hi);
    from = hidden.getUpper();
    gap = arith::SubIOp::create(b, from, hidden.getLower());
    skipBlocks(rewriter, loop, hidden.getLower(), gap,
               arith::ConstantIndexOp::create(b, 0));
  }
  KVRangeOp unmasked;
  if (region) {
    unmasked =
        createRangeWithRegion(b, KVRangeKind::Unmasked, visible, from, hi);
  } else {
    unmasked = KVRangeOp::create(b, KVRangeKind::Unmasked,
                                 visible.getRowStart(), visible.getNumQueries(),
                                 visible.getNumKeys(), visible.getMask(),
                                 visible.getBlockM(), visible.getBlockN());
  }
  auto clamp = [&](Value x, Value low, Value high) -> Value {
    return arith::MinSIOp::create(b, arith::MaxSIOp::create(b, x, low), high);
  };
  // Without a left bound the unmasked blocks start at block 0, so the
  // head loop [lo, a) is empty; folding removes it where lo is the constant
  // 0. It stays where lo is a runtime block all the same: dropping it there
  // moved six kernels at the 255-register limit into 4-byte spills
  // (ptxas-default-configs.test), and under a mask_mod region the first
  // full block may come after the first visible one (a document that
  // starts inside a block).
  Value a = clamp(unmasked.getLower(), from, hi);
  Value c = clamp(unmasked.getUpper(), a, hi);
  // From blocks to positions: a and c come after the hidden run.
  Value end = hi;
  if (gap) {
    a = arith::SubIOp::create(b, a, gap);
    c = arith::SubIOp::create(b, c, gap);
    end = arith::SubIOp::create(b, hi, gap);
  }

  auto head = cast<scf::ForOp>(rewriter.clone(*loop));
  rewriter.modifyOpInPlace(head, [&] { head.setUpperBound(a); });
  ValueRange middleInit = head.getResults();

  auto middle = cast<scf::ForOp>(rewriter.clone(*loop));
  SmallVector<Value> init(middleInit);
  rewriter.modifyOpInPlace(middle, [&] {
    middle.setLowerBound(a);
    middle.setUpperBound(c);
    middle.getInitArgsMutable().assign(init);
  });
  SmallVector<MaskOp> masks;
  middle.getBody()->walk([&](MaskOp m) { masks.push_back(m); });
  for (MaskOp m : masks)
    rewriter.replaceOp(m, m.getScores());

  rewriter.modifyOpInPlace(loop, [&] {
    loop.setLowerBound(c);
    loop.setUpperBound(end);
    loop.getInitArgsMutable().assign(middle.getResults());
  });
}

namespace {
struct AttnSplitKVLoopPass
    : public attn::impl::AttnSplitKVLoopBase<AttnSplitKVLoopPass> {
  void runOnOperation() override {
    SmallVector<std::pair<scf::ForOp, KVRangeOp>> loops;
    getOperation()->walk([&](scf::ForOp loop) {
      // A program whose tile configuration says split_kv = false keeps
      // every block masked.
      if (auto program = loop->getParentOfType<ProgramOp>())
        if (program.getConfig() && !program.getConfig()->getSplitKv())
          return;
      if (KVRangeOp range = getSplittableRange(loop))
        loops.push_back({loop, range});
    });
    IRRewriter rewriter(&getContext());
    for (auto [loop, range] : loops)
      splitLoop(rewriter, loop, range);
  }
};
} // namespace
