//===- CandidateCompiler.h - one tuning candidate to a kernel --*- C++ -*-===//
//
// The static half compiles each variant (a candidate of the search space
// under one of its key-length schedules) of the input's attn.attention in
// a context of its own, on several threads: the GPU pipeline, then ptxas's
// resource report (Ptxas.h), with the content cache (CompileCache.h) in
// front. A variant that spills is compiled again in the forms the register
// knobs give it (registerFitForms).
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_TOOLS_ATTN_TUNE_CANDIDATECOMPILER_H
#define ATTN_TOOLS_ATTN_TUNE_CANDIDATECOMPILER_H

#include "attn/Compiler/Artifact.h"
#include "attn/Tuning/CompileCache.h"
#include "attn/Tuning/SearchSpace.h"

#include "mlir/IR/MLIRContext.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace attn_tune {

namespace attn = mlir::attn;

/// One variant and what compiling it gave.
struct Outcome {
  attn::TuningCandidate candidate;
  /// The candidate's index in the search space and which of its
  /// key-length schedules this is (0: the first --n's).
  size_t index = 0, variant = 0;
  /// The --n (indices into ns) this variant is compiled for: those where
  /// withKeyLengthSchedule gives it the same GPU configuration.
  std::vector<size_t> nIdx;
  /// The GPU configuration it is compiled with, printed.
  std::string scheduled;
  bool accepted = false;
  std::string reason;
  attn::KernelResources resources;
  std::vector<double> costs; // per nIdx
  attn::GPUArtifacts artifacts;
  /// Owns the artifacts' attributes; set once the variant was compiled.
  std::unique_ptr<mlir::MLIRContext> context;
  /// Set when the compilation came from the cache: its entry (the artifact
  /// files to copy when emitting).
  std::optional<attn::CachedCompilation> cached;
  std::vector<std::string> kernelNames;
  /// Set when the candidate as enumerated spilled and this is a form of it
  /// with register knobs (registerFitForms): what the enumerated one got.
  std::string fittedFrom;
};

/// The variant's kernel stem suffix: `__c<index>`, then `v<variant>`.
std::string suffixOf(const Outcome &o);

/// What every compilation of a static-half run shares.
struct CompileSetup {
  std::string source; // the input module's text
  std::string input;  // its file name (locations, kernel stems)
  std::string chip, toolkit, ptxas;
  std::vector<int64_t> ns;
  /// The cache directory ("" for none) and the fingerprint of this
  /// executable and ptxas that its keys include.
  std::string cache, fingerprint;
};

class CandidateCompiler {
public:
  /// `errs` serializes what it prints to stderr with the caller's lines.
  CandidateCompiler(CompileSetup setup, std::mutex &errs);

  /// Compiles `out.candidate` into `out` (thread-safe): its artifacts,
  /// ptxas's report and, where it is rejected, the reason. Where it
  /// spills, the register-fit forms in order, the first that assembles
  /// without spills replacing it (its `fittedFrom` says what the
  /// enumerated candidate got).
  void compile(Outcome &out);

  /// Cache lookups (one per compilation, register-fit forms included), the
  /// ones that hit, and the register-fit forms compiled.
  int64_t lookups() const { return lookupCount; }
  int64_t hits() const { return hitCount; }
  int64_t fitCompilations() const { return fitCount; }

private:
  void compileOnce(Outcome &out);
  /// Stores a deterministic outcome in the cache (warns if it cannot).
  void store(const Outcome &out, const std::string &key,
             const std::string &stem);

  CompileSetup setup;
  std::string stemBase;
  std::atomic<int64_t> lookupCount{0}, hitCount{0}, fitCount{0};
  std::mutex &warnMutex;
};

} // namespace attn_tune

#endif // ATTN_TOOLS_ATTN_TUNE_CANDIDATECOMPILER_H
