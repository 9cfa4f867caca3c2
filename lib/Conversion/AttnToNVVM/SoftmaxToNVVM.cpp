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
// doubles its work. With `guarded_rescale` and the op's score_bound (a
// softcap with f16 P) there is no per-score maximum at all: the reference
// moves only when a row sum of p grows past 2^15 (guardedRows; measured
// slower than the slack, so no default sets it). With a `block_max`
// operand (attn-hoist-row-max) the program has reduced the rows itself,
// before the score modification: its registers replace the row maximum.
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

/// The guarded reference of `#attn.gpu_config<guarded_rescale>` for scores
/// within [-bound, bound] (the op's score_bound): p = 2^(s scale - r) from
/// the row's reference r (-bound before the first block: every p is then at
/// least 1) and the row sums (across the quad). Where a row's sum passes
/// 2^15 (so every p of the row, at most its sum, stays in f16's range),
/// a branch (the same for the quad) moves the row's r up by the binary
/// exponent e of its sum, scaling the row's p and sum by exactly 2^-e (the
/// sum then in [1, 2)). A NaN sum takes no branch and stays NaN. Returns
/// the references the block ends with; `sums` are the row sums.
static SmallVector<Value> guardedRows(ImplicitLocOpBuilder &b, WarpMMA &warp,
                                      const MmaTile &tile,
                                      MutableArrayRef<Value> s,
                                      ArrayRef<Value> m,
                                      SmallVectorImpl<Value> &sums, Value scale,
                                      double bound, int64_t fmaExp2) {
  int64_t rows = 2 * tile.mTiles;
  auto rowRegs = [&](int64_t r) {
    SmallVector<int64_t> idx;
    for (int64_t nt = 0; nt < tile.nTiles; ++nt)
      for (int e = 0; e < 2; ++e)
        idx.push_back(tile.index(r / 2, nt, 2 * (r % 2) + e));
    return idx;
  };
  Value zero = f32(b, 0.0), lowest = f32(b, -bound);
  Value limit = f32(b, 32768.0);
  SmallVector<Value> refs;
  for (int64_t r = 0; r < rows; ++r) {
    // -inf (no block yet) starts at -bound; a NaN reference stays NaN.
    Value ref = arith::MaximumFOp::create(b, m[r], lowest);
    Value negRef = arith::NegFOp::create(b, ref);
    Value sum = zero;
    for (auto [k, i] : llvm::enumerate(rowRegs(r))) {
      Value t = LLVM::FMAOp::create(b, s[i], scale, negRef);
      s[i] = int64_t(k % 8) < fmaExp2 ? warp.fmaExp2(t) : warp.exp2(t);
      sum = arith::AddFOp::create(b, sum, s[i]);
    }
    refs.push_back(ref);
    sums.push_back(sum);
  }
  Type i32Type = b.getI32Type();
  for (int64_t r = 0; r < rows; ++r) {
    sums[r] = warp.quadReduce(sums[r], /*isMax=*/false);
    Value big =
        arith::CmpFOp::create(b, arith::CmpFPredicate::OGT, sums[r], limit);
    // One branch per row, the same for its quad, almost never taken after
    // the row's first block.
    SmallVector<int64_t> idx = rowRegs(r);
    SmallVector<Value> carried;
    for (int64_t i : idx)
      carried.push_back(s[i]);
    carried.push_back(sums[r]);
    carried.push_back(refs[r]);
    SmallVector<Type> types(carried.size(), b.getF32Type());
    auto ifOp = scf::IfOp::create(b, types, big, /*withElseRegion=*/true);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(ifOp.thenBlock());
      // sum in [2^e, 2^(e+1)): e from the exponent field (the sum is
      // finite and past 2^15 here, so e >= 15: the reference moves up).
      Value bits = arith::BitcastOp::create(b, i32Type, sums[r]);
      Value exponent = arith::SubIOp::create(
          b, arith::ShRUIOp::create(b, bits, i32(b, 23)), i32(b, 127));
      Value factor = arith::BitcastOp::create(
          b, b.getF32Type(),
          arith::ShLIOp::create(
              b, arith::SubIOp::create(b, i32(b, 127), exponent), i32(b, 23)));
      Value moved = arith::AddFOp::create(
          b, refs[r], arith::SIToFPOp::create(b, b.getF32Type(), exponent));
      SmallVector<Value> out;
      for (Value p : ArrayRef<Value>(carried).drop_back())
        out.push_back(arith::MulFOp::create(b, p, factor));
      out.push_back(moved);
      scf::YieldOp::create(b, out);
      b.setInsertionPointToStart(ifOp.elseBlock());
      scf::YieldOp::create(b, carried);
    }
    for (auto [k, i] : llvm::enumerate(idx))
      s[i] = ifOp.getResult(k);
    sums[r] = ifOp.getResult(idx.size());
    refs[r] = ifOp.getResult(idx.size() + 1);
  }
  return refs;
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
    // The program's own row maximum (attn-hoist-row-max), one register per
    // row as #attn.rows holds it, already reduced across the quad.
    SmallVector<Value> blockMax(adaptor.getBlockMax().begin(),
                                adaptor.getBlockMax().end());
    SmallVector<Value, 4> alphas;
    // The op's score_bound, where guarded_rescale uses it (checkLowerable
    // refuses the knob without one); a max_bound's fixed reference wins.
    std::optional<APFloat> scoreBound = op.getScoreBound();
    if (getGpuConfig(op).getGuardedRescale() && scoreBound && !bound) {
      SmallVector<Value> sums;
      SmallVector<Value> refs =
          guardedRows(b, warp, sTile, s, m, sums, scale,
                      scoreBound->convertToDouble(), fmaExp2);
      for (int64_t mt = 0; mt < sTile.mTiles; ++mt)
        for (int half = 0; half < 2; ++half) {
          int64_t r = 2 * mt + half;
          Value sum = sums[r];
          // 0 before the first block (m = -inf), 2^-e after a move, and
          // exactly 1 otherwise.
          Value alpha = warp.exp2(arith::SubFOp::create(b, m[r], refs[r]));
          l[r] = arith::AddFOp::create(b, arith::MulFOp::create(b, l[r], alpha),
                                       sum);
          m[r] = refs[r];
          alphas.push_back(alpha);
          if (!lazy)
            for (int64_t nt = 0; nt < accTile.nTiles; ++nt)
              for (int e = 0; e < 2; ++e) {
                Value &reg = acc[accTile.index(mt, nt, 2 * half + e)];
                reg = arith::MulFOp::create(b, reg, alpha);
              }
        }
      if (lazy && !op.getNewAcc().use_empty())
        lazyRescale(b, acc, accTile, alphas);
      rewriter.replaceOpWithMultiple(op, {s, m, l, acc});
      return success();
    }
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
          if (!blockMax.empty()) {
            // The verifier holds the scale positive here.
            rowMax = blockMax[r];
          } else {
            for (int64_t nt = 0; nt < sTile.nTiles; ++nt)
              for (int e = 0; e < 2; ++e) {
                Value &reg = s[sTile.index(mt, nt, 2 * half + e)];
                if (prescaled)
                  reg = arith::MulFOp::create(b, reg, scale);
                rowMax = arith::MaximumFOp::create(b, rowMax, reg);
              }
            rowMax = warp.quadReduce(rowMax, /*isMax=*/true);
          }
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
