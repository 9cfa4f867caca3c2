//===- SideCompilation.h - a module compiled in a context of its own ------===//
//
// Some artifacts hold kernels that can compile apart from the main ones: the
// length variants (LengthDispatch.cpp) and the TMA fallbacks of kernels that
// stage a bias (Artifact.cpp). Each is a module printed with its locations
// and compiled, on another thread, in an MLIRContext of its own (contexts
// are not shared across threads here); its diagnostics are kept as text and
// emitted again in the caller's context, pointing into the user's source.
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_LIB_COMPILER_SIDECOMPILATION_H
#define ATTN_LIB_COMPILER_SIDECOMPILATION_H

#include "attn/Compiler/Artifact.h"

#include "mlir/IR/Diagnostics.h"

#include <string>
#include <vector>

namespace mlir::attn {

/// A diagnostic of another context, kept as text.
struct CollectedDiagnostic {
  DiagnosticSeverity severity;
  std::string file;
  unsigned line = 0, column = 0;
  std::string message;
  std::vector<CollectedDiagnostic> notes;
};

CollectedDiagnostic collectDiagnostic(Diagnostic &diag);

/// Emits `diag` (with its notes) in `ctx`.
void emitCollected(MLIRContext *ctx, const CollectedDiagnostic &diag);

/// One module to compile in a context of its own.
struct SideCompilation {
  /// The module, printed with its locations.
  std::string source;
  FailureOr<GPUArtifacts> result = failure();
  std::vector<CollectedDiagnostic> diagnostics;

  /// Parses `source` in a new single-threaded context with `registry`'s
  /// dialects and runs `compile` on it; the result owns the context
  /// (GPUArtifacts::context). May run on another thread, given a registry
  /// that no other thread changes meanwhile (a copy, not the registry of a
  /// context that is compiling).
  void run(const DialectRegistry &registry, bool printOpOnDiagnostic,
           function_ref<FailureOr<GPUArtifacts>(ModuleOp)> compile);
};

} // namespace mlir::attn

#endif // ATTN_LIB_COMPILER_SIDECOMPILATION_H
