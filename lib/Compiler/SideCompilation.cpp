//===- SideCompilation.cpp - a module compiled in a context of its own ----===//

#include "SideCompilation.h"

#include "attn/Support/ParseSource.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"

using namespace mlir;
using namespace mlir::attn;

CollectedDiagnostic mlir::attn::collectDiagnostic(Diagnostic &diag) {
  CollectedDiagnostic out;
  out.severity = diag.getSeverity();
  if (auto loc = dyn_cast<FileLineColLoc>(diag.getLocation())) {
    out.file = loc.getFilename().str();
    out.line = loc.getLine();
    out.column = loc.getColumn();
  }
  out.message = diag.str();
  for (Diagnostic &note : diag.getNotes())
    out.notes.push_back(collectDiagnostic(note));
  return out;
}

void mlir::attn::emitCollected(MLIRContext *ctx,
                               const CollectedDiagnostic &diag) {
  Location loc = diag.file.empty()
                     ? Location(UnknownLoc::get(ctx))
                     : Location(FileLineColLoc::get(ctx, diag.file, diag.line,
                                                    diag.column));
  InFlightDiagnostic out = ctx->getDiagEngine().emit(loc, diag.severity);
  out << diag.message;
  for (const CollectedDiagnostic &note : diag.notes) {
    Location noteLoc = note.file.empty()
                           ? loc
                           : Location(FileLineColLoc::get(
                                 ctx, note.file, note.line, note.column));
    out.attachNote(noteLoc) << note.message;
  }
}

void SideCompilation::run(
    const DialectRegistry &registry, bool printOpOnDiagnostic,
    function_ref<FailureOr<GPUArtifacts>(ModuleOp)> compile) {
  auto own =
      std::make_shared<MLIRContext>(registry, MLIRContext::Threading::DISABLED);
  own->printOpOnDiagnostic(printOpOnDiagnostic);
  ScopedDiagnosticHandler collect(own.get(), [&](Diagnostic &diag) {
    diagnostics.push_back(collectDiagnostic(diag));
    return success();
  });
  OwningOpRef<ModuleOp> module =
      attn::parseModule(source, ParserConfig(own.get()));
  if (!module)
    return;
  result = compile(*module);
  if (succeeded(result))
    result->context = std::move(own);
}
