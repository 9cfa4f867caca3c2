//===- StaticHalf.cpp - attn-tune's candidates, pruned on this machine ----===//
//
// See StaticHalf.h.
//
//===----------------------------------------------------------------------===//

#include "StaticHalf.h"

#include "CandidateCompiler.h"
#include "CompileSchedule.h"
#include "Ptxas.h"

#include "attn/Compiler/Artifact.h"
#include "attn/Compiler/Compiler.h"
#include "attn/Dialect/Attn/IR/AttnDialect.h"
#include "attn/Dialect/Attn/Transforms/Passes.h"
#include "attn/Support/ParseSource.h"
#include "attn/Tuning/CompileCache.h"
#include "attn/Tuning/SearchSpace.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <mutex>

using namespace mlir;
using namespace attn_tune;
using llvm::StringRef;

namespace {
/// The problem the candidates are ranked for, from the input's first
/// attn.attention, and its tuning key at each --n.
struct RankedProblem {
  attn::TuningProblem problem;
  std::vector<attn::TuningKey> keys;

  /// The benchmark matrix's shapes at length n: B * N = 16384 tokens,
  /// H * D = 2048.
  attn::TuningProblem at(int64_t n) const {
    attn::TuningProblem p = problem;
    p.nq = p.nk = n;
    p.batchHeads = std::max<int64_t>(1, 16384 / n) *
                   std::max<int64_t>(1, 2048 / problem.d);
    return p;
  }
};

/// The heuristic's kernel for some --n, which the device checks every
/// candidate against and times as the baseline.
struct HeuristicKernel {
  std::string config, gpuConfig, suffix;
  std::string text; // the module with its configuration attached, renamed
  std::unique_ptr<MLIRContext> context;
  FailureOr<attn::GPUArtifacts> artifacts = failure();
  std::string diag;
};

/// The input's first attn.attention, or null.
attn::AttentionOp firstAttention(ModuleOp module) {
  attn::AttentionOp op;
  module->walk([&](attn::AttentionOp a) {
    if (!op)
      op = a;
  });
  return op;
}

FailureOr<RankedProblem> readProblem(const std::string &source,
                                     const StaticOptions &o,
                                     ArrayRef<int64_t> ns) {
  RankedProblem ranked;
  std::unique_ptr<MLIRContext> ctx = attn::createContext();
  llvm::SourceMgr sm;
  sm.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(source, o.input),
                        llvm::SMLoc());
  SourceMgrDiagnosticHandler handler(sm, ctx.get());
  OwningOpRef<ModuleOp> module = attn::parseModule(sm, ParserConfig(ctx.get()));
  if (!module)
    return failure();
  attn::AttentionOp op = firstAttention(*module);
  if (!op) {
    llvm::errs() << "attn-tune: " << o.input << " holds no attn.attention\n";
    return failure();
  }
  attn::TuningProblem &problem = ranked.problem;
  problem.d = op.getQueryType().getDimSize(3);
  problem.dv = op.getValueType().getDimSize(3);
  if (ShapedType::isDynamic(problem.d) || ShapedType::isDynamic(problem.dv)) {
    op.emitError() << "attn-tune needs static head dims";
    return failure();
  }
  attn::MaskAttr mask = op.getMaskOrDefault();
  problem.causal = mask.getKind() == attn::MaskKind::Causal;
  if (mask.getKind() == attn::MaskKind::Window)
    problem.window = mask.getLeft() + mask.getRight() + 1;
  for (int64_t n : ns)
    ranked.keys.push_back(*attn::getTuningKey(op, o.chip, n));
  return ranked;
}

/// The search space for the chip, filtered by --only.
FailureOr<std::vector<attn::TuningCandidate>>
searchSpace(const StaticOptions &o) {
  std::vector<attn::TuningCandidate> candidates =
      attn::enumerateCandidates(o.chip);
  if (candidates.empty()) {
    llvm::errs() << "attn-tune: no search space for chip '" << o.chip
                 << "' (sm_80, sm_90a)\n";
    return failure();
  }
  if (o.only.empty())
    return candidates;
  llvm::Regex filter(o.only);
  std::string error;
  if (!filter.isValid(error)) {
    llvm::errs() << "attn-tune: --only: " << error << "\n";
    return failure();
  }
  llvm::erase_if(candidates, [&](const attn::TuningCandidate &c) {
    return !filter.match(c.str());
  });
  if (candidates.empty()) {
    llvm::errs() << "attn-tune: --only='" << o.only
                 << "' matches no candidate of the search space\n";
    return failure();
  }
  return candidates;
}

/// The content cache's directory (CompileCache.h), or "" for none.
std::string cacheDirectory(const StaticOptions &o) {
  if (o.cacheDir == "none")
    return "";
  if (!o.cacheDir.empty())
    return o.cacheDir;
  const char *xdg = std::getenv("XDG_CACHE_HOME");
  const char *home = std::getenv("HOME");
  if (xdg && *xdg)
    return std::string(xdg) + "/attn/tune";
  if (home && *home)
    return std::string(home) + "/.cache/attn/tune";
  return "";
}

/// Each candidate once per key-length schedule among the --n: the
/// configuration passes apply withKeyLengthSchedule to a database entry
/// (peel_last_block for short keys, the rescale slack for long ones), so a
/// candidate is measured as the kernel it will be.
FailureOr<std::vector<Outcome>>
enumerateVariants(const std::string &source, const StaticOptions &o,
                  ArrayRef<attn::TuningCandidate> candidates,
                  ArrayRef<int64_t> ns) {
  std::vector<Outcome> outcomes;
  std::unique_ptr<MLIRContext> ctx = attn::createContext();
  OwningOpRef<ModuleOp> module =
      attn::parseModule(source, ParserConfig(ctx.get()), o.input);
  if (!module)
    return failure();
  attn::AttentionOp op = firstAttention(*module);
  for (size_t i = 0; i < candidates.size(); ++i) {
    attn::GpuConfigAttr gpu = candidates[i].gpuConfig(ctx.get());
    std::vector<attn::GpuConfigAttr> schedules;
    size_t first = outcomes.size();
    for (size_t j = 0; j < ns.size(); ++j) {
      attn::GpuConfigAttr s = attn::withKeyLengthSchedule(gpu, op, ns[j]);
      auto it = llvm::find(schedules, s);
      if (it == schedules.end()) {
        schedules.push_back(s);
        Outcome out;
        out.candidate = candidates[i];
        out.index = i;
        out.variant = schedules.size() - 1;
        llvm::raw_string_ostream(out.scheduled) << s;
        outcomes.push_back(std::move(out));
        it = std::prev(schedules.end());
      }
      outcomes[first + (it - schedules.begin())].nIdx.push_back(j);
    }
  }
  return outcomes;
}

/// The heuristic's configurations for the --n (each length gets what the
/// heuristic picks for it: it may choose by key length, as
/// attn-default-config seq-len and attn-compile's length dispatch do):
/// `<fn>__default` for the first configuration, `<fn>__default_n<N>` for
/// another one first chosen at N. `heuristicOfN` gets, per --n, an index
/// into `heuristics`.
LogicalResult chooseHeuristics(const std::string &source,
                               const StaticOptions &o, ArrayRef<int64_t> ns,
                               std::vector<HeuristicKernel> &heuristics,
                               std::vector<size_t> &heuristicOfN) {
  for (int64_t n : ns) {
    std::unique_ptr<MLIRContext> ctx = attn::createContext();
    OwningOpRef<ModuleOp> module =
        attn::parseModule(source, ParserConfig(ctx.get()), o.input);
    if (!module)
      return failure();
    // The heuristic's configuration, attached here (the pipeline keeps a
    // configuration that is there) so that the report can name it: the
    // device times it like a candidate, and the database stores it.
    PassManager pm(ctx.get());
    attn::AttnDefaultConfigOptions defaults;
    defaults.chip = o.chip;
    defaults.seqLen = n;
    pm.addPass(attn::createAttnDefaultConfig(defaults));
    if (failed(pm.run(*module)))
      return failure();
    std::string config, gpuConfig;
    module->walk([&](attn::AttentionOp op) {
      if (!config.empty())
        return;
      llvm::raw_string_ostream(config) << op.getConfigAttr();
      if (op.getGpuConfigAttr())
        llvm::raw_string_ostream(gpuConfig) << op.getGpuConfigAttr();
    });
    auto it = llvm::find_if(heuristics, [&](const HeuristicKernel &h) {
      return h.config == config && h.gpuConfig == gpuConfig;
    });
    if (it == heuristics.end()) {
      HeuristicKernel h;
      h.config = config, h.gpuConfig = gpuConfig;
      h.suffix =
          heuristics.empty() ? "__default" : "__default_n" + std::to_string(n);
      module->walk([&](func::FuncOp fn) {
        fn.setSymName((fn.getSymName() + h.suffix).str());
      });
      llvm::raw_string_ostream os(h.text);
      module->print(os, OpPrintingFlags().enableDebugInfo());
      heuristics.push_back(std::move(h));
      it = std::prev(heuristics.end());
    }
    heuristicOfN.push_back(it - heuristics.begin());
  }
  return success();
}

/// Compiles a heuristic kernel (with its cubin); on failure `h.diag` holds
/// the first error with its location.
void compileHeuristic(HeuristicKernel &h, const StaticOptions &o) {
  h.context = attn::createContext();
  ScopedDiagnosticHandler handler(h.context.get(), [&](Diagnostic &d) {
    if (h.diag.empty() && d.getSeverity() == DiagnosticSeverity::Error) {
      llvm::raw_string_ostream os(h.diag);
      if (auto at = dyn_cast<FileLineColLoc>(d.getLocation()))
        os << at.getFilename().getValue() << ":" << at.getLine() << ":"
           << at.getColumn();
      else
        os << d.getLocation();
      os << ": " << d;
    }
    return success();
  });
  OwningOpRef<ModuleOp> module =
      attn::parseModule(h.text, ParserConfig(h.context.get()), o.input);
  if (!module)
    return;
  attn::GPUPipelineOptions options;
  options.chip = o.chip;
  options.toolkit = o.toolkit;
  // Measured at the --n lengths, whose biases TMA describes.
  options.tmaFallbacks = false;
  h.artifacts = attn::compileToGPU(*module, options, /*withCubin=*/true);
}

/// --progress: a line per tenth of the compilations, with an ETA.
class Progress {
public:
  Progress(bool enabled, size_t total, std::mutex &errs)
      : enabled(enabled), total(total), mutex(errs) {}
  void compiledOne() {
    if (!enabled)
      return;
    std::lock_guard<std::mutex> lock(mutex);
    ++compiled;
    size_t step = std::max<size_t>(1, total / 10);
    if (compiled % step && compiled != total)
      return;
    double t =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    llvm::errs() << llvm::formatv(
        "  [{0}/{1} compilations] {2:f1} s elapsed, ETA {3:f1} s\n", compiled,
        total, t, t / compiled * (total - compiled));
  }

private:
  bool enabled;
  size_t total, compiled = 0;
  std::mutex &mutex; // stderr's
  std::chrono::steady_clock::time_point start =
      std::chrono::steady_clock::now();
};

/// The cost of variant `o` at --n index j (it is compiled for j).
double costAt(const Outcome &o, size_t j) {
  return o.costs[llvm::find(o.nIdx, j) - o.nIdx.begin()];
}
} // namespace

int attn_tune::runStaticHalf(const StaticOptions &o) {
  auto file = llvm::MemoryBuffer::getFile(o.input);
  if (!file) {
    llvm::errs() << "attn-tune: cannot read " << o.input << "\n";
    return 1;
  }
  std::string source = (*file)->getBuffer().str();
  attn::GPUPipelineOptions base;
  base.chip = o.chip;
  base.toolkit = o.toolkit;
  if (std::string err = attn::validateGPUPipelineOptions(base); !err.empty()) {
    llvm::errs() << "attn-tune: " << err << "\n";
    return 1;
  }
  std::vector<int64_t> ns = o.ns;
  if (ns.empty())
    ns.push_back(4096);
  if (llvm::any_of(ns, [](int64_t n) { return n <= 0; }) || o.top <= 0 ||
      o.jobs == 0) {
    llvm::errs() << "attn-tune: --n, --top and -j must be positive\n";
    return 1;
  }
  std::optional<std::string> ptxas = findPtxas(o.toolkit);
  if (!ptxas) {
    llvm::errs() << "attn-tune: ptxas not found (--toolkit, CUDA_HOME or "
                    "PATH); the pruning needs its resource report\n";
    return 1;
  }
  FailureOr<RankedProblem> ranked = readProblem(source, o, ns);
  if (failed(ranked))
    return 1;
  FailureOr<std::vector<attn::TuningCandidate>> candidates = searchSpace(o);
  if (failed(candidates))
    return 1;

  // The cache's entries are keyed by the candidate's module and a
  // fingerprint of this executable and ptxas. This build's fingerprint is
  // in the report too (attn-tune prepare takes a report of another build
  // as stale).
  std::string cache = cacheDirectory(o);
  std::string selfHash = attn::hashFile(o.self);
  std::string fingerprint;
  if (!cache.empty()) {
    std::string ptxasHash = attn::hashFile(*ptxas);
    if (selfHash.empty() || ptxasHash.empty()) {
      llvm::errs() << "attn-tune: warning: cannot fingerprint " << o.self
                   << " or " << *ptxas << "; compiling without the cache\n";
      cache.clear();
    }
    fingerprint = selfHash + "/" + ptxasHash;
  }
  FailureOr<std::vector<Outcome>> variants =
      enumerateVariants(source, o, *candidates, ns);
  if (failed(variants))
    return 1;
  std::vector<Outcome> &outcomes = *variants;

  // One lock for what the compilations print to stderr (progress lines,
  // cache warnings).
  std::mutex errs;
  Progress progress(o.progress, outcomes.size(), errs);
  std::vector<HeuristicKernel> heuristics;
  std::vector<size_t> heuristicOfN; // empty without an emit directory
  if (!o.emitDir.empty() &&
      failed(chooseHeuristics(source, o, ns, heuristics, heuristicOfN)))
    return 1;

  // The heuristic's compilations run in the pool beside the candidates'.
  llvm::DefaultThreadPool pool(llvm::hardware_concurrency(o.jobs));
  for (HeuristicKernel &h : heuristics)
    pool.async([&o, kernel = &h] { compileHeuristic(*kernel, o); });

  CandidateCompiler compiler(CompileSetup{source, o.input, o.chip, o.toolkit,
                                          *ptxas, ns, cache, fingerprint},
                             errs);
  CompilePlan plan;
  plan.lengths = ns.size();
  plan.top = o.top;
  plan.prune = !o.emitAll && o.top > 0;
  for (const Outcome &out : outcomes) {
    plan.lengthsOf.push_back(out.nIdx);
    std::vector<double> &b = plan.bounds.emplace_back();
    for (size_t j : out.nIdx)
      b.push_back(attn::estimateCostBound(out.candidate, ranked->at(ns[j])));
  }
  // The candidates as enumerated, read from a copy of their indices: a
  // compilation in flight may replace its outcome with a register-fit form.
  std::vector<size_t> enumerated;
  for (const Outcome &out : outcomes)
    enumerated.push_back(out.index);
  plan.narrowerSibling = [&, enumerated](size_t i, size_t k) {
    attn::TuningCandidate a = (*candidates)[enumerated[i]],
                          b = (*candidates)[enumerated[k]];
    if (b.blockN >= a.blockN || plan.lengthsOf[i] != plan.lengthsOf[k])
      return false;
    b.blockN = a.blockN;
    return a.str() == b.str();
  };
  auto compileVariant = [&](size_t i) {
    Outcome &out = outcomes[i];
    compiler.compile(out);
    CompileResult result;
    if (out.reason.empty()) {
      out.accepted = true;
      for (size_t j : out.nIdx)
        out.costs.push_back(attn::estimateCost(out.candidate, out.resources,
                                               ranked->at(ns[j])));
      result.accepted = true;
      result.costs = out.costs;
    } else if (StringRef(out.reason).starts_with("spills")) {
      result.spillBytes = out.resources.spillBytes;
    }
    progress.compiledOne();
    return result;
  };
  auto ruledOut = [&](size_t i, size_t k, int64_t spillBytes) {
    outcomes[i].reason = "not compiled: block_n " +
                         std::to_string(outcomes[k].candidate.blockN) +
                         " of the same configuration spilled " +
                         std::to_string(spillBytes) + " bytes";
  };
  unsigned workers = llvm::hardware_concurrency(o.jobs).compute_thread_count();
  std::vector<bool> compiled =
      scheduleCompilations(plan, pool, workers, compileVariant, ruledOut);
  pool.wait();
  int64_t notCompiled = 0;
  for (size_t i = 0; i < outcomes.size(); ++i)
    if (!compiled[i]) {
      ++notCompiled;
      if (outcomes[i].reason.empty())
        outcomes[i].reason = "not compiled: its cost bound is above the "
                             "--top best compiled costs at each of its "
                             "lengths";
    }

  // Per --n, the accepted candidates by cost; the report lists them in the
  // order of the first, and the emit directory gets the union of each
  // one's best --top (what the device then measures for that bucket).
  std::vector<std::vector<size_t>> rankings(ns.size());
  for (size_t j = 0; j < ns.size(); ++j) {
    for (size_t i = 0; i < outcomes.size(); ++i)
      if (outcomes[i].accepted && llvm::is_contained(outcomes[i].nIdx, j))
        rankings[j].push_back(i);
    std::stable_sort(rankings[j].begin(), rankings[j].end(),
                     [&](size_t a, size_t b) {
                       return costAt(outcomes[a], j) < costAt(outcomes[b], j);
                     });
  }
  // The report's order: the first --n's ranking, then the variants of
  // other lengths by their first ranking, then the rejected.
  std::vector<size_t> order;
  std::vector<char> listed(outcomes.size(), 0);
  for (const std::vector<size_t> &ranking : rankings)
    for (size_t i : ranking)
      if (!listed[i]) {
        listed[i] = 1;
        order.push_back(i);
      }
  for (size_t i = 0; i < outcomes.size(); ++i)
    if (!outcomes[i].accepted)
      order.push_back(i);
  std::vector<char> emit(outcomes.size(), 0);
  for (const std::vector<size_t> &ranking : rankings)
    for (size_t r = 0; r < ranking.size() && r < size_t(o.top); ++r)
      emit[ranking[r]] = 1;
  if (o.emitAll)
    for (size_t i = 0; i < outcomes.size(); ++i)
      if (!outcomes[i].kernelNames.empty())
        emit[i] = 1;

  std::string stemBase = llvm::sys::path::stem(o.input).str();
  llvm::json::Array rows;
  int64_t rank = 0, accepted = 0;
  // The candidates that were not compiled print their configurations here.
  std::unique_ptr<MLIRContext> reportContext = attn::createContext();
  reportContext->getOrLoadDialect<attn::AttnDialect>();
  for (size_t i : order) {
    Outcome &out = outcomes[i];
    MLIRContext *ctx = out.context ? out.context.get() : reportContext.get();
    std::string config, gpuConfig;
    const std::string &scheduled = out.scheduled;
    llvm::raw_string_ostream(config) << out.candidate.tileConfig(ctx);
    llvm::raw_string_ostream(gpuConfig) << out.candidate.gpuConfig(ctx);
    llvm::json::Array variantNs;
    for (size_t j : out.nIdx)
      variantNs.push_back(ns[j]);
    // The database stores the candidate's own configuration (the
    // configuration passes schedule it again by length); the kernel
    // measured is the scheduled one.
    std::string name = out.candidate.str();
    if (scheduled != gpuConfig)
      name += " @n" + std::to_string(ns[out.nIdx.front()]);
    llvm::json::Object row{{"candidate", name},
                           {"index", int64_t(out.index)},
                           {"ns", std::move(variantNs)},
                           {"config", config},
                           {"gpu_config", gpuConfig},
                           {"scheduled_gpu_config", scheduled},
                           {"block_m", out.candidate.blockM},
                           {"block_n", out.candidate.blockN},
                           {"warps", out.candidate.warps},
                           {"stages", out.candidate.stages},
                           {"wgmma", out.candidate.wgmma},
                           {"lazy_rescale", out.candidate.lazyRescale},
                           {"reverse_kv", out.candidate.reverseKV},
                           {"loop_local_ids", out.candidate.loopLocalIds},
                           {"cached", out.cached.has_value()}};
    llvm::json::Object boundByN;
    for (auto [j, bound] : llvm::zip(out.nIdx, plan.bounds[i]))
      boundByN[std::to_string(ns[j])] = bound;
    row["cost_bound_by_n"] = std::move(boundByN);
    if (out.accepted) {
      ++accepted;
      row["rank"] = ++rank;
      row["cost"] = out.costs.front();
      llvm::json::Object byN;
      for (auto [j, cost] : llvm::zip(out.nIdx, out.costs))
        byN[std::to_string(ns[j])] = cost;
      row["cost_by_n"] = std::move(byN);
      row["registers"] = out.resources.registers;
      row["shared_bytes"] = out.resources.sharedBytes;
    } else {
      row["rejected"] = out.reason;
    }
    if (!out.fittedFrom.empty())
      row["fitted_from"] = out.fittedFrom;
    if (!o.emitDir.empty() && emit[i]) {
      std::string stem = stemBase + suffixOf(out);
      std::string err =
          out.cached ? attn::copyCachedArtifacts(*out.cached, o.emitDir)
                     : attn::writeArtifacts(out.artifacts, o.emitDir, stem);
      if (!err.empty()) {
        llvm::errs() << "attn-tune: " << err << "\n";
        return 1;
      }
      llvm::json::Array kernels;
      for (const std::string &k : out.kernelNames)
        kernels.push_back(k);
      row["kernels"] = std::move(kernels);
    }
    rows.push_back(std::move(row));
  }

  // The heuristic's kernels: the report's default_by_n names, per --n, the
  // kernels of its configuration there.
  llvm::json::Array defaultKernels;
  llvm::json::Object defaultByN;
  std::string defaultConfig, defaultGpuConfig;
  for (HeuristicKernel &h : heuristics) {
    if (failed(h.artifacts)) {
      llvm::errs() << "attn-tune: the heuristic's configuration " << h.config
                   << " " << h.gpuConfig << " does not compile: " << h.diag
                   << "\n";
      return 1;
    }
    std::string err =
        attn::writeArtifacts(*h.artifacts, o.emitDir, stemBase + h.suffix);
    if (!err.empty()) {
      llvm::errs() << "attn-tune: " << err << "\n";
      return 1;
    }
  }
  for (auto [j, index] : llvm::enumerate(heuristicOfN)) {
    int64_t n = ns[j];
    const HeuristicKernel &h = heuristics[index];
    llvm::json::Array kernels;
    for (const attn::KernelInfo &k : h.artifacts->kernels)
      kernels.push_back(k.name);
    if (defaultConfig.empty()) {
      defaultConfig = h.config, defaultGpuConfig = h.gpuConfig;
      defaultKernels = kernels;
    }
    defaultByN[std::to_string(n)] =
        llvm::json::Object{{"kernels", std::move(kernels)},
                           {"config", h.config},
                           {"gpu_config", h.gpuConfig}};
  }

  const attn::TuningKey &key = ranked->keys.front();
  llvm::json::Array buckets, nValues;
  for (const attn::TuningKey &k : ranked->keys)
    buckets.push_back(k.nBucket);
  for (int64_t n : ns)
    nValues.push_back(n);
  const attn::TuningProblem &problem = ranked->problem;
  llvm::json::Object report{
      {"input", o.input},
      {"chip", o.chip},
      {"compiler", selfHash},
      {"top", o.top},
      {"emit_all", o.emitAll},
      {"only", o.only},
      {"n", ns.front()},
      {"ns", std::move(nValues)},
      {"n_buckets", std::move(buckets)},
      {"key", llvm::json::Object{{"chip", key.chip},
                                 {"dtype", key.dtype},
                                 {"d", key.d},
                                 {"dv", key.dv},
                                 {"mask", key.mask},
                                 {"mods", key.mods},
                                 {"gqa", key.gqa},
                                 {"lse", key.lse}}},
      {"default_kernels", std::move(defaultKernels)},
      {"default_by_n", std::move(defaultByN)},
      {"default_config", defaultConfig},
      {"default_gpu_config", defaultGpuConfig},
      {"d", problem.d},
      {"dv", problem.dv},
      {"causal", problem.causal},
      {"candidates", int64_t(candidates->size())},
      {"compilations", int64_t(outcomes.size())},
      {"not_compiled", notCompiled},
      {"register_fit_compilations", compiler.fitCompilations()},
      {"cache", cache.empty()
                    ? llvm::json::Value(nullptr)
                    : llvm::json::Value(llvm::json::Object{
                          {"dir", cache},
                          {"hits", compiler.hits()},
                          {"misses", compiler.lookups() - compiler.hits()}})},
      {"accepted", accepted},
      {"ranked", std::move(rows)}};
  llvm::outs() << llvm::formatv("{0:2}", llvm::json::Value(std::move(report)))
               << "\n";
  return 0;
}
