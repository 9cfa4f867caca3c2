//===- Pipelines.h - named attn pass pipelines ------------------*- C++ -*-===//

#ifndef ATTN_COMPILER_PIPELINES_H
#define ATTN_COMPILER_PIPELINES_H

#include "mlir/Pass/PassOptions.h"

namespace mlir {
class OpPassManager;
namespace attn {

/// Options of the `attn-lower-to-cpu` pipeline.
struct CPUPipelineOptions : public PassPipelineOptions<CPUPipelineOptions> {
  PassOptions::Option<bool> splitKVLoop{
      *this, "split-kv-loop",
      llvm::cl::desc("Peel masked K/V blocks off unmasked ones "
                     "(attn-split-kv-loop)"),
      llvm::cl::init(true)};
};

/// Options of the `attn-lower-to-nvvm` pipeline.
struct GPUPipelineOptions : public PassPipelineOptions<GPUPipelineOptions> {
  PassOptions::Option<std::string> chip{
      *this, "chip", llvm::cl::desc("Target GPU: sm_80 or sm_90a"),
      llvm::cl::init("sm_90a")};
  PassOptions::Option<std::string> format{
      *this, "format",
      llvm::cl::desc("Kernel format in the gpu.binary: isa (PTX), bin "
                     "(cubin, needs ptxas) or fatbin"),
      llvm::cl::init("isa")};
  PassOptions::Option<std::string> toolkit{
      *this, "toolkit",
      llvm::cl::desc("CUDA toolkit path for ptxas (format=bin/fatbin)"),
      llvm::cl::init("")};
  PassOptions::Option<bool> splitKVLoop{
      *this, "split-kv-loop",
      llvm::cl::desc("Peel masked K/V blocks off unmasked ones"),
      llvm::cl::init(true)};
  PassOptions::Option<std::string> tuningDb{
      *this, "tuning-db",
      llvm::cl::desc("SQLite tuning database to take configurations from "
                     "(attn-apply-tuning; the heuristic for what it lacks)"),
      llvm::cl::init("")};
  PassOptions::Option<bool> stageLoads{
      *this, "stage-loads",
      llvm::cl::desc("Stage the register-tile loads that a configuration's "
                     "stage_loads asks for (false: the kernels' TMA "
                     "fallbacks)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> narrowSwizzles{
      *this, "narrow-swizzles",
      llvm::cl::desc("Stage a bias tile of 80, 96 or 112 columns (any "
                     "multiple of 16 but not of 64) in a 32- or 64-byte TMA "
                     "swizzle instead of unswizzled rows (attn-stage-loads; "
                     "off: faster only at 96 columns, which the tuned bias "
                     "tiles do not use; perf-log, 24th session)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> ldmatrixLocalLoads{
      *this, "ldmatrix-local-loads",
      llvm::cl::desc("Read a staged bias from shared memory four pairs per "
                     "ldmatrix.x4 instead of one per 4-byte load "
                     "(convert-attn-tile-to-nvvm; off: correct on the device, "
                     "no faster; perf-log, 24th session)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> tmaFallbacks{
      *this, "tma-fallbacks",
      llvm::cl::desc("Compile each kernel that stages a load a second time "
                     "without, as its TMA fallback (compileToGPU; attn-tune "
                     "measures at lengths TMA always describes and skips "
                     "them)"),
      llvm::cl::init(true)};
  PassOptions::Option<int64_t> seqLen{
      *this, "seq-len",
      llvm::cl::desc("Largest key length the kernels will be launched for, "
                     "where the configuration depends on it (0: any; "
                     "attn-apply-tuning and attn-default-config)"),
      llvm::cl::init(0)};
};

/// Checks the option values before any pass runs: a known chip, a format
/// that gpu-module-to-binary takes, a toolkit directory that exists. Returns
/// an error message naming the option, or an empty string.
std::string validateGPUPipelineOptions(const GPUPipelineOptions &options);

/// The dynamic shared memory a CTA may use on `chip`, or 0 when the chip is
/// not one the GPU path supports.
int64_t getMaxSharedBytes(llvm::StringRef chip);

/// The first half of `attn-lower-to-nvvm`: attn.attention to kernel
/// gpu.funcs in gpu.module @attn_kernels with the NVVM target attached;
/// each kernel still carries its `attn.launch` metadata.
void buildAttnToKernelsPipeline(OpPassManager &pm,
                                const GPUPipelineOptions &options);

/// The second half but the binary: gpu, scf, arith in the kernels to the
/// NVVM and LLVM dialects.
void buildKernelsToLLVMPipeline(OpPassManager &pm);

/// attn.attention down to a gpu.binary holding one kernel per function:
/// default config, bufferize, tile, split, reverse, assign layouts, stage
/// shared memory, pipeline, allocate it, convert-attn-tile-to-nvvm, attach
/// the NVVM target, lower gpu/arith/scf to NVVM/LLVM, gpu-module-to-binary.
void buildLowerToNVVMPipeline(OpPassManager &pm,
                              const GPUPipelineOptions &options);

/// attn.attention (tensors or memrefs) down to the LLVM dialect for the
/// host CPU: default config, bufferize, tile, split, decompose, lower to
/// linalg and loops, bufferize the tiles, free them, lower to LLVM.
void buildLowerToCPUPipeline(OpPassManager &pm,
                             const CPUPipelineOptions &options);

/// Registers `attn-lower-to-cpu` and `attn-lower-to-nvvm`.
void registerAttnPipelines();

} // namespace attn
} // namespace mlir

#endif // ATTN_COMPILER_PIPELINES_H
