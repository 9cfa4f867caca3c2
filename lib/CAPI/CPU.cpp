//===- CPU.cpp - running CPU compilations in process ----------------------===//
//
// The "cpu" target's LLVM-dialect module, parsed again into a context of
// its own, translated and JIT-compiled by MLIR's ExecutionEngine (which
// adds a packed wrapper, `_mlir_<function>`, taking one pointer per scalar
// argument). The module calls libc (malloc, free, and puts and abort for
// its shape checks), which the process provides, and, for bf16 kernels, one
// compiler-runtime routine: x86 has no bf16 registers, so LLVM's backend
// carries a bf16 value that a phi or select moves (a masked load's
// "element or zero") through f32 and back with a call to __truncsfbf2,
// which neither libc nor GCC 12's libgcc provide. MLIR's own support
// library (mlir_float16_utils, Debian's libmlir-22) does; it is registered
// with the JIT below.
//
//===----------------------------------------------------------------------===//

#include "attn-c/CPU.h"

#include "attn/Compiler/Compiler.h"
#include "attn/Support/ParseSource.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"

#include "llvm/ExecutionEngine/Orc/Mangling.h"
#include "llvm/Support/TargetSelect.h"

#include <cstring>
#include <mutex>
#include <string>

using namespace mlir;

// In mlir_float16_utils (mlir/lib/ExecutionEngine/Float16bits.cpp); only its
// address is taken here, so the declared type does not matter.
extern "C" void __truncsfbf2();

struct AttnCPUKernel {
  std::unique_ptr<MLIRContext> context;
  std::unique_ptr<ExecutionEngine> engine;
  std::string function;
  size_t numArgs = 0;
};

static void setError(char *err, size_t errLen, const std::string &message) {
  if (!err || errLen == 0)
    return;
  size_t n = std::min(errLen - 1, message.size());
  std::memcpy(err, message.data(), n);
  err[n] = '\0';
}

AttnCPUKernel *attnCPUKernelCreate(const AttnCompileResult *result,
                                   const char *function, char *err,
                                   size_t errLen) {
  if (!result || !function) {
    setError(err, errLen, "attnCPUKernelCreate: no result or no function");
    return nullptr;
  }
  size_t length = 0;
  const char *text = attnCompileResultGetCPUModule(result, &length);
  if (!attnCompileResultSucceeded(result) || !text || length == 0) {
    setError(err, errLen,
             "attnCPUKernelCreate: the result is not a successful \"cpu\" "
             "compilation");
    return nullptr;
  }
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  });
  auto kernel = std::make_unique<AttnCPUKernel>();
  kernel->context = attn::createContext();
  MLIRContext *ctx = kernel->context.get();
  DialectRegistry registry;
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  ctx->appendDialectRegistry(registry);
  std::string diagnostics;
  ScopedDiagnosticHandler handler(ctx, [&](Diagnostic &d) {
    if (diagnostics.empty())
      diagnostics = d.str();
    return success();
  });
  OwningOpRef<ModuleOp> module = attn::parseModule(
      llvm::StringRef(text, length), ParserConfig(ctx), "cpu-module");
  if (!module) {
    setError(err, errLen, "attnCPUKernelCreate: the CPU module does not "
                          "parse: " + diagnostics);
    return nullptr;
  }
  auto fn = module->lookupSymbol<LLVM::LLVMFuncOp>(function);
  if (!fn || fn.isExternal()) {
    setError(err, errLen, std::string("attnCPUKernelCreate: no function '") +
                              function + "' in the CPU module");
    return nullptr;
  }
  kernel->numArgs = fn.getNumArguments();
  ExecutionEngineOptions options;
  options.transformer = makeOptimizingTransformer(/*optLevel=*/2,
                                                  /*sizeLevel=*/0,
                                                  /*targetMachine=*/nullptr);
  auto engine = ExecutionEngine::create(*module, options);
  if (!engine) {
    setError(err, errLen, "attnCPUKernelCreate: " +
                              llvm::toString(engine.takeError()) +
                              (diagnostics.empty() ? "" : ": " + diagnostics));
    return nullptr;
  }
  (*engine)->registerSymbols([](llvm::orc::MangleAndInterner interner) {
    llvm::orc::SymbolMap symbols;
    symbols[interner("__truncsfbf2")] = {
        llvm::orc::ExecutorAddr::fromPtr(&__truncsfbf2),
        llvm::JITSymbolFlags::Exported};
    return symbols;
  });
  kernel->engine = std::move(*engine);
  kernel->function = function;
  return kernel.release();
}

size_t attnCPUKernelGetNumArgs(const AttnCPUKernel *kernel) {
  return kernel ? kernel->numArgs : 0;
}

int attnCPUKernelCall(AttnCPUKernel *kernel, void **args, size_t numArgs,
                      char *err, size_t errLen) {
  if (!kernel || (!args && numArgs)) {
    setError(err, errLen, "attnCPUKernelCall: no kernel or no arguments");
    return 1;
  }
  if (numArgs != kernel->numArgs) {
    setError(err, errLen,
             "attnCPUKernelCall: " + kernel->function + " takes " +
                 std::to_string(kernel->numArgs) + " scalar arguments, got " +
                 std::to_string(numArgs));
    return 1;
  }
  if (llvm::Error e = kernel->engine->invokePacked(
          kernel->function, llvm::MutableArrayRef<void *>(args, numArgs))) {
    setError(err, errLen, "attnCPUKernelCall: " + llvm::toString(std::move(e)));
    return 1;
  }
  return 0;
}

void attnCPUKernelDestroy(AttnCPUKernel *kernel) { delete kernel; }
