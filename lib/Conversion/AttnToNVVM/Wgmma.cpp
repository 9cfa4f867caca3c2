//===- Wgmma.cpp - Hopper warpgroup MMA building blocks -------------------===//

#include "Wgmma.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::attn;
using nvgpu::WgmmaStep;

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

/// wgmma.mma_async m64n<N>k16 steps on one accumulator as one inline-PTX
/// statement: per step A from registers (four packed i32) or shared memory
/// (a descriptor), B from shared memory; D += A B (scale-d true). With a
/// `guard` (an i1, in a predicate register: "b") the steps are branched
/// over when it is false. Operands: $0..$(N/2-1) the accumulator outputs,
/// then each step's A and B, the guard, and the accumulator inputs tied to
/// the outputs ("0", "1", ...), so that a product guarded off leaves the
/// accumulator as it was. One branch around all the steps, not a predicate
/// on each: ptxas makes each predicated wgmma a group of its own (its own
/// arrive and scoreboard), which measured 0.77-0.96x at D = 128
/// (docs/perf-log.md, 2026-12-02).
static Value wgmmaInline(ImplicitLocOpBuilder &b, Value acc,
                         ArrayRef<WgmmaStep> steps, int64_t n, Type elt,
                         bool bMNMajor, Value guard) {
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
  StringRef type = elt.isBF16() ? "bf16" : "f16";
  std::string body;
  for (const WgmmaStep &step : steps) {
    std::string a;
    if (step.aRegs.empty()) {
      a = operand(step.descA, "l");
    } else {
      a = "{";
      for (auto [i, reg] : llvm::enumerate(step.aRegs))
        a += (i ? ", " : "") + operand(reg, "r");
      a += "}";
    }
    std::string bDesc = operand(step.descB, "l");
    // Immediates: scale-a, scale-b, then (A in shared memory only) the
    // transpose of A, and the transpose of B (MN-major).
    std::string imms = step.aRegs.empty() ? "1, 1, 0, " : "1, 1, ";
    imms += bMNMajor ? "1" : "0";
    body += llvm::formatv(
        "wgmma.mma_async.sync.aligned.m64n{0}k16.f32.{1}.{1} {{{2}}, {3}, "
        "{4}, p, {5};\n",
        n, type, d, a, bDesc, imms);
  }
  std::string skip;
  if (guard)
    skip = "@!" + operand(guard, "b") + " bra.uni SKIP;\n";
  for (int64_t i = 0; i < regs; ++i) {
    operands.push_back(LLVM::ExtractValueOp::create(b, acc, i));
    constraints += "," + std::to_string(i);
  }
  std::string ptx = "{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n" + skip + body +
                    (guard ? "SKIP:\n}\n" : "}\n");
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
                     bool overwrite) {
  MLIRContext *ctx = b.getContext();
  // PTX's default is A row-major and B column-major, both K-major; B
  // stored [K, N] is the transposed (MN-major) case.
  return NVVM::WgmmaMmaAsyncOp::create(
      b, acc.getType(), acc, descA, descB,
      NVVM::MMAShapeAttr::get(ctx, 64, n, 16), wgmmaType(elt), wgmmaType(elt),
      NVVM::WGMMATypes::f32,
      overwrite ? NVVM::WGMMAScaleOut::zero : NVVM::WGMMAScaleOut::one,
      NVVM::WGMMAScaleIn::one, NVVM::WGMMAScaleIn::one, NVVM::MMALayout::row,
      bMNMajor ? NVVM::MMALayout::row : NVVM::MMALayout::col,
      /*satfinite=*/nullptr);
}

Value nvgpu::wgmmaRS(ImplicitLocOpBuilder &b, Value acc, ArrayRef<Value> a,
                     Value descB, int64_t n, Type elt, bool bMNMajor) {
  WgmmaStep step{SmallVector<Value, 4>(a.begin(), a.end()), Value(), descB};
  return wgmmaInline(b, acc, step, n, elt, bMNMajor, /*guard=*/Value());
}

Value nvgpu::wgmmaGuarded(ImplicitLocOpBuilder &b, Value acc,
                          ArrayRef<WgmmaStep> steps, int64_t n, Type elt,
                          bool bMNMajor, Value guard) {
  return wgmmaInline(b, acc, steps, n, elt, bMNMajor, guard);
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
