//===- DiagnosticUtils.h - shared pieces of verifier messages ---*- C++ -*-===//
//
// Private to the attn dialect library.
//
//===----------------------------------------------------------------------===//

#ifndef LIB_DIALECT_ATTN_IR_DIAGNOSTICUTILS_H
#define LIB_DIALECT_ATTN_IR_DIAGNOSTICUTILS_H

#include "mlir/IR/Operation.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <string>

namespace mlir {
namespace attn {

/// Spells a floating-point value for a diagnostic: finite values as the
/// diagnostic printer does (`1.250000e-01`), the others as `inf`, `-inf` and
/// `nan` (raw_ostream alone would print `INF` but `nan`).
inline std::string formatFloatForDiagnostic(double value) {
  if (std::isnan(value))
    return "nan";
  if (std::isinf(value))
    return value < 0 ? "-inf" : "inf";
  std::string str;
  llvm::raw_string_ostream(str) << value;
  return str;
}

/// The checks of a score_mod or mask_mod region (of attn.attention, or the
/// mask_mod an attn.kv_range carries): one block with the given argument
/// types, ending in attn.yield of one `result`; in between only side-effect
/// free arith and math ops without regions, on values of the region (its
/// arguments, what it computes) and nothing from outside. An empty region
/// passes. Errors are reported on `op` or the offending op.
LogicalResult verifyModRegion(Operation *op, Region &region, StringRef name,
                              TypeRange args, Type result);

} // namespace attn
} // namespace mlir

#endif // LIB_DIALECT_ATTN_IR_DIAGNOSTICUTILS_H
