//===- Compiler.cpp - attn as a library -----------------------------------===//

#include "attn/Compiler/Compiler.h"
#include "attn/Compiler/Registration.h"
#include "attn/Support/ParseSource.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

/// `file:line:col: severity: message`, the form compilers print.
static void printDiagnostic(llvm::raw_ostream &os, Diagnostic &diag) {
  Location loc = diag.getLocation();
  if (auto fileLoc = dyn_cast<FileLineColLoc>(loc))
    os << fileLoc.getFilename().getValue() << ":" << fileLoc.getLine() << ":"
       << fileLoc.getColumn();
  else
    os << loc;
  switch (diag.getSeverity()) {
  case DiagnosticSeverity::Error:
    os << ": error: ";
    break;
  case DiagnosticSeverity::Warning:
    os << ": warning: ";
    break;
  case DiagnosticSeverity::Note:
    os << ": note: ";
    break;
  case DiagnosticSeverity::Remark:
    os << ": remark: ";
    break;
  }
  os << diag << "\n";
}

std::unique_ptr<MLIRContext> mlir::attn::createContext() {
  DialectRegistry registry;
  registerAttnDialects(registry);
  return std::make_unique<MLIRContext>(registry);
}

LogicalResult mlir::attn::lowerToCPU(ModuleOp module,
                                     const CPUPipelineOptions &options) {
  PassManager pm(module.getContext());
  buildLowerToCPUPipeline(pm, options);
  return pm.run(module);
}

OwningOpRef<ModuleOp> mlir::attn::compileToCPU(MLIRContext &context,
                                               llvm::StringRef source,
                                               const CPUPipelineOptions &options,
                                               std::string &errors,
                                               llvm::StringRef sourceName) {
  llvm::raw_string_ostream os(errors);
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    printDiagnostic(os, diag);
    for (Diagnostic &note : diag.getNotes())
      printDiagnostic(os, note);
    return success();
  });
  OwningOpRef<ModuleOp> module =
      parseModule(source, ParserConfig(&context), sourceName);
  if (!module || failed(verify(*module)) ||
      failed(lowerToCPU(*module, options)))
    return nullptr;
  return module;
}
