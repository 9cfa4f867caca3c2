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

#include <memory>
#include <string>
#include <vector>

namespace mlir {
namespace attn {

/// One kernel: its entry name and launch metadata (the attn.launch
/// dictionary of convert-attn-tile-to-nvvm).
struct KernelInfo {
  std::string name;
  DictionaryAttr launch;
  /// Its length dispatch table: (largest key length, variant kernel) in
  /// increasing order; the kernel itself runs above the last. Empty: none.
  std::vector<std::pair<int64_t, std::string>> dispatch;
  /// The kernel the runtime launches where one of this kernel's tensor maps
  /// cannot describe its argument (the same attention without staged
  /// loads, `<name>__unstaged`); empty: none.
  std::string tmaFallback;
};

struct LengthVariant;

/// The compiled kernels of one module, for one target.
struct GPUArtifacts {
  std::string chip;
  std::string ptx;   // all kernels of the module
  std::string cubin; // empty unless requested and ptxas ran
  std::vector<KernelInfo> kernels;
  /// The same module compiled for shorter key lengths, where that chose
  /// other configurations (compileWithLengthDispatch).
  std::vector<LengthVariant> variants;
  /// The kernels that stage loads (a bias) compiled again without, each
  /// `<kernel>__unstaged`, written as `<stem>__unstaged`; null: none.
  std::shared_ptr<GPUArtifacts> tmaFallbacks;
  /// The context that owns the kernels' `launch` attributes when they were
  /// compiled in a context of their own (a length variant or TMA fallbacks
  /// compiled on another thread); null when that is the caller's module's
  /// context.
  std::shared_ptr<MLIRContext> context;
};

/// The kernels of a module compiled for key lengths up to `maxKeyLength`,
/// each named `<kernel>__n<maxKeyLength>`, written as `<stem>__n<max>`.
struct LengthVariant {
  int64_t maxKeyLength;
  GPUArtifacts artifacts;
};

/// Lowers every attn.attention of `module` (one per function) to kernels for
/// `options.chip`; PTX always, a cubin as well when `withCubin` (ptxas from
/// `options.toolkit`, PATH or CUDA_HOME). Consumes `module`. Diagnostics go
/// to the context's handlers. Kernels whose configuration stages a load (a
/// bias copied by the TMA producer) are compiled a second time without the
/// staging, as their TMA fallbacks (`tmaFallbacks`; unless
/// `options.stageLoads` is false, which compiles only those); that second
/// compilation runs on another thread in a context of its own, its
/// diagnostics after the main kernels' (unless the module's context has
/// multithreading disabled: then after the main kernels, in that context).
FailureOr<GPUArtifacts> compileToGPU(ModuleOp module,
                                     const GPUPipelineOptions &options,
                                     bool withCubin);

/// The key-length buckets a length dispatch tells apart: powers of two
/// from 512 to 16384 (a length belongs to the first bucket it does not
/// exceed; the last takes every longer one too), those of the tuning
/// database (sequenceBucket).
llvm::ArrayRef<int64_t> dispatchBuckets();

/// compileToGPU, and where the configurations that attn-apply-tuning and
/// attn-default-config choose for the module's attention ops differ between
/// key-length buckets (a dynamic key length, options.seqLen = 0), one
/// variant of the module per run of buckets that share a configuration but
/// the longest: its kernels `<kernel>__n<max>`, compiled with seq-len =
/// the run's largest bucket, listed in each main kernel's dispatch table.
/// The main kernels are compiled for the longest run (seq-len = 16384).
/// The variants compile on other threads, each in a context of its own
/// (unless the module's context has multithreading disabled), while the
/// main kernels compile in the module's; their diagnostics follow the main
/// compilation's, in the variants' order.
FailureOr<GPUArtifacts>
compileWithLengthDispatch(ModuleOp module, const GPUPipelineOptions &options,
                          bool withCubin);

/// Writes `<dir>/<stem>.ptx`, `<dir>/<stem>.cubin` (if any) and
/// `<dir>/<kernel>.json` for every kernel, and the same for every length
/// variant with the stem `<stem>__n<max>`. Returns an error message, or an
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
