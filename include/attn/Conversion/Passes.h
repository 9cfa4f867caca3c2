//===- Passes.h - attn conversions ------------------------------*- C++ -*-===//

#ifndef ATTN_CONVERSION_PASSES_H
#define ATTN_CONVERSION_PASSES_H

#include "attn/Dialect/Attn/IR/AttnDialect.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
class RewritePatternSet;
namespace attn {

#define GEN_PASS_DECL
#include "attn/Conversion/Passes.h.inc"

/// attn.kv_range to index arithmetic; shared by every target.
void populateKVRangeLoweringPatterns(RewritePatternSet &patterns);
/// attn.program to a nest of scf.for loops over its grid.
void populateProgramToLoopsPatterns(RewritePatternSet &patterns);
/// attn.load and attn.store to tensor.generate and loops of memref accesses.
void populateBlockAccessToLoopsPatterns(RewritePatternSet &patterns);
/// attn.dot, attn.mask, attn.reduce_rows, attn.broadcast_rows to linalg.
void populateTileComputeToLinalgPatterns(RewritePatternSet &patterns);

#define GEN_PASS_REGISTRATION
#include "attn/Conversion/Passes.h.inc"

} // namespace attn
} // namespace mlir

#endif // ATTN_CONVERSION_PASSES_H
