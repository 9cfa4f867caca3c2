//===- LengthDispatch.cpp - one kernel per run of key-length buckets ------===//
//
// Short sequences want other tiles than long ones (docs/perf-log.md,
// docs/tuning.md), but a kernel for a dynamic key length is compiled once.
// compileWithLengthDispatch asks the configuration passes (attn-apply-tuning
// and attn-default-config, with seq-len) what they would choose for each
// key-length bucket, groups neighbouring buckets with the same choice, and
// compiles the module once per group; the runtime picks the kernel from the
// key length at each launch (the `dispatch` table of the main kernel's
// JSON, docs/gpu-kernels.md).
//
//===----------------------------------------------------------------------===//

#include "SideCompilation.h"
#include "attn/Compiler/Artifact.h"
#include "attn/Dialect/Attn/IR/AttnDialect.h"
#include "attn/Dialect/Attn/Transforms/Passes.h"
#include "attn/Tuning/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/ThreadPool.h"

#include <map>
#include <set>

using namespace mlir;
using namespace mlir::attn;

ArrayRef<int64_t> mlir::attn::dispatchBuckets() {
  static const int64_t buckets[] = {512, 1024, 2048, 4096, 8192, 16384};
  return buckets;
}

/// Whether `func` holds an attention (it is then a kernel, named after it).
static bool holdsAttention(func::FuncOp func) {
  bool holds = false;
  func.walk([&](AttentionOp) { holds = true; });
  return holds;
}

/// Per function holding attention ops, the configurations the
/// configuration passes give them for key lengths up to `seqLen`, printed;
/// nothing when the passes fail (the real compilation then reports why).
static std::optional<std::map<std::string, std::string>>
configurationsFor(ModuleOp module, const GPUPipelineOptions &options,
                  int64_t seqLen) {
  OwningOpRef<ModuleOp> clone(module.clone());
  // Their warnings (a missing database, say) come again, once, from the
  // compilation itself.
  ScopedDiagnosticHandler quiet(module.getContext(),
                                [](Diagnostic &) { return success(); });
  PassManager pm(module.getContext());
  if (!options.tuningDb.empty()) {
    AttnApplyTuningOptions tuning;
    tuning.db = options.tuningDb;
    tuning.chip = options.chip;
    tuning.seqLen = seqLen;
    pm.addPass(createAttnApplyTuning(tuning));
  }
  AttnDefaultConfigOptions config;
  config.chip = options.chip;
  config.seqLen = seqLen;
  pm.addPass(createAttnDefaultConfig(config));
  if (failed(pm.run(*clone)))
    return std::nullopt;
  std::map<std::string, std::string> out;
  for (auto func : clone->getOps<func::FuncOp>()) {
    llvm::raw_string_ostream os(out[func.getSymName().str()]);
    func.walk([&](AttentionOp op) {
      os << op.getConfigAttr() << " " << op.getGpuConfigAttr() << "\n";
    });
  }
  return out;
}

FailureOr<GPUArtifacts>
mlir::attn::compileWithLengthDispatch(ModuleOp module,
                                      const GPUPipelineOptions &options,
                                      bool withCubin) {
  if (options.seqLen > 0)
    return compileToGPU(module, options, withCubin);
  ArrayRef<int64_t> buckets = dispatchBuckets();
  SmallVector<std::map<std::string, std::string>> perBucket;
  for (int64_t bucket : buckets) {
    auto configs = configurationsFor(module, options, bucket);
    if (!configs)
      return compileToGPU(module, options, withCubin);
    perBucket.push_back(std::move(*configs));
  }
  // Per function, the ends of its runs of buckets with one configuration
  // but the last run's: the variants it needs. A variant module (one per
  // such end) holds the functions whose run ends there.
  std::map<std::string, SmallVector<int64_t>> ends;
  std::map<int64_t, std::set<std::string>> members;
  for (auto func : module.getOps<func::FuncOp>()) {
    std::string name = func.getSymName().str();
    if (!holdsAttention(func))
      continue;
    for (size_t i = 0; i + 1 < buckets.size(); ++i)
      if (perBucket[i][name] != perBucket[i + 1][name]) {
        ends[name].push_back(buckets[i]);
        members[buckets[i]].insert(name);
      }
  }
  if (members.empty())
    return compileToGPU(module, options, withCubin);

  // Each variant module, renamed, as text with its locations (diagnostics
  // point into the user's source from any context).
  struct Job : SideCompilation {
    int64_t maxLength;
  };
  std::vector<Job> jobs;
  for (auto &[maxLength, names] : members) {
    OwningOpRef<ModuleOp> clone(module.clone());
    std::string suffix = "__n" + std::to_string(maxLength);
    for (auto func : llvm::make_early_inc_range(clone->getOps<func::FuncOp>())) {
      if (!holdsAttention(func))
        continue;
      if (!names.count(func.getSymName().str())) {
        func.erase();
        continue;
      }
      // The kernels are named after their functions.
      auto name = StringAttr::get(module.getContext(),
                                  func.getSymName() + suffix);
      if (SymbolTable::lookupSymbolIn(module, name))
        return emitError(func.getLoc())
               << "the length variant of '" << func.getSymName()
               << "' for key lengths up to " << maxLength << " would be named '"
               << name.getValue()
               << "', which another function has; rename it or compile with "
                  "--no-length-dispatch";
      if (failed(SymbolTable::replaceAllSymbolUses(func, name, *clone)))
        return func.emitError() << "cannot rename the function for its "
                                   "length variant";
      SymbolTable::setSymbolName(func, name);
    }
    Job job;
    job.maxLength = maxLength;
    llvm::raw_string_ostream os(job.source);
    clone->print(os, OpPrintingFlags().enableDebugInfo());
    jobs.push_back(std::move(job));
  }

  // Compiles job i in a context of its own: a variant's PTX and cubin take
  // as long as the main kernels' (ptxas half of it), and the 2-3 modules of
  // an artifact have nothing to share, so they run side by side.
  MLIRContext *ctx = module.getContext();
  // A copy: the main compilation may load dialects into ctx meanwhile.
  DialectRegistry registry;
  ctx->getDialectRegistry().appendTo(registry);
  bool printOp = ctx->shouldPrintOpOnDiagnostic();
  auto compileJob = [&](Job &job) {
    job.run(registry, printOp, [&](ModuleOp variant) {
      GPUPipelineOptions forRun;
      forRun.copyOptionValuesFrom(options);
      forRun.seqLen = job.maxLength;
      return compileToGPU(variant, forRun, withCubin);
    });
  };
  GPUPipelineOptions longest;
  longest.copyOptionValuesFrom(options);
  longest.seqLen = buckets.back();
  FailureOr<GPUArtifacts> main = failure();
  // What the main compilation reported (passed on as it comes): the same
  // warning from a variant (a database that cannot be read) is not repeated.
  std::set<std::string> reported;
  auto text = [](const CollectedDiagnostic &diag) {
    return std::to_string(int(diag.severity)) + diag.file + ":" +
           std::to_string(diag.line) + ":" + std::to_string(diag.column) +
           diag.message;
  };
  ScopedDiagnosticHandler record(ctx, [&](Diagnostic &diag) {
    reported.insert(text(collectDiagnostic(diag)));
    return failure();
  });
  if (ctx->isMultithreadingEnabled()) {
    llvm::DefaultThreadPool pool(llvm::optimal_concurrency(jobs.size()));
    for (Job &job : jobs)
      pool.async([&, jobPtr = &job] { compileJob(*jobPtr); });
    main = compileToGPU(module, longest, withCubin);
    pool.wait();
  } else {
    for (Job &job : jobs)
      compileJob(job);
    main = compileToGPU(module, longest, withCubin);
  }
  // A module the main compilation refuses fails the same way in its
  // variants: its diagnostics alone say why.
  if (failed(main))
    return failure();
  bool variantsOk = true;
  for (Job &job : jobs) {
    for (CollectedDiagnostic &diag : job.diagnostics)
      if (reported.insert(text(diag)).second)
        emitCollected(ctx, diag);
    variantsOk &= succeeded(job.result);
  }
  if (!variantsOk)
    return failure();
  std::vector<LengthVariant> variants;
  for (Job &job : jobs)
    variants.push_back({job.maxLength, std::move(*job.result)});
  for (KernelInfo &kernel : main->kernels)
    for (int64_t maxLength : ends[kernel.name])
      kernel.dispatch.push_back(
          {maxLength, kernel.name + "__n" + std::to_string(maxLength)});
  main->variants = std::move(variants);
  return main;
}
