//===- attn-tune.cpp - candidates for tuning, pruned on this machine ------===//
//
// attn-tune in.mlir --chip=sm_90a [--n=512,4096,...] [--top=16] [--emit=DIR]
// attn-tune prepare|measure|import|all ...
//
// The command line of the tuner: without a phase, the static half for one
// input file (StaticHalf.h: candidates compiled and pruned on this machine,
// a JSON report, the best candidates' kernels for the device); with one,
// the tuning loop over a file of keys (TuneLoop.h). Errors print with a
// location and exit non-zero.
//
//===----------------------------------------------------------------------===//

#include "StaticHalf.h"
#include "TuneLoop.h"

#include "attn/Tuning/CompileCache.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

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

/// The static half's options as given.
static attn_tune::StaticOptions staticOptions(const std::string &self) {
  attn_tune::StaticOptions o;
  o.input = input;
  o.self = self;
  o.chip = chip;
  o.toolkit = toolkit;
  o.emitDir = emitDir;
  o.only = only;
  o.cacheDir = cacheDir;
  o.ns.assign(seqLens.begin(), seqLens.end());
  o.top = top;
  o.jobs = jobs;
  o.emitAll = emitAll;
  o.progress = showProgress;
  return o;
}

/// The loop's phases (TuneLoop.h), with the static half's options.
static int runLoop(const std::string &self) {
  attn_tune::LoopOptions o;
  static_cast<attn_tune::StaticOptions &>(o) = staticOptions(self);
  o.fingerprint = attn::hashFile(self);
  if (o.ns.empty())
    o.ns = {512, 1024, 2048, 4096, 8192, 16384};
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
  auto want = [&](size_t n, llvm::StringRef usage) {
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
      argv[0], reinterpret_cast<void *>(&runLoop));
  if (prepareCmd || measureCmd || importCmd || allCmd)
    return runLoop(self);
  return attn_tune::runStaticHalf(staticOptions(self));
}
