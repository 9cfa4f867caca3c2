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
//     clamp it into the visible one: lo <= a <= b <= hi (a = lo for a range
//     narrowed by a mask_mod region under a mask without a left bound,
//     whose unmasked blocks start at block 0).
//  3. Clone the loop twice in front of it (once where a = lo): [lo, a)
//     keeps its masks, [a, b) loses them; the original becomes [b, hi).
//     The loop-carried softmax state flows from one to the next.
//
//===----------------------------------------------------------------------===//

#include "attn/Dialect/Attn/Transforms/MaskUtils.h"
#include "attn/Dialect/Attn/Transforms/Passes.h"

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

static void splitLoop(RewriterBase &rewriter, scf::ForOp loop,
                      KVRangeOp visible) {
  rewriter.setInsertionPoint(loop);
  ImplicitLocOpBuilder b(loop.getLoc(), rewriter);
  auto unmasked = KVRangeOp::create(
      b, KVRangeKind::Unmasked, visible.getRowStart(),
      visible.getNumQueries(), visible.getNumKeys(), visible.getMask(),
      visible.getBlockM(), visible.getBlockN());
  Value lo = visible.getLower(), hi = visible.getUpper();
  auto clamp = [&](Value x, Value low, Value high) -> Value {
    return arith::MinSIOp::create(b, arith::MaxSIOp::create(b, x, low), high);
  };
  // Without a left bound the unmasked blocks start at block 0, so no
  // masked block comes before them: a = lo. Folding sees that when lo is
  // the constant 0; a range narrowed by a mask_mod region starts at a
  // runtime block, and a head loop there would be dead code (16 more
  // wgmma in a document-mask kernel). Ranges without the region keep the
  // clamp: dropping it there moved six kernels at the 255-register limit
  // into 4-byte spills (ptxas-default-configs.test).
  bool maskedHead =
      !visible.getMask().isLeftUnbounded() || visible.getMaskMod().empty();
  Value a = maskedHead ? clamp(unmasked.getLower(), lo, hi) : lo;
  Value c = clamp(unmasked.getUpper(), a, hi);

  ValueRange middleInit = loop.getInitArgs();
  if (maskedHead) {
    auto head = cast<scf::ForOp>(rewriter.clone(*loop));
    rewriter.modifyOpInPlace(head, [&] { head.setUpperBound(a); });
    middleInit = head.getResults();
  }

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
