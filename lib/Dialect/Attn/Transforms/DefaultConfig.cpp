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
                                                MaskAttr mask) {
  // Measured on the H200 (docs/perf-log.md), among configurations that
  // ptxas assembles without spills for sm_80 and sm_90a (checked in CI by
  // test/GPU/ptxas-default-configs.test): 4 warps with two 16-row m-tiles
  // each (block_m = 128, every K/V fragment feeds two mma.sync) where the
  // accumulator and scores fit in 255 registers, otherwise one.
  int64_t d = std::max(headDim, valueHeadDim);
  auto get = [&](int64_t blockM, int64_t blockN, int64_t stages,
                 bool lazyRescale) {
    return TileConfigAttr::get(ctx, blockM, blockN, /*warps=*/4, stages,
                               lazyRescale);
  };
  if (ShapedType::isDynamic(headDim) || ShapedType::isDynamic(valueHeadDim))
    return get(64, 64, 2, false); // attn-tile refuses dynamic head dims anyway
  if (d <= 64)
    return get(128, 64, 2, false);
  if (d <= 128) {
    // 128 x 64 blocks with lazy rescaling, except for masks under which
    // that kernel spills on sm_90a (4-20 bytes: causal top-left, windows);
    // those take 32-key blocks, where the row max moves often (short causal
    // rows) and the rescale vote costs more than it saves.
    bool wide = mask.getKind() == MaskKind::None ||
                (mask.getKind() == MaskKind::Causal &&
                 mask.getAlignment() == MaskAlignment::BottomRight);
    return wide ? get(128, 64, 2, true) : get(128, 32, 2, false);
  }
  return get(64, 64, 1, false);
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
          op.getValueType().getDimSize(3), op.getMaskOrDefault()));
    });
  }
};
} // namespace
