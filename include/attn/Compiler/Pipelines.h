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

/// attn.attention (tensors or memrefs) down to the LLVM dialect for the
/// host CPU: default config, bufferize, tile, split, decompose, lower to
/// linalg and loops, bufferize the tiles, free them, lower to LLVM.
void buildLowerToCPUPipeline(OpPassManager &pm,
                             const CPUPipelineOptions &options);

/// Registers `attn-lower-to-cpu` with the pass registry.
void registerAttnPipelines();

} // namespace attn
} // namespace mlir

#endif // ATTN_COMPILER_PIPELINES_H
