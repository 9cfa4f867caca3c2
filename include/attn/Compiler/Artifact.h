//===- Artifact.h - kernel artifacts for the attn runtime -------*- C++ -*-===//
//
// What the GPU path hands to the runtime: per kernel, PTX (and a cubin when
// ptxas is available) and a JSON description of how to launch it. The
// format is documented in docs/gpu-kernels.md.
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_COMPILER_ARTIFACT_H
#define ATTN_COMPILER_ARTIFACT_H

#include "attn/Compiler/Pipelines.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"

#include <string>
#include <vector>

namespace mlir {
namespace attn {

/// One kernel: its entry name and launch metadata (the attn.launch
/// dictionary of convert-attn-tile-to-nvvm).
struct KernelInfo {
  std::string name;
  DictionaryAttr launch;
};

/// The compiled kernels of one module, for one target.
struct GPUArtifacts {
  std::string chip;
  std::string ptx;   // all kernels of the module
  std::string cubin; // empty unless requested and ptxas ran
  std::vector<KernelInfo> kernels;
};

/// Lowers every attn.attention of `module` (one per function) to kernels for
/// `options.chip`; PTX always, a cubin as well when `withCubin` (ptxas from
/// `options.toolkit`, PATH or CUDA_HOME). Consumes `module`. Diagnostics go
/// to the context's handlers.
FailureOr<GPUArtifacts> compileToGPU(ModuleOp module,
                                     const GPUPipelineOptions &options,
                                     bool withCubin);

/// Writes `<dir>/<stem>.ptx`, `<dir>/<stem>.cubin` (if any) and
/// `<dir>/<kernel>.json` for every kernel. Returns an error message, or an
/// empty string on success.
std::string writeArtifacts(const GPUArtifacts &artifacts, llvm::StringRef dir,
                           llvm::StringRef stem);

/// The JSON description of `kernel` (format_version 2, runtime/README.md).
std::string kernelJSON(const GPUArtifacts &artifacts, const KernelInfo &kernel,
                       llvm::StringRef ptxFile, llvm::StringRef cubinFile);

/// "attn (git <commit>), LLVM <version>": what built the artifacts.
std::string compilerVersion();

} // namespace attn
} // namespace mlir

#endif // ATTN_COMPILER_ARTIFACT_H
