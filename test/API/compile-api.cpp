//===- compile-api.cpp - the C++ compiler API, as an embedder uses it -----===//
//
// Lowers a causal GQA attn.attention to the LLVM dialect through
// attn::compileToCPU, then feeds it inputs that must be refused, and prints
// what came back for FileCheck (test/API/compile-api.test).
//
//===----------------------------------------------------------------------===//

#include "attn/Compiler/Compiler.h"
#include "attn/InitAllDialects.h"
#include "attn/InitAllPasses.h"

#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassRegistry.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

static const char *kCausalGQA = R"mlir(
func.func @attn(%q: memref<1x8x77x64xf16>, %k: memref<1x2x130x64xf16>,
                %v: memref<1x2x130x64xf16>, %o: memref<1x8x77x64xf16>) {
  attn.attention ins(%q, %k, %v : memref<1x8x77x64xf16>, memref<1x2x130x64xf16>, memref<1x2x130x64xf16>)
                 outs(%o : memref<1x8x77x64xf16>) {mask = #attn.mask<causal, bottom_right>}
  return
}
)mlir";

static const char *kBadHeads = R"mlir(
func.func @attn(%q: memref<1x6x77x64xf16>, %k: memref<1x4x130x64xf16>,
                %v: memref<1x4x130x64xf16>, %o: memref<1x6x77x64xf16>) {
  attn.attention ins(%q, %k, %v : memref<1x6x77x64xf16>, memref<1x4x130x64xf16>, memref<1x4x130x64xf16>)
                 outs(%o : memref<1x6x77x64xf16>)
  return
}
)mlir";

static const char *kMalformed = R"mlir(
func.func @attn(%q: memref<1x6x77x64xf16>) {
  attn.attention ins(%q : memref<1x6x77x64xf16>)
  return
}
)mlir";

static const char *kBadConfig = R"mlir(
func.func @attn(%q: memref<1x1x8x64xf32>, %k: memref<1x1x8x64xf32>,
                %v: memref<1x1x8x64xf32>, %o: memref<1x1x8x64xf32>) {
  attn.attention ins(%q, %k, %v : memref<1x1x8x64xf32>, memref<1x1x8x64xf32>, memref<1x1x8x64xf32>)
                 outs(%o : memref<1x1x8x64xf32>)
                 {config = #attn.tile_config<block_m = 32, block_n = 64, warps = 4, stages = 2>}
  return
}
)mlir";

static void report(MLIRContext &ctx, const char *name, const char *source) {
  std::string errors;
  attn::CPUPipelineOptions options;
  OwningOpRef<ModuleOp> module =
      attn::compileToCPU(ctx, source, options, errors, name);
  if (!module) {
    llvm::outs() << name << ": rejected\n" << errors;
    return;
  }
  int llvmFuncs = 0, attnOps = 0;
  module->walk([&](Operation *op) {
    if (isa<LLVM::LLVMFuncOp>(op))
      ++llvmFuncs;
    if (op->getDialect() && op->getDialect()->getNamespace() == "attn")
      ++attnOps;
  });
  llvm::outs() << name << ": lowered, llvm.func " << llvmFuncs << ", attn ops "
               << attnOps << "\n";
}

int main() {
  std::unique_ptr<MLIRContext> ctx = attn::createContext();
  report(*ctx, "causal-gqa.mlir", kCausalGQA);
  report(*ctx, "bad-heads.mlir", kBadHeads);
  report(*ctx, "malformed.mlir", kMalformed);
  report(*ctx, "bad-config.mlir", kBadConfig);

  // The header-only registration: a context with only the dialects it
  // registers parses attn IR; the attn passes are known by name.
  DialectRegistry registry;
  attn::registerAllDialects(registry);
  MLIRContext bare(registry);
  OwningOpRef<ModuleOp> parsed =
      parseSourceString<ModuleOp>(kCausalGQA, ParserConfig(&bare));
  llvm::outs() << "InitAllDialects: parsed " << (parsed ? "yes" : "no")
               << ", dialects loaded " << bare.getLoadedDialects().size()
               << "\n";
  attn::registerAllPasses();
  for (const char *pass : {"attn-tile", "convert-attn-tile-to-nvvm",
                           "attn-lower-to-cpu"})
    llvm::outs() << "InitAllPasses: " << pass << " "
                 << (PassInfo::lookup(pass) || PassPipelineInfo::lookup(pass)
                         ? "registered"
                         : "not registered")
                 << "\n";
  return 0;
}
