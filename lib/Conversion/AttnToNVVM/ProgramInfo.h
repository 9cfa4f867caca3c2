//===- ProgramInfo.h - what an sm_80 attention kernel is built from -*- C++ -*-===//
//
// The static facts convert-attn-tile-to-nvvm reads off an attn.program before
// it emits a kernel, and the check that the program is one it can lower.
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_LIB_CONVERSION_ATTNTONVVM_PROGRAMINFO_H
#define ATTN_LIB_CONVERSION_ATTNTONVVM_PROGRAMINFO_H

#include "attn/Dialect/Attn/IR/AttnDialect.h"

#include <array>

namespace mlir {
namespace attn {
namespace sm80 {

/// The buffers of an attention kernel, in kernel-argument order.
enum Role { Q = 0, K, V, O, LSE, NumRoles };

struct ProgramInfo {
  ProgramOp program;
  TileConfigAttr config;
  int64_t blockM = 0, blockN = 0, warps = 0, d = 0, dv = 0;
  /// 16-row m-tiles per warp: each K/V fragment feeds this many mma.sync.
  int64_t mTiles = 1;
  Type elt;
  MaskAttr mask;
  double scaleLog2e = 0;
  bool hasLse = false;
  std::array<Value, NumRoles> buffers{};
  int64_t smemBytes() const { return 2 * (blockM * d + blockN * d + blockN * dv); }
};

/// Whether `op` is the Q K^T product (an attn.dot with transpose_b).
bool isTransposedDot(Operation *op);

/// Reads `program` (as attn-tile builds it) and checks that it can become an
/// sm_80 kernel within `maxSharedBytes` of shared memory; diagnoses on
/// `program` otherwise.
FailureOr<ProgramInfo> analyzeProgram(ProgramOp program,
                                      int64_t maxSharedBytes);

} // namespace sm80
} // namespace attn
} // namespace mlir

#endif // ATTN_LIB_CONVERSION_ATTNTONVVM_PROGRAMINFO_H
