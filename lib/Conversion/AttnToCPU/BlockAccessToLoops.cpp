//===- BlockAccessToLoops.cpp - block loads and stores (CPU) --------------===//
//
// A tile of rank r spans the buffer's last r dims from the given indices.
// Loads read zero and stores write nothing where the tile overhangs the
// buffer; the leading (batch, head) indices are in bounds by construction.
//
//===----------------------------------------------------------------------===//

#include "attn/Conversion/Passes.h"

#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::attn;

/// Buffer indices of tile element `tileIdx`, and whether they are in bounds.
static std::pair<SmallVector<Value>, Value>
bufferIndices(ImplicitLocOpBuilder &b, Value buffer, ValueRange base,
              ValueRange tileIdx) {
  SmallVector<Value> indices(base.begin(), base.end());
  Value inBounds = arith::ConstantIntOp::create(b, 1, 1);
  size_t lead = base.size() - tileIdx.size();
  for (auto [i, t] : llvm::enumerate(tileIdx)) {
    size_t d = lead + i;
    indices[d] = arith::AddIOp::create(b, base[d], t);
    Value size = memref::DimOp::create(b, buffer, d);
    Value ok = arith::CmpIOp::create(b, arith::CmpIPredicate::slt, indices[d],
                                     size);
    inBounds = arith::AndIOp::create(b, inBounds, ok);
  }
  return {indices, inBounds};
}

namespace {
struct LoadToGenerate : public OpRewritePattern<LoadOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(LoadOp op,
                                PatternRewriter &rewriter) const override {
    RankedTensorType type = op.getType();
    auto generate = tensor::GenerateOp::create(
        rewriter, op.getLoc(), type, ValueRange(),
        [&](OpBuilder &nested, Location loc, ValueRange tileIdx) {
          ImplicitLocOpBuilder b(loc, nested);
          auto [indices, inBounds] =
              bufferIndices(b, op.getSource(), op.getIndices(), tileIdx);
          auto ifOp = scf::IfOp::create(
              b, inBounds,
              [&](OpBuilder &then, Location l) {
                Value v = memref::LoadOp::create(then, l, op.getSource(),
                                                 indices);
                scf::YieldOp::create(then, l, v);
              },
              [&](OpBuilder &otherwise, Location l) {
                Value zero = arith::ConstantOp::create(
                    otherwise, l, otherwise.getZeroAttr(type.getElementType()));
                scf::YieldOp::create(otherwise, l, zero);
              });
          tensor::YieldOp::create(b, ifOp.getResult(0));
        });
    rewriter.replaceOp(op, generate.getResult());
    return success();
  }
};

struct StoreToLoops : public OpRewritePattern<StoreOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(StoreOp op,
                                PatternRewriter &rewriter) const override {
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    RankedTensorType type = op.getValue().getType();
    Value c0 = arith::ConstantIndexOp::create(b, 0);
    Value c1 = arith::ConstantIndexOp::create(b, 1);
    SmallVector<Value> tileIdx;
    for (int64_t size : type.getShape()) {
      auto loop = scf::ForOp::create(
          b, c0, arith::ConstantIndexOp::create(b, size), c1);
      tileIdx.push_back(loop.getInductionVar());
      b.setInsertionPointToStart(loop.getBody());
    }
    auto [indices, inBounds] =
        bufferIndices(b, op.getDest(), op.getIndices(), tileIdx);
    auto ifOp = scf::IfOp::create(b, inBounds, /*withElseRegion=*/false);
    b.setInsertionPointToStart(ifOp.thenBlock());
    Value v = tensor::ExtractOp::create(b, op.getValue(), tileIdx);
    memref::StoreOp::create(b, v, op.getDest(), indices);
    rewriter.eraseOp(op);
    return success();
  }
};
} // namespace

void mlir::attn::populateBlockAccessToLoopsPatterns(
    RewritePatternSet &patterns) {
  patterns.add<LoadToGenerate, StoreToLoops>(patterns.getContext());
}
