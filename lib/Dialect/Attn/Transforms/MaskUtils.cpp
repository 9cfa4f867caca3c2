//===- MaskUtils.cpp - mask and K/V-range arithmetic ----------------------===//
//
// Query row i sees key j iff lo(i) <= j <= hi(i) and 0 <= j < Nk, with
// lo(i) = i + shift - left, hi(i) = i + shift + right and shift = Nk - Nq
// for bottom-right alignment, 0 for top-left. Over the rows [r0, r1) of a
// block (r1 = min(r0 + block_m, Nq)), the union of visible keys is
// [lo(r0), hi(r1 - 1)] and the keys visible to every row are
// [lo(r1 - 1), hi(r0)], both clipped to [0, Nk). Visible blocks are those
// that touch the union; unmasked blocks those inside the intersection.
//
//===----------------------------------------------------------------------===//

#include "attn/Dialect/Attn/Transforms/MaskUtils.h"

#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::attn;

/// `row + shift`: the key on row's diagonal.
static Value diagonal(ImplicitLocOpBuilder &b, MaskAttr mask, Value row,
                      Value numQueries, Value numKeys) {
  if (mask.getAlignment() != MaskAlignment::BottomRight)
    return row;
  return arith::AddIOp::create(
      b, row, arith::SubIOp::create(b, numKeys, numQueries));
}

Value mlir::attn::buildIsVisible(OpBuilder &builder, Location loc,
                                 MaskAttr mask, Value row, Value col,
                                 Value numQueries, Value numKeys) {
  ImplicitLocOpBuilder b(loc, builder);
  Value visible =
      arith::CmpIOp::create(b, arith::CmpIPredicate::slt, col, numKeys);
  Value diag = diagonal(b, mask, row, numQueries, numKeys);
  if (!mask.isLeftUnbounded()) {
    Value lo = arith::SubIOp::create(
        b, diag, arith::ConstantIndexOp::create(b, mask.getLeft()));
    visible = arith::AndIOp::create(
        b, visible,
        arith::CmpIOp::create(b, arith::CmpIPredicate::sge, col, lo));
  }
  if (!mask.isRightUnbounded()) {
    Value hi = arith::AddIOp::create(
        b, diag, arith::ConstantIndexOp::create(b, mask.getRightExtent()));
    visible = arith::AndIOp::create(
        b, visible,
        arith::CmpIOp::create(b, arith::CmpIPredicate::sle, col, hi));
  }
  return visible;
}

Value mlir::attn::buildDiagonal(OpBuilder &builder, Location loc,
                                MaskAttr mask, Value row, Value numQueries,
                                Value numKeys) {
  ImplicitLocOpBuilder b(loc, builder);
  return diagonal(b, mask, row, numQueries, numKeys);
}

std::pair<Value, Value>
mlir::attn::buildKVRange(OpBuilder &builder, Location loc, KVRangeKind kind,
                         MaskAttr mask, int64_t blockM, int64_t blockN,
                         Value r0, Value nq, Value nk) {
  ImplicitLocOpBuilder b(loc, builder);
  auto cst = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, v);
  };
  Value c0 = cst(0), c1 = cst(1), bn = cst(blockN);
  Value rLast = arith::SubIOp::create(
      b, arith::MinSIOp::create(b, arith::AddIOp::create(b, r0, cst(blockM)),
                                nq),
      c1);
  // First visible key of row `r`, clipped at 0.
  auto lowKey = [&](Value r) -> Value {
    if (mask.isLeftUnbounded())
      return c0;
    Value lo = arith::SubIOp::create(b, diagonal(b, mask, r, nq, nk),
                                     cst(mask.getLeft()));
    return arith::MaxSIOp::create(b, lo, c0);
  };
  // One past the last visible key of row `r`, clipped at Nk.
  auto highKey = [&](Value r) -> Value {
    if (mask.isRightUnbounded())
      return nk;
    Value hi = arith::AddIOp::create(b, diagonal(b, mask, r, nq, nk),
                                     cst(mask.getRightExtent() + 1));
    return arith::MinSIOp::create(b, hi, nk);
  };
  // A hidden range is searched for within the visible one.
  if (kind != KVRangeKind::Unmasked) {
    Value first = lowKey(r0), end = highKey(rLast);
    Value lower = arith::FloorDivSIOp::create(b, first, bn);
    Value empty =
        arith::CmpIOp::create(b, arith::CmpIPredicate::sle, end, first);
    Value upper = arith::SelectOp::create(
        b, empty, lower, arith::CeilDivSIOp::create(b, end, bn));
    return {lower, upper};
  }
  Value first = lowKey(rLast), end = highKey(r0);
  return {arith::CeilDivSIOp::create(b, first, bn),
          arith::FloorDivSIOp::create(b, end, bn)};
}

bool mlir::attn::isBlockStart(Value offset, Value blockIndex,
                              int64_t blockSize) {
  auto mul = offset.getDefiningOp<arith::MulIOp>();
  if (!mul)
    return false;
  Value lhs = mul.getLhs(), rhs = mul.getRhs();
  if (rhs == blockIndex)
    std::swap(lhs, rhs);
  APInt factor;
  return lhs == blockIndex && matchPattern(rhs, m_ConstantInt(&factor)) &&
         factor.getSExtValue() == blockSize;
}
