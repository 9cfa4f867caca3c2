//===- DefaultConfig.cpp - heuristic tile configurations ------------------===//

#include "attn/Dialect/Attn/Transforms/Passes.h"

#include <algorithm>

namespace mlir {
namespace attn {
#define GEN_PASS_DEF_ATTNDEFAULTCONFIG
#include "attn/Dialect/Attn/Transforms/Passes.h.inc"
} // namespace attn
} // namespace mlir

using namespace mlir;
using namespace mlir::attn;

TileConfigAttr mlir::attn::getDefaultTileConfig(MLIRContext *ctx,
                                                int64_t headDim,
                                                int64_t valueHeadDim,
                                                MaskKind mask) {
  // Chosen on the H200 (docs/perf-log.md): 4 warps, and as many query rows
  // per warp (two 16-row m-tiles, so that each K/V fragment feeds two
  // mma.sync) as fit in 255 registers without spilling. The accumulator
  // grows with Dv and the scores with block_n; masked kernels need a few
  // more registers for the per-element tests.
  int64_t d = std::max(headDim, valueHeadDim);
  auto get = [&](int64_t blockM, int64_t blockN) {
    return TileConfigAttr::get(ctx, blockM, blockN, /*warps=*/4,
                               /*stages=*/2);
  };
  if (ShapedType::isDynamic(headDim) || ShapedType::isDynamic(valueHeadDim))
    return get(64, 64); // attn-tile refuses dynamic head dims anyway
  if (d <= 64)
    return get(128, 64);
  if (d <= 128)
    return mask == MaskKind::None ? get(128, 32) : get(64, 64);
  return get(64, 32);
}

namespace {
struct AttnDefaultConfigPass
    : public attn::impl::AttnDefaultConfigBase<AttnDefaultConfigPass> {
  void runOnOperation() override {
    getOperation()->walk([](AttentionOp op) {
      if (op.getConfig())
        return;
      op.setConfigAttr(getDefaultTileConfig(
          op.getContext(), op.getQueryType().getDimSize(3),
          op.getValueType().getDimSize(3), op.getMaskOrDefault().getKind()));
    });
  }
};
} // namespace
