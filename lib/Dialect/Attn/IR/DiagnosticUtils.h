//===- DiagnosticUtils.h - shared pieces of verifier messages ---*- C++ -*-===//
//
// Private to the attn dialect library.
//
//===----------------------------------------------------------------------===//

#ifndef LIB_DIALECT_ATTN_IR_DIAGNOSTICUTILS_H
#define LIB_DIALECT_ATTN_IR_DIAGNOSTICUTILS_H

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

} // namespace attn
} // namespace mlir

#endif // LIB_DIALECT_ATTN_IR_DIAGNOSTICUTILS_H
