//===- DecomposeOnlineSoftmax.cpp - softmax ops into smaller tile ops -----===//

#include "attn/Dialect/Attn/Transforms/Passes.h"

#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <cmath>
#include <limits>

namespace mlir {
namespace attn {
#define GEN_PASS_DEF_ATTNDECOMPOSEONLINESOFTMAX
#include "attn/Dialect/Attn/Transforms/Passes.h.inc"
} // namespace attn
} // namespace mlir

using namespace mlir;
using namespace mlir::attn;

static Value splat(ImplicitLocOpBuilder &b, Type type, double v) {
  auto shaped = cast<RankedTensorType>(type);
  return arith::ConstantOp::create(
      b, DenseElementsAttr::get(
             shaped, FloatAttr::get(shaped.getElementType(), v).getValue()));
}

static constexpr double kNegInf = -std::numeric_limits<double>::infinity();

namespace {
/// See the op's description for the formulas; -inf rows take 0 as their
/// reference maximum so that exp2(-inf - -inf) never forms a NaN.
struct DecomposeOnlineSoftmax : public OpRewritePattern<OnlineSoftmaxOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(OnlineSoftmaxOp op,
                                PatternRewriter &rewriter) const override {
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    Type tileT = op.getScores().getType(), rowT = op.getMax().getType(),
         accT = op.getAcc().getType();
    Value t = arith::MulFOp::create(
        b, op.getScores(),
        splat(b, tileT, op.getScaleLog2e().convertToDouble()));
    // With a bound the row maximum is taken to be the bound, with a
    // block_max the program's own (scaled as t is; see the op).
    std::optional<APFloat> bound = op.getMaxBound();
    Value rowMax;
    if (bound)
      rowMax = splat(b, rowT, bound->convertToDouble());
    else if (Value blockMax = op.getBlockMax())
      rowMax = arith::MulFOp::create(
          b, blockMax, splat(b, rowT, op.getScaleLog2e().convertToDouble()));
    else
      rowMax = ReduceRowsOp::create(b, rowT, ReductionKind::Max, t);
    Value newMax = arith::MaximumFOp::create(b, op.getMax(), rowMax);
    Value isEmpty = arith::CmpFOp::create(b, arith::CmpFPredicate::OEQ, newMax,
                                          splat(b, rowT, kNegInf));
    Value ref = arith::SelectOp::create(b, isEmpty, splat(b, rowT, 0.0), newMax);
    Value p = math::Exp2Op::create(
        b, arith::SubFOp::create(b, t,
                                 BroadcastRowsOp::create(b, tileT, ref)));
    Value alpha =
        math::Exp2Op::create(b, arith::SubFOp::create(b, op.getMax(), ref));
    Value newSum = arith::AddFOp::create(
        b, arith::MulFOp::create(b, op.getSum(), alpha),
        ReduceRowsOp::create(b, rowT, ReductionKind::Sum, p));
    Value newAcc = arith::MulFOp::create(
        b, op.getAcc(), BroadcastRowsOp::create(b, accT, alpha));
    rewriter.replaceOp(op, {p, newMax, newSum, newAcc});
    return success();
  }
};

/// out = acc / l and lse = (m + log2 l) ln 2 where l > 0 or l is NaN; a row
/// with l = 0 saw no key, its accumulator is 0, and it gets out = 0 and
/// lse = -inf. A row whose maximum is +inf gets lse = +inf (its l is NaN).
struct DecomposeFinalize : public OpRewritePattern<FinalizeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(FinalizeOp op,
                                PatternRewriter &rewriter) const override {
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    Type rowT = op.getMax().getType(), accT = op.getAcc().getType();
    // UGT: NaN counts as positive, so that it propagates to out and lse.
    Value positive = arith::CmpFOp::create(b, arith::CmpFPredicate::UGT,
                                           op.getSum(), splat(b, rowT, 0.0));
    Value safeSum =
        arith::SelectOp::create(b, positive, op.getSum(), splat(b, rowT, 1.0));
    Value out = arith::DivFOp::create(
        b, op.getAcc(), BroadcastRowsOp::create(b, accT, safeSum));
    Value lse2 =
        arith::AddFOp::create(b, op.getMax(), math::Log2Op::create(b, safeSum));
    Value lse = arith::MulFOp::create(b, lse2, splat(b, rowT, M_LN2));
    lse = arith::SelectOp::create(b, positive, lse, splat(b, rowT, kNegInf));
    Value infinite = arith::CmpFOp::create(
        b, arith::CmpFPredicate::OEQ, op.getMax(),
        splat(b, rowT, std::numeric_limits<double>::infinity()));
    lse = arith::SelectOp::create(
        b, infinite, splat(b, rowT, std::numeric_limits<double>::infinity()),
        lse);
    rewriter.replaceOp(op, {out, lse});
    return success();
  }
};

struct AttnDecomposeOnlineSoftmaxPass
    : public attn::impl::AttnDecomposeOnlineSoftmaxBase<
          AttnDecomposeOnlineSoftmaxPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateDecomposeOnlineSoftmaxPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace

void mlir::attn::populateDecomposeOnlineSoftmaxPatterns(
    RewritePatternSet &patterns) {
  patterns.add<DecomposeOnlineSoftmax, DecomposeFinalize>(
      patterns.getContext());
}
