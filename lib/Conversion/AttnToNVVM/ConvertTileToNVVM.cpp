//===- ConvertTileToNVVM.cpp - laid-out tile programs to GPU kernels ------===//
//
// The pass driver of the GPU lowering; the work is in the pattern files:
//   OutlineKernel.cpp       attn.program -> kernel gpu.func (ABI, metadata)
//   ElementwiseToNVVM.cpp   arith/math on tiles, constants, layout changes
//   MemoryToNVVM.cpp        global loads/stores/prefetches, buffer views
//   SharedMemoryToNVVM.cpp  shared buffers, async copies, local loads/stores
//   DotToNVVM.cpp           attn.dot (ldmatrix + mma.sync; wgmma)
//   MaskToNVVM.cpp          attn.mask, attn.iota, attn.kv_range
//   ReduceToNVVM.cpp        row reductions and broadcasts
//   SoftmaxToNVVM.cpp       attn.online_softmax, attn.finalize
//   WarpSpecializeToNVVM.cpp  TMA copies, mbarriers, producer/consumers
//
// Algorithm:
//  1. Check what no pattern can lower and say why, at the op (a tile
//     without a layout, copies of partial rows, constants that differ per
//     element, layout changes other than mma -> dot operand, ...).
//  2. Outline every program into a kernel of gpu.module @attn_kernels.
//  3. One dialect conversion: a 1:N type converter (LoweringUtils.h) from
//     laid-out tiles to the scalars a thread holds, shared buffers to byte
//     offsets and memrefs to (pointer, sizes, strides); the patterns above,
//     the kernel signature and the scf structural conversion.
//
//===----------------------------------------------------------------------===//

#include "attn/Conversion/Passes.h"

#include "LoweringUtils.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/IR/Matchers.h"

namespace mlir {
namespace attn {
#define GEN_PASS_DEF_CONVERTATTNTILETONVVM
#include "attn/Conversion/Passes.h.inc"
} // namespace attn
} // namespace mlir

using namespace mlir;
using namespace mlir::attn;
using namespace mlir::attn::nvgpu;

static bool hasRegisterLayout(Type type) {
  auto tile = dyn_cast<RankedTensorType>(type);
  return tile && isa_and_nonnull<RegisterLayoutInterface>(tile.getEncoding());
}

/// The registers per thread ptxas compiles every instruction within: a
/// CTA of `threads` alone on an SM (the entry cap of `.maxntid`; setmaxnreg
/// raises the consumers' budget later, not the cap an instruction must fit).
static int64_t registersAtEntry(int64_t threads) {
  return std::min<int64_t>(255, 65536 / threads / 8 * 8);
}

/// Step 1: what the patterns do not lower, diagnosed at the op.
static LogicalResult checkLowerable(ProgramOp program, StringRef chip) {
  bool specialized = false;
  program.walk([&](WarpSpecializeOp) { specialized = true; });
  TileConfigAttr config = program.getConfigAttr();
  int64_t threads =
      config ? 32 * config.getWarps() + (specialized ? 128 : 0) : 0;
  bool guarded = program.getGpuConfigOrDefault().getGuardedRescale();
  WalkResult walk = program.getBody().walk([&](Operation *op) -> WalkResult {
    auto fail = [&](const Twine &why) {
      op->emitOpError() << "has no " << chip << " lowering: " << why;
      return WalkResult::interrupt();
    };
    for (Type type : op->getResultTypes())
      if (auto tile = dyn_cast<RankedTensorType>(type);
          tile && !hasRegisterLayout(tile))
        return fail(tile.getEncoding()
                        ? "its tile is in shared memory as a value (run "
                          "attn-stage-shared)"
                        : "its tile has no layout (run attn-assign-layouts)");
    Dialect *dialect = op->getDialect();
    bool onTiles = llvm::any_of(op->getResultTypes(), hasRegisterLayout) ||
                   llvm::any_of(op->getOperandTypes(), hasRegisterLayout);
    if (onTiles && dialect &&
        !isa<AttnDialect, arith::ArithDialect, math::MathDialect,
             scf::SCFDialect>(dialect) &&
        !isa<tensor::SplatOp>(op))
      return fail("tiles are lowered in attn, arith, math and scf ops "
                  "(and tensor.splat) only");
    if (auto cst = dyn_cast<arith::ConstantOp>(op)) {
      auto dense = dyn_cast<DenseElementsAttr>(cst.getValue());
      if (hasRegisterLayout(cst.getType()) && (!dense || !dense.isSplat()))
        return fail("a tile constant must have one value for every element "
                    "(a splat)");
    }
    if (auto softmax = dyn_cast<OnlineSoftmaxOp>(op))
      if (guarded && !softmax.getMaxBound() && !softmax.getScoreBound())
        return fail("guarded_rescale needs the softmax's score_bound (a "
                    "softcap as the only score modification)");
    if (auto convert = dyn_cast<ConvertLayoutOp>(op)) {
      auto from = cast<RankedTensorType>(convert.getSource().getType());
      auto to = cast<RankedTensorType>(convert.getType());
      auto operand = dyn_cast<DotOperandLayoutAttr>(to.getEncoding());
      if (!operand || operand.getParent() != from.getEncoding())
        return fail("only #attn.mma -> #attn.dot_operand of the same parent "
                    "converts in registers");
    }
    if (auto copy = dyn_cast<AsyncCopyOp>(op)) {
      MemRefType source = copy.getSource().getType();
      SharedBufferType dest = copy.getDest().getType();
      auto swizzled = dyn_cast<SwizzledSharedLayoutAttr>(dest.getLayout());
      if (swizzled && swizzled.getSpan() != 128)
        return fail("an asynchronous copy (cp.async) writes the 128-byte "
                    "swizzle; narrower spans are written by TMA boxes of "
                    "warp_specialize's producer");
      if (!swizzled)
        return fail("an asynchronous copy writes swizzled rows; a tile "
                    "staged by stage_loads is copied by the TMA producer of "
                    "warp_specialize, which this program did not get (see "
                    "attn-warp-specialize's warning)");
      int64_t cols = source.getDimSize(source.getRank() - 1);
      if (!matchPattern(copy.getIndices().back(), m_Zero()) ||
          cols != dest.getShape()[1])
        return fail("an asynchronous copy takes whole rows of a buffer with "
                    "a static innermost dimension of the tile's width");
    }
    if (auto dot = dyn_cast<DotOp>(op)) {
      auto result = dot.getType();
      int64_t k = dot.getTransposeB()
                      ? cast<SharedBufferType>(dot.getB().getType()).getShape()[1]
                      : cast<SharedBufferType>(dot.getB().getType()).getShape()[0];
      if (result.getDimSize(1) % 16 != 0 || k % 16 != 0)
        return fail("mma.sync m16n8k16 products need N and K multiples of 16");
      // A wgmma keeps its whole accumulator in the thread's registers, N / 2
      // of them, and ptxas needs about 30 more for the instruction (its
      // C7602 asked for 158 at N = 256); past the entry cap it stops.
      // Reached by 512 threads (12 warps and warp_specialize's producer)
      // with N = 256.
      auto mma = dyn_cast<MmaLayoutAttr>(result.getEncoding());
      if (mma && mma.getVersion() == 3 && threads > 0 &&
          result.getDimSize(1) / 2 + 30 > registersAtEntry(threads))
        return fail("a wgmma with N = " + Twine(result.getDimSize(1)) +
                    " keeps " + Twine(result.getDimSize(1) / 2) +
                    " accumulator registers per thread, and a CTA of " +
                    Twine(threads) + " threads gives each " +
                    Twine(registersAtEntry(threads)) +
                    " at entry, within which ptxas compiles every "
                    "instruction; take a smaller block_n or head dim, or "
                    "fewer warps");
    }
    if (isa<TmaCopyOp, TmaStoreOp, TmaStoreWaitOp, WarpSpecializeOp>(op) &&
        chip != "sm_90a")
      return fail("TMA and warp specialization need chip=sm_90a");
    if (isa<PrefetchOp>(op) && chip == "sm_80")
      return fail("prefetch_loads (an L1 prefetch) needs chip=sm_90 or "
                  "sm_90a: LLVM's NVPTX backend selects prefetch.global.L1 "
                  "only from sm_90");
    if (auto store = dyn_cast<LocalStoreOp>(op))
      if (!isa<MmaLayoutAttr>(
              cast<RankedTensorType>(store.getValue().getType()).getEncoding()))
        return fail("only #attn.mma tiles are stored to shared memory");
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

static gpu::GPUModuleOp getOrCreateKernelModule(ModuleOp module) {
  if (auto existing = module.lookupSymbol<gpu::GPUModuleOp>("attn_kernels"))
    return existing;
  OpBuilder b(module.getBodyRegion());
  b.setInsertionPointToEnd(module.getBody());
  auto gpuModule = gpu::GPUModuleOp::create(b, module.getLoc(), "attn_kernels");
  OpBuilder inner(gpuModule.getBodyRegion());
  // Dynamic shared memory: one extern array, sized at launch, aligned for
  // the strictest buffer layout (wgmma's 1024-byte swizzle atoms).
  LLVM::GlobalOp::create(
      inner, module.getLoc(), LLVM::LLVMArrayType::get(inner.getI8Type(), 0),
      /*isConstant=*/false, LLVM::Linkage::External, "attn_smem", Attribute(),
      /*alignment=*/1024, /*addrSpace=*/3);
  module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                  UnitAttr::get(module.getContext()));
  return gpuModule;
}

namespace {
struct ConvertAttnTileToNVVMPass
    : public attn::impl::ConvertAttnTileToNVVMBase<ConvertAttnTileToNVVMPass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    if (chip != "sm_80" && chip != "sm_90" && chip != "sm_90a") {
      module.emitError() << "convert-attn-tile-to-nvvm: unknown chip '" << chip
                         << "' (known: sm_80, sm_90, sm_90a)";
      return signalPassFailure();
    }
    bool any = false, bad = false;
    module.walk([&](ProgramOp program) {
      any = true;
      bad |= failed(checkLowerable(program, chip));
    });
    if (bad)
      return signalPassFailure();
    if (!any)
      return;
    gpu::GPUModuleOp gpuModule = getOrCreateKernelModule(module);
    if (failed(outlineKernels(module, gpuModule, chip)))
      return signalPassFailure();

    TileTypeConverter converter(ctx);
    RewritePatternSet patterns(ctx);
    ConversionTarget target(*ctx);
    populateElementwiseToNVVMPatterns(converter, patterns);
    populateMemoryToNVVMPatterns(converter, patterns);
    populateSharedMemoryToNVVMPatterns(converter, patterns, ldmatrixLocalLoads);
    populateDotToNVVMPatterns(converter, patterns);
    populateMaskToNVVMPatterns(converter, patterns);
    populateReduceToNVVMPatterns(converter, patterns);
    populateSoftmaxToNVVMPatterns(converter, patterns);
    populateWarpSpecializeToNVVMPatterns(converter, patterns);
    populateFunctionOpInterfaceTypeConversionPattern<gpu::GPUFuncOp>(patterns,
                                                                     converter);
    scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                         target);
    target.addIllegalDialect<AttnDialect>();
    target.addIllegalOp<tensor::SplatOp>();
    target.addLegalDialect<LLVM::LLVMDialect, NVVM::NVVMDialect,
                           cf::ControlFlowDialect>();
    target.addDynamicallyLegalDialect<arith::ArithDialect, math::MathDialect>(
        [&](Operation *op) { return converter.isLegal(op); });
    target.addIllegalDialect<memref::MemRefDialect>();
    target.addLegalOp<gpu::GPUModuleOp, gpu::ReturnOp, gpu::BarrierOp,
                      gpu::ThreadIdOp, gpu::BlockIdOp, gpu::GridDimOp,
                      gpu::ShuffleOp>();
    target.addDynamicallyLegalOp<gpu::GPUFuncOp>([&](gpu::GPUFuncOp func) {
      return converter.isSignatureLegal(func.getFunctionType());
    });
    if (failed(applyPartialConversion(gpuModule, target, std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
