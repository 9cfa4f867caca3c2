//===- Compiler.h - attn as a library ---------------------------*- C++ -*-===//
//
// The entry points an embedding compiler calls: IR in, lowered IR or
// diagnostics out. Nothing here reads the environment or command-line flags;
// options travel in structs.
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_COMPILER_COMPILER_H
#define ATTN_COMPILER_COMPILER_H

#include "attn/Compiler/Pipelines.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <string>

namespace mlir {
class MLIRContext;
namespace attn {

/// Creates a context with everything the attn pipelines need registered.
std::unique_ptr<MLIRContext> createContext();

/// Lowers `module` in place to the LLVM dialect for the CPU. Diagnostics go
/// to the context's handlers; on failure the module is left part-way.
LogicalResult lowerToCPU(ModuleOp module,
                         const CPUPipelineOptions &options = {});

/// Parses `source` (named `sourceName` in locations), verifies it and lowers
/// it to the LLVM dialect for the CPU. On failure returns null and appends
/// every diagnostic, with its location, to `errors`.
OwningOpRef<ModuleOp> compileToCPU(MLIRContext &context, llvm::StringRef source,
                                   const CPUPipelineOptions &options,
                                   std::string &errors,
                                   llvm::StringRef sourceName = "<input>");

} // namespace attn
} // namespace mlir

#endif // ATTN_COMPILER_COMPILER_H
