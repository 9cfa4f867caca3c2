//===- MaskToNVVM.cpp - masks, index tiles and K/V ranges -----------------===//

#include "LoweringUtils.h"

#include "attn/Dialect/Attn/Transforms/MaskModRange.h"
#include "attn/Dialect/Attn/Transforms/MaskUtils.h"

#include <limits>

using namespace mlir;
using namespace mlir::attn;
using namespace mlir::attn::nvgpu;

namespace {

/// attn.mask on an #attn.mma tile. Element (row r, key k) of this thread:
/// k = col + c with col = col0 + 2t and c = 8 nt + e a constant; r = r0 +
/// delta with r0 the thread's first row and delta = 16 mt + 8 half a
/// constant. With diag(r) = diag(r0) + delta the key on r's diagonal and
/// y = diag(r0) - col, it is visible iff
///   c < Nk - col                      (in bounds)
///   c < right + 1 + delta + y         (right of the diagonal)
///   c >= delta - left + y             (left of it, windows only).
/// Only Nk - 2t and diag(r0) - 2t stay live across the loop (LLVM hoists
/// whatever is loop-invariant; per-row bounds would cost a register each).
/// All of it is i32: every operand is in [0, 2^31) or a difference of two
/// such, and y is clamped into the range where a bound can change the
/// outcome before the (compile-time) extents are added; extents over 2^30
/// take the same formulas in i64.
struct MaskLowering : public OpConversionPattern<MaskOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MaskOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto layout = dyn_cast_or_null<MmaLayoutAttr>(op.getType().getEncoding());
    if (!layout)
      return rewriter.notifyMatchFailure(op, "not an #attn.mma tile");
    if (!op.getMaskMod().empty())
      return rewriter.notifyMatchFailure(
          op, "carries a mask_mod region (attn-expand-mask-mods spells it "
              "out first)");
    MmaTile tile(layout, op.getType().getShape());
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    ThreadIds ids = getThreadIds(b, op);
    MaskAttr mask = op.getMask();
    Value row0 = adaptor.getRowStart().front(),
          col0 = adaptor.getColStart().front(),
          nq = adaptor.getNumQueries().front(),
          nk = adaptor.getNumKeys().front();
    Value negInf = f32(b, -std::numeric_limits<double>::infinity());
    int64_t bn = op.getType().getDimSize(1);
    Value col = arith::AddIOp::create(
        b, toI32(b, col0), arith::MulIOp::create(b, ids.quadLane, i32(b, 2)));
    auto clampI32 = [&](Value v, int64_t lo, int64_t hi) -> Value {
      return arith::MinSIOp::create(
          b, arith::MaxSIOp::create(b, v, i32(b, lo)), i32(b, hi));
    };
    Value inBounds = clampI32(arith::SubIOp::create(b, toI32(b, nk), col), -1, bn);
    bool bounded = mask.getKind() != MaskKind::None;
    Value y;
    if (bounded) {
      // In (-Nq, Nk) for a row below Nq, so i32 holds it.
      Value diag = buildDiagonal(
          b, b.getLoc(), mask,
          arith::AddIOp::create(b, toI32(b, row0), rowOf(b, ids, tile.mTiles, 0)),
          toI32(b, nq), toI32(b, nk));
      y = arith::SubIOp::create(b, diag, col);
    }
    // Bound base + y clamped to [-1, bn] (base a compile-time constant).
    auto bound = [&](int64_t base) -> Value {
      constexpr int64_t kSmall = int64_t(1) << 30;
      if (base >= -kSmall && base <= kSmall)
        return arith::AddIOp::create(b, clampI32(y, -1 - base, bn - base),
                                     i32(b, base));
      Type i64T = b.getI64Type();
      Value wide = arith::AddIOp::create(
          b, arith::ExtSIOp::create(b, i64T, y), i64(b, base));
      wide = arith::MinSIOp::create(
          b, arith::MaxSIOp::create(b, wide, i64(b, -1)), i64(b, bn));
      return arith::TruncIOp::create(b, b.getI32Type(), wide);
    };
    SmallVector<Value> regs(adaptor.getScores().begin(),
                            adaptor.getScores().end());
    for (int64_t mt = 0; mt < tile.mTiles; ++mt) {
      for (int half = 0; half < 2; ++half) {
        int64_t delta = 16 * mt + 8 * half;
        Value hi = inBounds;
        Value lo;
        if (bounded && !mask.isRightUnbounded())
          hi = arith::MinSIOp::create(
              b, hi, bound(mask.getRightExtent() + 1 + delta));
        if (bounded && !mask.isLeftUnbounded())
          lo = bound(delta - mask.getLeft());
        for (int64_t nt = 0; nt < tile.nTiles; ++nt) {
          for (int e = 0; e < 2; ++e) {
            Value c = i32(b, 8 * nt + e);
            Value visible =
                arith::CmpIOp::create(b, arith::CmpIPredicate::slt, c, hi);
            if (lo)
              visible = arith::AndIOp::create(
                  b, visible,
                  arith::CmpIOp::create(b, arith::CmpIPredicate::sge, c, lo));
            Value &reg = regs[tile.index(mt, nt, 2 * half + e)];
            reg = arith::SelectOp::create(b, visible, reg, negInf);
          }
        }
      }
    }
    rewriter.replaceOpWithMultiple(op, {regs});
    return success();
  }
};

/// attn.iota: each register's row or column index, start + its coordinate,
/// built as (start + the thread's first coordinate) + a compile-time
/// delta, so that index math on two iotas folds per register into one add
/// of an immediate to a per-thread value (ElementwiseOnTiles' foldOffsets;
/// LLVM does not reassociate it) instead of keeping each coordinate in a
/// register of its own.
struct IotaLowering : public OpConversionPattern<IotaOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(IotaOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = op.getType();
    MmaLayoutAttr parent = getMmaParent(type);
    if (!parent || isa<DotOperandLayoutAttr>(type.getEncoding()))
      return rewriter.notifyMatchFailure(op, "not #attn.mma or #attn.rows");
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    ThreadIds ids = getThreadIds(b, op);
    Type elt = type.getElementType();
    Value start = adaptor.getStart().front();
    auto asElt = [&](Value base, int64_t delta) -> Value {
      Value v = arith::AddIOp::create(b, base,
                                      arith::ConstantIndexOp::create(b, delta));
      return elt.isIndex() ? v : Value(arith::IndexCastOp::create(b, elt, v));
    };
    SmallVector<Value> values;
    MmaTile rowsOnly(parent, {type.getDimSize(0), 8});
    bool rows = type.getRank() == 1 || op.getDim() == 0;
    Value base = rows
                     ? rowOf(b, ids, rowsOnly.mTiles, 0)
                     : Value(arith::MulIOp::create(b, ids.quadLane, i32(b, 2)));
    base = arith::AddIOp::create(b, start, toIndex(b, base));
    if (type.getRank() == 1) {
      for (int64_t mt = 0; mt < rowsOnly.mTiles; ++mt)
        for (int64_t half = 0; half < 2; ++half)
          values.push_back(asElt(base, 16 * mt + 8 * half));
    } else {
      MmaTile tile(parent, type.getShape());
      values.resize(tile.size());
      for (int64_t mt = 0; mt < tile.mTiles; ++mt)
        for (int64_t nt = 0; nt < tile.nTiles; ++nt)
          for (int64_t e = 0; e < 4; ++e)
            values[tile.index(mt, nt, e)] =
                asElt(base, rows ? MmaTile::rowDelta(mt, e)
                                 : MmaTile::colDelta(nt, e));
    }
    rewriter.replaceOpWithMultiple(op, {values});
    return success();
  }
};

struct KVRangeLowering : public OpConversionPattern<KVRangeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(KVRangeOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto [lo, hi] = buildKVRange(
        rewriter, op.getLoc(), op.getKind(), op.getMask(), op.getBlockM(),
        op.getBlockN(), adaptor.getRowStart().front(),
        adaptor.getNumQueries().front(), adaptor.getNumKeys().front());
    // A mask_mod region narrows the range further: a scalar scan over
    // the blocks, run once per program before its K/V loops.
    if (!op.getMaskMod().empty())
      std::tie(lo, hi) = applyMaskModToKVRange(
          rewriter, op, adaptor.getBatchHead()[0].front(),
          adaptor.getBatchHead()[1].front(), adaptor.getRowStart().front(),
          adaptor.getNumQueries().front(), adaptor.getNumKeys().front(),
          op.getFrom() ? adaptor.getFrom().front() : Value(),
          op.getTo() ? adaptor.getTo().front() : Value(), lo, hi);
    rewriter.replaceOp(op, {lo, hi});
    return success();
  }
};
} // namespace

void nvgpu::populateMaskToNVVMPatterns(TileTypeConverter &converter,
                                       RewritePatternSet &patterns) {
  patterns.add<MaskLowering, IotaLowering, KVRangeLowering>(
      converter, patterns.getContext());
}
