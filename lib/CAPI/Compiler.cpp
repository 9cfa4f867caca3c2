//===- Compiler.cpp - the attn embedding C API ----------------------------===//
//
// A thin layer over attn/Compiler: each call builds its own context
// (attn::createContext), collects every diagnostic through a scoped
// handler, and keeps the outputs and the diagnostics' strings in the result
// object that the caller destroys.
//
//===----------------------------------------------------------------------===//

#include "attn-c/Compiler.h"
#include "attn-c/Module.h"

#include "attn/Compiler/Artifact.h"
#include "attn/Compiler/Compiler.h"
#include "attn/Support/ParseSource.h"

#include "mlir/CAPI/IR.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"

#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

using namespace mlir;

struct AttnCompileOptions {
  std::string target = "sm_90a";
  bool cubin = false;
  std::string toolkit;
  bool splitKVLoop = true;
  std::string tuningDb;
};

namespace {
struct DiagnosticRecord {
  AttnDiagnosticSeverity severity;
  std::string location;
  std::string message;
};
} // namespace

struct AttnCompileResult {
  bool succeeded = false;
  std::vector<DiagnosticRecord> diagnostics;
  std::string chip;
  std::string ptx, cubin, cpuModule;
  std::vector<std::string> kernelNames, kernelJSON;
  // The kernels' launch metadata are attributes of this context, which
  // lives as long as the result (attnCompileResultWriteArtifacts reads
  // them). Declared before the artifacts, so destroyed after them.
  std::unique_ptr<MLIRContext> context;
  attn::GPUArtifacts artifacts;

  void error(std::string message) {
    diagnostics.push_back({AttnDiagnosticError, "", std::move(message)});
  }
};

int attnGetAPIVersion() { return ATTN_C_API_VERSION; }

const char *attnGetCompilerVersion() {
  static const std::string version = attn::compilerVersion();
  return version.c_str();
}

AttnCompileOptions *attnCompileOptionsCreate() { return new AttnCompileOptions; }
void attnCompileOptionsDestroy(AttnCompileOptions *options) { delete options; }
void attnCompileOptionsSetTarget(AttnCompileOptions *options,
                                 const char *target) {
  options->target = target ? target : "";
}
void attnCompileOptionsSetCubin(AttnCompileOptions *options, bool cubin) {
  options->cubin = cubin;
}
void attnCompileOptionsSetToolkit(AttnCompileOptions *options,
                                  const char *path) {
  options->toolkit = path ? path : "";
}
void attnCompileOptionsSetTuningDB(AttnCompileOptions *options,
                                   const char *path) {
  options->tuningDb = path ? path : "";
}
void attnCompileOptionsSetSplitKVLoop(AttnCompileOptions *options,
                                      bool split) {
  options->splitKVLoop = split;
}

/// "file:line:col" of the first file location inside `loc`, or "".
static std::string locationString(Location loc) {
  std::string out;
  loc->walk([&](Location inner) {
    if (auto file = dyn_cast<FileLineColLoc>(inner)) {
      out = (file.getFilename().str() + ":" + std::to_string(file.getLine()) +
             ":" + std::to_string(file.getColumn()));
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return out;
}

static AttnDiagnosticSeverity severityOf(DiagnosticSeverity severity) {
  switch (severity) {
  case DiagnosticSeverity::Error:
    return AttnDiagnosticError;
  case DiagnosticSeverity::Warning:
    return AttnDiagnosticWarning;
  case DiagnosticSeverity::Note:
    return AttnDiagnosticNote;
  case DiagnosticSeverity::Remark:
    return AttnDiagnosticRemark;
  }
  return AttnDiagnosticError;
}

static void record(AttnCompileResult &result, Diagnostic &diag) {
  result.diagnostics.push_back({severityOf(diag.getSeverity()),
                                locationString(diag.getLocation()),
                                diag.str()});
  for (Diagnostic &note : diag.getNotes())
    record(result, note);
}

static void compileInto(AttnCompileResult &result, llvm::StringRef source,
                        llvm::StringRef sourceName,
                        const AttnCompileOptions &options) {
  bool cpu = options.target == "cpu";
  if (!cpu && options.target != "sm_80" && options.target != "sm_90a") {
    result.error("unknown target '" + options.target +
                 "' (known: cpu, sm_80, sm_90a)");
    return;
  }
  result.context = attn::createContext();
  MLIRContext *context = result.context.get();
  // The diagnostics are the caller's, located in its source: no dump of
  // the failing op appended as a note.
  context->printOpOnDiagnostic(false);
  ScopedDiagnosticHandler handler(context, [&](Diagnostic &diag) {
    record(result, diag);
    return success();
  });
  OwningOpRef<ModuleOp> module =
      attn::parseModule(source, ParserConfig(context), sourceName);
  if (!module || failed(verify(*module)))
    return;
  if (cpu) {
    attn::CPUPipelineOptions cpuOptions;
    cpuOptions.splitKVLoop = options.splitKVLoop;
    if (failed(attn::lowerToCPU(*module, cpuOptions)))
      return;
    llvm::raw_string_ostream os(result.cpuModule);
    module->print(os);
    result.succeeded = true;
    return;
  }
  attn::GPUPipelineOptions gpu;
  gpu.chip = options.target;
  gpu.toolkit = options.toolkit;
  gpu.splitKVLoop = options.splitKVLoop;
  gpu.tuningDb = options.tuningDb;
  if (std::string err = attn::validateGPUPipelineOptions(gpu); !err.empty()) {
    result.error(err);
    return;
  }
  FailureOr<attn::GPUArtifacts> artifacts =
      attn::compileToGPU(*module, gpu, options.cubin);
  if (failed(artifacts))
    return;
  result.artifacts = std::move(*artifacts);
  std::string stem = llvm::sys::path::stem(sourceName).str();
  std::string ptxFile = stem + "." + result.artifacts.chip + ".ptx";
  std::string cubinFile = result.artifacts.cubin.empty()
                              ? ""
                              : stem + "." + result.artifacts.chip + ".cubin";
  for (const attn::KernelInfo &kernel : result.artifacts.kernels) {
    result.kernelNames.push_back(kernel.name);
    result.kernelJSON.push_back(
        attn::kernelJSON(result.artifacts, kernel, ptxFile, cubinFile));
  }
  result.succeeded = true;
}

AttnCompileResult *attnCompileSource(const char *source, size_t length,
                                     const char *sourceName,
                                     const AttnCompileOptions *options) {
  auto *result = new AttnCompileResult;
  AttnCompileOptions defaults;
  if (!source) {
    result->error("attnCompileSource: no source (NULL)");
    return result;
  }
  compileInto(*result, llvm::StringRef(source, length),
              sourceName ? sourceName : "<input>",
              options ? *options : defaults);
  return result;
}

AttnCompileResult *attnCompileModule(MlirModule module, const char *name,
                                     const AttnCompileOptions *options) {
  if (mlirModuleIsNull(module)) {
    auto *result = new AttnCompileResult;
    result->error("attnCompileModule: no module (null)");
    return result;
  }
  // The caller's context may lack what the pipelines load (GPU, NVVM, the
  // LLVM IR translations) and is not to be changed: the module goes to a
  // context of the compiler's own as text, with its locations, so that
  // diagnostics point where the caller's IR came from. (Inline C API
  // helpers only: libattn_c.so, which has no MLIR C API, links this too.)
  std::string text;
  llvm::raw_string_ostream os(text);
  unwrap(module).print(os, OpPrintingFlags().enableDebugInfo(
                               /*enable=*/true, /*prettyForm=*/false));
  std::string stem = std::string(name ? name : "module") + ".mlir";
  return attnCompileSource(text.data(), text.size(), stem.c_str(), options);
}

bool attnCompileResultSucceeded(const AttnCompileResult *r) {
  return r->succeeded;
}
size_t attnCompileResultGetNumDiagnostics(const AttnCompileResult *r) {
  return r->diagnostics.size();
}
AttnDiagnosticSeverity
attnCompileResultGetDiagnosticSeverity(const AttnCompileResult *r, size_t i) {
  return i < r->diagnostics.size() ? r->diagnostics[i].severity
                                   : AttnDiagnosticError;
}
const char *attnCompileResultGetDiagnosticLocation(const AttnCompileResult *r,
                                                   size_t i) {
  return i < r->diagnostics.size() ? r->diagnostics[i].location.c_str() : "";
}
const char *attnCompileResultGetDiagnosticMessage(const AttnCompileResult *r,
                                                  size_t i) {
  return i < r->diagnostics.size() ? r->diagnostics[i].message.c_str() : "";
}
size_t attnCompileResultGetNumKernels(const AttnCompileResult *r) {
  return r->kernelNames.size();
}
const char *attnCompileResultGetKernelName(const AttnCompileResult *r,
                                           size_t i) {
  return i < r->kernelNames.size() ? r->kernelNames[i].c_str() : nullptr;
}
const char *attnCompileResultGetKernelJSON(const AttnCompileResult *r,
                                           size_t i) {
  return i < r->kernelJSON.size() ? r->kernelJSON[i].c_str() : nullptr;
}

static const char *bytes(const std::string &s, size_t *length) {
  if (length)
    *length = s.size();
  return s.empty() ? nullptr : s.data();
}
const char *attnCompileResultGetPTX(const AttnCompileResult *r,
                                    size_t *length) {
  return bytes(r->artifacts.ptx, length);
}
const char *attnCompileResultGetCubin(const AttnCompileResult *r,
                                      size_t *length) {
  return bytes(r->artifacts.cubin, length);
}
const char *attnCompileResultGetCPUModule(const AttnCompileResult *r,
                                          size_t *length) {
  return bytes(r->cpuModule, length);
}

bool attnCompileResultWriteArtifacts(AttnCompileResult *r, const char *dir,
                                     const char *stem) {
  if (!r->succeeded || r->artifacts.chip.empty()) {
    r->error("attnCompileResultWriteArtifacts: no GPU artifacts to write (the "
             "compilation failed or targeted the CPU)");
    return false;
  }
  std::string err =
      attn::writeArtifacts(r->artifacts, dir ? dir : ".", stem ? stem : "attn");
  if (!err.empty()) {
    r->error("attnCompileResultWriteArtifacts: " + err);
    return false;
  }
  return true;
}

void attnCompileResultDestroy(AttnCompileResult *r) { delete r; }
