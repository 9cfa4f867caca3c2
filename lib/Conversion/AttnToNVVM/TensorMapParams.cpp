//===- TensorMapParams.cpp - by-value TMA descriptors read in place -------===//

#include "attn/Conversion/Passes.h"

#include "LoweringUtils.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

namespace mlir {
namespace attn {
#define GEN_PASS_DEF_ATTNTENSORMAPPARAMS
#include "attn/Conversion/Passes.h.inc"
} // namespace attn
} // namespace mlir

using namespace mlir;

namespace {
struct AttnTensorMapParamsPass
    : public attn::impl::AttnTensorMapParamsBase<AttnTensorMapParamsPass> {
  void runOnOperation() override {
    Builder b(&getContext());
    getOperation().walk([&](LLVM::LLVMFuncOp func) {
      auto count = func->getAttrOfType<IntegerAttr>(
          attn::nvgpu::kTensorMapCountAttr);
      if (!count)
        return;
      func->removeAttr(attn::nvgpu::kTensorMapCountAttr);
      unsigned n = func.getNumArguments();
      if (count.getInt() > n ||
          !func->hasAttr(NVVM::NVVMDialect::getKernelFuncAttrName())) {
        func.emitOpError() << "attn.tensor_maps = " << count.getInt()
                           << " needs a kernel with that many arguments";
        return signalPassFailure();
      }
      for (unsigned i = n - count.getInt(); i < n; ++i) {
        func.setArgAttr(i, LLVM::LLVMDialect::getByValAttrName(),
                        TypeAttr::get(LLVM::LLVMArrayType::get(b.getI64Type(), 16)));
        func.setArgAttr(i, LLVM::LLVMDialect::getAlignAttrName(),
                        b.getI64IntegerAttr(64));
        func.setArgAttr(i, NVVM::NVVMDialect::getGridConstantAttrName(),
                        b.getUnitAttr());
      }
    });
  }
};
} // namespace
