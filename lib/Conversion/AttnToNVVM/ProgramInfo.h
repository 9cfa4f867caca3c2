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
  GpuConfigAttr gpuConfig;
  int64_t blockM = 0, blockN = 0, warps = 0, d = 0, dv = 0;
  /// K/V blocks in flight: 1 is one K and one V buffer (K of the next block
  /// copied behind the scores); s > 1 is s K/V buffer pairs with blocks
  /// j + 1 .. j + s - 1 in flight while block j is computed.
  int64_t stages = 1;
  /// Skip the accumulator rescale of blocks with no new row max (per warp).
  bool lazyRescale = false;
  bool loopLocalIds = false;
  /// 16-row m-tiles per warp: each K/V fragment feeds this many mma.sync.
  int64_t mTiles = 1;
  Type elt;
  MaskAttr mask;
  double scaleLog2e = 0;
  bool hasLse = false;
  std::array<Value, NumRoles> buffers{};
  /// Shared memory: Q, then `stages` K buffers, then `stages` V buffers.
  int64_t kBytes() const { return 2 * blockN * d; }
  int64_t vBytes() const { return 2 * blockN * dv; }
  int64_t kOffset() const { return 2 * blockM * d; }
  int64_t vOffset() const { return kOffset() + stages * kBytes(); }
  int64_t smemBytes() const { return vOffset() + stages * vBytes(); }
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
