//===- Passes.h - attn dialect transformations ------------------*- C++ -*-===//

#ifndef ATTN_DIALECT_ATTN_TRANSFORMS_PASSES_H
#define ATTN_DIALECT_ATTN_TRANSFORMS_PASSES_H

#include "attn/Dialect/Attn/IR/AttnDialect.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
class RewritePatternSet;
namespace attn {

#define GEN_PASS_DECL
#include "attn/Dialect/Attn/Transforms/Passes.h.inc"

/// What the heuristic picks: tiles, and how the GPU lowering spends
/// registers on them.
struct DefaultConfig {
  TileConfigAttr tiles;
  GpuConfigAttr gpu;
};

/// The bound attn-tile writes on `op`'s online softmax (`max_bound`, the
/// scaled scores' maximum, c log2 e) where a softcap is its only score
/// modification and P keeps f32's exponent range (bf16, f32) with
/// 2 c log2 e <= 125, so that a row's largest p stays a normal number;
/// nothing otherwise (f16 P, other modifications).
std::optional<float> softmaxMaxBound(AttentionOp op);
/// The range attn-tile writes on `op`'s online softmax (`score_bound`:
/// every scaled score within [-c log2 e, c log2 e]) where a softcap is its
/// only score modification, with 2 c log2 e <= 118, for every P type;
/// nothing otherwise.
std::optional<float> softmaxScoreBound(AttentionOp op);

/// The score modifications of an op, as far as the heuristic cares: each
/// holds values in registers next to the scores.

struct ScoreModKinds {
  bool bias = false;
  /// ALiBi or a score_mod region: elementwise math on index tiles.
  bool positional = false;
  /// A softcap: a tanh per score, a few registers more.
  bool softcap = false;
  /// A mask_mod region: no tile of its own, but its kernels were not run on
  /// the device with warp specialization.
  bool maskMod = false;
  /// A mask_mod region that narrows the K/V range (MaskModRange.h): the
  /// range's bounds are runtime values that stay live across the loops.
  bool narrowingMaskMod = false;
  /// The online softmax runs without a running maximum (softmaxMaxBound):
  /// other registers live across the K/V loop.
  bool boundedSoftmax = false;

  /// Those of `op`.
  static ScoreModKinds of(AttentionOp op);
  /// Whether there is any.
  bool any() const { return bias || positional || softcap || maskMod; }
};

/// The configuration the heuristic picks for an op with these head dims and
/// mask, with or without a log-sum-exp output, on `chip` (sm_80; sm_90,
/// sm_90a and the CPU's empty chip take the sm_90a choices), for these
/// score modifications, for key lengths up to `seqLen` (0: any length).
DefaultConfig getDefaultConfig(MLIRContext *ctx, int64_t headDim,
                               int64_t valueHeadDim, MaskAttr mask,
                               bool hasLse = true, StringRef chip = "",
                               ScoreModKinds mods = {}, int64_t seqLen = 0);

/// `gpu` with the schedule choices that depend on the key length, for `op`
/// compiled for key lengths up to `seqLen` (0: any; a static key length
/// wins): `peel_last_block` for overlapped warp-specialized kernels up to
/// 1024 keys (512 at D = 256); `lazy_rescale` with `rescale_slack = 8` for
/// those at D = Dv = 128 without score modifications (or with an unmasked
/// softcap alone and f16 P) beyond 1024 keys (or for any length);
/// `stage_loads` for warp-specialized kernels with a 16-bit bias (not for a
/// static key extent that is no multiple of 8, which TMA cannot copy).
/// attn-default-config and attn-apply-tuning both apply it (a tuned
/// configuration was measured without them).
GpuConfigAttr withKeyLengthSchedule(GpuConfigAttr gpu, AttentionOp op,
                                    int64_t seqLen);

/// Patterns that rewrite attn.online_softmax and attn.finalize into
/// attn.reduce_rows, attn.broadcast_rows and arith/math on tiles.
void populateDecomposeOnlineSoftmaxPatterns(RewritePatternSet &patterns);

#define GEN_PASS_REGISTRATION
#include "attn/Dialect/Attn/Transforms/Passes.h.inc"

} // namespace attn
} // namespace mlir

#endif // ATTN_DIALECT_ATTN_TRANSFORMS_PASSES_H
