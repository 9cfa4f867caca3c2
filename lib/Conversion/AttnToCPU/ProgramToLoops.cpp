//===- ProgramToLoops.cpp - attn.program to a loop nest (CPU) -------------===//

#include "attn/Conversion/Passes.h"

#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::attn;

namespace {
/// The instances run one after another: bh outer, m inner.
struct ProgramToLoops : public OpRewritePattern<ProgramOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ProgramOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value c0 = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value c1 = arith::ConstantIndexOp::create(rewriter, loc, 1);
    auto outer = scf::ForOp::create(rewriter, loc, c0, op.getGridBh(), c1);
    rewriter.setInsertionPointToStart(outer.getBody());
    auto inner = scf::ForOp::create(rewriter, loc, c0, op.getGridM(), c1);
    rewriter.inlineBlockBefore(
        &op.getBody().front(), inner.getBody()->getTerminator(),
        {inner.getInductionVar(), outer.getInductionVar()});
    rewriter.eraseOp(op);
    return success();
  }
};
} // namespace

void mlir::attn::populateProgramToLoopsPatterns(RewritePatternSet &patterns) {
  patterns.add<ProgramToLoops>(patterns.getContext());
}
