//===- attn-tune.cpp - candidates for tuning, pruned on this machine ------===//
//
// attn-tune in.mlir --chip=sm_90a [--n=512,4096,...] [--top=16] [--emit=DIR]
//
// The static half of tuning (no GPU needed): enumerates the legal
// configurations of the search space for the chip (attn/Tuning), compiles
// those that can still reach a length's --top (by their cost bounds; all
// of them with --emit-all) for every attn.attention of in.mlir in parallel
// (one context per candidate; once per key-length schedule that
// withKeyLengthSchedule gives it among the --n, as the configuration
// passes will schedule a database entry), assembles each with `ptxas -v`,
// rejects what fails to compile
// or spills or uses local memory (and, for sm_90a, kernels where ptxas
// ignored setmaxnreg), ranks the rest with the analytic cost model for
// each --n (sequence length), and prints a JSON report: the tuning
// database's key, the heuristic's configuration, every candidate with its
// configuration strings, resources and cost per --n, or the reason it was
// rejected. --emit writes the union of each length's best --top candidates
// (kernels renamed `<function>__c<candidate index>`, `...v<k>` for its k-th
// schedule; a report row's "ns" says which lengths it is for) and the heuristic's
// kernel (`<function>__default`), for bench/device/tune_measure.py. Errors
// print with a location and exit non-zero.
//
//===----------------------------------------------------------------------===//

#include "attn/Compiler/Artifact.h"
#include "attn/Compiler/Compiler.h"
#include "attn/Dialect/Attn/IR/AttnDialect.h"
#include "attn/Dialect/Attn/Transforms/Passes.h"
#include "attn/Tuning/CompileCache.h"
#include "attn/Tuning/SearchSpace.h"

#include "TuneLoop.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <limits>
#include <mutex>
#include <numeric>

using namespace mlir;
namespace cl = llvm::cl;

static cl::OptionCategory category("attn-tune options");
// The loop's phases (TuneLoop.h); without one, attn-tune is the static half
// for one input file.
static cl::SubCommand prepareCmd(
    "prepare", "KEYS DIR: the static half for each key of KEYS (a file, or "
               "- for stdin; lines 'NAME DTYPE D[:DV] MASK[+softcap=C][+bias[=SHAPE]] "
               "[gqa=G] [lse=no]') into DIR/NAME/, skipping keys already prepared");
static cl::SubCommand measureCmd(
    "measure", "DIR OUT.json: time the prepared keys' candidates on this "
               "machine's GPU (the runtime-only measurer), merged into "
               "OUT.json, skipping the points measured before");
static cl::SubCommand importCmd(
    "import", "OUT.json DB.sqlite: the measurements into the database");
static cl::SubCommand allCmd(
    "all", "KEYS DIR OUT.json DB.sqlite: prepare, measure and import");
// The static half's options, for it and for the phases that run it.
#define STATIC_SUBS                                                            \
  cl::sub(cl::SubCommand::getTopLevel()), cl::sub(prepareCmd), cl::sub(allCmd)
#define MEASURE_SUBS cl::sub(measureCmd), cl::sub(allCmd)

static cl::opt<std::string> input(cl::Positional, cl::desc("<input.mlir>"),
                                  cl::Required, cl::cat(category));
static cl::list<std::string>
    loopArgs(cl::Positional, cl::desc("<phase arguments>"), cl::OneOrMore,
             cl::sub(prepareCmd), cl::sub(measureCmd), cl::sub(importCmd),
             cl::sub(allCmd), cl::cat(category));
static cl::opt<std::string> chip("chip", cl::desc("sm_80 or sm_90a"),
                                 cl::init("sm_90a"), cl::cat(category),
                                 STATIC_SUBS);
static cl::list<int64_t>
    seqLens("n",
            cl::desc("Sequence lengths ranked for (comma-separated; 4096 if "
                     "none, and for prepare 512 .. 16384, every bucket)"),
            cl::CommaSeparated, cl::cat(category), STATIC_SUBS);
static cl::opt<int64_t> top("top", cl::desc("Candidates to emit"),
                            cl::init(16), cl::cat(category), STATIC_SUBS);
static cl::opt<std::string> emitDir("emit",
                                    cl::desc("Write the best candidates' "
                                             "artifacts here"),
                                    cl::init(""), cl::cat(category));
static cl::opt<std::string> toolkit("toolkit",
                                    cl::desc("CUDA toolkit path (ptxas)"),
                                    cl::init(""), cl::cat(category),
                                    STATIC_SUBS);
static cl::opt<unsigned> jobs("j", cl::desc("Parallel compilations"),
                              cl::init(2), cl::cat(category), STATIC_SUBS);
static cl::opt<bool> emitAll(
    "emit-all",
    cl::desc("With --emit: write every candidate that compiled, the ones "
             "pruned for spills or an ignored setmaxnreg included (for "
             "timing the full legal space once)"),
    cl::init(false), cl::cat(category), STATIC_SUBS);
static cl::opt<std::string>
    only("only",
         cl::desc("Keep the candidates whose name (as the report prints "
                  "it, e.g. 'wgmma 128x128 w8 s2 ws overlap') matches this "
                  "regular expression"),
         cl::init(""), cl::cat(category), STATIC_SUBS);
static cl::opt<std::string>
    cacheDir("cache-dir",
             cl::desc("Keep compilations here by content hash and reuse them "
                      "(default: $XDG_CACHE_HOME/attn/tune or "
                      "~/.cache/attn/tune; 'none': no cache)"),
             cl::init(""), cl::cat(category), STATIC_SUBS);
static cl::opt<bool>
    showProgress("progress",
                 cl::desc("Print the compilations done, with an ETA, to "
                          "stderr"),
                 cl::init(false), cl::cat(category));
static cl::opt<std::string>
    runtimeLib("runtime",
               cl::desc("The kernel runtime library (libattn_runtime.so) "
                        "the measurer loads"),
               cl::init(""), cl::cat(category), MEASURE_SUBS);
static cl::opt<double>
    budgetS("budget-s",
            cl::desc("Device time for the measuring phase: no point starts "
                     "after it (the rest is measured by the next run)"),
            cl::init(540), cl::cat(category), MEASURE_SUBS);
static cl::opt<std::string> measurer(
    "measurer",
    cl::desc("The measuring script (default: $ATTN_TUNE_MEASURE, else the "
             "source tree's bench/device/tune_measure.py)"),
    cl::init(""), cl::cat(category), MEASURE_SUBS);
static cl::opt<std::string> python("python",
                                   cl::desc("The Python that runs it "
                                            "(default: python3 on PATH)"),
                                   cl::init(""), cl::cat(category),
                                   MEASURE_SUBS);

namespace {
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
  std::unique_ptr<MLIRContext> context; // owns the artifacts' attributes
  /// Set when the compilation came from the cache: its entry (the artifact
  /// files to copy when emitting).
  std::optional<attn::CachedCompilation> cached;
  std::vector<std::string> kernelNames;
  /// Set when the candidate as enumerated spilled and this is a form of it
  /// with register knobs (registerFitForms): what the enumerated one got.
  std::string fittedFrom;
};
} // namespace

/// Runs ptxas -v on `ptx`; fills `r` and `cubin` (what ptxas assembled, so
/// that the device loads it instead of JIT-compiling the PTX) or returns
/// the reason it failed.
static std::string assemble(StringRef ptxas, StringRef ptx,
                            attn::KernelResources &r, std::string &cubin) {
  SmallString<128> ptxFile, logFile, cubinFile;
  if (llvm::sys::fs::createTemporaryFile("attn-tune", "ptx", ptxFile))
    return "cannot create a temporary file";
  if (llvm::sys::fs::createTemporaryFile("attn-tune", "log", logFile)) {
    llvm::sys::fs::remove(ptxFile);
    return "cannot create a temporary file";
  }
  if (llvm::sys::fs::createTemporaryFile("attn-tune", "cubin", cubinFile)) {
    llvm::sys::fs::remove(ptxFile);
    llvm::sys::fs::remove(logFile);
    return "cannot create a temporary file";
  }
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(ptxFile, ec);
    if (ec) {
      llvm::sys::fs::remove(ptxFile);
      llvm::sys::fs::remove(logFile);
      return "cannot write " + ptxFile.str().str();
    }
    os << ptx;
  }
  std::string arch = "-arch=" + chip;
  SmallVector<StringRef> args = {ptxas, "-v", arch, ptxFile, "-o", cubinFile};
  std::optional<StringRef> redirects[] = {std::nullopt, StringRef(logFile),
                                          StringRef(logFile)};
  std::string error;
  int rc = llvm::sys::ExecuteAndWait(ptxas, args, std::nullopt, redirects, 0,
                                     0, &error);
  auto log = llvm::MemoryBuffer::getFile(logFile);
  auto object = llvm::MemoryBuffer::getFile(cubinFile, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  llvm::sys::fs::remove(ptxFile);
  llvm::sys::fs::remove(logFile);
  llvm::sys::fs::remove(cubinFile);
  if (rc == 0 && object)
    cubin = (*object)->getBuffer().str();
  if (rc != 0 || !log)
    return "ptxas failed (exit " + std::to_string(rc) + ")" +
           (log ? ": " + (*log)->getBuffer().take_front(300).str() : error);
  StringRef text = (*log)->getBuffer();
  SmallVector<StringRef> m;
  // Sum over the kernels of the module (one per function).
  llvm::Regex regs("Used ([0-9]+) registers"),
      spill("([0-9]+) bytes spill stores"), stack("([0-9]+) bytes stack frame");
  for (StringRef line : llvm::split(text, '\n')) {
    int64_t v = 0;
    if (regs.match(line, &m) && !m[1].getAsInteger(10, v))
      r.registers = std::max(r.registers, v);
    if (spill.match(line, &m) && !m[1].getAsInteger(10, v))
      r.spillBytes += v;
    if (stack.match(line, &m) && !m[1].getAsInteger(10, v))
      r.stackBytes += v;
    if (line.contains("C7508"))
      r.ignoredSetmaxnreg = true;
  }
  if (r.registers == 0)
    return "no resource report from ptxas";
  return "";
}

/// The loop's phases (TuneLoop.h), with the static half's options.
static int runLoop(const std::string &self) {
  attn_tune::LoopOptions o;
  o.self = self;
  o.fingerprint = attn::hashFile(self);
  o.chip = chip;
  o.ns.assign(seqLens.begin(), seqLens.end());
  if (o.ns.empty())
    o.ns = {512, 1024, 2048, 4096, 8192, 16384};
  o.top = top;
  o.jobs = jobs;
  o.emitAll = emitAll;
  o.toolkit = toolkit;
  o.cacheDir = cacheDir;
  o.only = only;
  o.runtime = runtimeLib;
  o.budgetS = budgetS;
  if (measureCmd || allCmd) {
    const char *env = std::getenv("ATTN_TUNE_MEASURE");
    o.measurer = !measurer.empty() ? measurer.getValue()
                 : env && *env     ? std::string(env)
                                   : std::string(ATTN_TUNE_MEASURER);
    if (!llvm::sys::fs::exists(o.measurer)) {
      llvm::errs() << "attn-tune: the measurer " << o.measurer
                   << " does not exist (--measurer)\n";
      return 1;
    }
    if (python.empty()) {
      auto found = llvm::sys::findProgramByName("python3");
      if (!found) {
        llvm::errs() << "attn-tune: python3 not found on PATH (--python)\n";
        return 1;
      }
      o.python = *found;
    } else {
      o.python = python;
    }
    if (runtimeLib.empty()) {
      llvm::errs() << "attn-tune: measuring needs --runtime (the kernel "
                      "runtime library)\n";
      return 1;
    }
  }
  auto want = [&](size_t n, StringRef usage) {
    if (loopArgs.size() == n)
      return true;
    llvm::errs() << "attn-tune: expected " << usage << "\n";
    return false;
  };
  if (prepareCmd)
    return want(2, "prepare KEYS DIR")
               ? attn_tune::prepare(o, loopArgs[0], loopArgs[1])
               : 2;
  if (measureCmd)
    return want(2, "measure DIR OUT.json --runtime LIB")
               ? attn_tune::measure(o, loopArgs[0], loopArgs[1])
               : 2;
  if (importCmd)
    return want(2, "import OUT.json DB.sqlite")
               ? attn_tune::importInto(loopArgs[0], loopArgs[1])
               : 2;
  if (!want(4, "all KEYS DIR OUT.json DB.sqlite --runtime LIB"))
    return 2;
  if (int rc = attn_tune::prepare(o, loopArgs[0], loopArgs[1]))
    return rc;
  // A key the budget or a failure left unmeasured stops nothing: what was
  // measured goes into the database, and the next run measures the rest.
  int measured = attn_tune::measure(o, loopArgs[1], loopArgs[2]);
  if (!llvm::sys::fs::exists(loopArgs[2]))
    return 1;
  if (int rc = attn_tune::importInto(loopArgs[2], loopArgs[3]))
    return rc;
  return measured;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  // --help lists this tool's options, not every LLVM backend's.
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(argc, argv, "attn tuning candidates\n");
  std::string self = llvm::sys::fs::getMainExecutable(
      argv[0], reinterpret_cast<void *>(&assemble));
  if (prepareCmd || measureCmd || importCmd || allCmd)
    return runLoop(self);
  auto file = llvm::MemoryBuffer::getFile(input);
  if (!file) {
    llvm::errs() << "attn-tune: cannot read " << input << "\n";
    return 1;
  }
  std::string source = (*file)->getBuffer().str();
  attn::GPUPipelineOptions base;
  base.chip = chip;
  base.toolkit = toolkit;
  if (std::string err = attn::validateGPUPipelineOptions(base); !err.empty()) {
    llvm::errs() << "attn-tune: " << err << "\n";
    return 1;
  }
  std::vector<int64_t> ns(seqLens.begin(), seqLens.end());
  if (ns.empty())
    ns.push_back(4096);
  if (llvm::any_of(ns, [](int64_t n) { return n <= 0; }) || top <= 0 ||
      jobs == 0) {
    llvm::errs() << "attn-tune: --n, --top and -j must be positive\n";
    return 1;
  }
  SmallVector<StringRef> searchPaths;
  std::string toolkitBin = toolkit.empty() ? "" : toolkit + "/bin";
  const char *cudaHome = std::getenv("CUDA_HOME");
  std::string cudaBin = cudaHome ? std::string(cudaHome) + "/bin" : "";
  for (const std::string &p : {toolkitBin, cudaBin})
    if (!p.empty())
      searchPaths.push_back(p);
  auto ptxas = llvm::sys::findProgramByName("ptxas", searchPaths);
  if (!ptxas)
    ptxas = llvm::sys::findProgramByName("ptxas");
  if (!ptxas) {
    llvm::errs() << "attn-tune: ptxas not found (--toolkit, CUDA_HOME or "
                    "PATH); the pruning needs its resource report\n";
    return 1;
  }

  // The problems the candidates are ranked for, from the (first) op: one
  // per --n.
  attn::TuningProblem problem;
  std::vector<attn::TuningKey> keys;
  {
    std::unique_ptr<MLIRContext> ctx = attn::createContext();
    llvm::SourceMgr sm;
    sm.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(source, input),
                          llvm::SMLoc());
    SourceMgrDiagnosticHandler handler(sm, ctx.get());
    OwningOpRef<ModuleOp> module =
        parseSourceFile<ModuleOp>(sm, ParserConfig(ctx.get()));
    if (!module)
      return 1;
    attn::AttentionOp op;
    module->walk([&](attn::AttentionOp a) {
      if (!op)
        op = a;
    });
    if (!op) {
      llvm::errs() << "attn-tune: " << input << " holds no attn.attention\n";
      return 1;
    }
    problem.d = op.getQueryType().getDimSize(3);
    problem.dv = op.getValueType().getDimSize(3);
    if (ShapedType::isDynamic(problem.d) || ShapedType::isDynamic(problem.dv)) {
      op.emitError() << "attn-tune needs static head dims";
      return 1;
    }
    attn::MaskAttr mask = op.getMaskOrDefault();
    problem.causal = mask.getKind() == attn::MaskKind::Causal;
    if (mask.getKind() == attn::MaskKind::Window)
      problem.window = mask.getLeft() + mask.getRight() + 1;
    for (int64_t n : ns)
      keys.push_back(*attn::getTuningKey(op, chip, n));
  }
  // The benchmark matrix's shapes: B * N = 16384 tokens, H * D = 2048.
  auto problemAt = [&](int64_t n) {
    attn::TuningProblem p = problem;
    p.nq = p.nk = n;
    p.batchHeads = std::max<int64_t>(1, 16384 / n) *
                   std::max<int64_t>(1, 2048 / problem.d);
    return p;
  };

  std::vector<attn::TuningCandidate> candidates =
      attn::enumerateCandidates(chip);
  if (candidates.empty()) {
    llvm::errs() << "attn-tune: no search space for chip '" << chip
                 << "' (sm_80, sm_90a)\n";
    return 1;
  }
  if (!only.empty()) {
    llvm::Regex filter(only);
    std::string error;
    if (!filter.isValid(error)) {
      llvm::errs() << "attn-tune: --only: " << error << "\n";
      return 1;
    }
    llvm::erase_if(candidates, [&](const attn::TuningCandidate &c) {
      return !filter.match(c.str());
    });
    if (candidates.empty()) {
      llvm::errs() << "attn-tune: --only='" << only
                   << "' matches no candidate of the search space\n";
      return 1;
    }
  }
  // The content cache (CompileCache.h): entries are keyed by the
  // candidate's module and a fingerprint of this executable and ptxas.
  std::string cache = cacheDir;
  if (cache.empty()) {
    const char *xdg = std::getenv("XDG_CACHE_HOME");
    const char *home = std::getenv("HOME");
    if (xdg && *xdg)
      cache = std::string(xdg) + "/attn/tune";
    else if (home && *home)
      cache = std::string(home) + "/.cache/attn/tune";
  } else if (cache == "none") {
    cache.clear();
  }
  // This build's fingerprint: in the report (attn-tune prepare takes a
  // report of another build as stale) and in the cache's keys.
  std::string selfHash = attn::hashFile(self);
  std::string fingerprint;
  if (!cache.empty()) {
    std::string ptxasHash = attn::hashFile(*ptxas);
    if (selfHash.empty() || ptxasHash.empty()) {
      llvm::errs() << "attn-tune: warning: cannot fingerprint " << self
                   << " or " << *ptxas << "; compiling without the cache\n";
      cache.clear();
    }
    fingerprint = selfHash + "/" + ptxasHash;
  }
  // Each candidate is compiled once per key-length schedule among the --n:
  // the configuration passes apply withKeyLengthSchedule to a database
  // entry (peel_last_block for short keys, the rescale slack for long
  // ones), so a candidate is measured as the kernel it will be.
  std::vector<Outcome> outcomes;
  {
    std::unique_ptr<MLIRContext> ctx = attn::createContext();
    OwningOpRef<ModuleOp> module =
        parseSourceString<ModuleOp>(source, ParserConfig(ctx.get()), input);
    if (!module)
      return 1;
    attn::AttentionOp op;
    module->walk([&](attn::AttentionOp a) {
      if (!op)
        op = a;
    });
    for (size_t i = 0; i < candidates.size(); ++i) {
      attn::GpuConfigAttr gpu = candidates[i].gpuConfig(ctx.get());
      std::vector<attn::GpuConfigAttr> schedules;
      size_t first = outcomes.size();
      for (size_t j = 0; j < ns.size(); ++j) {
        attn::GpuConfigAttr s = attn::withKeyLengthSchedule(gpu, op, ns[j]);
        auto it = llvm::find(schedules, s);
        if (it == schedules.end()) {
          schedules.push_back(s);
          Outcome o;
          o.candidate = candidates[i];
          o.index = i;
          o.variant = schedules.size() - 1;
          llvm::raw_string_ostream(o.scheduled) << s;
          outcomes.push_back(std::move(o));
          it = std::prev(schedules.end());
        }
        outcomes[first + (it - schedules.begin())].nIdx.push_back(j);
      }
    }
  }
  // The variant's kernel stem suffix: `__c<index>`, then `v<variant>`.
  auto suffixOf = [](const Outcome &o) {
    return "__c" + std::to_string(o.index) +
           (o.variant ? "v" + std::to_string(o.variant) : std::string());
  };
  /// The GPU configuration variant `o` compiles (in `ctx`, for `op`).
  auto scheduledConfig = [&](const Outcome &o, MLIRContext *ctx,
                             attn::AttentionOp op) {
    return attn::withKeyLengthSchedule(o.candidate.gpuConfig(ctx), op,
                                       ns[o.nIdx.front()]);
  };
  std::string stemBase = llvm::sys::path::stem(input).str();
  std::mutex warnMutex;
  // Cache lookups (one per compilation, register-fit forms included) and
  // the ones that hit; the register-fit forms compiled.
  int64_t lookups = 0, hits = 0, fitCompilations = 0;
  // --progress: a line per tenth of the compilations, with an ETA.
  size_t compiled = 0;
  auto startTime = std::chrono::steady_clock::now();
  auto noteCompiled = [&] {
    if (!showProgress)
      return;
    std::lock_guard<std::mutex> lock(warnMutex);
    ++compiled;
    size_t step = std::max<size_t>(1, outcomes.size() / 10);
    if (compiled % step && compiled != outcomes.size())
      return;
    double t = std::chrono::duration<double>(
                   std::chrono::steady_clock::now() - startTime)
                   .count();
    llvm::errs() << llvm::formatv(
        "  [{0}/{1} compilations] {2:f1} s elapsed, ETA {3:f1} s\n", compiled,
        outcomes.size(), t, t / compiled * (outcomes.size() - compiled));
  };

  // The heuristic's kernel for each --n, which the device checks every
  // candidate against and times as the baseline. The heuristic may choose
  // by key length (attn-default-config seq-len, the length dispatch of
  // attn-compile), so each length gets what the heuristic picks for it:
  // `<fn>__default` for the first configuration, `<fn>__default_n<N>` for
  // another one first chosen at N. The configurations are chosen here
  // (cheap); their compilations (with cubins) run in the pool beside the
  // candidates'.
  struct HeuristicKernel {
    std::string config, gpuConfig, suffix;
    std::string text; // the module with its configuration attached, renamed
    std::unique_ptr<MLIRContext> context;
    FailureOr<attn::GPUArtifacts> artifacts = failure();
    std::string diag;
  };
  std::vector<HeuristicKernel> heuristics;
  std::vector<size_t> heuristicOfN; // per --n, an index into heuristics
  if (!emitDir.empty()) {
    for (int64_t n : ns) {
      std::unique_ptr<MLIRContext> ctx = attn::createContext();
      OwningOpRef<ModuleOp> module =
          parseSourceString<ModuleOp>(source, ParserConfig(ctx.get()), input);
      if (!module)
        return 1;
      // The heuristic's configuration, attached here (the pipeline keeps a
      // configuration that is there) so that the report can name it: the
      // device times it like a candidate, and the database stores it.
      PassManager pm(ctx.get());
      attn::AttnDefaultConfigOptions defaults;
      defaults.chip = chip;
      defaults.seqLen = n;
      pm.addPass(attn::createAttnDefaultConfig(defaults));
      if (failed(pm.run(*module)))
        return 1;
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
        h.suffix = heuristics.empty() ? "__default"
                                      : "__default_n" + std::to_string(n);
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
  }

  llvm::DefaultThreadPool pool(llvm::hardware_concurrency(jobs));
  for (HeuristicKernel &h : heuristics)
    pool.async([&] {
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
      OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(
          h.text, ParserConfig(h.context.get()), input);
      if (!module)
        return;
      attn::GPUPipelineOptions options;
      options.chip = chip;
      options.toolkit = toolkit;
      // Measured at the --n lengths, whose biases TMA describes.
      options.tmaFallbacks = false;
      h.artifacts = attn::compileToGPU(*module, options, /*withCubin=*/true);
    });
  // Compiles `out.candidate` into `out`: its artifacts, ptxas's report
  // and, where it is rejected, the reason.
  auto compileCandidate = [&](Outcome &out) {
      out.context = attn::createContext();
      MLIRContext *ctx = out.context.get();
      std::string diag;
      ScopedDiagnosticHandler handler(ctx, [&](Diagnostic &d) {
        if (diag.empty() && d.getSeverity() == DiagnosticSeverity::Error)
          diag = d.str();
        return success();
      });
      OwningOpRef<ModuleOp> module =
          parseSourceString<ModuleOp>(source, ParserConfig(ctx), input);
      if (!module) {
        out.reason = "parse: " + diag;
        return;
      }
      module->walk([&](attn::AttentionOp op) {
        op.setConfigAttr(out.candidate.tileConfig(ctx));
        attn::GpuConfigAttr scheduled = scheduledConfig(out, ctx, op);
        op.setGpuConfigAttr(scheduled);
        out.scheduled.clear();
        llvm::raw_string_ostream(out.scheduled) << scheduled;
      });
      module->walk([&](func::FuncOp fn) {
        fn.setSymName((fn.getSymName() + suffixOf(out)).str());
      });
      std::string stem = stemBase + suffixOf(out);
      std::string key;
      if (!cache.empty()) {
        std::string text;
        llvm::raw_string_ostream os(text);
        module->print(os, OpPrintingFlags().enableDebugInfo());
        key = attn::compileCacheKey({text, chip, stem, fingerprint});
        {
          std::lock_guard<std::mutex> lock(warnMutex);
          ++lookups;
        }
        if (std::optional<attn::CachedCompilation> hit =
                attn::lookupCompilation(cache, key)) {
          out.resources = hit->resources;
          out.kernelNames = hit->kernels;
          out.reason = hit->rejected;
          out.cached = std::move(*hit);
          std::lock_guard<std::mutex> lock(warnMutex);
          ++hits;
        }
      }
      if (!out.cached) {
        attn::GPUPipelineOptions options;
        options.chip = chip;
        options.toolkit = toolkit;
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
          out.reason = assemble(*ptxas, out.artifacts.ptx, out.resources,
                                out.artifacts.cubin);
          if (out.reason.empty() &&
              (out.resources.spillBytes || out.resources.stackBytes))
            out.reason = "spills " + std::to_string(out.resources.spillBytes) +
                         " bytes, stack " +
                         std::to_string(out.resources.stackBytes);
          else if (out.reason.empty() && out.resources.ignoredSetmaxnreg)
            out.reason = "ptxas ignored setmaxnreg (C7508)";
        }
        // Deterministic outcomes go into the cache: an accepted candidate
        // with its artifact files, a rejected one with its reason (but not
        // a failure to run ptxas at all, which may be passing).
        if (!cache.empty() && !StringRef(out.reason).starts_with("ptxas failed") &&
            !StringRef(out.reason).starts_with("cannot")) {
          attn::CachedCompilation entry;
          entry.rejected = out.reason;
          entry.resources = out.resources;
          entry.kernels = out.kernelNames;
          std::string err;
          SmallString<128> tmp;
          if (!out.kernelNames.empty()) {
            if (llvm::sys::fs::createUniqueDirectory("attn-tune", tmp))
              err = "cannot create a temporary directory";
            else
              err = attn::writeArtifacts(out.artifacts, tmp, stem);
          }
          if (err.empty())
            err = attn::storeCompilation(cache, key, entry, tmp);
          if (!tmp.empty())
            llvm::sys::fs::remove_directories(tmp);
          if (!err.empty()) {
            std::lock_guard<std::mutex> lock(warnMutex);
            llvm::errs() << "attn-tune: warning: not cached: " << err << "\n";
          }
        }
      }
  };
  // Compiles outcome `i`; where its candidate spills, the forms the
  // register knobs give it (registerFitForms) in order, the first that
  // assembles without spills replacing it (the report names its knobs).
  auto compileOutcome = [&](size_t i) {
    Outcome &out = outcomes[i];
    compileCandidate(out);
    if (StringRef(out.reason).starts_with("spills")) {
      std::string spilled = out.reason;
      for (const attn::TuningCandidate &form :
           attn::registerFitForms(out.candidate)) {
        Outcome fitted;
        fitted.candidate = form;
        fitted.index = out.index, fitted.variant = out.variant;
        fitted.nIdx = out.nIdx;
        compileCandidate(fitted);
        {
          std::lock_guard<std::mutex> lock(warnMutex);
          ++fitCompilations;
        }
        if (fitted.reason.empty() ||
            !StringRef(fitted.reason).starts_with("spills")) {
          fitted.fittedFrom = spilled;
          out = std::move(fitted);
          break;
        }
      }
      if (StringRef(out.reason).starts_with("spills") &&
          !attn::registerFitForms(out.candidate).empty())
        out.reason = spilled + " (with reverse_kv, loop_local_ids or both too)";
    }
    if (out.reason.empty()) {
      out.accepted = true;
      for (size_t j : out.nIdx)
        out.costs.push_back(attn::estimateCost(out.candidate, out.resources,
                                               problemAt(ns[j])));
    }
    noteCompiled();
  };

  // Which candidates to compile. Each one's cost has a lower bound before
  // it is compiled (estimateCostBound: the resources enter the model only
  // through the CTAs per SM). Compiling in the order of the bounds, a
  // length is settled once its --top best compiled costs are all below the
  // bound of every candidate not yet compiled for it: no other can enter
  // its --top. When every length is settled the rest is not compiled.
  // And a candidate whose family (the same configuration and lengths but
  // for block_n) spilled kFamilySpillBytes or more at a smaller block_n is
  // not compiled either: a wider K/V block holds more of every per-key
  // register tile. Small spills are not monotone in block_n (D = 256's
  // async_pv spills 80 bytes at 64 keys and none at 80; a softcap's 256
  // bytes at 144, none at 176), large ones were: over the full spaces of
  // four keys no wider block of a family that spilled 512 bytes compiled
  // without spills (docs/tuning.md). A family's blocks are compiled
  // narrowest first. --emit-all compiles everything.
  constexpr int64_t kFamilySpillBytes = 512;
  // The cost of variant `o` at --n index j (it is compiled for j).
  auto costAt = [](const Outcome &o, size_t j) {
    return o.costs[llvm::find(o.nIdx, j) - o.nIdx.begin()];
  };
  std::vector<std::vector<double>> bounds(outcomes.size());
  for (auto [i, o] : llvm::enumerate(outcomes))
    for (size_t j : o.nIdx)
      bounds[i].push_back(
          attn::estimateCostBound(o.candidate, problemAt(ns[j])));
  auto boundAt = [&](size_t i, size_t j) {
    const std::vector<size_t> &n = outcomes[i].nIdx;
    return bounds[i][llvm::find(n, j) - n.begin()];
  };
  // Priority: the best rank of a candidate's bound at any of its lengths.
  std::vector<size_t> priority(outcomes.size(), outcomes.size());
  for (size_t j = 0; j < ns.size(); ++j) {
    std::vector<size_t> at;
    for (size_t i = 0; i < outcomes.size(); ++i)
      if (llvm::is_contained(outcomes[i].nIdx, j))
        at.push_back(i);
    llvm::stable_sort(at, [&](size_t a, size_t b) {
      return boundAt(a, j) < boundAt(b, j);
    });
    for (auto [r, i] : llvm::enumerate(at))
      priority[i] = std::min(priority[i], r);
  }
  std::vector<size_t> compileOrder(outcomes.size());
  std::iota(compileOrder.begin(), compileOrder.end(), 0);
  llvm::stable_sort(compileOrder, [&](size_t a, size_t b) {
    return priority[a] < priority[b];
  });
  // The narrower blocks of `i`'s family.
  auto narrowerSibling = [&](size_t i, size_t k) {
    // The candidates as enumerated: a compilation in flight may replace
    // its outcome's with a register-fit form.
    attn::TuningCandidate a = candidates[outcomes[i].index],
                          b = candidates[outcomes[k].index];
    if (b.blockN >= a.blockN || outcomes[i].nIdx != outcomes[k].nIdx)
      return false;
    b.blockN = a.blockN;
    return a.str() == b.str();
  };
  bool prune = !emitAll && top > 0;
  enum State : char { Pending, Running, Done };
  std::vector<State> state(outcomes.size(), Pending);
  std::mutex scheduleMutex;
  std::condition_variable progressed;
  // Under scheduleMutex: whether every length's --top is settled.
  auto allSettled = [&] {
    for (size_t j = 0; j < ns.size(); ++j) {
      std::vector<double> costs;
      double open = std::numeric_limits<double>::infinity();
      for (size_t i = 0; i < outcomes.size(); ++i) {
        if (!llvm::is_contained(outcomes[i].nIdx, j))
          continue;
        if (state[i] != Done)
          open = std::min(open, boundAt(i, j));
        else if (outcomes[i].accepted)
          costs.push_back(costAt(outcomes[i], j));
      }
      if (open == std::numeric_limits<double>::infinity())
        continue;
      if (costs.size() < size_t(top))
        return false;
      std::nth_element(costs.begin(), costs.begin() + (top - 1), costs.end());
      if (!(costs[top - 1] < open))
        return false;
    }
    return true;
  };
  // Under scheduleMutex: the next candidate to compile, or none. Marks the
  // candidates of spilled families Done on the way.
  auto next = [&]() -> std::optional<size_t> {
    for (size_t i : compileOrder) {
      if (state[i] != Pending)
        continue;
      if (!prune)
        return i;
      bool waits = false, spilled = false;
      for (size_t k = 0; k < outcomes.size() && !spilled; ++k) {
        if (k == i || !narrowerSibling(i, k))
          continue;
        if (state[k] != Done)
          waits = true;
        else if (StringRef(outcomes[k].reason).starts_with("spills") &&
                 outcomes[k].resources.spillBytes >= kFamilySpillBytes)
          spilled = true,
          outcomes[i].reason =
              "not compiled: block_n " +
              std::to_string(outcomes[k].candidate.blockN) +
              " of the same configuration spilled " +
              std::to_string(outcomes[k].resources.spillBytes) + " bytes";
      }
      if (spilled) {
        state[i] = Done;
        continue;
      }
      if (!waits)
        return i;
    }
    return std::nullopt;
  };
  unsigned workers = llvm::hardware_concurrency(jobs).compute_thread_count();
  for (unsigned w = 0; w < std::max(1u, workers); ++w)
    pool.async([&] {
      std::unique_lock<std::mutex> lock(scheduleMutex);
      while (true) {
        if (prune && allSettled())
          return;
        std::optional<size_t> i = next();
        if (!i) {
          // Waiting for a narrower block in flight, or nothing is left.
          if (llvm::none_of(state, [](State st) { return st != Done; }))
            return;
          if (llvm::none_of(state, [](State st) { return st == Running; }))
            return;
          progressed.wait(lock);
          continue;
        }
        state[*i] = Running;
        lock.unlock();
        compileOutcome(*i);
        lock.lock();
        state[*i] = Done;
        progressed.notify_all();
      }
    });
  pool.wait();
  int64_t notCompiled = 0;
  for (size_t i = 0; i < outcomes.size(); ++i)
    if (!outcomes[i].context) {
      ++notCompiled;
      if (outcomes[i].reason.empty())
        outcomes[i].reason = "not compiled: its cost bound is above the "
                             "--top best compiled costs at each of its "
                             "lengths";
    }

  // Per --n, the accepted candidates by cost; the report lists them in the
  // order of the first, and --emit writes the union of each one's best
  // --top (what the device then measures for that bucket).
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
    for (size_t r = 0; r < ranking.size() && r < size_t(top); ++r)
      emit[ranking[r]] = 1;
  if (emitAll)
    for (size_t i = 0; i < outcomes.size(); ++i)
      if (!outcomes[i].kernelNames.empty())
        emit[i] = 1;

  llvm::json::Array rows;
  int64_t rank = 0, accepted = 0;
  // The candidates that were not compiled print their configurations here.
  std::unique_ptr<MLIRContext> reportContext = attn::createContext();
  reportContext->getOrLoadDialect<attn::AttnDialect>();
  for (size_t i : order) {
    Outcome &o = outcomes[i];
    MLIRContext *ctx = o.context ? o.context.get() : reportContext.get();
    std::string config, gpuConfig;
    const std::string &scheduled = o.scheduled;
    llvm::raw_string_ostream(config) << o.candidate.tileConfig(ctx);
    llvm::raw_string_ostream(gpuConfig) << o.candidate.gpuConfig(ctx);
    llvm::json::Array variantNs;
    for (size_t j : o.nIdx)
      variantNs.push_back(ns[j]);
    // The database stores the candidate's own configuration (the
    // configuration passes schedule it again by length); the kernel
    // measured is the scheduled one.
    std::string name = o.candidate.str();
    if (scheduled != gpuConfig)
      name += " @n" + std::to_string(ns[o.nIdx.front()]);
    llvm::json::Object row{{"candidate", name},
                           {"index", int64_t(o.index)},
                           {"ns", std::move(variantNs)},
                           {"config", config},
                           {"gpu_config", gpuConfig},
                           {"scheduled_gpu_config", scheduled},
                           {"block_m", o.candidate.blockM},
                           {"block_n", o.candidate.blockN},
                           {"warps", o.candidate.warps},
                           {"stages", o.candidate.stages},
                           {"wgmma", o.candidate.wgmma},
                           {"lazy_rescale", o.candidate.lazyRescale},
                           {"reverse_kv", o.candidate.reverseKV},
                           {"loop_local_ids", o.candidate.loopLocalIds},
                           {"cached", o.cached.has_value()}};
    llvm::json::Object boundByN;
    for (auto [j, bound] : llvm::zip(o.nIdx, bounds[i]))
      boundByN[std::to_string(ns[j])] = bound;
    row["cost_bound_by_n"] = std::move(boundByN);
    if (o.accepted) {
      ++accepted;
      row["rank"] = ++rank;
      row["cost"] = o.costs.front();
      llvm::json::Object byN;
      for (auto [j, cost] : llvm::zip(o.nIdx, o.costs))
        byN[std::to_string(ns[j])] = cost;
      row["cost_by_n"] = std::move(byN);
      row["registers"] = o.resources.registers;
      row["shared_bytes"] = o.resources.sharedBytes;
    } else {
      row["rejected"] = o.reason;
    }
    if (!o.fittedFrom.empty())
      row["fitted_from"] = o.fittedFrom;
    if (!emitDir.empty() && emit[i]) {
      std::string stem = stemBase + suffixOf(o);
      std::string err =
          o.cached ? attn::copyCachedArtifacts(*o.cached, emitDir)
                   : attn::writeArtifacts(o.artifacts, emitDir, stem);
      if (!err.empty()) {
        llvm::errs() << "attn-tune: " << err << "\n";
        return 1;
      }
      llvm::json::Array kernels;
      for (const std::string &k : o.kernelNames)
        kernels.push_back(k);
      row["kernels"] = std::move(kernels);
    }
    rows.push_back(std::move(row));
  }

  // The heuristic's kernels, compiled in the pool above: the report's
  // default_by_n names, per --n, the kernels of its configuration there.
  llvm::json::Array defaultKernels;
  llvm::json::Object defaultByN;
  std::string defaultConfig, defaultGpuConfig;
  for (HeuristicKernel &h : heuristics) {
    if (failed(h.artifacts)) {
      llvm::errs() << "attn-tune: the heuristic's configuration "
                   << h.config << " " << h.gpuConfig
                   << " does not compile: " << h.diag << "\n";
      return 1;
    }
    std::string err =
        attn::writeArtifacts(*h.artifacts, emitDir, stemBase + h.suffix);
    if (!err.empty()) {
      llvm::errs() << "attn-tune: " << err << "\n";
      return 1;
    }
  }
  // heuristicOfN is empty without --emit (nothing was compiled).
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

  const attn::TuningKey &key = keys.front();
  llvm::json::Array buckets, nValues;
  for (const attn::TuningKey &k : keys)
    buckets.push_back(k.nBucket);
  for (int64_t n : ns)
    nValues.push_back(n);
  llvm::json::Object report{
      {"input", input.getValue()},
      {"chip", chip.getValue()},
      {"compiler", selfHash},
      {"top", top.getValue()},
      {"emit_all", emitAll.getValue()},
      {"only", only.getValue()},
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
      {"candidates", int64_t(candidates.size())},
      {"compilations", int64_t(outcomes.size())},
      {"not_compiled", notCompiled},
      {"register_fit_compilations", fitCompilations},
      {"cache", cache.empty() ? llvm::json::Value(nullptr)
                              : llvm::json::Value(llvm::json::Object{
                                    {"dir", cache},
                                    {"hits", hits},
                                    {"misses", lookups - hits}})},
      {"accepted", accepted},
      {"ranked", std::move(rows)}};
  llvm::outs() << llvm::formatv("{0:2}", llvm::json::Value(std::move(report)))
               << "\n";
  return 0;
}
