//===- ElementwiseToNVVM.cpp - arith and math on tiles, layout changes ----===//
//
// A thread holds the same elements of every tile of one layout, so an
// elementwise op on tiles is the same op on each of its registers: one
// pattern serves every arith and math op. Math functions marked
// `fastmath<afn>` take the hardware approximations (ex2, lg2, tanh) instead
// of the accurate library versions; those with an instruction of their own
// (abs, copysign, fma, floor, ceil, sqrt) become it; the others stay math
// ops, for convert-gpu-to-nvvm's libdevice calls.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"

#include <cmath>

using namespace mlir;
using namespace mlir::attn;
using namespace mlir::attn::nvgpu;

/// Whether `type` is a tile held in registers.
static bool isRegisterTile(Type type) {
  auto tile = dyn_cast<RankedTensorType>(type);
  return tile && isa_and_nonnull<RegisterLayoutInterface>(tile.getEncoding());
}

/// The hardware approximation of a unary f32 math op (on f32 tiles) under
/// `afn`, if any: the intrinsic and a factor applied to the operand first
/// (exp(x) = 2^(x log2 e)).
static std::optional<std::pair<StringRef, double>>
approximation(Operation *op) {
  auto fm = dyn_cast<arith::ArithFastMathInterface>(op);
  arith::FastMathFlagsAttr flags = fm ? fm.getFastMathFlagsAttr() : nullptr;
  if (!flags ||
      !bitEnumContainsAll(flags.getValue(), arith::FastMathFlags::afn) ||
      op->getNumOperands() != 1 ||
      !getElementTypeOrSelf(op->getResult(0).getType()).isF32())
    return std::nullopt;
  if (isa<math::Exp2Op>(op))
    return std::pair<StringRef, double>("llvm.nvvm.ex2.approx.ftz.f32", 1.0);
  if (isa<math::ExpOp>(op))
    return std::pair<StringRef, double>("llvm.nvvm.ex2.approx.ftz.f32",
                                        M_LOG2E);
  if (isa<math::Log2Op>(op))
    return std::pair<StringRef, double>("llvm.nvvm.lg2.approx.f", 1.0);
  // tanh has no NVVM intrinsic: the NVPTX backend selects tanh.approx.f32
  // for llvm.tanh with `afn` (see approximate()).
  if (isa<math::TanhOp>(op))
    return std::pair<StringRef, double>("llvm.tanh", 1.0);
  return std::nullopt;
}

/// The approximation `what` of `x` (see approximation()).
static Value approximate(ImplicitLocOpBuilder &b, Type elt,
                         std::pair<StringRef, double> what, Value x) {
  if (what.second != 1.0)
    x = arith::MulFOp::create(b, x, f32(b, what.second));
  if (what.first == "llvm.tanh")
    return LLVM::TanhOp::create(
        b, elt, x,
        LLVM::FastmathFlagsAttr::get(b.getContext(),
                                     LLVM::FastmathFlags::afn));
  return LLVM::CallIntrinsicOp::create(b, elt, b.getStringAttr(what.first),
                                       ValueRange{x})
      .getResult(0);
}

/// Math ops with a PTX instruction of their own, built so that they select
/// it, or null. Left as math ops, convert-gpu-to-nvvm would call libdevice
/// for them (__nv_fabsf for an absf), and it refuses the LLVM intrinsics
/// (llvm.fabs, llvm.floor, ...) for the same reason; sign-bit arithmetic
/// and the NVVM intrinsics select abs / copysign / cvt.rmi / sqrt.rn.
static Value nativeMath(ImplicitLocOpBuilder &b, Operation *op, Type elt,
                        ValueRange x) {
  auto fty = dyn_cast<FloatType>(elt);
  if (!fty)
    return Value();
  unsigned width = fty.getWidth();
  Type ity = b.getIntegerType(width);
  auto bits = [&](Value v) { return LLVM::BitcastOp::create(b, ity, v); };
  auto mask = [&](bool sign) {
    APInt m = APInt::getSignMask(width);
    return LLVM::ConstantOp::create(b, ity, b.getIntegerAttr(ity, sign ? m : ~m));
  };
  if (isa<math::AbsFOp>(op))
    return LLVM::BitcastOp::create(
        b, elt, LLVM::AndOp::create(b, bits(x[0]), mask(false)));
  if (isa<math::CopySignOp>(op))
    return LLVM::BitcastOp::create(
        b, elt,
        LLVM::OrOp::create(b, LLVM::AndOp::create(b, bits(x[0]), mask(false)),
                           LLVM::AndOp::create(b, bits(x[1]), mask(true))));
  if (isa<math::FmaOp>(op))
    return LLVM::FMAOp::create(b, elt, x[0], x[1], x[2]);
  StringRef intrinsic;
  if (fty.isF32()) {
    if (isa<math::FloorOp>(op))
      intrinsic = "llvm.nvvm.floor.f";
    else if (isa<math::CeilOp>(op))
      intrinsic = "llvm.nvvm.ceil.f";
    else if (isa<math::SqrtOp>(op))
      intrinsic = "llvm.nvvm.sqrt.f";
  }
  if (intrinsic.empty())
    return Value();
  return LLVM::CallIntrinsicOp::create(b, elt, b.getStringAttr(intrinsic),
                                       ValueRange{x[0]})
      .getResult(0);
}

/// x = base + c for an `arith.addi` with a constant operand, else x + 0.
static std::pair<Value, APInt> splitOffset(Value x) {
  unsigned width =
      x.getType().isIndex() ? 64 : x.getType().getIntOrFloatBitWidth();
  if (auto add = x.getDefiningOp<arith::AddIOp>()) {
    APInt c;
    if (matchPattern(add.getRhs(), m_ConstantInt(&c)))
      return {add.getLhs(), c.sextOrTrunc(width)};
    if (matchPattern(add.getLhs(), m_ConstantInt(&c)))
      return {add.getRhs(), c.sextOrTrunc(width)};
  }
  return {x, APInt(width, 0)};
}

/// One register's `x - y` or `x + y` where x and y carry constant offsets
/// (attn.iota's registers are the thread's first index plus a constant):
/// (bx - by) + (cx - cy), so that the per-thread difference is shared by
/// every register (LLVM merges the identical ones) and each register adds
/// one immediate. The same value in modular arithmetic. Null where neither
/// operand has an offset.
static Value foldOffsets(ImplicitLocOpBuilder &b, Operation *op, Value x,
                         Value y) {
  bool sub = isa<arith::SubIOp>(op);
  if (!sub && !isa<arith::AddIOp>(op))
    return Value();
  auto [bx, cx] = splitOffset(x);
  auto [by, cy] = splitOffset(y);
  if (cx.isZero() && cy.isZero())
    return Value();
  APInt c = sub ? cx - cy : cx + cy;
  Value base = sub ? Value(arith::SubIOp::create(b, bx, by))
                   : Value(arith::AddIOp::create(b, bx, by));
  Type type = x.getType();
  Value cst = arith::ConstantOp::create(b, type, b.getIntegerAttr(type, c));
  return arith::AddIOp::create(b, base, cst);
}

/// One register's `cmpi pred, base + c, C` (or `C, base + c`) with C a
/// constant: `cmpi pred, base, C - c`, a compare against an immediate
/// instead of an add and a compare (the sink + window mask_mod's
/// `qi - ki <= 1024` is one compare of the per-thread difference per
/// register, and its kernel no longer spills). Where `C - c` fits 32 bits
/// (checked here): exact for eq and ne in modular arithmetic, and for the
/// signed predicates where `base + c` does not overflow, which the GPU's
/// contract gives (index is 32 bits there and a program's index
/// arithmetic must not overflow it: the runtime keeps every index an
/// attn.attention kernel forms below 2^31 - 1 - block). Unsigned
/// predicates are left alone (`base` may be negative where `base + c` is
/// not). Null where it does not apply.
static Value foldCompare(ImplicitLocOpBuilder &b, arith::CmpIOp op, Value x,
                         Value y) {
  using P = arith::CmpIPredicate;
  P pred = op.getPredicate();
  if (pred != P::eq && pred != P::ne && pred != P::slt && pred != P::sle &&
      pred != P::sgt && pred != P::sge)
    return Value();
  Type type = x.getType();
  // The width the GPU computes in: index is 32 bits (Pipelines.cpp).
  unsigned width = type.isIndex() ? 32 : type.getIntOrFloatBitWidth();
  APInt cst;
  bool constLeft = matchPattern(x, m_ConstantInt(&cst));
  if (!constLeft && !matchPattern(y, m_ConstantInt(&cst)))
    return Value();
  auto [base, c] = splitOffset(constLeft ? y : x);
  if (c.isZero() || c.getSignificantBits() > width ||
      cst.getSignificantBits() > width)
    return Value();
  bool overflow = false;
  APInt folded = cst.sextOrTrunc(width).ssub_ov(c.sextOrTrunc(width), overflow);
  // Even eq / ne, which would hold modulo 2^32: the constant is built at
  // the IR's width (64 for index), so a wrapped one would be wrong
  // wherever index is lowered wider than 32 bits.
  if (overflow)
    return Value();
  unsigned typeWidth = type.isIndex() ? 64 : width;
  Value k = arith::ConstantOp::create(
      b, type, b.getIntegerAttr(type, folded.sext(typeWidth)));
  return arith::CmpIOp::create(b, pred, constLeft ? k : base,
                               constLeft ? base : k);
}

namespace {

/// Any arith or math op on register tiles: the op once per register.
struct ElementwiseOnTiles : public ConversionPattern {
  ElementwiseOnTiles(const TypeConverter &converter, MLIRContext *ctx)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), /*benefit=*/1, ctx) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<ValueRange> operands,
                  ConversionPatternRewriter &rewriter) const override {
    Dialect *dialect = op->getDialect();
    if (!dialect || !isa<arith::ArithDialect, math::MathDialect>(dialect) ||
        isa<arith::ConstantOp>(op) || op->getNumRegions() != 0 ||
        op->getNumResults() != 1 || !isRegisterTile(op->getResult(0).getType()))
      return failure();
    auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
    size_t n = cast<RegisterLayoutInterface>(resultType.getEncoding())
                   .getElementsPerThread(resultType.getShape());
    for (auto [value, converted] : llvm::zip(op->getOperands(), operands))
      if (!isRegisterTile(value.getType()) || converted.size() != n)
        return rewriter.notifyMatchFailure(
            op, "operands are not tiles of the result's layout");
    ImplicitLocOpBuilder b(op->getLoc(), rewriter);
    Type elt = resultType.getElementType();
    std::optional<std::pair<StringRef, double>> approx = approximation(op);
    SmallVector<Value> results;
    results.reserve(n);
    for (size_t i = 0; i < n; ++i) {
      SmallVector<Value> scalars;
      for (ValueRange converted : operands)
        scalars.push_back(converted[i]);
      if (approx) {
        results.push_back(approximate(b, elt, *approx, scalars[0]));
        continue;
      }
      if (Value native = nativeMath(b, op, elt, scalars)) {
        results.push_back(native);
        continue;
      }
      if (scalars.size() == 2 && elt.isSignlessIntOrIndex())
        if (Value folded = foldOffsets(b, op, scalars[0], scalars[1])) {
          results.push_back(folded);
          continue;
        }
      if (auto cmp = dyn_cast<arith::CmpIOp>(op))
        if (Value folded = foldCompare(b, cmp, scalars[0], scalars[1])) {
          results.push_back(folded);
          continue;
        }
      OperationState state(op->getLoc(), op->getName());
      state.addOperands(scalars);
      state.addTypes(elt);
      state.addAttributes(op->getAttrs());
      results.push_back(rewriter.create(state)->getResult(0));
    }
    rewriter.replaceOpWithMultiple(op, {results});
    return success();
  }
};

/// f32 -> f16/bf16 of a tile whose registers come in pairs of adjacent
/// columns (#attn.mma, #attn.dot_operand): each pair is rounded into one
/// packed 32-bit value (one `cvt.rn.f16x2.f32`) and the pair's two halves
/// are taken from it. A consumer that packs the pair again (the A operand
/// of P V, a 4-byte store of O) then gets the packed value back without
/// converting again, wherever it is (LLVM folds the unpack/pack).
struct PackedTruncF : public OpConversionPattern<arith::TruncFOp> {
  PackedTruncF(const TypeConverter &converter, MLIRContext *ctx)
      : OpConversionPattern(converter, ctx, /*benefit=*/2) {}
  LogicalResult
  matchAndRewrite(arith::TruncFOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = dyn_cast<RankedTensorType>(op.getType());
    if (!type || !isa_and_nonnull<MmaLayoutAttr, DotOperandLayoutAttr>(
                     type.getEncoding()) ||
        type.getElementType().getIntOrFloatBitWidth() != 16 ||
        !cast<RankedTensorType>(op.getIn().getType()).getElementType().isF32())
      return failure();
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    Type elt = type.getElementType();
    Type vecT = VectorType::get({2}, elt);
    ValueRange in = adaptor.getIn();
    SmallVector<Value> out;
    for (size_t i = 0; i + 1 < in.size(); i += 2) {
      Value lo = arith::TruncFOp::create(b, elt, in[i]);
      Value hi = arith::TruncFOp::create(b, elt, in[i + 1]);
      Value v = LLVM::UndefOp::create(b, vecT);
      v = LLVM::InsertElementOp::create(b, v, lo, i32(b, 0));
      v = LLVM::InsertElementOp::create(b, v, hi, i32(b, 1));
      Value packed = LLVM::BitcastOp::create(b, b.getI32Type(), v);
      Value pair = LLVM::BitcastOp::create(b, vecT, packed);
      out.push_back(LLVM::ExtractElementOp::create(b, pair, i32(b, 0)));
      out.push_back(LLVM::ExtractElementOp::create(b, pair, i32(b, 1)));
    }
    rewriter.replaceOpWithMultiple(op, {out});
    return success();
  }
};

/// A tile constant: the same scalar in every register (splats only; a
/// tile whose registers differ per thread has no such lowering and is
/// refused before the conversion).
struct TileConstant : public OpConversionPattern<arith::ConstantOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(arith::ConstantOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isRegisterTile(op.getType()))
      return failure();
    auto dense = dyn_cast<DenseElementsAttr>(op.getValue());
    if (!dense || !dense.isSplat())
      return rewriter.notifyMatchFailure(op, "not a splat");
    auto type = cast<RankedTensorType>(op.getType());
    size_t n = cast<RegisterLayoutInterface>(type.getEncoding())
                   .getElementsPerThread(type.getShape());
    Value scalar = arith::ConstantOp::create(
        rewriter, op.getLoc(), type.getElementType(),
        cast<TypedAttr>(dense.getSplatValue<Attribute>()));
    rewriter.replaceOpWithMultiple(op, {SmallVector<Value>(n, scalar)});
    return success();
  }
};

/// A scalar broadcast to a tile: the scalar in every register.
struct TileSplat : public OpConversionPattern<tensor::SplatOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tensor::SplatOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getType());
    auto layout = dyn_cast_or_null<RegisterLayoutInterface>(type.getEncoding());
    if (!layout)
      return failure();
    size_t n = layout.getElementsPerThread(type.getShape());
    rewriter.replaceOpWithMultiple(
        op, {SmallVector<Value>(n, adaptor.getInput().front())});
    return success();
  }
};

/// Between the accumulator layout and the A-operand layout of the same
/// parent: the same registers in the same order (LoweringUtils.h, the
/// layouts' descriptions), so nothing moves.
struct ConvertLayoutInRegisters
    : public OpConversionPattern<ConvertLayoutOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ConvertLayoutOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto source = cast<RankedTensorType>(op.getSource().getType());
    auto result = cast<RankedTensorType>(op.getType());
    auto mma = dyn_cast<MmaLayoutAttr>(source.getEncoding());
    auto operand = dyn_cast<DotOperandLayoutAttr>(result.getEncoding());
    if (!mma || !operand || operand.getParent() != mma)
      return rewriter.notifyMatchFailure(op, "not mma -> its dot operand");
    rewriter.replaceOpWithMultiple(op, {adaptor.getSource()});
    return success();
  }
};
} // namespace

void nvgpu::populateElementwiseToNVVMPatterns(TileTypeConverter &converter,
                                              RewritePatternSet &patterns) {
  patterns.add<ElementwiseOnTiles>(converter, patterns.getContext());
  patterns.add<TileConstant, TileSplat, ConvertLayoutInRegisters, PackedTruncF>(
      converter, patterns.getContext());
}
