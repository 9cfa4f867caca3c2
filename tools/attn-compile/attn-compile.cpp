//===- attn-compile.cpp - attn.attention to kernel artifacts --------------===//
//
// attn-compile in.mlir --chip=sm_90a [--cubin] -o DIR
// writes DIR/<stem>.<chip>.ptx (and .cubin) and DIR/<kernel>.json for every
// function of in.mlir that holds an attn.attention; the runtime (runtime/)
// loads them. For sm_90a the configurations come from the build's tuning
// database (data/tuning/, docs/tuning.md) where it has the op's problem
// class, else from the heuristic; --tuning-db=none keeps to the heuristic.
// Where the configuration depends on the key length (a dynamic one), it
// writes one kernel per run of length buckets, <kernel>__n<max>, and a
// dispatch table in <kernel>.json that the runtime follows at launch;
// --seq-len=N compiles for lengths up to N only, --no-length-dispatch one
// kernel for all.
// Errors print with their location and exit non-zero.
//
//===----------------------------------------------------------------------===//

#include "attn/Compiler/Artifact.h"
#include "attn/Compiler/Compiler.h"
#include "attn/Support/ParseSource.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
namespace cl = llvm::cl;

static cl::OptionCategory category("attn-compile options");
static cl::opt<std::string> input(cl::Positional, cl::desc("<input.mlir>"),
                                  cl::Required, cl::cat(category));
static cl::opt<std::string> outDir("o", cl::desc("Output directory"),
                                   cl::Required, cl::cat(category));
static cl::opt<std::string> chip("chip", cl::desc("sm_80 or sm_90a"),
                                 cl::init("sm_90a"), cl::cat(category));
static cl::opt<bool> cubin("cubin",
                           cl::desc("Also assemble a cubin with ptxas"), cl::cat(category));
static cl::opt<std::string> toolkit("toolkit",
                                    cl::desc("CUDA toolkit path (for ptxas)"),
                                    cl::init(""), cl::cat(category));
static cl::opt<std::string> tuningDb(
    "tuning-db",
    cl::desc("SQLite tuning database; 'none': the heuristic only; by "
             "default the database built for the chip, "
             "share/attn/tuning-<chip>.sqlite beside bin/, where there is one"),
    cl::init(""), cl::cat(category));
static cl::opt<bool> noSplit("no-split-kv-loop",
                             cl::desc("Keep every K/V block masked"), cl::cat(category));
static cl::opt<int64_t> seqLen(
    "seq-len",
    cl::desc("Largest key length the kernels will be launched for (0: any; "
             "then, where the configuration depends on the key length, one "
             "kernel per run of length buckets and a dispatch table)"),
    cl::init(0), cl::cat(category));
static cl::opt<bool> noDispatch(
    "no-length-dispatch",
    cl::desc("One kernel per function for every key length, no dispatch "
             "table"), cl::cat(category));
static cl::opt<bool> ldmatrixLocalLoads(
    "ldmatrix-local-loads",
    cl::desc("Read a staged bias from shared memory with ldmatrix.x4 (four "
             "pairs an instruction) instead of 4-byte loads; off by default: "
             "correct on the device, no faster (perf-log, 24th session)"),
    cl::cat(category));
static cl::opt<bool> narrowSwizzles(
    "narrow-swizzles",
    cl::desc("Stage a bias tile whose columns are a multiple of 16 but not "
             "of 64 in a 32- or 64-byte TMA swizzle (no bank conflicts) "
             "instead of unswizzled rows; off by default: correct on the "
             "device, faster only at 96 columns (perf-log, 24th session)"),
    cl::cat(category));

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  // --help lists this tool's options, not every LLVM backend's.
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(argc, argv, "attn kernel compiler\n");
  // LLVM's SLP vectorizer finds nothing to pack in these kernels (the
  // conversion already emits the paired f16 / bf16 operations; the PTX of
  // all 94 default kernels is byte-identical without it) and costs about
  // 0.05 s of a 0.4-1.3 s compile, so this tool skips it unless the command
  // line says otherwise (-vectorize-slp). The option is global to LLVM, so
  // only a tool that owns its process may set it: the library (C API,
  // Python, torch op) leaves it alone. test/GPU/compile-no-slp.test checks
  // that the PTX stays the same.
  if (cl::Option *slp = cl::getRegisteredOptions().lookup("vectorize-slp");
      slp && slp->getNumOccurrences() == 0)
    slp->addOccurrence(0, "vectorize-slp", "false");
  std::unique_ptr<MLIRContext> ctx = attn::createContext();
  // Diagnostics point into the user's source; the generic dump of the
  // failing op (often a whole lowered kernel) would bury them.
  ctx->printOpOnDiagnostic(false);
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler handler(sourceMgr, ctx.get());
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFileOrSTDIN(input);
  if (std::error_code error = file.getError()) {
    llvm::errs() << "attn-compile: cannot read '" << input
                 << "': " << error.message() << "\n";
    return 1;
  }
  sourceMgr.AddNewSourceBuffer(std::move(*file), llvm::SMLoc());
  OwningOpRef<ModuleOp> module =
      attn::parseModule(sourceMgr, ParserConfig(ctx.get()));
  if (!module)
    return 1;
  attn::GPUPipelineOptions options;
  options.chip = chip;
  options.toolkit = toolkit;
  options.splitKVLoop = !noSplit;
  options.seqLen = seqLen;
  options.narrowSwizzles = narrowSwizzles;
  options.ldmatrixLocalLoads = ldmatrixLocalLoads;
  options.tuningDb = tuningDb == "none" ? "" : tuningDb.getValue();
  if (tuningDb.empty()) {
    // The reviewed database of the build (data/tuning/), for its chip.
    std::string exe =
        llvm::sys::fs::getMainExecutable(argv[0], (void *)&main);
    llvm::SmallString<256> db(llvm::sys::path::parent_path(
        llvm::sys::path::parent_path(exe)));
    llvm::sys::path::append(db, "share", "attn",
                            "tuning-" + chip.getValue() + ".sqlite");
    if (llvm::sys::fs::exists(db))
      options.tuningDb = db.str().str();
  }
  // Option values first: a bad one is an error before any work (a toolkit
  // that does not exist used to be ignored for the one on PATH).
  if (std::string err = attn::validateGPUPipelineOptions(options); !err.empty()) {
    llvm::errs() << "attn-compile: " << err << "\n";
    return 1;
  }
  FailureOr<attn::GPUArtifacts> artifacts =
      noDispatch ? attn::compileToGPU(*module, options, cubin)
                 : attn::compileWithLengthDispatch(*module, options, cubin);
  if (failed(artifacts))
    return 1;
  std::string stem = llvm::sys::path::stem(input).str();
  std::string err = attn::writeArtifacts(*artifacts, outDir, stem);
  if (!err.empty()) {
    llvm::errs() << "attn-compile: " << err << "\n";
    return 1;
  }
  for (const attn::KernelInfo &kernel : artifacts->kernels) {
    llvm::outs() << kernel.name << ": " << outDir << "/" << kernel.name
                 << ".json\n";
    if (!kernel.tmaFallback.empty())
      llvm::outs() << "  where TMA cannot copy the bias: " << outDir << "/"
                   << kernel.tmaFallback << ".json\n";
    for (const auto &[maxLength, variant] : kernel.dispatch)
      llvm::outs() << "  key length <= " << maxLength << ": " << outDir << "/"
                   << variant << ".json\n";
  }
  return 0;
}
