//===- Artifact.cpp - kernel artifacts for the attn runtime ---------------===//

#include "attn/Compiler/Artifact.h"
#include "GitCommit.h"
#include "SideCompilation.h"
#include "attn/Dialect/Attn/IR/AttnDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/raw_ostream.h"

#include <set>

using namespace mlir;
using namespace mlir::attn;

#ifndef ATTN_GIT_COMMIT
#define ATTN_GIT_COMMIT "unknown"
#endif

static FailureOr<GPUArtifacts>
compileOnce(ModuleOp module, const GPUPipelineOptions &options,
            bool withCubin);
static FailureOr<GPUArtifacts>
lowerToKernels(ModuleOp module, const GPUPipelineOptions &options);
static LogicalResult serialize(ModuleOp module, StringRef toolkit,
                               bool withCubin, GPUArtifacts &out);

/// Whether a kernel's launch metadata has a tensor map over a buffer that
/// it reads and that is not Q, K or V: a tile that attn-stage-loads staged
/// (a bias), whose tensor the unstaged kernel reads without TMA's 16-byte
/// rules. An output's map (attn-stage-stores) needs no fallback: its
/// register stores ask the same of the output (16-byte pieces: a 16-byte
/// aligned pointer and strides, the buffer's "align").
static bool stagesLoads(DictionaryAttr launch) {
  auto maps = launch ? launch.getAs<ArrayAttr>("tensor_maps") : ArrayAttr();
  auto buffers = launch ? launch.getAs<ArrayAttr>("buffers") : ArrayAttr();
  if (!maps || !buffers)
    return false;
  for (Attribute attr : maps) {
    int64_t i = cast<DictionaryAttr>(attr).getAs<IntegerAttr>("buffer").getInt();
    auto buffer = cast<DictionaryAttr>(buffers[i]);
    if (buffer.getAs<StringAttr>("access").getValue() == "write")
      continue;
    auto roles = buffer.getAs<ArrayAttr>("roles");
    for (Attribute role : roles) {
      StringRef r = cast<StringAttr>(role).getValue();
      if (r != "q" && r != "k" && r != "v")
        return true;
    }
  }
  return false;
}

FailureOr<GPUArtifacts>
mlir::attn::compileToGPU(ModuleOp module, const GPUPipelineOptions &options,
                         bool withCubin) {
  // The module before compiling it consumes it: the fallbacks start from it.
  OwningOpRef<ModuleOp> source;
  if (options.stageLoads && options.tmaFallbacks)
    source = module.clone();
  FailureOr<GPUArtifacts> out = lowerToKernels(module, options);
  if (failed(out))
    return failure();
  std::set<std::string> staged;
  if (source)
    for (const KernelInfo &kernel : out->kernels)
      if (stagesLoads(kernel.launch))
        staged.insert(kernel.name);
  if (staged.empty()) {
    if (failed(serialize(module, options.toolkit, withCubin, *out)))
      return failure();
    return out;
  }
  // The staging kernels' functions, renamed `<name>__unstaged`; the other
  // attention functions go (their kernels need no fallback).
  for (auto func :
       llvm::make_early_inc_range(source->getOps<func::FuncOp>())) {
    bool attention = false;
    func.walk([&](AttentionOp) { attention = true; });
    if (!attention)
      continue;
    if (!staged.count(func.getSymName().str())) {
      func.erase();
      continue;
    }
    auto name = StringAttr::get(module.getContext(),
                                func.getSymName() + "__unstaged");
    if (SymbolTable::lookupSymbolIn(*source, name))
      return emitError(func.getLoc())
             << "the TMA fallback of '" << func.getSymName()
             << "' would be named '" << name.getValue()
             << "', which another function has; rename it";
    if (failed(SymbolTable::replaceAllSymbolUses(func, name, *source)))
      return func.emitError() << "cannot rename the function for its TMA "
                                 "fallback";
    SymbolTable::setSymbolName(func, name);
  }
  // The fallbacks take the heuristic's configuration for the same key
  // lengths, not the database's: its entries are measured with the staging,
  // and the fastest of them hold the bias's tiles in shared memory that
  // their unstaged forms would hold in registers (20-1160 bytes of spills at
  // the nineteenth session's bias entries); the heuristic's unstaged bias
  // kernels have none (test/GPU/ptxas-default-configs.test).
  GPUPipelineOptions unstaged;
  unstaged.copyOptionValuesFrom(options);
  unstaged.stageLoads = false;
  unstaged.tuningDb = "";
  MLIRContext *ctx = module.getContext();
  FailureOr<GPUArtifacts> fallbacks = failure();
  if (!ctx->isMultithreadingEnabled()) {
    if (failed(serialize(module, options.toolkit, withCubin, *out)))
      return failure();
    fallbacks = compileOnce(*source, unstaged, withCubin);
  } else {
    // They compile whole on another thread, in a context of their own,
    // while this one takes the main kernels through LLVM and ptxas: a
    // staged-bias artifact took the time of two compilations one after the
    // other (1.1-2.5 s on two cores; docs/perf-log.md, twenty-eighth
    // session). The registry is copied here, not on that thread: this
    // thread's passes may still load dialects into the context.
    SideCompilation fallback;
    {
      llvm::raw_string_ostream os(fallback.source);
      source->print(os, OpPrintingFlags().enableDebugInfo());
    }
    DialectRegistry registry;
    ctx->getDialectRegistry().appendTo(registry);
    bool printOp = ctx->shouldPrintOpOnDiagnostic();
    LogicalResult main = failure();
    {
      llvm::DefaultThreadPool pool(llvm::optimal_concurrency(1));
      pool.async([&] {
        fallback.run(registry, printOp, [&](ModuleOp m) {
          return compileOnce(m, unstaged, withCubin);
        });
      });
      main = serialize(module, options.toolkit, withCubin, *out);
      pool.wait();
    }
    // A main compilation that fails reports why; its fallbacks would
    // mostly say it again (no ptxas, say).
    if (failed(main))
      return failure();
    for (const CollectedDiagnostic &diag : fallback.diagnostics)
      emitCollected(ctx, diag);
    fallbacks = std::move(fallback.result);
  }
  if (failed(fallbacks))
    return failure();
  for (KernelInfo &kernel : out->kernels)
    if (staged.count(kernel.name))
      kernel.tmaFallback = kernel.name + "__unstaged";
  out->tmaFallbacks = std::make_shared<GPUArtifacts>(std::move(*fallbacks));
  return out;
}

static FailureOr<GPUArtifacts>
compileOnce(ModuleOp module, const GPUPipelineOptions &options,
            bool withCubin) {
  FailureOr<GPUArtifacts> out = lowerToKernels(module, options);
  if (failed(out) ||
      failed(serialize(module, options.toolkit, withCubin, *out)))
    return failure();
  return out;
}

/// The attn passes to kernels in gpu.modules, with their launch metadata.
static FailureOr<GPUArtifacts>
lowerToKernels(ModuleOp module, const GPUPipelineOptions &options) {
  MLIRContext *ctx = module.getContext();
  if (getMaxSharedBytes(options.chip) == 0)
    return emitError(module.getLoc())
           << "unsupported GPU target '" << options.chip
           << "' (expected sm_80 or sm_90a)";

  // Kernels with their launch metadata.
  PassManager toKernels(ctx);
  buildAttnToKernelsPipeline(toKernels, options);
  if (failed(toKernels.run(module)))
    return failure();
  GPUArtifacts out;
  out.chip = options.chip;
  module.walk([&](gpu::GPUFuncOp func) {
    if (func.isKernel())
      out.kernels.push_back(
          {func.getName().str(),
           func->getAttrOfType<DictionaryAttr>("attn.launch")});
  });
  if (out.kernels.empty())
    return emitError(module.getLoc()) << "no attn.attention to compile";

  return out;
}

/// The kernels of `lowerToKernels` through LLVM to PTX, and to a cubin.
static LogicalResult serialize(ModuleOp module, StringRef toolkit,
                               bool withCubin, GPUArtifacts &out) {
  MLIRContext *ctx = module.getContext();
  PassManager toLLVM(ctx);
  buildKernelsToLLVMPipeline(toLLVM);
  if (failed(toLLVM.run(module)))
    return failure();

  // One LLVM compilation: PTX, and with a cubin, the same PTX through
  // ptxas (the ISA callback hands the PTX over on the way; compiling twice
  // cost half a second per kernel).
  std::string ptx;
  auto keepISA = [&](StringRef isa) { ptx = isa.str(); };
  gpu::TargetOptions targetOptions(
      toolkit.str(), /*librariesToLink=*/{}, /*cmdOptions=*/{},
      /*elfSection=*/{},
      withCubin ? gpu::CompilationTarget::Binary
                : gpu::CompilationTarget::Assembly,
      /*getSymbolTableCallback=*/{}, /*initialLlvmIRCallback=*/{},
      /*linkedLlvmIRCallback=*/{}, /*optimizedLlvmIRCallback=*/{}, keepISA);
  if (failed(gpu::transformGpuModulesToBinaries(module, nullptr,
                                                targetOptions)))
    return failure();
  std::string object;
  module.walk([&](gpu::BinaryOp bin) {
    for (Attribute attr : bin.getObjects())
      object = cast<gpu::ObjectAttr>(attr).getObject().getValue().str();
  });
  if (ptx.empty())
    ptx = withCubin ? "" : object;
  if (ptx.empty())
    return emitError(module.getLoc()) << "the NVVM target produced no PTX";
  // A math function without an instruction is a libdevice call, which the
  // NVVM target links from the CUDA toolkit it finds (--toolkit, CUDA_HOME
  // or its default path); without one the call stays an undefined extern
  // and the kernel would not load.
  for (StringRef line : llvm::split(ptx, '\n'))
    if (line.starts_with(".extern .func")) {
      StringRef callee = line.rsplit(' ').second.trim();
      return emitError(module.getLoc())
             << "the kernel calls " << callee
             << ", a libdevice function, and no libdevice was linked: pass "
                "the CUDA toolkit directory (--toolkit, or set CUDA_HOME)";
    }
  out.ptx = std::move(ptx);
  if (withCubin)
    out.cubin = std::move(object);
  return success();
}

static llvm::json::Value toJSON(Attribute attr) {
  if (auto b = dyn_cast<BoolAttr>(attr))
    return b.getValue();
  if (auto i = dyn_cast<IntegerAttr>(attr))
    return i.getInt();
  if (auto f = dyn_cast<FloatAttr>(attr))
    return f.getValueAsDouble();
  if (auto t = dyn_cast<TypeAttr>(attr)) {
    std::string s;
    llvm::raw_string_ostream os(s);
    os << t.getValue();
    return s;
  }
  if (auto array = dyn_cast<ArrayAttr>(attr)) {
    llvm::json::Array out;
    for (Attribute element : array)
      out.push_back(toJSON(element));
    return out;
  }
  if (auto str = dyn_cast<StringAttr>(attr))
    return str.getValue().str();
  if (auto dict = dyn_cast<DictionaryAttr>(attr)) {
    llvm::json::Object out;
    for (NamedAttribute entry : dict)
      out[entry.getName().strref()] = toJSON(entry.getValue());
    return out;
  }
  if (auto mask = dyn_cast<MaskAttr>(attr))
    return llvm::json::Object{
        {"kind", stringifyMaskKind(mask.getKind())},
        {"alignment", stringifyMaskAlignment(mask.getAlignment())},
        {"left", mask.getLeft()},
        {"right", mask.getRight()}};
  std::string s;
  llvm::raw_string_ostream os(s);
  os << attr;
  return s;
}

/// The kernel parameters of format versions 2 and 3: per buffer (in
/// argument order) its pointer, sizes and strides, named after its
/// role(s); in format 3 then each TMA descriptor.
static llvm::json::Array bufferParams(DictionaryAttr launch) {
  llvm::json::Array params;
  auto rolesOf = [](DictionaryAttr buffer) {
    std::string name;
    for (Attribute role : buffer.getAs<ArrayAttr>("roles"))
      name += (name.empty() ? "" : "+") + cast<StringAttr>(role).str();
    return name;
  };
  for (Attribute attr : launch.getAs<ArrayAttr>("buffers")) {
    auto buffer = cast<DictionaryAttr>(attr);
    std::string name = rolesOf(buffer);
    int64_t rank = buffer.getAs<IntegerAttr>("rank").getInt();
    params.push_back(name);
    for (const char *what : {"size", "stride"})
      for (int64_t d = 0; d < rank; ++d)
        params.push_back(name + "." + what + std::to_string(d));
  }
  // Format 3: then the by-value TMA descriptors.
  if (auto maps = launch.getAs<ArrayAttr>("tensor_maps"))
    for (Attribute attr : maps) {
      int64_t i = cast<DictionaryAttr>(attr).getAs<IntegerAttr>("buffer").getInt();
      auto buffer = cast<DictionaryAttr>(launch.getAs<ArrayAttr>("buffers")[i]);
      params.push_back(rolesOf(buffer) + ".tensor_map");
    }
  return params;
}

std::string mlir::attn::kernelJSON(const GPUArtifacts &artifacts,
                                   const KernelInfo &kernel,
                                   StringRef ptxFile, StringRef cubinFile) {
  llvm::json::Object obj{
      {"format_version",
       kernel.launch && kernel.launch.getAs<IntegerAttr>("format_version")
           ? kernel.launch.getAs<IntegerAttr>("format_version").getInt()
           : 2},
      {"name", kernel.name},
      {"entry", kernel.name},
      {"target", artifacts.chip},
      {"compiler", compilerVersion()},
      {"ptx", ptxFile},
      {"cubin", cubinFile.empty() ? llvm::json::Value(nullptr)
                                  : llvm::json::Value(cubinFile)},
      {"grid", llvm::json::Array{"ceildiv(q.size2, block_m)",
                                 "q.size0 * q.size1", "1"}}};
  if (kernel.launch && kernel.launch.get("buffers"))
    obj["params"] = bufferParams(kernel.launch);
  if (kernel.launch)
    for (NamedAttribute entry : kernel.launch)
      if (entry.getName() != "format_version")
        obj[entry.getName().strref()] = toJSON(entry.getValue());
  if (!kernel.tmaFallback.empty())
    obj["tma_fallback"] = kernel.tmaFallback;
  if (!kernel.dispatch.empty()) {
    // The runtime launches the first variant whose largest key length the
    // launch's does not exceed, this kernel above the last.
    llvm::json::Array variants;
    for (const auto &[maxLength, name] : kernel.dispatch)
      variants.push_back(llvm::json::Object{{"max", maxLength}, {"kernel", name}});
    obj["dispatch"] =
        llvm::json::Object{{"on", "k.size2"}, {"variants", std::move(variants)}};
  }
  std::string s;
  llvm::raw_string_ostream os(s);
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(obj))) << "\n";
  return s;
}

static std::string writeFile(StringRef path, StringRef contents) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec)
    return ("cannot write " + path + ": " + ec.message()).str();
  os << contents;
  return "";
}

std::string mlir::attn::writeArtifacts(const GPUArtifacts &artifacts,
                                       StringRef dir, StringRef stem) {
  if (std::error_code ec = llvm::sys::fs::create_directories(dir))
    return ("cannot create " + dir + ": " + ec.message()).str();
  auto join = [&](StringRef file) {
    SmallString<256> path(dir);
    llvm::sys::path::append(path, file);
    return std::string(path);
  };
  std::string ptxFile = (stem + "." + artifacts.chip + ".ptx").str();
  std::string cubinFile =
      artifacts.cubin.empty() ? "" : (stem + "." + artifacts.chip + ".cubin").str();
  std::string err = writeFile(join(ptxFile), artifacts.ptx);
  if (err.empty() && !cubinFile.empty())
    err = writeFile(join(cubinFile), artifacts.cubin);
  for (const KernelInfo &kernel : artifacts.kernels)
    if (err.empty())
      err = writeFile(join(kernel.name + ".json"),
                      kernelJSON(artifacts, kernel, ptxFile, cubinFile));
  if (artifacts.tmaFallbacks && err.empty())
    err = writeArtifacts(*artifacts.tmaFallbacks, dir,
                         (stem + "__unstaged").str());
  for (const LengthVariant &variant : artifacts.variants)
    if (err.empty())
      err = writeArtifacts(variant.artifacts, dir,
                           (stem + "__n" + llvm::Twine(variant.maxKeyLength)).str());
  return err;
}

std::string mlir::attn::compilerVersion() {
  return std::string("attn (git ") + ATTN_GIT_COMMIT + "), LLVM " +
         LLVM_VERSION_STRING;
}
