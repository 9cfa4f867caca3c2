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
                                                MaskAttr mask, StringRef chip) {
  // Measured on the H200 (docs/perf-log.md), among configurations that
  // ptxas assembles without spills for the chip (checked in CI by
  // test/GPU/ptxas-default-configs.test): 4 warps with two 16-row m-tiles
  // each (block_m = 128, every K/V fragment feeds two mma.sync) where the
  // accumulator and scores fit in 255 registers, otherwise one.
  int64_t d = std::max(headDim, valueHeadDim);
  auto get = [&](int64_t blockM, int64_t blockN, int64_t stages,
                 bool lazyRescale = false, bool reverseKV = false,
                 bool loopLocalIds = false) {
    return TileConfigAttr::get(ctx, blockM, blockN, /*warps=*/4, stages,
                               lazyRescale, reverseKV, loopLocalIds);
  };
  if (ShapedType::isDynamic(headDim) || ShapedType::isDynamic(valueHeadDim))
    return get(64, 64, 2); // attn-tile refuses dynamic head dims anyway
  if (d <= 64)
    return get(128, 64, 2);
  if (d > 128)
    return get(64, 64, 1);
  // D <= 128: 128 x 64 blocks with lazy rescaling. These kernels use all
  // 255 registers; whether ptxas spills a few values kept across the K/V
  // loops depends on the mask and the chip, and the K/V order and per-loop
  // thread ids are what tip it (found with ptxas, both dtypes; other
  // combinations spill 4-68 bytes, docs/perf-log.md).
  bool sm80 = chip == "sm_80";
  switch (mask.getKind()) {
  case MaskKind::None:
    return get(128, 64, 2, /*lazy=*/true);
  case MaskKind::Causal:
    if (mask.getAlignment() == MaskAlignment::BottomRight)
      return sm80 ? get(128, 64, 2, true, /*reverseKV=*/true)
                  : get(128, 64, 2, true, false, /*loopLocalIds=*/true);
    return get(128, 64, 2, true, /*reverseKV=*/true, /*loopLocalIds=*/!sm80);
  case MaskKind::Window:
    return get(128, 64, 2, true, /*reverseKV=*/true, /*loopLocalIds=*/true);
  }
  llvm_unreachable("unknown mask kind");
}

namespace {
struct AttnDefaultConfigPass
    : public attn::impl::AttnDefaultConfigBase<AttnDefaultConfigPass> {
  using Base::Base;
  void runOnOperation() override {
    if (!chip.empty() && chip != "sm_80" && chip != "sm_90" &&
        chip != "sm_90a") {
      getOperation()->emitError()
          << "attn-default-config: no defaults for chip '" << chip
          << "' (known: sm_80, sm_90, sm_90a; empty for the CPU)";
      return signalPassFailure();
    }
    getOperation()->walk([&](AttentionOp op) {
      if (op.getConfig())
        return;
      op.setConfigAttr(getDefaultTileConfig(
          op.getContext(), op.getQueryType().getDimSize(3),
          op.getValueType().getDimSize(3), op.getMaskOrDefault(), chip));
    });
  }
};
} // namespace
