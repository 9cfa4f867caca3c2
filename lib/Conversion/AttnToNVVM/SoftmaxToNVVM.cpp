//===- SoftmaxToNVVM.cpp - the online softmax and its normalisation -------===//
//
// attn.online_softmax on #attn.mma scores, row by row of the thread: the
// row maximum (registers, then the quad), the new reference, p = 2^(s *
// scale - ref) (one FMA and ex2.approx per element when the scale is
// positive: the maximum of the raw scores, scaled once, is that of the
// scaled ones), the row sum, and alpha = 2^(m - ref) applied to the row's
// accumulator registers. With the kernel's `lazy_rescale` knob the
// accumulator is rescaled under a warp vote, only when some row of the warp
// has a new maximum (every alpha is exactly 1 otherwise), and so is the
// rescale that attn-overlap-softmax writes out as a product with a row
// broadcast (LazyRowScale). With `rescale_slack = t` the reference maximum
// moves only when a row's maximum passes it by more than t, so that in a
// long row almost every block's alphas are 1. With `fma_exp2 =
// k`, k of every 8 exponentials of a row are a polynomial on the FMA pipe
// (WarpMMA::fmaExp2), which relieves the MUFU pipe where a softcap's tanh
// doubles its work.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"
#include "WarpMMA.h"

#include "llvm/ADT/SetVector.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::attn;
using namespace mlir::attn::nvgpu;

namespace {

/// acc[i] *= factors[i] under a warp vote: skipped when every factor of
/// the warp is 1 (exact: x * 1 = x, and a NaN factor is not 1). A thread's
/// factors are those of its rows, a few distinct values.
static void scaleUnlessOne(ImplicitLocOpBuilder &b, MutableArrayRef<Value> acc,
                           ArrayRef<Value> factors) {
  Value one = f32(b, 1.0);
  Value any;
  for (Value factor : SetVector<Value>(factors.begin(), factors.end())) {
    Value moved =
        arith::CmpFOp::create(b, arith::CmpFPredicate::UNE, factor, one);
    any = any ? arith::OrIOp::create(b, any, moved) : moved;
  }
  Value warpAny = NVVM::VoteSyncOp::create(b, b.getI1Type(), i32(b, -1), any,
                                           NVVM::VoteSyncKind::any);
  SmallVector<Type> types(acc.size(), b.getF32Type());
  auto ifOp = scf::IfOp::create(b, types, warpAny, /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    SmallVector<Value> out;
    for (auto [reg, factor] : llvm::zip_equal(acc, factors))
      out.push_back(arith::MulFOp::create(b, reg, factor));
    scf::YieldOp::create(b, out);
    b.setInsertionPointToStart(ifOp.elseBlock());
    scf::YieldOp::create(b, SmallVector<Value>(acc.begin(), acc.end()));
  }
  for (size_t i = 0; i < acc.size(); ++i)
    acc[i] = ifOp.getResult(i);
}

/// acc *= alphas (one per row of the thread) under a warp vote. Registers
/// 0, 1 of an accumulator tile are row g of the m-tile, 2, 3 row g + 8.
static void lazyRescale(ImplicitLocOpBuilder &b, MutableArrayRef<Value> acc,
                        const MmaTile &tile, ArrayRef<Value> alphas) {
  SmallVector<Value> factors;
  int64_t perMTile = tile.nTiles * 4;
  for (size_t i = 0; i < acc.size(); ++i)
    factors.push_back(alphas[2 * (i / perMTile) + (i % 4) / 2]);
  scaleUnlessOne(b, acc, factors);
}

struct OnlineSoftmaxLowering : public OpConversionPattern<OnlineSoftmaxOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OnlineSoftmaxOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto sType = op.getScores().getType();
    auto layout = dyn_cast_or_null<MmaLayoutAttr>(sType.getEncoding());
    if (!layout)
      return rewriter.notifyMatchFailure(op, "scores not in #attn.mma");
    MmaTile sTile(layout, sType.getShape());
    MmaTile accTile(layout, op.getAcc().getType().getShape());
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    ThreadIds ids = getThreadIds(b, op);
    WarpMMA warp(b, b.getF32Type(), getSharedBase(b), 32 * layout.getWarps(),
                 {ids.tid, ids.warp, ids.lane, ids.group, ids.quadLane});
    double scaleLog2e = op.getScaleLog2e().convertToDouble();
    Value scale = f32(b, scaleLog2e);
    Value negInf = f32(b, -std::numeric_limits<double>::infinity());
    Value zero = f32(b, 0.0);
    bool positive = scaleLog2e > 0;
    bool lazy = getGpuConfig(op).getLazyRescale();
    int64_t fmaExp2 = getGpuConfig(op).getFmaExp2();
    double slack = getGpuConfig(op).getRescaleSlack();
    std::optional<APFloat> maxBound = op.getMaxBound();
    bool bound = maxBound.has_value();
    Value boundValue = f32(b, bound ? maxBound->convertToDouble() : 0.0);
    Value negBound = f32(b, bound ? -maxBound->convertToDouble() : 0.0);
    SmallVector<Value> s(adaptor.getScores().begin(), adaptor.getScores().end());
    SmallVector<Value> m(adaptor.getMax().begin(), adaptor.getMax().end());
    SmallVector<Value> l(adaptor.getSum().begin(), adaptor.getSum().end());
    SmallVector<Value> acc(adaptor.getAcc().begin(), adaptor.getAcc().end());
    SmallVector<Value, 4> alphas;
    for (int64_t mt = 0; mt < sTile.mTiles; ++mt)
      for (int half = 0; half < 2; ++half) {
        int64_t r = 2 * mt + half;
        // With max_bound the reference is the bound in every block and
        // alpha is 0 in the first (where l and acc are 0) and 1 after it:
        // no row maximum, no shuffles for it, no rescaling (see the op).
        // Otherwise the row maximum, from scores scaled first where the
        // scale is not positive.
        bool prescaled = !bound && !positive;
        Value newMax = boundValue, negRef = negBound;
        if (!bound) {
          Value rowMax = negInf;
          for (int64_t nt = 0; nt < sTile.nTiles; ++nt)
            for (int e = 0; e < 2; ++e) {
              Value &reg = s[sTile.index(mt, nt, 2 * half + e)];
              if (prescaled)
                reg = arith::MulFOp::create(b, reg, scale);
              rowMax = arith::MaximumFOp::create(b, rowMax, reg);
            }
          rowMax = warp.quadReduce(rowMax, /*isMax=*/true);
          if (!prescaled)
            rowMax = arith::MulFOp::create(b, rowMax, scale);
          newMax = arith::MaximumFOp::create(b, m[r], rowMax);
          if (slack > 0) {
            // The reference moves only past m + slack (a NaN maximum moves
            // it, as before); otherwise it stays, and alpha is exactly 1.
            Value moved = arith::CmpFOp::create(
                b, arith::CmpFPredicate::UGT, rowMax,
                arith::AddFOp::create(b, m[r], f32(b, slack)));
            newMax = arith::SelectOp::create(b, moved, newMax, m[r]);
          }
          Value empty = arith::CmpFOp::create(b, arith::CmpFPredicate::OEQ,
                                              newMax, negInf);
          Value ref = arith::SelectOp::create(b, empty, zero, newMax);
          negRef = arith::NegFOp::create(b, ref);
        }
        Value sum = zero;
        for (int64_t nt = 0; nt < sTile.nTiles; ++nt)
          for (int e = 0; e < 2; ++e) {
            Value &reg = s[sTile.index(mt, nt, 2 * half + e)];
            Value t = prescaled
                          ? Value(arith::AddFOp::create(b, reg, negRef))
                          : Value(LLVM::FMAOp::create(b, reg, scale, negRef));
            // fma_exp2 of every 8 exponentials of the row on the FMA pipe.
            reg = (2 * nt + e) % 8 < fmaExp2 ? warp.fmaExp2(t) : warp.exp2(t);
            sum = arith::AddFOp::create(b, sum, reg);
          }
        sum = warp.quadReduce(sum, /*isMax=*/false);
        if (bound) {
          l[r] = arith::AddFOp::create(b, l[r], sum);
          m[r] = newMax;
          continue;
        }
        Value alpha = warp.exp2(arith::AddFOp::create(b, m[r], negRef));
        l[r] = arith::AddFOp::create(b, arith::MulFOp::create(b, l[r], alpha),
                                     sum);
        m[r] = newMax;
        alphas.push_back(alpha);
        if (!lazy) {
          // Row by row, right behind its softmax (the order ptxas schedules
          // best at D = 256: one block of multiplies after all rows cost
          // ~5%, results/h200/2026-11-30-s2-tune6.json).
          for (int64_t nt = 0; nt < accTile.nTiles; ++nt)
            for (int e = 0; e < 2; ++e) {
              Value &reg = acc[accTile.index(mt, nt, 2 * half + e)];
              reg = arith::MulFOp::create(b, reg, alpha);
            }
        }
      }
    // attn-overlap-softmax rescales after the next product and leaves this
    // result unused: no vote for a dead accumulator.
    if (lazy && !bound && !op.getNewAcc().use_empty())
      lazyRescale(b, acc, accTile, alphas);
    rewriter.replaceOpWithMultiple(op, {s, m, l, acc});
    return success();
  }
};

/// acc * broadcast_rows(alpha) on #attn.mma tiles with `lazy_rescale`:
/// the online softmax's rescale as attn-overlap-softmax writes it out after
/// the next block's product, skipped per warp where every factor is 1 (with
/// `rescale_slack`, most blocks of a long row). Without the knob the
/// generic elementwise pattern multiplies every register.
struct LazyRowScale : public OpConversionPattern<arith::MulFOp> {
  LazyRowScale(TypeConverter &converter, MLIRContext *ctx)
      : OpConversionPattern(converter, ctx, /*benefit=*/2) {}
  LogicalResult
  matchAndRewrite(arith::MulFOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = dyn_cast<RankedTensorType>(op.getType());
    if (!type || !isa_and_nonnull<MmaLayoutAttr>(type.getEncoding()) ||
        !type.getElementType().isF32())
      return rewriter.notifyMatchFailure(op, "not an f32 #attn.mma tile");
    if (!getGpuConfig(op).getLazyRescale())
      return rewriter.notifyMatchFailure(op, "lazy_rescale is off");
    ValueRange acc = adaptor.getLhs(), factors = adaptor.getRhs();
    if (!op.getRhs().getDefiningOp<BroadcastRowsOp>()) {
      if (!op.getLhs().getDefiningOp<BroadcastRowsOp>())
        return rewriter.notifyMatchFailure(op, "no row broadcast operand");
      std::swap(acc, factors);
    }
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    SmallVector<Value> out(acc.begin(), acc.end());
    scaleUnlessOne(b, out, SmallVector<Value>(factors));
    rewriter.replaceOpWithMultiple(op, {out});
    return success();
  }
};

/// out = acc / l (0 where l = 0), lse = (m + log2 l) ln 2 (-inf where l = 0,
/// +inf where m = +inf); a NaN l propagates to both (attn.finalize).
struct FinalizeLowering : public OpConversionPattern<FinalizeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(FinalizeOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = op.getAcc().getType();
    auto layout = dyn_cast_or_null<MmaLayoutAttr>(type.getEncoding());
    if (!layout)
      return rewriter.notifyMatchFailure(op, "accumulator not in #attn.mma");
    MmaTile tile(layout, type.getShape());
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    ThreadIds ids = getThreadIds(b, op);
    WarpMMA warp(b, b.getF32Type(), getSharedBase(b), 32 * layout.getWarps(),
                 {ids.tid, ids.warp, ids.lane, ids.group, ids.quadLane});
    Value zero = f32(b, 0.0), one = f32(b, 1.0);
    Value negInf = f32(b, -std::numeric_limits<double>::infinity());
    ValueRange acc = adaptor.getAcc(), m = adaptor.getMax(),
               l = adaptor.getSum();
    SmallVector<Value> out(tile.size()), lse;
    for (int64_t mt = 0; mt < tile.mTiles; ++mt)
      for (int half = 0; half < 2; ++half) {
        int64_t r = 2 * mt + half;
        Value positive =
            arith::CmpFOp::create(b, arith::CmpFPredicate::UGT, l[r], zero);
        Value inv = arith::SelectOp::create(
            b, positive, arith::DivFOp::create(b, one, l[r]), zero);
        for (int64_t nt = 0; nt < tile.nTiles; ++nt)
          for (int e = 0; e < 2; ++e) {
            int64_t i = tile.index(mt, nt, 2 * half + e);
            out[i] = arith::MulFOp::create(b, acc[i], inv);
          }
        Value value = arith::MulFOp::create(
            b,
            arith::AddFOp::create(
                b, m[r],
                warp.log2(arith::SelectOp::create(b, positive, l[r], one))),
            f32(b, M_LN2));
        Value posInf = f32(b, std::numeric_limits<double>::infinity());
        Value infinite =
            arith::CmpFOp::create(b, arith::CmpFPredicate::OEQ, m[r], posInf);
        lse.push_back(arith::SelectOp::create(
            b, infinite, posInf,
            arith::SelectOp::create(b, positive, value, negInf)));
      }
    rewriter.replaceOpWithMultiple(op, {out, lse});
    return success();
  }
};
} // namespace

void nvgpu::populateSoftmaxToNVVMPatterns(TileTypeConverter &converter,
                                          RewritePatternSet &patterns) {
  patterns.add<OnlineSoftmaxLowering, FinalizeLowering, LazyRowScale>(
      converter, patterns.getContext());
}
