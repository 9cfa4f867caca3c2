//===- Pipelines.cpp - named attn pass pipelines --------------------------===//

#include "attn/Compiler/Pipelines.h"
#include "attn/Conversion/Passes.h"
#include "attn/Dialect/Attn/Transforms/Passes.h"
#include "attn/Tuning/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/CommandLine.h"

#include <mutex>
#include "llvm/Support/FileSystem.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;

/// One-Shot Bufferize as both pipelines run it: function boundaries too,
/// with identity layouts, and buffers returned from loops allowed (the CPU
/// lowering carries the softmax state across K/V blocks in new buffers).
static std::unique_ptr<Pass> createBufferizePass() {
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.allowReturnAllocsFromLoops = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  return bufferization::createOneShotBufferizePass(bufferize);
}

/// Steps shared by every target: pick tile sizes, bufferize attn.attention
/// on tensors, tile it, split masked K/V blocks from unmasked ones, visit
/// them last to first and take the row maximum before a softcap where the
/// configuration asks for it; spell out the mask_mod regions the split left
/// on masks.
static void buildAttnToTilesPipeline(OpPassManager &pm, bool splitKVLoop,
                                     StringRef chip, int64_t seqLen = 0) {
  attn::AttnDefaultConfigOptions config;
  config.chip = chip.str();
  config.seqLen = seqLen;
  pm.addPass(attn::createAttnDefaultConfig(config));
  pm.addPass(createBufferizePass());
  pm.addPass(attn::createAttnTile());
  if (splitKVLoop)
    pm.addPass(attn::createAttnSplitKVLoop());
  pm.addPass(attn::createAttnReverseKVLoops());
  pm.addPass(attn::createAttnHoistRowMax());
  pm.addPass(attn::createAttnExpandMaskMods());
  pm.addPass(attn::createAttnAccumulateBias());
}

void mlir::attn::buildLowerToCPUPipeline(OpPassManager &pm,
                                         const CPUPipelineOptions &options) {
  // 1-2. High level to tile programs; decompose the softmax.
  buildAttnToTilesPipeline(pm, options.splitKVLoop, /*chip=*/"");
  pm.addPass(createAttnDecomposeOnlineSoftmax());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());

  // 3. Tiles to linalg on tensors and loops, then to buffers.
  pm.addPass(createConvertAttnTileToLinalg());
  pm.addPass(createConvertElementwiseToLinalgPass());
  pm.addPass(createBufferizePass());
  pm.addPass(createCanonicalizerPass());
  bufferization::buildBufferDeallocationPipeline(pm);

  // 4. Loops and scalars to LLVM.
  pm.addPass(createConvertLinalgToLoopsPass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  arith::ArithExpandOpsPassOptions expand;
  expand.includeBf16 = true;
  pm.addPass(arith::createArithExpandOpsPass(expand));
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createConvertVectorToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

int64_t mlir::attn::getMaxSharedBytes(llvm::StringRef chip) {
  // cudaDevAttrMaxSharedMemoryPerBlockOptin: 163 KiB on A100, 227 KiB on H100.
  if (chip == "sm_80")
    return 166912;
  if (chip == "sm_90" || chip == "sm_90a")
    return 232448;
  return 0;
}

void mlir::attn::buildKernelsToLLVMPipeline(OpPassManager &pm) {
  // 4. gpu/scf/arith to NVVM and LLVM (one conversion: see Registration.cpp).
  pm.addPass(createSCFToControlFlowPass());
  OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>();
  // 32-bit index arithmetic in kernels: one register per value instead of
  // two. Sequence lengths, head counts and block ids fit (the runtime
  // refuses lengths of 2^31 rows and more); global offsets are i64 anyway.
  ConvertGpuOpsToNVVMOpsOptions nvvm;
  nvvm.indexBitwidth = 32;
  kernels.addPass(createConvertGpuOpsToNVVMOps(nvvm));
  kernels.addPass(attn::createAttnTensorMapParams());
  // NVVM ops with no LLVM intrinsic (wgmma.mma_async among them) become
  // inline PTX here; the translation to LLVM IR refuses them otherwise.
  // Ops with an intrinsic are left alone.
  kernels.addPass(createConvertNVVMToLLVMPass());
  kernels.addPass(createReconcileUnrealizedCastsPass());
  // Loop hints from the tile level (the persistent tile loop's) as
  // !llvm.loop metadata.
  kernels.addPass(attn::createAttnLoopAnnotations());
}

/// Shared-memory pointers are 64-bit in the NVPTX backend unless its
/// `nvptx-short-ptr` option is set, and the option is only reachable as a
/// process-wide LLVM flag (NVPTXTargetMachine reads it when the NVVM target
/// builds its TargetMachine). With 64-bit pointers every address of a
/// swizzled fragment kept live across the K/V loop takes two registers;
/// the kernels sit at the 255-register limit, so this is the difference
/// between spilling and not. (Triton sets the same flag the same way.)
static void useShortSharedPointers() {
  // Once per process: compilations on several threads (attn-tune, the C
  // API) would otherwise race on the option.
  static std::once_flag once;
  std::call_once(once, [] {
    auto &options = llvm::cl::getRegisteredOptions();
    auto it = options.find("nvptx-short-ptr");
    if (it != options.end() && it->second->getNumOccurrences() == 0)
      it->second->addOccurrence(0, "nvptx-short-ptr", "true");
  });
}

void mlir::attn::buildAttnToKernelsPipeline(
    OpPassManager &pm, const GPUPipelineOptions &options) {
  useShortSharedPointers();
  // 0. Tuned configurations, where the database has them.
  if (!options.tuningDb.empty()) {
    AttnApplyTuningOptions tuning;
    tuning.db = options.tuningDb;
    tuning.chip = options.chip;
    tuning.seqLen = options.seqLen;
    pm.addPass(createAttnApplyTuning(tuning));
  }
  // 1-2. High level to tile programs, as for the CPU.
  buildAttnToTilesPipeline(pm, options.splitKVLoop, options.chip,
                           options.seqLen);
  pm.addPass(createCSEPass());

  // 3. Kernels in a gpu.module, for the chosen target.
  AttnAssignLayoutsOptions layouts;
  layouts.chip = options.chip;
  pm.addPass(createAttnAssignLayouts(layouts));
  pm.addPass(createAttnOverlapSoftmax());
  AttnStageLoadsOptions staging;
  staging.staging = options.stageLoads;
  staging.narrowSwizzles = options.narrowSwizzles;
  pm.addPass(createAttnStageLoads(staging));
  pm.addPass(createAttnStageShared());
  pm.addPass(createAttnWarpSpecialize());
  AttnStageStoresOptions storing;
  storing.staging = options.stageLoads;
  storing.maxSharedBytes = getMaxSharedBytes(options.chip);
  pm.addPass(createAttnStageStores(storing));
  pm.addPass(createAttnPipeline());
  pm.addPass(createAttnPrefetchLoads());
  AttnAllocateSharedOptions shared;
  shared.maxSharedBytes = getMaxSharedBytes(options.chip);
  pm.addPass(createAttnAllocateShared(shared));
  ConvertAttnTileToNVVMOptions convert;
  convert.chip = options.chip;
  convert.ldmatrixLocalLoads = options.ldmatrixLocalLoads;
  pm.addPass(createConvertAttnTileToNVVM(convert));
  GpuNVVMAttachTargetOptions target;
  target.chip = options.chip;
  target.features = "+ptx80";
  target.optLevel = 3;
  pm.addPass(createGpuNVVMAttachTarget(target));
}

void mlir::attn::buildLowerToNVVMPipeline(OpPassManager &pm,
                                          const GPUPipelineOptions &options) {
  buildAttnToKernelsPipeline(pm, options);
  buildKernelsToLLVMPipeline(pm);
  // 5. PTX (and cubin through ptxas).
  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = options.format;
  binary.toolkitPath = options.toolkit;
  pm.addPass(createGpuModuleToBinaryPass(binary));
}

std::string
mlir::attn::validateGPUPipelineOptions(const GPUPipelineOptions &options) {
  if (getMaxSharedBytes(options.chip) == 0)
    return "chip='" + options.chip + "' is not a GPU target of attn (known: "
           "sm_80, sm_90, sm_90a)";
  static const char *formats[] = {"isa",    "bin",      "fatbin",
                                  "llvm",   "offload",  "assembly",
                                  "binary", "fatbinary"};
  if (llvm::none_of(formats, [&](const char *f) { return options.format == f; }))
    return "format='" + options.format +
           "' is not a gpu-module-to-binary format (isa, bin, fatbin, llvm, "
           "offload)";
  if (!options.toolkit.empty() && !llvm::sys::fs::is_directory(options.toolkit))
    return "toolkit='" + options.toolkit + "' is not a directory";
  return "";
}

void mlir::attn::registerAttnPipelines() {
  // Registered by hand rather than through PassPipelineRegistration's
  // builder, which cannot fail: a bad option value (an unknown format, a
  // toolkit that does not exist) is refused before anything runs, so that
  // attn-opt exits non-zero (gpu-module-to-binary only prints an error for
  // an unknown format and lets the pass succeed).
  registerPassPipeline(
      "attn-lower-to-nvvm",
      "Lower attn.attention to tensor-core kernels (mma.sync on sm_80, "
      "wgmma on sm_90a) in a gpu.binary (PTX, or cubin through ptxas)",
      [](OpPassManager &pm, StringRef text,
         function_ref<LogicalResult(const Twine &)> errorHandler) {
        GPUPipelineOptions options;
        std::string parseErrors;
        llvm::raw_string_ostream os(parseErrors);
        if (failed(options.parseFromString(text, os)))
          return errorHandler(parseErrors);
        std::string err = validateGPUPipelineOptions(options);
        if (!err.empty())
          return errorHandler("attn-lower-to-nvvm: " + err);
        buildLowerToNVVMPipeline(pm, options);
        return success();
      },
      [](function_ref<void(const mlir::detail::PassOptions &)> optHandler) {
        GPUPipelineOptions options;
        optHandler(options);
      });
  PassPipelineRegistration<CPUPipelineOptions>(
      "attn-lower-to-cpu",
      "Lower attn.attention to the LLVM dialect for the host CPU (runs "
      "under mlir-runner)",
      buildLowerToCPUPipeline);
}
