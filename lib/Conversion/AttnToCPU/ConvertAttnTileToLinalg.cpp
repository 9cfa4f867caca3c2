//===- ConvertAttnTileToLinalg.cpp - the CPU lowering of tile programs ----===//

#include "attn/Conversion/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace attn {
#define GEN_PASS_DEF_CONVERTATTNTILETOLINALG
#include "attn/Conversion/Passes.h.inc"
} // namespace attn
} // namespace mlir

using namespace mlir;
using namespace mlir::attn;

namespace {
struct ConvertAttnTileToLinalgPass
    : public attn::impl::ConvertAttnTileToLinalgBase<
          ConvertAttnTileToLinalgPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateKVRangeLoweringPatterns(patterns);
    populateProgramToLoopsPatterns(patterns);
    populateBlockAccessToLoopsPatterns(patterns);
    populateTileComputeToLinalgPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns)))) {
      signalPassFailure();
      return;
    }
    // Whatever is left has no lowering here; say which pass it needs.
    WalkResult result = getOperation()->walk([](Operation *op) {
      if (!isa<AttnDialect>(op->getDialect()))
        return WalkResult::advance();
      if (isa<AttentionOp>(op))
        op->emitOpError() << "must be tiled first (run attn-tile)";
      else if (isa<OnlineSoftmaxOp, FinalizeOp>(op))
        op->emitOpError() << "has no CPU lowering; run "
                             "attn-decompose-online-softmax first";
      else
        op->emitOpError() << "could not be lowered to linalg";
      return WalkResult::interrupt();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
