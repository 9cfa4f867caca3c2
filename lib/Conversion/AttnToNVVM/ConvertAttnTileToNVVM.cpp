//===- ConvertAttnTileToNVVM.cpp - tile programs to sm_80 kernels ---------===//
//
// Turns each function holding an attn.program (the output of attn-tile and,
// optionally, attn-split-kv-loop) into a gpu.func kernel in the gpu.module
// @attn_kernels, written with gpu, arith, scf, llvm and nvvm ops, and erases
// the host function: a kernel's host side is the runtime (runtime/), which
// launches it from the metadata this pass attaches (attn.launch).
//
// Algorithm:
//  1. Analyse the program: element type, head dims, tile configuration,
//     mask, softmax scale, which buffer plays Q, K, V, O and LSE. Refuse
//     (with a diagnostic) what this lowering does not handle.
//  2. Create the kernel: pointers and i64 sizes/strides as arguments
//     (ABI in docs/gpu-kernels.md), one CTA per program instance, warps of
//     16 query rows each, dynamic shared memory for the Q tile and one K
//     and one V tile.
//  3. Walk the program body in order, lowering each op:
//     - index arithmetic, memref.dim and attn.kv_range: cloned / rebuilt on
//       the kernel's sizes and block ids;
//     - attn.load: cp.async of the block into swizzled shared memory (the K
//       and V loads of one iteration are issued together, in two groups);
//     - scf.for over K/V blocks: an scf.for whose loop-carried values are
//       the per-thread registers of the running max, sum and accumulator;
//     - attn.dot Q K^T and P V: ldmatrix + mma.sync m16n8k16 loops;
//     - attn.mask, attn.online_softmax, attn.finalize: per-register math on
//       the mma accumulator layout, row reductions by quad shuffles;
//     - arith.truncf of P: repacked into A operands in registers;
//     - attn.store: guarded global stores of O (packed pairs) and LSE.
//
//===----------------------------------------------------------------------===//

#include "attn/Conversion/Passes.h"

#include "KernelEmitter.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

namespace mlir {
namespace attn {
#define GEN_PASS_DEF_CONVERTATTNTEMPLATETONVVM
#include "attn/Conversion/Passes.h.inc"
} // namespace attn
} // namespace mlir

using namespace mlir;
using namespace mlir::attn;
using namespace mlir::attn::sm80;

namespace {

static gpu::GPUModuleOp getOrCreateKernelModule(ModuleOp module) {
  if (auto existing = module.lookupSymbol<gpu::GPUModuleOp>("attn_kernels"))
    return existing;
  OpBuilder b(module.getBodyRegion());
  b.setInsertionPointToEnd(module.getBody());
  auto gpuModule = gpu::GPUModuleOp::create(b, module.getLoc(), "attn_kernels");
  OpBuilder inner(gpuModule.getBodyRegion());
  // Dynamic shared memory: one extern array, sized at launch.
  LLVM::GlobalOp::create(
      inner, module.getLoc(),
      LLVM::LLVMArrayType::get(inner.getI8Type(), 0), /*isConstant=*/false,
      LLVM::Linkage::External, "attn_smem", Attribute(), /*alignment=*/128,
      /*addrSpace=*/3);
  module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                  UnitAttr::get(module.getContext()));
  return gpuModule;
}

static LogicalResult lowerFunction(func::FuncOp func, ProgramOp program,
                                   gpu::GPUModuleOp gpuModule,
                                   int64_t maxSharedBytes) {
  FailureOr<ProgramInfo> info = analyzeProgram(program, maxSharedBytes);
  if (failed(info))
    return failure();
  MLIRContext *ctx = func.getContext();
  Location loc = program.getLoc();
  OpBuilder mb(gpuModule.getBodyRegion());
  mb.setInsertionPointToEnd(gpuModule.getBody());
  auto ptrG = LLVM::LLVMPointerType::get(ctx, 1);
  SmallVector<Type> args(NumRoles, ptrG);
  // B, Hq, Hkv, Nq, Nk, then (batch, head, row) strides of q, k, v, o and
  // (batch, head) strides of lse, all i64 and in elements.
  args.append(5 + 3 * 4 + 2, mb.getI64Type());
  auto kernel = gpu::GPUFuncOp::create(mb, loc, func.getSymName(),
                                       mb.getFunctionType(args, {}));
  kernel->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), mb.getUnitAttr());
  int64_t threads = 32 * info->warps;
  kernel.setKnownBlockSizeAttr(
      mb.getDenseI32ArrayAttr({(int32_t)threads, 1, 1}));
  NamedAttrList launch;
  launch.append("block_m", mb.getI64IntegerAttr(info->blockM));
  launch.append("block_n", mb.getI64IntegerAttr(info->blockN));
  launch.append("warps", mb.getI64IntegerAttr(info->warps));
  launch.append("stages", mb.getI64IntegerAttr(info->config.getStages()));
  launch.append("lazy_rescale", mb.getBoolAttr(info->lazyRescale));
  launch.append("reverse_kv", mb.getBoolAttr(info->gpuConfig.getReverseKv()));
  launch.append("loop_local_ids", mb.getBoolAttr(info->loopLocalIds));
  launch.append("split_kv", mb.getBoolAttr(info->config.getSplitKv()));
  launch.append("threads", mb.getI64IntegerAttr(threads));
  launch.append("shared_bytes", mb.getI64IntegerAttr(info->smemBytes()));
  launch.append("head_dim", mb.getI64IntegerAttr(info->d));
  launch.append("value_head_dim", mb.getI64IntegerAttr(info->dv));
  launch.append("element_type", TypeAttr::get(info->elt));
  launch.append("mask", info->mask);
  launch.append("has_lse", mb.getBoolAttr(info->hasLse));
  launch.append("scale_log2e", mb.getF64FloatAttr(info->scaleLog2e));
  kernel->setAttr("attn.launch", launch.getDictionary(ctx));

  ImplicitLocOpBuilder b(loc, mb);
  b.setInsertionPointToStart(&kernel.getBody().front());
  Value smem = LLVM::AddressOfOp::create(
      b, LLVM::LLVMPointerType::get(ctx, 3), "attn_smem");
  KernelEmitter emitter(*info, kernel, b, smem);
  if (failed(emitter.emit())) {
    kernel.erase();
    return failure();
  }
  gpu::ReturnOp::create(b);
  func.erase();
  return success();
}

struct ConvertAttnTemplateToNVVMPass
    : public attn::impl::ConvertAttnTemplateToNVVMBase<
          ConvertAttnTemplateToNVVMPass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<std::pair<func::FuncOp, ProgramOp>> work;
    bool failedAny = false;
    module.walk([&](func::FuncOp func) {
      SmallVector<ProgramOp> programs;
      func.walk([&](ProgramOp p) { programs.push_back(p); });
      if (programs.size() > 1) {
        func.emitOpError() << "holds " << programs.size()
                           << " attn.program ops; the GPU lowering makes one "
                              "kernel per function";
        failedAny = true;
      } else if (programs.size() == 1) {
        work.push_back({func, programs.front()});
      }
    });
    if (failedAny)
      return signalPassFailure();
    if (work.empty())
      return;
    gpu::GPUModuleOp gpuModule = getOrCreateKernelModule(module);
    for (auto [func, program] : work)
      if (failed(lowerFunction(func, program, gpuModule, maxSharedBytes)))
        failedAny = true;
    if (failedAny)
      signalPassFailure();
  }
};
} // namespace
