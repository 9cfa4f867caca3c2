//===- DefaultConfig.cpp - heuristic tile configurations ------------------===//

#include "attn/Dialect/Attn/Transforms/Passes.h"

namespace mlir {
namespace attn {
#define GEN_PASS_DEF_ATTNDEFAULTCONFIG
#include "attn/Dialect/Attn/Transforms/Passes.h.inc"
} // namespace attn
} // namespace mlir

using namespace mlir;
using namespace mlir::attn;

TileConfigAttr mlir::attn::getDefaultTileConfig(MLIRContext *ctx,
                                                int64_t headDim) {
  // FlashAttention-2's sm_80 choice: 64x64 blocks with 4 warps; halve the
  // key block for large head dims so that K and V blocks stay within shared
  // memory at two stages. Unknown (dynamic) head dims take the small-D choice;
  // tiling rejects them later with its own diagnostic.
  int64_t blockN = headDim > 128 ? 32 : 64;
  return TileConfigAttr::get(ctx, /*block_m=*/64, blockN, /*warps=*/4,
                             /*stages=*/2);
}

namespace {
struct AttnDefaultConfigPass
    : public attn::impl::AttnDefaultConfigBase<AttnDefaultConfigPass> {
  void runOnOperation() override {
    getOperation()->walk([](AttentionOp op) {
      if (op.getConfig())
        return;
      op.setConfigAttr(getDefaultTileConfig(op.getContext(),
                                            op.getQueryType().getDimSize(3)));
    });
  }
};
} // namespace
