//===- CandidateCompiler.cpp - one tuning candidate to a kernel -----------===//
//
// See CandidateCompiler.h.
//
//===----------------------------------------------------------------------===//

#include "CandidateCompiler.h"

#include "Ptxas.h"

#include "attn/Compiler/Compiler.h"
#include "attn/Dialect/Attn/IR/AttnDialect.h"
#include "attn/Dialect/Attn/Transforms/Passes.h"
#include "attn/Support/ParseSource.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace attn_tune;
using llvm::StringRef;

std::string attn_tune::suffixOf(const Outcome &o) {
  return "__c" + std::to_string(o.index) +
         (o.variant ? "v" + std::to_string(o.variant) : std::string());
}

CandidateCompiler::CandidateCompiler(CompileSetup setup, std::mutex &errs)
    : setup(std::move(setup)),
      stemBase(llvm::sys::path::stem(this->setup.input).str()),
      warnMutex(errs) {}

void CandidateCompiler::compileOnce(Outcome &out) {
  out.context = attn::createContext();
  MLIRContext *ctx = out.context.get();
  std::string diag;
  ScopedDiagnosticHandler handler(ctx, [&](Diagnostic &d) {
    if (diag.empty() && d.getSeverity() == DiagnosticSeverity::Error)
      diag = d.str();
    return success();
  });
  OwningOpRef<ModuleOp> module =
      attn::parseModule(setup.source, ParserConfig(ctx), setup.input);
  if (!module) {
    out.reason = "parse: " + diag;
    return;
  }
  module->walk([&](attn::AttentionOp op) {
    op.setConfigAttr(out.candidate.tileConfig(ctx));
    // The configuration passes apply withKeyLengthSchedule to a database
    // entry: the variant is compiled as the kernel it will be.
    attn::GpuConfigAttr scheduled = attn::withKeyLengthSchedule(
        out.candidate.gpuConfig(ctx), op, setup.ns[out.nIdx.front()]);
    op.setGpuConfigAttr(scheduled);
    out.scheduled.clear();
    llvm::raw_string_ostream(out.scheduled) << scheduled;
  });
  module->walk([&](func::FuncOp fn) {
    fn.setSymName((fn.getSymName() + suffixOf(out)).str());
  });
  std::string stem = stemBase + suffixOf(out);
  std::string key;
  if (!setup.cache.empty()) {
    std::string text;
    llvm::raw_string_ostream os(text);
    module->print(os, OpPrintingFlags().enableDebugInfo());
    key = attn::compileCacheKey({text, setup.chip, stem, setup.fingerprint});
    ++lookupCount;
    if (std::optional<attn::CachedCompilation> hit =
            attn::lookupCompilation(setup.cache, key)) {
      out.resources = hit->resources;
      out.kernelNames = hit->kernels;
      out.reason = hit->rejected;
      out.cached = std::move(*hit);
      ++hitCount;
      return;
    }
  }
  attn::GPUPipelineOptions options;
  options.chip = setup.chip;
  options.toolkit = setup.toolkit;
  // Measured at the --n lengths, whose biases TMA describes.
  options.tmaFallbacks = false;
  FailureOr<attn::GPUArtifacts> artifacts =
      attn::compileToGPU(*module, options, /*withCubin=*/false);
  if (failed(artifacts)) {
    out.reason = "compile: " + diag;
  } else {
    out.artifacts = std::move(*artifacts);
    for (const attn::KernelInfo &k : out.artifacts.kernels) {
      out.kernelNames.push_back(k.name);
      if (auto shared = k.launch.getAs<IntegerAttr>("shared_bytes"))
        out.resources.sharedBytes =
            std::max(out.resources.sharedBytes, shared.getInt());
    }
    out.reason = assemble(setup.ptxas, setup.chip, out.artifacts.ptx,
                          out.resources, out.artifacts.cubin);
    if (out.reason.empty() &&
        (out.resources.spillBytes || out.resources.stackBytes))
      out.reason = "spills " + std::to_string(out.resources.spillBytes) +
                   " bytes, stack " + std::to_string(out.resources.stackBytes);
    else if (out.reason.empty() && out.resources.ignoredSetmaxnreg)
      out.reason = "ptxas ignored setmaxnreg (C7508)";
  }
  // Deterministic outcomes go into the cache: an accepted candidate with
  // its artifact files, a rejected one with its reason (but not a failure
  // to run ptxas at all, which may be passing).
  if (!setup.cache.empty() &&
      !StringRef(out.reason).starts_with("ptxas failed") &&
      !StringRef(out.reason).starts_with("cannot"))
    store(out, key, stem);
}

void CandidateCompiler::store(const Outcome &out, const std::string &key,
                              const std::string &stem) {
  attn::CachedCompilation entry;
  entry.rejected = out.reason;
  entry.resources = out.resources;
  entry.kernels = out.kernelNames;
  std::string err;
  llvm::SmallString<128> tmp;
  if (!out.kernelNames.empty()) {
    if (llvm::sys::fs::createUniqueDirectory("attn-tune", tmp))
      err = "cannot create a temporary directory";
    else
      err = attn::writeArtifacts(out.artifacts, tmp, stem);
  }
  if (err.empty())
    err = attn::storeCompilation(setup.cache, key, entry, tmp);
  if (!tmp.empty())
    llvm::sys::fs::remove_directories(tmp);
  if (!err.empty()) {
    std::lock_guard<std::mutex> lock(warnMutex);
    llvm::errs() << "attn-tune: warning: not cached: " << err << "\n";
  }
}

void CandidateCompiler::compile(Outcome &out) {
  compileOnce(out);
  if (!StringRef(out.reason).starts_with("spills"))
    return;
  std::string spilled = out.reason;
  for (const attn::TuningCandidate &form :
       attn::registerFitForms(out.candidate)) {
    Outcome fitted;
    fitted.candidate = form;
    fitted.index = out.index, fitted.variant = out.variant;
    fitted.nIdx = out.nIdx;
    compileOnce(fitted);
    ++fitCount;
    if (!StringRef(fitted.reason).starts_with("spills")) {
      fitted.fittedFrom = spilled;
      out = std::move(fitted);
      return;
    }
  }
  if (!attn::registerFitForms(out.candidate).empty())
    out.reason = spilled + " (with reverse_kv, loop_local_ids or both too)";
}
