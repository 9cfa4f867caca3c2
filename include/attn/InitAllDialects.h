//===- InitAllDialects.h - the attn dialect, header-only --------*- C++ -*-===//
//
// What an embedder registers to parse, print and verify attn IR: the attn
// dialect and the upstream dialects its ops and tile programs are written
// in, with the bufferization model of attn.attention. Header-only (as
// CIRCT's InitAllDialects.h), so that registering the dialect links only
// the dialect libraries, not the pipelines, the conversions or the NVVM
// target (attn::registerAttnDialects in attn/Compiler/Registration.h adds
// what the pipelines need).
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_INITALLDIALECTS_H
#define ATTN_INITALLDIALECTS_H

#include "attn/Dialect/Attn/IR/AttnDialect.h"
#include "attn/Dialect/Attn/IR/BufferizableOpInterfaceImpl.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectRegistry.h"

namespace mlir {
namespace attn {

inline void registerAllDialects(DialectRegistry &registry) {
  registry.insert<AttnDialect, arith::ArithDialect,
                  bufferization::BufferizationDialect, func::FuncDialect,
                  math::MathDialect, memref::MemRefDialect, scf::SCFDialect,
                  tensor::TensorDialect>();
  registerBufferizableOpInterfaceExternalModels(registry);
}

} // namespace attn
} // namespace mlir

#endif // ATTN_INITALLDIALECTS_H
