//===- WarpMMA.cpp - tensor-core building blocks for sm_80 kernels --------===//

#include "WarpMMA.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace mlir::attn;

WarpMMA::WarpMMA(ImplicitLocOpBuilder &b, Type elt, Value smemBase,
                 int64_t threads)
    : b(b), elt(elt), smemBase(smemBase), threads(threads) {
  Value x = gpu::ThreadIdOp::create(b, gpu::Dimension::x);
  tid = arith::IndexCastOp::create(b, b.getI32Type(), x);
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

static Value gep(ImplicitLocOpBuilder &b, Value base, Type elem,
                 Value offset) {
  return LLVM::GEPOp::create(b, base.getType(), elem, base,
                             ArrayRef<LLVM::GEPArg>{offset});
}

void WarpMMA::copyTileAsync(Value base, Value rowStride, Value row0,
                            Value numRows, int64_t rows, int64_t cols,
                            int64_t smemOffset) {
  int64_t chunksPerRow = cols / 8;
  int64_t chunks = rows * chunksPerRow;
  for (int64_t first = 0; first < chunks; first += threads) {
    Value idx = arith::AddIOp::create(b, tid, i32(first));
    // A CTA may have more threads than this tile has chunks left.
    Value inTile = arith::CmpIOp::create(b, arith::CmpIPredicate::ult, idx,
                                         i32(chunks));
    Value r = arith::DivUIOp::create(b, idx, i32(chunksPerRow));
    Value c = arith::MulIOp::create(
        b, arith::RemUIOp::create(b, idx, i32(chunksPerRow)), i32(8));
    Value globalRow = arith::AddIOp::create(b, row0, r);
    Value valid = arith::AndIOp::create(
        b, inTile,
        arith::CmpIOp::create(b, arith::CmpIPredicate::slt, globalRow,
                              numRows));
    // Out-of-range rows read nothing (src-size 0 zero-fills) from a safe
    // address: the tile's base.
    Value srcRow = arith::SelectOp::create(b, valid, globalRow, i32(0));
    Value srcCol = arith::SelectOp::create(b, valid, c, i32(0));
    Value offset = arith::AddIOp::create(
        b,
        arith::MulIOp::create(
            b, arith::ExtSIOp::create(b, b.getI64Type(), srcRow), rowStride),
        arith::ExtSIOp::create(b, b.getI64Type(), srcCol));
    Value src = gep(b, base, elt, offset);
    Value inTileRow = arith::SelectOp::create(b, inTile, r, i32(0));
    Value dstOffset = arith::AddIOp::create(
        b, i32(smemOffset), swizzled(inTileRow, c, cols));
    Value dst = gep(b, smemBase, b.getI8Type(), dstOffset);
    Value bytes = arith::SelectOp::create(b, valid, i32(16), i32(0));
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
