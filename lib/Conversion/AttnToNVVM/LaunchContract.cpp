//===- LaunchContract.cpp - what a kernel's launch must satisfy ----------===//
//
// See LaunchContract.h.
//
//===----------------------------------------------------------------------===//

#include "LaunchContract.h"

#include "attn_contract.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::attn;
using namespace mlir::attn::nvgpu;

std::optional<BufferDim> nvgpu::asBufferDim(Value v, ArrayRef<Value> args) {
  auto dim = v.getDefiningOp<memref::DimOp>();
  if (!dim)
    return std::nullopt;
  std::optional<int64_t> index = dim.getConstantIndex();
  auto it = llvm::find(args, dim.getSource());
  if (!index || it == args.end())
    return std::nullopt;
  return BufferDim{unsigned(it - args.begin()), *index};
}

bool nvgpu::readAssert(cf::AssertOp op, ArrayRef<Value> args,
                       Contract &contract) {
  auto isEq = [&](Value v, Value &lhs, Value &rhs) {
    auto cmp = v.getDefiningOp<arith::CmpIOp>();
    if (!cmp || cmp.getPredicate() != arith::CmpIPredicate::eq)
      return false;
    lhs = cmp.getLhs();
    rhs = cmp.getRhs();
    return true;
  };
  Value lhs, rhs;
  if (isEq(op.getArg(), lhs, rhs)) {
    std::optional<BufferDim> a = asBufferDim(lhs, args),
                             b = asBufferDim(rhs, args);
    if (!a || !b)
      return false;
    contract.equal.push_back({*a, *b});
    contract.unite(*a, *b);
    return true;
  }
  // or(d == full, d == 1): a broadcast dimension.
  if (auto either = op.getArg().getDefiningOp<arith::OrIOp>()) {
    Value a, b2, c, one;
    if (isEq(either.getLhs(), a, b2) && isEq(either.getRhs(), c, one) &&
        a == c && matchPattern(one, m_One())) {
      std::optional<BufferDim> dim = asBufferDim(a, args),
                               full = asBufferDim(b2, args);
      if (!dim || !full)
        return false;
      contract.broadcasts.push_back({*dim, *full});
      return true;
    }
    return false;
  }
  // and(d > 0, rem(n, select(d > 0, d, 1)) == 0)
  auto both = op.getArg().getDefiningOp<arith::AndIOp>();
  if (!both)
    return false;
  auto positive = both.getLhs().getDefiningOp<arith::CmpIOp>();
  Value remResult, zero;
  if (!positive || positive.getPredicate() != arith::CmpIPredicate::sgt ||
      !matchPattern(positive.getRhs(), m_Zero()) ||
      !isEq(both.getRhs(), remResult, zero) || !matchPattern(zero, m_Zero()))
    return false;
  auto rem = remResult.getDefiningOp<arith::RemUIOp>();
  auto safe =
      rem ? rem.getRhs().getDefiningOp<arith::SelectOp>() : arith::SelectOp();
  if (!rem || !safe || safe.getCondition() != positive.getResult() ||
      safe.getTrueValue() != positive.getLhs())
    return false;
  std::optional<BufferDim> divisor = asBufferDim(positive.getLhs(), args),
                           dividend = asBufferDim(rem.getLhs(), args);
  if (!divisor || !dividend)
    return false;
  contract.divides.push_back({*divisor, *dividend});
  return true;
}

// The fields of the launch contract the module carries (a constant global
// `attn_contract_<kernel>` of i64) are the runtime's list, which reads it
// with cuModuleGetGlobal and checks the metadata against it at load.
using namespace attn_contract;

void nvgpu::emitLaunchContract(OpBuilder &mb, gpu::GPUFuncOp kernel,
                               TileConfigAttr config, int64_t format,
                               int64_t threads, int64_t sharedBytes,
                               ProgramOp program, ArrayRef<Value> args,
                               ArrayRef<SmallVector<StringRef>> roles) {
  SmallVector<int64_t> c(kContractFields, 0);
  c[kContractMagic] = 0x6e747461;
  c[kContractVersion] = 2;
  c[kContractFormat] = format;
  c[kContractBlockM] = config.getBlockM();
  c[kContractBlockN] = config.getBlockN();
  c[kContractWarps] = config.getWarps();
  c[kContractStages] = config.getStages();
  c[kContractThreads] = threads;
  c[kContractSharedBytes] = sharedBytes;
  c[kContractNumBuffers] = args.size();
  c[kContractPersistent] = program.getPersistent() ? 1 : 0;
  for (auto [arg, r] : llvm::zip(args, roles)) {
    auto type = cast<MemRefType>(arg.getType());
    auto dim3 = [&] {
      return type.getRank() == 4 && !type.isDynamicDim(3) ? type.getDimSize(3)
                                                          : int64_t(0);
    };
    if (llvm::is_contained(r, "q")) {
      c[kContractHeadDim] = dim3();
      Type elt = type.getElementType();
      c[kContractElementType] = elt.isF16() ? 0 : elt.isBF16() ? 1 : 2;
    }
    if (llvm::is_contained(r, "v"))
      c[kContractValueHeadDim] = dim3();
    if (llvm::is_contained(r, "lse"))
      c[kContractHasLse] = 1;
  }
  if (auto mask = program->getAttrOfType<MaskAttr>("attn.mask")) {
    c[kContractMaskKind] = mask.getKind() == MaskKind::Causal   ? 1
                           : mask.getKind() == MaskKind::Window ? 2
                                                                : 0;
    c[kContractMaskAlignment] =
        mask.getAlignment() == MaskAlignment::BottomRight ? 1 : 0;
    if (mask.getKind() == MaskKind::Window) {
      c[kContractMaskLeft] = mask.getLeft();
      c[kContractMaskRight] = mask.getRight();
    }
  }
  auto type = RankedTensorType::get({kContractFields}, mb.getI64Type());
  LLVM::GlobalOp::create(
      mb, kernel.getLoc(),
      LLVM::LLVMArrayType::get(mb.getI64Type(), kContractFields),
      /*isConstant=*/true, LLVM::Linkage::External,
      ("attn_contract_" + kernel.getName()).str(),
      DenseElementsAttr::get(type, ArrayRef<int64_t>(c)), /*alignment=*/8,
      /*addrSpace=*/1);
}
