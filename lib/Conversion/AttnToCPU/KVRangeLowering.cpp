//===- KVRangeLowering.cpp - attn.kv_range to index arithmetic ------------===//

#include "attn/Conversion/Passes.h"
#include "attn/Dialect/Attn/Transforms/MaskModRange.h"
#include "attn/Dialect/Attn/Transforms/MaskUtils.h"

#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::attn;

namespace {
struct LowerKVRange : public OpRewritePattern<KVRangeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(KVRangeOp op,
                                PatternRewriter &rewriter) const override {
    auto [lower, upper] = buildKVRange(
        rewriter, op.getLoc(), op.getKind(), op.getMask(), op.getBlockM(),
        op.getBlockN(), op.getRowStart(), op.getNumQueries(),
        op.getNumKeys());
    if (!op.getMaskMod().empty())
      std::tie(lower, upper) = applyMaskModToKVRange(
          rewriter, op, op.getBatchHead()[0], op.getBatchHead()[1],
          op.getRowStart(), op.getNumQueries(), op.getNumKeys(), op.getFrom(),
          op.getTo(), lower, upper);
    rewriter.replaceOp(op, {lower, upper});
    return success();
  }
};
} // namespace

void mlir::attn::populateKVRangeLoweringPatterns(RewritePatternSet &patterns) {
  patterns.add<LowerKVRange>(patterns.getContext());
}
