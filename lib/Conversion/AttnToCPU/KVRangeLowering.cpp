//===- KVRangeLowering.cpp - attn.kv_range to index arithmetic ------------===//
//
// Query row i sees key j iff lo(i) <= j <= hi(i) and 0 <= j < Nk, with
// lo(i) = i + shift - left, hi(i) = i + shift + right and shift = Nk - Nq
// for bottom-right alignment, 0 for top-left. Over the rows [r0, r1) of a
// block (r1 = min(r0 + block_m, Nq)), the union of visible keys is
// [lo(r0), hi(r1 - 1)] and the keys visible to every row are
// [lo(r1 - 1), hi(r0)], both clipped to [0, Nk). Visible blocks are those
// that touch the union; unmasked blocks those inside the intersection.
//
//===----------------------------------------------------------------------===//

#include "attn/Conversion/Passes.h"

#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::attn;

namespace {
struct LowerKVRange : public OpRewritePattern<KVRangeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(KVRangeOp op,
                                PatternRewriter &rewriter) const override {
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    MaskAttr mask = op.getMask();
    auto cst = [&](int64_t v) -> Value {
      return arith::ConstantIndexOp::create(b, v);
    };
    Value nq = op.getNumQueries(), nk = op.getNumKeys(), c0 = cst(0),
          c1 = cst(1), blockN = cst(op.getBlockN());
    Value r0 = op.getRowStart();
    Value rLast = arith::SubIOp::create(
        b,
        arith::MinSIOp::create(
            b, arith::AddIOp::create(b, r0, cst(op.getBlockM())), nq),
        c1);
    Value shift = mask.getAlignment() == MaskAlignment::BottomRight
                      ? Value(arith::SubIOp::create(b, nk, nq))
                      : c0;
    // First visible key of row `r`, clipped at 0.
    auto lowKey = [&](Value r) -> Value {
      if (mask.isLeftUnbounded())
        return c0;
      Value lo = arith::SubIOp::create(
          b, arith::AddIOp::create(b, r, shift), cst(mask.getLeft()));
      return arith::MaxSIOp::create(b, lo, c0);
    };
    // One past the last visible key of row `r`, clipped at Nk.
    auto highKey = [&](Value r) -> Value {
      if (mask.isRightUnbounded())
        return nk;
      Value hi = arith::AddIOp::create(
          b, arith::AddIOp::create(b, r, shift),
          cst(mask.getRightExtent() + 1));
      return arith::MinSIOp::create(b, hi, nk);
    };

    Value lower, upper;
    if (op.getKind() == KVRangeKind::Visible) {
      Value first = lowKey(r0), end = highKey(rLast);
      lower = arith::FloorDivSIOp::create(b, first, blockN);
      Value empty =
          arith::CmpIOp::create(b, arith::CmpIPredicate::sle, end, first);
      upper = arith::SelectOp::create(
          b, empty, lower, arith::CeilDivSIOp::create(b, end, blockN));
    } else {
      Value first = lowKey(rLast), end = highKey(r0);
      lower = arith::CeilDivSIOp::create(b, first, blockN);
      upper = arith::FloorDivSIOp::create(b, end, blockN);
    }
    rewriter.replaceOp(op, {lower, upper});
    return success();
  }
};
} // namespace

void mlir::attn::populateKVRangeLoweringPatterns(RewritePatternSet &patterns) {
  patterns.add<LowerKVRange>(patterns.getContext());
}
