//===- TileComputeToLinalg.cpp - tile math as linalg.generic (CPU) --------===//

#include "attn/Conversion/Passes.h"
#include "attn/Dialect/Attn/Transforms/MaskUtils.h"

#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/PatternMatch.h"

#include <limits>

using namespace mlir;
using namespace mlir::attn;

using utils::IteratorType;

static Value floatConstant(OpBuilder &b, Location loc, double v) {
  return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(v));
}

/// An empty tensor of `type`, filled with `value`.
static Value filled(ImplicitLocOpBuilder &b, RankedTensorType type,
                    double value) {
  Value empty =
      tensor::EmptyOp::create(b, type.getShape(), type.getElementType());
  return linalg::FillOp::create(b, ValueRange{floatConstant(b, b.getLoc(), value)},
                                ValueRange{empty})
      .getResult(0);
}

namespace {
/// acc[m, n] += ext(a[m, k]) * ext(b[k, n])   (b[n, k] when transposed),
/// or acc when the op's guard is false.
struct DotToGeneric : public OpRewritePattern<DotOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(DotOp op,
                                PatternRewriter &rewriter) const override {
    MLIRContext *ctx = op.getContext();
    AffineExpr m, n, k;
    bindDims(ctx, m, n, k);
    auto map = [&](ArrayRef<AffineExpr> exprs) {
      return AffineMap::get(3, 0, exprs, ctx);
    };
    SmallVector<AffineMap> maps = {
        map({m, k}), op.getTransposeB() ? map({n, k}) : map({k, n}),
        map({m, n})};
    Type f32 = rewriter.getF32Type();
    auto generic = linalg::GenericOp::create(
        rewriter, op.getLoc(), op.getType(), ValueRange{op.getA(), op.getB()},
        ValueRange{op.getAcc()}, maps,
        {IteratorType::parallel, IteratorType::parallel,
         IteratorType::reduction},
        [&](OpBuilder &b, Location loc, ValueRange args) {
          Value x = args[0], y = args[1];
          if (x.getType() != f32) {
            x = arith::ExtFOp::create(b, loc, f32, x);
            y = arith::ExtFOp::create(b, loc, f32, y);
          }
          Value prod = arith::MulFOp::create(b, loc, x, y);
          linalg::YieldOp::create(b, loc,
                                  ValueRange{arith::AddFOp::create(
                                      b, loc, args[2], prod)});
        });
    Value result = generic.getResult(0);
    // A guarded product: acc itself when the guard is false.
    if (Value pred = op.getPred())
      result = arith::SelectOp::create(rewriter, op.getLoc(), pred, result,
                                       op.getAcc());
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// scores[r, c] -> -inf where key col_start + c is out of bounds or hidden
/// from query row_start + r by the mask.
struct MaskToGeneric : public OpRewritePattern<MaskOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(MaskOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.getMaskMod().empty())
      return rewriter.notifyMatchFailure(
          op, "carries a mask_mod region (attn-expand-mask-mods spells it "
              "out first)");
    MaskAttr mask = op.getMask();
    Location loc = op.getLoc();
    AffineMap id = rewriter.getMultiDimIdentityMap(2);
    auto type = op.getType();
    Value init = tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                         type.getElementType());
    auto generic = linalg::GenericOp::create(
        rewriter, loc, type, ValueRange{op.getScores()}, ValueRange{init},
        SmallVector<AffineMap>{id, id},
        {IteratorType::parallel, IteratorType::parallel},
        [&](OpBuilder &nb, Location l, ValueRange args) {
          ImplicitLocOpBuilder b(l, nb);
          Value row = arith::AddIOp::create(b, op.getRowStart(),
                                            linalg::IndexOp::create(b, 0));
          Value col = arith::AddIOp::create(b, op.getColStart(),
                                            linalg::IndexOp::create(b, 1));
          Value visible = buildIsVisible(b, l, mask, row, col,
                                         op.getNumQueries(), op.getNumKeys());
          Value negInf = floatConstant(
              b, l, -std::numeric_limits<double>::infinity());
          linalg::YieldOp::create(
              b, ValueRange{arith::SelectOp::create(b, visible, args[0],
                                                    negInf)});
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

/// t[r, c] = start + (dim == 0 ? r : c), in the tile's element type.
struct IotaToGeneric : public OpRewritePattern<IotaOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(IotaOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getType();
    Value init = tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                         type.getElementType());
    AffineMap id = rewriter.getMultiDimIdentityMap(type.getRank());
    SmallVector<IteratorType> iterators(type.getRank(), IteratorType::parallel);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, type, ValueRange{}, ValueRange{init},
        SmallVector<AffineMap>{id}, iterators,
        [&](OpBuilder &nb, Location l, ValueRange) {
          Value i = linalg::IndexOp::create(nb, l, op.getDim());
          Value v = arith::AddIOp::create(nb, l, op.getStart(), i);
          if (!type.getElementType().isIndex())
            v = arith::IndexCastOp::create(nb, l, type.getElementType(), v);
          linalg::YieldOp::create(nb, l, ValueRange{v});
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

struct ReduceRowsToGeneric : public OpRewritePattern<ReduceRowsOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ReduceRowsOp op,
                                PatternRewriter &rewriter) const override {
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    bool isMax = op.getKind() == ReductionKind::Max;
    Value init = filled(b, op.getType(),
                        isMax ? -std::numeric_limits<double>::infinity() : 0.0);
    MLIRContext *ctx = op.getContext();
    AffineExpr r, c;
    bindDims(ctx, r, c);
    SmallVector<AffineMap> maps = {AffineMap::get(2, 0, {r, c}, ctx),
                                   AffineMap::get(2, 0, {r}, ctx)};
    auto generic = linalg::GenericOp::create(
        b, op.getType(), ValueRange{op.getInput()}, ValueRange{init}, maps,
        {IteratorType::parallel, IteratorType::reduction},
        [&](OpBuilder &nb, Location l, ValueRange args) {
          Value v = isMax ? Value(arith::MaximumFOp::create(nb, l, args[0],
                                                            args[1]))
                          : Value(arith::AddFOp::create(nb, l, args[0],
                                                        args[1]));
          linalg::YieldOp::create(nb, l, ValueRange{v});
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

struct BroadcastRowsToGeneric : public OpRewritePattern<BroadcastRowsOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(BroadcastRowsOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = op.getType();
    MLIRContext *ctx = op.getContext();
    AffineExpr r, c;
    bindDims(ctx, r, c);
    Value init = tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                         type.getElementType());
    SmallVector<AffineMap> maps = {AffineMap::get(2, 0, {r}, ctx),
                                   AffineMap::get(2, 0, {r, c}, ctx)};
    auto generic = linalg::GenericOp::create(
        rewriter, loc, type, ValueRange{op.getInput()}, ValueRange{init}, maps,
        {IteratorType::parallel, IteratorType::parallel},
        [&](OpBuilder &b, Location l, ValueRange args) {
          linalg::YieldOp::create(b, l, ValueRange{args[0]});
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};
} // namespace

void mlir::attn::populateTileComputeToLinalgPatterns(
    RewritePatternSet &patterns) {
  patterns.add<DotToGeneric, MaskToGeneric, IotaToGeneric, ReduceRowsToGeneric,
               BroadcastRowsToGeneric>(patterns.getContext());
}
