//===- WarpMMA.cpp - tensor-core building blocks for sm_80 kernels --------===//

#include "WarpMMA.h"

#include <algorithm>

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::attn;

WarpMMA::WarpMMA(ImplicitLocOpBuilder &b, Type elt, Value smemBase,
                 int64_t threads)
    : b(b), elt(elt), smemBase(smemBase), threads(threads) {
  Value x = gpu::ThreadIdOp::create(b, gpu::Dimension::x);
  setThreadIds(arith::IndexCastOp::create(b, b.getI32Type(), x));
}

WarpMMA::WarpMMA(ImplicitLocOpBuilder &b, Type elt, Value smemBase,
                 int64_t threads, std::array<Value, 5> ids)
    : tid(ids[0]), warp(ids[1]), lane(ids[2]), group(ids[3]),
      quadLane(ids[4]), b(b), elt(elt), smemBase(smemBase), threads(threads) {}

void WarpMMA::setThreadIds(Value threadIndex) {
  tid = threadIndex;
  warp = arith::DivUIOp::create(b, tid, i32(32));
  lane = arith::RemUIOp::create(b, tid, i32(32));
  group = arith::DivUIOp::create(b, lane, i32(4));
  quadLane = arith::RemUIOp::create(b, lane, i32(4));
}

Value WarpMMA::i32(int64_t v) {
  return arith::ConstantIntOp::create(b, v, 32);
}
Value WarpMMA::i64(int64_t v) {
  return arith::ConstantIntOp::create(b, v, 64);
}
Value WarpMMA::f32(double v) {
  return arith::ConstantOp::create(b, b.getF32FloatAttr(v));
}

Value WarpMMA::swizzled(Value row, Value col, int64_t cols) {
  Value chunk = arith::DivUIOp::create(b, col, i32(8));
  Value phys = arith::XOrIOp::create(b, chunk,
                                     arith::RemUIOp::create(b, row, i32(8)));
  return arith::AddIOp::create(
      b, arith::MulIOp::create(b, row, i32(cols * 2)),
      arith::MulIOp::create(b, phys, i32(16)));
}

Value WarpMMA::swizzledBlocked(Value row, Value col, int64_t rows,
                               int64_t span) {
  // With k = span / 16 chunks per row and 128 / span rows per 128 bytes:
  // (col / 8 / k) span rows + span row + 16 ((col / 8) % k ^ (row / (128 /
  // span)) % k); for the 128-byte span (col / 64) 128 rows + 128 row +
  // 16 ((col / 8) % 8 ^ row % 8).
  int64_t k = span / 16;
  Value chunk = arith::DivUIOp::create(b, col, i32(8));
  Value block = arith::DivUIOp::create(b, chunk, i32(k));
  Value rowBits =
      span == 128 ? row : arith::DivUIOp::create(b, row, i32(128 / span));
  Value phys =
      arith::XOrIOp::create(b, arith::RemUIOp::create(b, chunk, i32(k)),
                            arith::RemUIOp::create(b, rowBits, i32(k)));
  return arith::AddIOp::create(
      b,
      arith::AddIOp::create(b,
                            arith::MulIOp::create(b, block, i32(span * rows)),
                            arith::MulIOp::create(b, row, i32(span))),
      arith::MulIOp::create(b, phys, i32(16)));
}

static Value gep(ImplicitLocOpBuilder &b, Value base, Type elem,
                 Value offset) {
  return LLVM::GEPOp::create(b, base.getType(), elem, base,
                             ArrayRef<LLVM::GEPArg>{offset});
}

WarpMMA::CopyPlan WarpMMA::planCopy(Value base, Value rowStride,
                                    int64_t cols, int64_t rows, bool blocked) {
  // Thread t copies chunk t % C of rows t / C + P * i (C = 16-byte chunks
  // per row, P = threads / C rows per pass). Every pass moves the same
  // column, so a thread's copies of a tile need one global pointer, one row
  // stride and one shared offset with constant increments. (Built per copy:
  // LLVM hoists each loop's share; one plan for all loops stayed live across
  // the unmasked loop and cost spills, docs/perf-log.md.)
  CopyPlan plan;
  plan.cols = cols;
  plan.rows = rows;
  plan.blocked = blocked;
  int64_t chunksPerRow = cols / 8;
  plan.rowInTile = arith::DivUIOp::create(b, tid, i32(chunksPerRow));
  plan.chunk = arith::RemUIOp::create(b, tid, i32(chunksPerRow));
  Value col = arith::MulIOp::create(b, plan.chunk, i32(8));
  plan.chunkBase =
      gep(b, base, elt, arith::ExtSIOp::create(b, b.getI64Type(), col));
  // The row stride stays the 64-bit kernel parameter. (A 32-bit copy, for
  // one register instead of two, came back as a 64-bit sign extension that
  // LLVM kept live across the unmasked loop; the masked D = 128 kernels
  // spilled more with it, docs/perf-log.md.)
  plan.stride = rowStride;
  plan.dst0 = sharedOffset(plan.rowInTile, col, cols, rows, blocked);
  return plan;
}

void WarpMMA::copyTileAsync(const CopyPlan &plan, Value row0, Value numRows,
                            int64_t rows, int64_t smemOffset,
                            Value dynamicSmemOffset) {
  int64_t cols = plan.cols;
  int64_t chunksPerRow = cols / 8;
  int64_t rowsPerPass = threads / chunksPerRow;
  int64_t passes = (rows + rowsPerPass - 1) / rowsPerPass;
  Value rowInTile = plan.rowInTile, chunk = plan.chunk;
  // Rows past the end are zero-filled (src-size 0) from row 0 of the plane,
  // so that every address stays inside the tensor. numRows >= 1 whenever a
  // tile is copied (a block is only copied if it holds a visible key, a Q
  // tile only by a program that has a row).
  Value lastRow = arith::SubIOp::create(b, numRows, i32(1));
  Value firstRow = arith::AddIOp::create(b, row0, rowInTile);
  auto wide = [&](Value v) {
    return arith::ExtSIOp::create(b, b.getI64Type(), v);
  };
  auto rowOffset = [&](Value row) -> Value {
    return arith::MulIOp::create(b, wide(row), plan.stride);
  };
  Value chunkBase = plan.chunkBase;
  // Rows rowInTile + P i share row % 8 when P is a multiple of 8; with P = 4
  // (256-wide rows, 4 warps) every other pass flips bit 2 of row % 8, i.e.
  // bit 2 of the swizzled chunk.
  Value dst0 = plan.dst0;
  if (dynamicSmemOffset)
    dst0 = arith::AddIOp::create(b, dst0, dynamicSmemOffset);
  // The first row's address, then P rows further per pass (one 64-bit add;
  // recomputing row x stride per pass cost 4-6% at D = 256, whose tiles
  // take 16 passes: docs/perf-log.md); a pass whose row is past the end
  // reads (nothing) from row 0 instead.
  Value first = gep(b, chunkBase, elt, rowOffset(firstRow));
  Value passStride = arith::MulIOp::create(
      b, plan.stride, arith::ConstantIntOp::create(b, rowsPerPass, 64));
  for (int64_t i = 0; i < passes; ++i) {
    Value row = arith::AddIOp::create(b, firstRow, i32(rowsPerPass * i));
    Value valid =
        arith::CmpIOp::create(b, arith::CmpIPredicate::sle, row, lastRow);
    if (i > 0)
      first = gep(b, first, elt, passStride);
    Value src = arith::SelectOp::create(b, valid, first, chunkBase);
    // Rows are 2 C bytes apart, or 128 inside a column block (blocked).
    int64_t rowBytes = rowsPerPass * i * (plan.blocked ? 128 : cols * 2);
    Value dstOffset = dst0;
    if (rowsPerPass % 8 == 4 && i % 2 == 1) {
      dstOffset = arith::XOrIOp::create(b, dstOffset, i32(4 * 16));
    } else if (rowsPerPass % 4 != 0 && i > 0) {
      // Small CTAs (under 4 rows per pass): swizzle each pass's row.
      dstOffset = sharedOffset(
          arith::AddIOp::create(b, rowInTile, i32(rowsPerPass * i)),
          arith::MulIOp::create(b, chunk, i32(8)), cols, plan.rows,
          plan.blocked);
      if (dynamicSmemOffset)
        dstOffset = arith::AddIOp::create(b, dstOffset, dynamicSmemOffset);
      rowBytes = 0;
    }
    Value dst = gep(b, smemBase, b.getI8Type(),
                    arith::AddIOp::create(b, dstOffset,
                                          i32(smemOffset + rowBytes)));
    Value bytes = arith::SelectOp::create(b, valid, i32(16), i32(0));
    // Threads whose row is past the pass (C does not divide the CTA: with
    // 192-wide rows, 24 chunks, threads 120..127 would copy the first
    // chunks of the next pass's first row, which threads 0..7 copy in that
    // pass: the same bytes written twice, a write-write race) issue none;
    // so do threads past the tile in a last, partial pass (rows not a
    // multiple of P, e.g. P = 5 for 192-wide rows). (Any copy writes its 16
    // bytes, zeros with src-size 0, so none may be pointed at bytes another
    // thread copies.)
    int64_t rowsHere = std::min(rowsPerPass, rows - rowsPerPass * i);
    bool partial = rowsHere < rowsPerPass;
    if (partial || threads % chunksPerRow != 0) {
      Value inTile = arith::CmpIOp::create(b, arith::CmpIPredicate::ult,
                                           rowInTile, i32(rowsHere));
      auto ifOp = scf::IfOp::create(b, inTile, /*withElseRegion=*/false);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(ifOp.thenBlock());
      NVVM::CpAsyncOp::create(b, dst, src, 16,
                              NVVM::LoadCacheModifierKind::CG, bytes);
      continue;
    }
    NVVM::CpAsyncOp::create(b, dst, src, 16, NVVM::LoadCacheModifierKind::CG,
                            bytes);
  }
}

std::array<Value, 4> WarpMMA::ldmatrixX4(Value byteOffset, bool transpose) {
  MLIRContext *ctx = b.getContext();
  Type i32T = b.getI32Type();
  auto resT = LLVM::LLVMStructType::getLiteral(ctx, {i32T, i32T, i32T, i32T});
  Value ptr = gep(b, smemBase, b.getI8Type(), byteOffset);
  Value res = NVVM::LdMatrixOp::create(
      b, resT, ptr, b.getI32IntegerAttr(4),
      NVVM::MMALayoutAttr::get(ctx, transpose ? NVVM::MMALayout::col
                                              : NVVM::MMALayout::row),
      NVVM::LdStMatrixShapeAttr::get(ctx, 8, 8),
      NVVM::LdStMatrixEltTypeAttr::get(ctx, NVVM::LdStMatrixEltType::B16));
  std::array<Value, 4> out;
  for (int i = 0; i < 4; ++i)
    out[i] = LLVM::ExtractValueOp::create(b, res, i);
  return out;
}

std::array<Value, 4> WarpMMA::mma(ArrayRef<Value> a, ArrayRef<Value> bFrag,
                                  ArrayRef<Value> c) {
  MLIRContext *ctx = b.getContext();
  Type f32T = b.getF32Type();
  // f16 operands go in as vector<2xf16>; bf16 ones as i32 with explicit
  // PTX types (NVVM cannot tell bf16 pairs from s32 by type).
  bool isF16 = elt.isF16();
  auto operand = [&](Value v) -> Value {
    if (!isF16)
      return v;
    return LLVM::BitcastOp::create(b, VectorType::get({2}, elt), v);
  };
  SmallVector<Value> av, bv;
  for (Value v : a)
    av.push_back(operand(v));
  for (Value v : bFrag)
    bv.push_back(operand(v));
  auto resT = LLVM::LLVMStructType::getLiteral(ctx, {f32T, f32T, f32T, f32T});
  NVVM::MMATypes ptx = isF16 ? NVVM::MMATypes::f16 : NVVM::MMATypes::bf16;
  Value res = NVVM::MmaOp::create(
      b, resT, av, bv, c, ArrayRef<int64_t>{16, 8, 16}, std::nullopt,
      std::nullopt, std::array<NVVM::MMATypes, 2>{ptx, ptx},
      std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                     NVVM::MMALayout::col});
  std::array<Value, 4> out;
  for (int i = 0; i < 4; ++i)
    out[i] = LLVM::ExtractValueOp::create(b, res, i);
  return out;
}

Value WarpMMA::quadReduce(Value v, bool isMax) {
  for (int offset : {1, 2}) {
    Value other = gpu::ShuffleOp::create(b, v, offset, 32,
                                         gpu::ShuffleMode::XOR)
                      .getShuffleResult();
    v = isMax ? Value(arith::MaximumFOp::create(b, v, other))
              : Value(arith::AddFOp::create(b, v, other));
  }
  return v;
}

Value WarpMMA::exp2(Value x) {
  return LLVM::CallIntrinsicOp::create(
             b, b.getF32Type(), b.getStringAttr("llvm.nvvm.ex2.approx.ftz.f32"),
             ValueRange{x})
      .getResult(0);
}

Value WarpMMA::fmaExp2(Value x) {
  // 2^x = 2^j 2^f, j = round(x), f = x - j in [-1/2, 1/2]. Adding 1.5 x 2^23
  // rounds x to an integer (FADD, to nearest) and leaves j in the low bits;
  // shifted left by 23 they are j added to the exponent field of 2^f. x is
  // clamped below at -127 first: -inf (a masked score) then has j = -127,
  // f = 0 and 2^f = 1 exactly (c0 = 1), whose exponent field 127 - 127
  // makes +0.0; NaN passes the clamp (max.NaN) and stays NaN. The
  // polynomial is a degree-5 minimax fit of 2^f on [-1/2, 1/2] with
  // c0 = 1 (relative error 1.5e-7 evaluated in f32; 1.7e-7 for the whole
  // function, ex2.approx's size: bench/device/probes/fma_exp2_fit.py). No
  // fast-math flags: reassociation would fold (x + M) - M to x.
  Type f32T = b.getF32Type(), i32T = b.getI32Type();
  auto cst = [&](double v) { return LLVM::ConstantOp::create(b, f32T, b.getF32FloatAttr(v)); };
  Value clamped = arith::MaximumFOp::create(b, x, cst(-127.0));
  Value magic = cst(12582912.0);
  Value shifted = arith::AddFOp::create(b, clamped, magic);
  Value j = arith::SubFOp::create(b, shifted, magic);
  Value f = arith::SubFOp::create(b, clamped, j);
  static constexpr float kCoeffs[] = {0.6931470036506653f, 0.24022242426872253f,
                                      0.05550733581185341f, 0.009671512991189957f,
                                      0.0013264723820611835f};
  Value p = cst(kCoeffs[4]);
  for (int k = 3; k >= 0; --k)
    p = LLVM::FMAOp::create(b, p, f, cst(kCoeffs[k]));
  p = LLVM::FMAOp::create(b, p, f, cst(1.0));
  Value expBits = LLVM::ShlOp::create(
      b, LLVM::BitcastOp::create(b, i32T, shifted),
      LLVM::ConstantOp::create(b, i32T, b.getI32IntegerAttr(23)));
  Value sum = LLVM::AddOp::create(b, LLVM::BitcastOp::create(b, i32T, p), expBits);
  return LLVM::BitcastOp::create(b, f32T, sum);
}

Value WarpMMA::log2(Value x) {
  return LLVM::CallIntrinsicOp::create(b, b.getF32Type(),
                                       b.getStringAttr("llvm.nvvm.lg2.approx.f"),
                                       ValueRange{x})
      .getResult(0);
}

Value WarpMMA::pack(Value x, Value y) {
  Type vecT = VectorType::get({2}, elt);
  Value lo = arith::TruncFOp::create(b, elt, x);
  Value hi = arith::TruncFOp::create(b, elt, y);
  Value v = LLVM::UndefOp::create(b, vecT);
  v = LLVM::InsertElementOp::create(b, v, lo, i32(0));
  v = LLVM::InsertElementOp::create(b, v, hi, i32(1));
  return LLVM::BitcastOp::create(b, b.getI32Type(), v);
}
