//===- Fragments.cpp - tile math on mma.sync register fragments -----------===//
//
// S = Q K^T, the element mask, the online softmax, P repacked as A operands,
// and O += P V, all on the m16n8k16 accumulator layout (WarpMMA.h).
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"
#include "attn/Dialect/Attn/Transforms/MaskUtils.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Matchers.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::attn;
using namespace mlir::attn::sm80;

AccTile KernelEmitter::emitScores(DotOp dot) {
  // S[16 MT x bn] per warp = Q[16 MT x d] K^T; Q at smem 0, K after it.
  int64_t kOffset = 2 * info.blockM * info.d;
  int64_t nTiles = info.blockN / 8, mTiles = info.mTiles;
  AccTile s;
  Value zero = mma.f32(0.0);
  s.tiles.assign(mTiles * nTiles, {zero, zero, zero, zero});
  Value lane = mma.lane;
  Value sub = arith::DivUIOp::create(b, lane, mma.i32(8)); // matrix 0..3
  Value r8 = arith::RemUIOp::create(b, lane, mma.i32(8));
  // A (Q): matrix i covers rows 8*(i%2).., cols 8*(i/2)..
  Value aRow0 = arith::AddIOp::create(
      b,
      arith::AddIOp::create(
          b, arith::MulIOp::create(b, mma.warp, mma.i32(16 * mTiles)), r8),
      arith::MulIOp::create(b, arith::RemUIOp::create(b, sub, mma.i32(2)),
                            mma.i32(8)));
  Value aColOff = arith::MulIOp::create(
      b, arith::DivUIOp::create(b, sub, mma.i32(2)), mma.i32(8));
  // B (K rows = keys): matrix i covers keys 8*(i/2).., d cols 8*(i%2)..
  Value bRowOff = arith::AddIOp::create(
      b, r8,
      arith::MulIOp::create(b, arith::DivUIOp::create(b, sub, mma.i32(2)),
                            mma.i32(8)));
  Value bColOff = arith::MulIOp::create(
      b, arith::RemUIOp::create(b, sub, mma.i32(2)), mma.i32(8));
  for (int64_t kk = 0; kk < info.d / 16; ++kk) {
    Value aCol = arith::AddIOp::create(b, aColOff, mma.i32(16 * kk));
    SmallVector<std::array<Value, 4>> a;
    for (int64_t mt = 0; mt < mTiles; ++mt) {
      Value aRow = arith::AddIOp::create(b, aRow0, mma.i32(16 * mt));
      a.push_back(mma.ldmatrixX4(mma.swizzled(aRow, aCol, info.d), false));
    }
    Value bCol = arith::AddIOp::create(b, bColOff, mma.i32(16 * kk));
    for (int64_t nt = 0; nt < nTiles; nt += 2) {
      Value bRow = arith::AddIOp::create(b, bRowOff, mma.i32(8 * nt));
      Value off = arith::AddIOp::create(b, mma.i32(kOffset),
                                        mma.swizzled(bRow, bCol, info.d));
      std::array<Value, 4> kb = mma.ldmatrixX4(off, false);
      // One K fragment feeds every m-tile of the warp.
      for (int64_t mt = 0; mt < mTiles; ++mt) {
        auto &t0 = s.tiles[mt * nTiles + nt], &t1 = s.tiles[mt * nTiles + nt + 1];
        t0 = mma.mma(a[mt], {kb[0], kb[1]}, t0);
        t1 = mma.mma(a[mt], {kb[2], kb[3]}, t1);
      }
    }
  }
  (void)dot;
  return s;
}

void KernelEmitter::emitMask(MaskOp op, AccTile &s, Value row0, Value col0) {
  // Per row, the visible keys are one interval [lo, hi); per element, two
  // compares against the key's offset from the block start.
  Value negInf = mma.f32(-std::numeric_limits<double>::infinity());
  int64_t nTiles = info.blockN / 8;
  Value col0i = toI32(col0);
  Value laneCol = arith::MulIOp::create(b, mma.quadLane, mma.i32(2));
  for (int64_t mt = 0; mt < info.mTiles; ++mt) {
    for (int half = 0; half < 2; ++half) {
      Value row = arith::AddIOp::create(b, row0, toIndex(rowOf(mt, half)));
      auto [lo, hi] =
          buildVisibleKeys(b, b.getLoc(), op.getMask(), row, nq, nk);
      // Bounds relative to this thread's first column in the block.
      Value base = arith::AddIOp::create(b, col0i, laneCol);
      Value loRel = arith::SubIOp::create(b, toI32(lo), base);
      Value hiRel = arith::SubIOp::create(b, toI32(hi), base);
      for (int64_t nt = 0; nt < nTiles; ++nt) {
        for (int e = 0; e < 2; ++e) {
          Value c = mma.i32(8 * nt + e);
          Value visible = arith::AndIOp::create(
              b,
              arith::CmpIOp::create(b, arith::CmpIPredicate::sge, c, loRel),
              arith::CmpIOp::create(b, arith::CmpIPredicate::slt, c, hiRel));
          Value &reg = s.tiles[mt * nTiles + nt][2 * half + e];
          reg = arith::SelectOp::create(b, visible, reg, negInf);
        }
      }
    }
  }
}

void KernelEmitter::emitOnlineSoftmax(AccTile &s, RowState &m, RowState &l,
                                      AccTile &acc) {
  Value scale = mma.f32(info.scaleLog2e);
  Value negInf = mma.f32(-std::numeric_limits<double>::infinity());
  Value zero = mma.f32(0.0);
  // With a positive scale the row max of the raw scores, scaled once, is the
  // max of the scaled ones, and s * scale - ref is one FMA per element.
  bool positive = info.scaleLog2e > 0;
  int64_t nTiles = info.blockN / 8, dTiles = info.dv / 8;
  for (int64_t mt = 0; mt < info.mTiles; ++mt)
  for (int half = 0; half < 2; ++half) {
    auto sTiles = MutableArrayRef(s.tiles).slice(mt * nTiles, nTiles);
    auto accTiles = MutableArrayRef(acc.tiles).slice(mt * dTiles, dTiles);
    int64_t r = 2 * mt + half;
    Value rowMax = negInf;
    for (auto &tile : sTiles)
      for (int e = 0; e < 2; ++e) {
        Value &reg = tile[2 * half + e];
        if (!positive)
          reg = arith::MulFOp::create(b, reg, scale);
        rowMax = arith::MaximumFOp::create(b, rowMax, reg);
      }
    rowMax = mma.quadReduce(rowMax, /*isMax=*/true);
    if (positive)
      rowMax = arith::MulFOp::create(b, rowMax, scale);
    Value newMax = arith::MaximumFOp::create(b, m.rows[r], rowMax);
    Value empty = arith::CmpFOp::create(b, arith::CmpFPredicate::OEQ, newMax,
                                        negInf);
    Value ref = arith::SelectOp::create(b, empty, zero, newMax);
    Value negRef = arith::NegFOp::create(b, ref);
    Value sum = zero;
    for (auto &tile : sTiles)
      for (int e = 0; e < 2; ++e) {
        Value &reg = tile[2 * half + e];
        Value t = positive ? Value(LLVM::FMAOp::create(b, reg, scale, negRef))
                           : Value(arith::AddFOp::create(b, reg, negRef));
        reg = mma.exp2(t);
        sum = arith::AddFOp::create(b, sum, reg);
      }
    sum = mma.quadReduce(sum, /*isMax=*/false);
    Value alpha = mma.exp2(arith::AddFOp::create(b, m.rows[r], negRef));
    l.rows[r] = arith::AddFOp::create(
        b, arith::MulFOp::create(b, l.rows[r], alpha), sum);
    m.rows[r] = newMax;
    for (auto &tile : accTiles)
      for (int e = 0; e < 2; ++e)
        tile[2 * half + e] =
            arith::MulFOp::create(b, tile[2 * half + e], alpha);
  }
}

PackedA KernelEmitter::packProbs(const AccTile &p) {
  // The accumulator of two adjacent n8 tiles is exactly the A operand of one
  // k16 step: a0 = (g, 2t..) of tile 2k, a1 = (g+8, ..) of tile 2k,
  // a2 = (g, ..) of tile 2k+1, a3 = (g+8, ..) of tile 2k+1.
  PackedA out;
  int64_t nTiles = info.blockN / 8;
  for (int64_t mt = 0; mt < info.mTiles; ++mt)
    for (int64_t k = 0; k < nTiles; k += 2) {
      const auto &lo = p.tiles[mt * nTiles + k], &hi = p.tiles[mt * nTiles + k + 1];
      out.steps.push_back({mma.pack(lo[0], lo[1]), mma.pack(lo[2], lo[3]),
                           mma.pack(hi[0], hi[1]), mma.pack(hi[2], hi[3])});
    }
  return out;
}

void KernelEmitter::emitPV(const PackedA &p, AccTile &acc, Value) {
  // V[bn x dv] at smem after Q and K; B operands via ldmatrix.trans:
  // matrix i covers keys 8*(i%2).., value cols 8*(i/2)..
  // (The same lane arithmetic as emitScores' operands, written out on
  // purpose: folding the copies into one helper changed register allocation
  // and cost 9% at D = 256; docs/perf-log.md.)
  int64_t vOffset = 2 * (info.blockM * info.d + info.blockN * info.d);
  Value sub = arith::DivUIOp::create(b, mma.lane, mma.i32(8));
  Value r8 = arith::RemUIOp::create(b, mma.lane, mma.i32(8));
  Value keyOff = arith::AddIOp::create(
      b, r8,
      arith::MulIOp::create(b, arith::RemUIOp::create(b, sub, mma.i32(2)),
                            mma.i32(8)));
  Value colOff = arith::MulIOp::create(
      b, arith::DivUIOp::create(b, sub, mma.i32(2)), mma.i32(8));
  int64_t kSteps = info.blockN / 16, dTiles = info.dv / 8;
  for (int64_t kk = 0; kk < kSteps; ++kk) {
    Value key = arith::AddIOp::create(b, keyOff, mma.i32(16 * kk));
    for (int64_t dt = 0; dt < dTiles; dt += 2) {
      Value col = arith::AddIOp::create(b, colOff, mma.i32(8 * dt));
      Value off = arith::AddIOp::create(b, mma.i32(vOffset),
                                        mma.swizzled(key, col, info.dv));
      std::array<Value, 4> vb = mma.ldmatrixX4(off, /*transpose=*/true);
      // One V fragment feeds every m-tile of the warp.
      for (int64_t mt = 0; mt < info.mTiles; ++mt) {
        const auto &a = p.steps[mt * kSteps + kk];
        auto &t0 = acc.tiles[mt * dTiles + dt], &t1 = acc.tiles[mt * dTiles + dt + 1];
        t0 = mma.mma(a, {vb[0], vb[1]}, t0);
        t1 = mma.mma(a, {vb[2], vb[3]}, t1);
      }
    }
  }
}
