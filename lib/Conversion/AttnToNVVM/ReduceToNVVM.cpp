//===- ReduceToNVVM.cpp - row reductions and broadcasts -------------------===//
//
// In #attn.mma a thread holds two rows of each of its m-tiles (rows g and
// g + 8, registers e = 0, 1 and e = 2, 3 of every n-tile) and shares them
// with the other three lanes of its quad, which hold the other columns. A
// row's maximum or sum is the thread's own combination of its registers,
// then two butterfly shuffles across the quad (WarpMMA::quadReduce); every
// lane of the quad ends up with the row's value, which is the #attn.rows
// layout.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"
#include "WarpMMA.h"

#include <limits>

using namespace mlir;
using namespace mlir::attn;
using namespace mlir::attn::nvgpu;

namespace {

struct ReduceRowsLowering : public OpConversionPattern<ReduceRowsOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ReduceRowsOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = op.getInput().getType();
    auto layout = dyn_cast_or_null<MmaLayoutAttr>(type.getEncoding());
    if (!layout)
      return rewriter.notifyMatchFailure(op, "input not in #attn.mma");
    MmaTile tile(layout, type.getShape());
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    ThreadIds ids = getThreadIds(b, op);
    WarpMMA warp(b, b.getF32Type(), getSharedBase(b), 32 * layout.getWarps(),
                 {ids.tid, ids.warp, ids.lane, ids.group, ids.quadLane});
    bool isMax = op.getKind() == ReductionKind::Max;
    ValueRange in = adaptor.getInput();
    SmallVector<Value> rows;
    for (int64_t mt = 0; mt < tile.mTiles; ++mt)
      for (int64_t half = 0; half < 2; ++half) {
        Value acc = f32(b, isMax ? -std::numeric_limits<double>::infinity()
                                 : 0.0);
        for (int64_t nt = 0; nt < tile.nTiles; ++nt)
          for (int64_t e = 0; e < 2; ++e) {
            Value v = in[tile.index(mt, nt, 2 * half + e)];
            acc = isMax ? Value(arith::MaximumFOp::create(b, acc, v))
                        : Value(arith::AddFOp::create(b, acc, v));
          }
        rows.push_back(warp.quadReduce(acc, isMax));
      }
    rewriter.replaceOpWithMultiple(op, {rows});
    return success();
  }
};

struct BroadcastRowsLowering : public OpConversionPattern<BroadcastRowsOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(BroadcastRowsOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = op.getType();
    auto layout = dyn_cast_or_null<MmaLayoutAttr>(type.getEncoding());
    if (!layout)
      return rewriter.notifyMatchFailure(op, "result not in #attn.mma");
    MmaTile tile(layout, type.getShape());
    ValueRange rows = adaptor.getInput();
    SmallVector<Value> out(tile.size());
    for (int64_t mt = 0; mt < tile.mTiles; ++mt)
      for (int64_t nt = 0; nt < tile.nTiles; ++nt)
        for (int64_t e = 0; e < 4; ++e)
          out[tile.index(mt, nt, e)] = rows[2 * mt + e / 2];
    rewriter.replaceOpWithMultiple(op, {out});
    return success();
  }
};
} // namespace

void nvgpu::populateReduceToNVVMPatterns(TileTypeConverter &converter,
                                         RewritePatternSet &patterns) {
  patterns.add<ReduceRowsLowering, BroadcastRowsLowering>(
      converter, patterns.getContext());
}
