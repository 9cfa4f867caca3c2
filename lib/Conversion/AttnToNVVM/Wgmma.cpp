//===- Wgmma.cpp - Hopper warpgroup MMA building blocks -------------------===//

#include "Wgmma.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::attn;

Value nvgpu::wgmmaDescriptor(ImplicitLocOpBuilder &b, Value smem,
                             Value byteOffset, int64_t lbo, int64_t sbo) {
  Type i64T = b.getI64Type();
  Value ptr = LLVM::GEPOp::create(b, smem.getType(), b.getI8Type(), smem,
                                  ArrayRef<LLVM::GEPArg>{byteOffset});
  Value addr = LLVM::PtrToIntOp::create(b, i64T, ptr);
  Value start = arith::AndIOp::create(
      b, arith::ShRUIOp::create(b, addr, arith::ConstantIntOp::create(b, 4, 64)),
      arith::ConstantIntOp::create(b, 0x3FFF, 64));
  uint64_t fields = (uint64_t((lbo >> 4) & 0x3FFF) << 16) |
                    (uint64_t((sbo >> 4) & 0x3FFF) << 32) | (uint64_t(1) << 62);
  return arith::OrIOp::create(
      b, start,
      arith::ConstantIntOp::create(b, static_cast<int64_t>(fields), 64));
}

Value nvgpu::advanceDescriptor(ImplicitLocOpBuilder &b, Value desc,
                               int64_t bytes) {
  if (bytes == 0)
    return desc;
  return arith::AddIOp::create(b, desc,
                               arith::ConstantIntOp::create(b, bytes >> 4, 64));
}

Type nvgpu::wgmmaAccumulatorType(MLIRContext *ctx, int64_t n) {
  return LLVM::LLVMStructType::getLiteral(
      ctx, SmallVector<Type>(n / 2, Float32Type::get(ctx)));
}

static NVVM::WGMMATypes wgmmaType(Type elt) {
  return elt.isBF16() ? NVVM::WGMMATypes::bf16 : NVVM::WGMMATypes::f16;
}

/// One wgmma.mma_async m64n<N>k16 as inline PTX: A from registers (`aRegs`,
/// four packed i32) or shared memory (`descA`), B from shared memory,
/// D += A B (scale-d true), predicated on `guard` (an i1) when there is
/// one. Operands: $0..$(N/2-1) the accumulator outputs, then the A
/// registers or descriptor, B's descriptor, the guard, and the
/// accumulator inputs tied to the outputs ("0", "1", ...), so that a
/// product whose guard is false leaves the accumulator as it was.
static Value wgmmaInline(ImplicitLocOpBuilder &b, Value acc,
                         ArrayRef<Value> aRegs, Value descA, Value descB,
                         int64_t n, Type elt, bool bMNMajor, Value guard) {
  int64_t regs = n / 2;
  std::string d, constraints;
  for (int64_t i = 0; i < regs; ++i) {
    d += (i ? ", $" : "$") + std::to_string(i);
    constraints += (i ? ",=f" : "=f");
  }
  SmallVector<Value> operands;
  int64_t next = regs;
  auto operand = [&](Value v, StringRef constraint) {
    operands.push_back(v);
    constraints += ("," + constraint).str();
    return "$" + std::to_string(next++);
  };
  std::string a;
  if (aRegs.empty()) {
    a = operand(descA, "l");
  } else {
    a = "{";
    for (auto [i, reg] : llvm::enumerate(aRegs))
      a += (i ? ", " : "") + operand(reg, "r");
    a += "}";
  }
  std::string bDesc = operand(descB, "l");
  // The guard goes in a predicate register ("b"), not a general one: the
  // consumers of a D = 256 kernel have none to spare.
  std::string at;
  if (guard)
    at = "@" + operand(guard, "b") + " ";
  for (int64_t i = 0; i < regs; ++i) {
    operands.push_back(LLVM::ExtractValueOp::create(b, acc, i));
    constraints += "," + std::to_string(i);
  }
  // Immediates: scale-a, scale-b, then (A in shared memory only) the
  // transpose of A, and the transpose of B (MN-major).
  std::string imms = aRegs.empty() ? "1, 1, 0, " : "1, 1, ";
  imms += bMNMajor ? "1" : "0";
  StringRef type = elt.isBF16() ? "bf16" : "f16";
  std::string ptx = llvm::formatv(
      "{{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n"
      "{0}wgmma.mma_async.sync.aligned.m64n{1}k16.f32.{2}.{2} {{{3}}, {4}, "
      "{5}, p, {6};\n}\n",
      at, n, type, d, a, bDesc, imms);
  return LLVM::InlineAsmOp::create(
             b, acc.getType(), operands, ptx, constraints,
             /*has_side_effects=*/true, /*is_align_stack=*/false,
             LLVM::tailcallkind::TailCallKind::None,
             LLVM::AsmDialectAttr::get(b.getContext(),
                                       LLVM::AsmDialect::AD_ATT),
             /*operand_attrs=*/ArrayAttr())
      .getResult(0);
}

Value nvgpu::wgmmaSS(ImplicitLocOpBuilder &b, Value acc, Value descA,
                     Value descB, int64_t n, Type elt, bool bMNMajor,
                     Value guard) {
  // NVVM's op has no guard predicate: a guarded product is inline PTX.
  if (guard)
    return wgmmaInline(b, acc, {}, descA, descB, n, elt, bMNMajor, guard);
  MLIRContext *ctx = b.getContext();
  // PTX's default is A row-major and B column-major, both K-major; B
  // stored [K, N] is the transposed (MN-major) case.
  return NVVM::WgmmaMmaAsyncOp::create(
      b, acc.getType(), acc, descA, descB,
      NVVM::MMAShapeAttr::get(ctx, 64, n, 16), wgmmaType(elt), wgmmaType(elt),
      NVVM::WGMMATypes::f32, NVVM::WGMMAScaleOut::one,
      NVVM::WGMMAScaleIn::one, NVVM::WGMMAScaleIn::one, NVVM::MMALayout::row,
      bMNMajor ? NVVM::MMALayout::row : NVVM::MMALayout::col,
      /*satfinite=*/nullptr);
}

Value nvgpu::wgmmaRS(ImplicitLocOpBuilder &b, Value acc, ArrayRef<Value> a,
                     Value descB, int64_t n, Type elt, bool bMNMajor,
                     Value guard) {
  return wgmmaInline(b, acc, a, /*descA=*/Value(), descB, n, elt, bMNMajor,
                     guard);
}

Value nvgpu::fenceAccumulator(ImplicitLocOpBuilder &b, Value acc) {
  auto structT = cast<LLVM::LLVMStructType>(acc.getType());
  int64_t regs = structT.getBody().size();
  std::string constraints;
  SmallVector<Value> operands;
  for (int64_t i = 0; i < regs; ++i)
    constraints += (i ? ",=f" : "=f");
  for (int64_t i = 0; i < regs; ++i) {
    constraints += "," + std::to_string(i);
    operands.push_back(LLVM::ExtractValueOp::create(b, acc, i));
  }
  return LLVM::InlineAsmOp::create(
             b, acc.getType(), operands, "", constraints,
             /*has_side_effects=*/true, /*is_align_stack=*/false,
             LLVM::tailcallkind::TailCallKind::None,
             LLVM::AsmDialectAttr::get(b.getContext(),
                                       LLVM::AsmDialect::AD_ATT),
             /*operand_attrs=*/ArrayAttr())
      .getResult(0);
}

SmallVector<Value> nvgpu::fenceRegisters(ImplicitLocOpBuilder &b,
                                         ValueRange regs) {
  // In structs of at most 128 registers (one m64n256 accumulator), the
  // size the fence is used with after a synchronous product.
  SmallVector<Value> out;
  for (size_t first = 0; first < regs.size(); first += 128) {
    size_t count = std::min<size_t>(128, regs.size() - first);
    Type structT = wgmmaAccumulatorType(b.getContext(), 2 * count);
    Value s = LLVM::UndefOp::create(b, structT);
    for (size_t i = 0; i < count; ++i)
      s = LLVM::InsertValueOp::create(b, s, regs[first + i], i);
    s = fenceAccumulator(b, s);
    for (size_t i = 0; i < count; ++i)
      out.push_back(LLVM::ExtractValueOp::create(b, s, i));
  }
  return out;
}
