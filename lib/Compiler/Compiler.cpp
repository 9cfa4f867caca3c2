//===- Compiler.cpp - attn as a library -----------------------------------===//

#include "attn/Compiler/Compiler.h"
#include "attn/Compiler/Registration.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

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
                                               std::string &errors) {
  llvm::raw_string_ostream os(errors);
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    os << diag.getLocation() << ": " << diag << "\n";
    for (Diagnostic &note : diag.getNotes())
      os << note.getLocation() << ": note: " << note << "\n";
    return success();
  });
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(source, ParserConfig(&context));
  if (!module || failed(verify(*module)) ||
      failed(lowerToCPU(*module, options)))
    return nullptr;
  return module;
}
