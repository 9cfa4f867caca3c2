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

// Operand addresses. An ldmatrix.x4 lane reads 16 bytes at row r of its
// matrix, chunk c (8 elements), stored at chunk c ^ (r % 8) (WarpMMA::
// swizzled). Every fragment a lane loads in one product has the same r % 8
// and a chunk that differs from the first one's by a constant k (even, as
// each x4 spans two chunks, and the lane's own chunk bit is bit 0), so its
// address is
//   laneBase ^ 16 (k & 7)  +  16 (k & ~7) + row offset  (+ stage buffer),
// one XOR of a per-lane base and an immediate. Written this way the loop
// keeps at most four XORed bases per operand live, not one address per
// ldmatrix (LLVM hoists every loop-invariant address; ptxas does not
// rematerialise them, which cost 30-60 registers at D = 128).
Value KernelEmitter::fragmentOffset(Value laneBase, int64_t chunkDelta,
                                    int64_t imm, Value stage) {
  Value off = laneBase;
  if (int64_t flip = 16 * (chunkDelta & 7))
    off = arith::XOrIOp::create(b, off, mma.i32(flip));
  if (stage)
    off = arith::AddIOp::create(b, stage, off);
  int64_t add = 16 * (chunkDelta & ~int64_t(7)) + imm;
  if (add)
    off = arith::AddIOp::create(b, off, mma.i32(add));
  return off;
}

KernelEmitter::LaneBases KernelEmitter::laneBases() {
  // Rebuilt at each use (LLVM hoists them out of each loop): built once
  // for all loops, they stay live from the top of the kernel, which made
  // ptxas spill in the D = 128 kernels (docs/perf-log.md).
  LaneBases lanes;
  Value sub = arith::DivUIOp::create(b, mma.lane, mma.i32(8)); // matrix 0..3
  Value r8 = arith::RemUIOp::create(b, mma.lane, mma.i32(8));
  Value subLo = arith::RemUIOp::create(b, sub, mma.i32(2));
  Value subHi = arith::DivUIOp::create(b, sub, mma.i32(2));
  auto laneBase = [&](Value row, Value chunk, int64_t rowBytes) -> Value {
    return arith::AddIOp::create(
        b, arith::MulIOp::create(b, row, mma.i32(rowBytes)),
        arith::MulIOp::create(b, arith::XOrIOp::create(b, chunk, r8),
                              mma.i32(16)));
  };
  // A (Q): matrix i covers rows 8 (i % 2).., cols 8 (i / 2)..
  lanes.q = laneBase(
      arith::AddIOp::create(
          b, arith::MulIOp::create(b, mma.warp, mma.i32(16 * info.mTiles)),
          arith::AddIOp::create(b, r8,
                                arith::MulIOp::create(b, subLo, mma.i32(8)))),
      subHi, 2 * info.d);
  // B (K rows = keys): matrix i covers keys 8 (i / 2).., d cols 8 (i % 2)..
  lanes.k = laneBase(
      arith::AddIOp::create(b, r8, arith::MulIOp::create(b, subHi, mma.i32(8))),
      subLo, 2 * info.d);
  // B (V rows = keys, .trans): matrix i covers keys 8 (i % 2).., value
  // cols 8 (i / 2)..
  lanes.v = laneBase(
      arith::AddIOp::create(b, r8, arith::MulIOp::create(b, subLo, mma.i32(8))),
      subHi, 2 * info.dv);
  return lanes;
}

AccTile KernelEmitter::emitScores(DotOp dot) {
  // S[16 MT x bn] per warp = Q[16 MT x d] K^T; Q at smem 0, K after it.
  int64_t nTiles = info.blockN / 8, mTiles = info.mTiles;
  int64_t rowBytes = 2 * info.d;
  AccTile s;
  Value zero = mma.f32(0.0);
  s.tiles.assign(mTiles * nTiles, {zero, zero, zero, zero});
  LaneBases lb = laneBases();
  Value aBase = lb.q, bBase = lb.k;
  for (int64_t kk = 0; kk < info.d / 16; ++kk) {
    SmallVector<std::array<Value, 4>> a;
    for (int64_t mt = 0; mt < mTiles; ++mt)
      a.push_back(mma.ldmatrixX4(
          fragmentOffset(aBase, 2 * kk, 16 * mt * rowBytes, Value()), false));
    for (int64_t nt = 0; nt < nTiles; nt += 2) {
      Value off = fragmentOffset(bBase, 2 * kk,
                                 info.kOffset() + 8 * nt * rowBytes, kStage);
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
  // Element (row r, key k) of this thread: k = col + c with col = col0 + 2t
  // and c = 8 nt + e a constant; r = r0 + delta with r0 the thread's first
  // row and delta = 16 mt + 8 half a constant. With diag(r) = diag(r0) +
  // delta the key on r's diagonal and y = diag(r0) - col, it is visible iff
  //   c < Nk - col                      (in bounds)
  //   c < right + 1 + delta + y         (right of the diagonal)
  //   c >= delta - left + y             (left of it, windows only).
  // Only Nk - 2t and diag(r0) - 2t stay live across the loop (LLVM hoists
  // whatever is loop-invariant; per-row bounds would cost a register each).
  // All of it is i32: every operand is in [0, 2^31) or a difference of two
  // such, and y is clamped into the range where a bound can change the
  // outcome before the (compile-time) extents are added; extents over 2^30
  // take the same formulas in i64.
  MaskAttr mask = op.getMask();
  Value negInf = mma.f32(-std::numeric_limits<double>::infinity());
  int64_t nTiles = info.blockN / 8, bn = info.blockN;
  Value col = arith::AddIOp::create(
      b, toI32(col0), arith::MulIOp::create(b, mma.quadLane, mma.i32(2)));
  auto clampI32 = [&](Value v, int64_t lo, int64_t hi) -> Value {
    return arith::MinSIOp::create(
        b, arith::MaxSIOp::create(b, v, mma.i32(lo)), mma.i32(hi));
  };
  Value inBounds =
      clampI32(arith::SubIOp::create(b, toI32(nk), col), -1, bn);
  bool bounded = mask.getKind() != MaskKind::None;
  Value y;
  if (bounded) {
    // In (-Nq, Nk) for a row below Nq, so i32 holds it.
    Value diag = buildDiagonal(
        b, b.getLoc(), mask,
        arith::AddIOp::create(b, toI32(row0), rowOf(0, 0)), toI32(nq),
        toI32(nk));
    y = arith::SubIOp::create(b, diag, col);
  }
  // Bound base + y clamped to [-1, bn] (base a compile-time constant).
  auto bound = [&](int64_t base) -> Value {
    constexpr int64_t kSmall = int64_t(1) << 30;
    if (base >= -kSmall && base <= kSmall)
      return arith::AddIOp::create(b, clampI32(y, -1 - base, bn - base),
                                   mma.i32(base));
    Type i64 = b.getI64Type();
    Value wide = arith::AddIOp::create(
        b, arith::ExtSIOp::create(b, i64, y), mma.i64(base));
    wide = arith::MinSIOp::create(
        b, arith::MaxSIOp::create(b, wide, mma.i64(-1)), mma.i64(bn));
    return arith::TruncIOp::create(b, b.getI32Type(), wide);
  };
  for (int64_t mt = 0; mt < info.mTiles; ++mt) {
    for (int half = 0; half < 2; ++half) {
      int64_t delta = 16 * mt + 8 * half;
      Value hi = inBounds;
      Value lo;
      if (bounded && !mask.isRightUnbounded())
        hi = arith::MinSIOp::create(
            b, hi, bound(mask.getRightExtent() + 1 + delta));
      if (bounded && !mask.isLeftUnbounded())
        lo = bound(delta - mask.getLeft());
      for (int64_t nt = 0; nt < nTiles; ++nt) {
        for (int e = 0; e < 2; ++e) {
          Value c = mma.i32(8 * nt + e);
          Value visible =
              arith::CmpIOp::create(b, arith::CmpIPredicate::slt, c, hi);
          if (lo)
            visible = arith::AndIOp::create(
                b, visible,
                arith::CmpIOp::create(b, arith::CmpIPredicate::sge, c, lo));
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
  int64_t nTiles = info.blockN / 8;
  SmallVector<Value, 4> alphas;
  for (int64_t mt = 0; mt < info.mTiles; ++mt)
  for (int half = 0; half < 2; ++half) {
    auto sTiles = MutableArrayRef(s.tiles).slice(mt * nTiles, nTiles);
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
    alphas.push_back(alpha);
    if (!info.lazyRescale) {
      // Row by row, right behind its softmax (the order ptxas schedules
      // best at D = 256: one block of 128 multiplies after all rows cost
      // ~5%, results/h200/2026-11-30-s2-tune6.json).
      int64_t dTiles = info.dv / 8;
      for (int64_t t = mt * dTiles; t < (mt + 1) * dTiles; ++t)
        for (int e = 0; e < 2; ++e)
          acc.tiles[t][2 * half + e] =
              arith::MulFOp::create(b, acc.tiles[t][2 * half + e], alpha);
    }
  }
  if (info.lazyRescale)
    rescale(acc, alphas);
}

void KernelEmitter::rescale(AccTile &acc, ArrayRef<Value> alphas) {
  int64_t dTiles = info.dv / 8;
  // Registers 0, 1 of an accumulator tile are row g of the m-tile, 2, 3
  // row g + 8.
  auto scaled = [&](size_t t, int i) -> Value {
    return arith::MulFOp::create(b, acc.tiles[t][i],
                                 alphas[2 * (t / dTiles) + i / 2]);
  };
  // lazy_rescale: O *= alpha only when some row of the warp has a new max
  // (otherwise every alpha is exactly 1). Once a row has seen a few blocks
  // its max rarely moves, so most blocks skip the multiplies; the vote keeps
  // the branch uniform across the warp.
  Value one = mma.f32(1.0);
  Value any = arith::CmpFOp::create(b, arith::CmpFPredicate::UNE, alphas[0], one);
  for (Value alpha : alphas.drop_front())
    any = arith::OrIOp::create(
        b, any, arith::CmpFOp::create(b, arith::CmpFPredicate::UNE, alpha, one));
  Value warpAny = NVVM::VoteSyncOp::create(b, b.getI1Type(), mma.i32(-1), any,
                                           NVVM::VoteSyncKind::any);
  SmallVector<Value> flat;
  for (const auto &tile : acc.tiles)
    flat.append(tile.begin(), tile.end());
  SmallVector<Type> types(flat.size(), b.getF32Type());
  auto ifOp = scf::IfOp::create(b, types, warpAny, /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    SmallVector<Value> out;
    for (size_t t = 0; t < acc.tiles.size(); ++t)
      for (int i = 0; i < 4; ++i)
        out.push_back(scaled(t, i));
    scf::YieldOp::create(b, out);
    b.setInsertionPointToStart(ifOp.elseBlock());
    scf::YieldOp::create(b, flat);
  }
  for (size_t t = 0; t < acc.tiles.size(); ++t)
    for (int i = 0; i < 4; ++i)
      acc.tiles[t][i] = ifOp.getResult(4 * t + i);
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
  // V[bn x dv] in its stage buffer; B operands via ldmatrix.trans: matrix i
  // covers keys 8 (i % 2).., value cols 8 (i / 2)..
  int64_t rowBytes = 2 * info.dv;
  Value vBase = laneBases().v;
  int64_t kSteps = info.blockN / 16, dTiles = info.dv / 8;
  for (int64_t kk = 0; kk < kSteps; ++kk) {
    for (int64_t dt = 0; dt < dTiles; dt += 2) {
      Value off = fragmentOffset(vBase, dt,
                                 info.vOffset() + 16 * kk * rowBytes, vStage);
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
