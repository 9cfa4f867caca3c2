//===- attn-opt.cpp - the attn optimizer driver ---------------------------===//
//
// mlir-opt with the attn dialect, its passes and pipelines, and only the
// upstream dialects and passes those need.
//
//===----------------------------------------------------------------------===//

#include "attn/Compiler/Registration.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::attn::registerAttnDialects(registry);
  mlir::attn::registerAttnPasses();
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "attn optimizer: attention to tile programs to code\n",
      registry));
}
