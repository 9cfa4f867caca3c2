//===- StageStores.cpp - the output through shared memory and TMA ---------===//
//
// The consumers of a warp-specialized kernel write their output tile from
// registers, 16 bytes per lane after a quad exchange. At short rows that
// epilogue is a visible part of a tile's time: the same kernels with every
// global store predicated off ran 1.6-8.8% faster at N = 512-1024
// (docs/perf-log.md, nineteenth session, run 1). Here the output tile goes
// into a shared buffer in TMA's 128-byte swizzle instead and each consumer
// warpgroup copies its rows out with one TMA store, which the hardware
// completes while the warpgroup goes on (the next tile of a persistent
// kernel waits only before it writes the buffer again).
//
//===----------------------------------------------------------------------===//

#include "attn/Dialect/Attn/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/MathExtras.h"

namespace mlir {
namespace attn {
#define GEN_PASS_DEF_ATTNSTAGESTORES
#include "attn/Dialect/Attn/Transforms/Passes.h.inc"
} // namespace attn
} // namespace mlir

using namespace mlir;
using namespace mlir::attn;

/// Whether `store` writes a tile that TMA stores can take: 16-bit elements
/// in a warpgroup accumulator layout, 64-row slices (one per consumer
/// warpgroup), whole rows of a multiple of 64 columns (the 128-byte
/// swizzle's boxes) from column 0 of a buffer of rank 2 to 5.
static bool isStageable(StoreOp store) {
  RankedTensorType type = store.getValue().getType();
  auto mma = dyn_cast_or_null<MmaLayoutAttr>(type.getEncoding());
  MemRefType dest = store.getDest().getType();
  int64_t rank = dest.getRank();
  APInt c0;
  return mma && mma.isWarpgroup() && type.getRank() == 2 &&
         type.getElementType().getIntOrFloatBitWidth() == 16 &&
         type.getDimSize(0) % 64 == 0 && type.getDimSize(1) % 64 == 0 &&
         rank >= 2 && rank <= 5 && !dest.isDynamicDim(rank - 1) &&
         dest.getDimSize(rank - 1) == type.getDimSize(1) &&
         matchPattern(store.getIndices().back(), m_ConstantInt(&c0)) &&
         c0.isZero();
}

namespace {
struct AttnStageStoresPass
    : public attn::impl::AttnStageStoresBase<AttnStageStoresPass> {
  using Base::Base;
  void runOnOperation() override {
    getOperation()->walk([&](ProgramOp program) {
      if (!staging || !program.getGpuConfigOrDefault().getStageStores())
        return;
      // Only a warp-specialized program has consumer warpgroups
      // (attn-warp-specialize says why where it kept another schedule).
      Block &body = program.getBody().front();
      auto ws = body.empty() ? WarpSpecializeOp()
                             : dyn_cast<WarpSpecializeOp>(body.back());
      if (!ws)
        return;
      // The shared memory in use, placed as attn-allocate-shared will.
      int64_t used = 0;
      program.getBody().walk([&](Operation *op) {
        if (auto alloc = dyn_cast<LocalAllocOp>(op))
          used = llvm::alignTo(used, alloc.getType().getAlignment()) +
                 alloc.getType().getSizeInBytes();
        if (auto bars = dyn_cast<MBarrierAllocOp>(op))
          used = llvm::alignTo(used, 8) + 8 * bars.getType().getCount();
      });
      SmallVector<StoreOp> stores;
      ws.getConsumers().walk([&](StoreOp store) {
        if (isStageable(store))
          stores.push_back(store);
      });
      MLIRContext *ctx = program.getContext();
      bool staged = false;
      for (StoreOp store : stores) {
        RankedTensorType type = store.getValue().getType();
        auto bufType = SharedBufferType::get(
            ctx, type.getShape(), type.getElementType(),
            SwizzledSharedLayoutAttr::get(ctx, /*blocked=*/true));
        int64_t total = llvm::alignTo(used, bufType.getAlignment()) +
                        bufType.getSizeInBytes();
        // Where the buffer does not fit beside the others, the register
        // stores stay (what stage_stores promises: "where it fits").
        if (total > maxSharedBytes)
          continue;
        used = total;
        OpBuilder b(ws);
        Value buf = LocalAllocOp::create(b, store.getLoc(), bufType,
                                         /*offset=*/IntegerAttr());
        b.setInsertionPoint(store);
        // The warpgroup's previous store of this buffer (the tile before,
        // in a persistent kernel) must have read it.
        TmaStoreWaitOp::create(b, store.getLoc());
        LocalStoreOp::create(b, store.getLoc(), store.getValue(), buf);
        TmaStoreOp::create(b, store.getLoc(), buf, store.getDest(),
                           store.getIndices(), /*tensor_map=*/Value());
        store.erase();
        staged = true;
      }
      // The CTA's shared memory must outlive the last store's read.
      if (staged) {
        OpBuilder b = OpBuilder::atBlockEnd(&ws.getConsumers().front());
        TmaStoreWaitOp::create(b, ws.getLoc());
      }
    });
  }
};
} // namespace
