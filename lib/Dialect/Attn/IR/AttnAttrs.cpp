//===- AttnAttrs.cpp - mask and tile-configuration attributes -------------===//

#include "attn/Dialect/Attn/IR/AttnDialect.h"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/Support/MathExtras.h"

#include <limits>

using namespace mlir;
using namespace mlir::attn;

//===----------------------------------------------------------------------===//
// MaskAttr
//===----------------------------------------------------------------------===//

// Syntax: `<none>`, `<causal, ALIGN>`, `<window, ALIGN, left = L, right = R>`.
// Causal and window masks must spell their alignment out: PyTorch and
// FlashAttention disagree on the default when Nq != Nk.
Attribute MaskAttr::parse(AsmParser &parser, Type) {
  MLIRContext *ctx = parser.getContext();
  auto emitErr = [&](SMLoc loc) {
    return parser.emitError(loc);
  };
  if (parser.parseLess())
    return {};
  SMLoc kindLoc = parser.getCurrentLocation();
  StringRef kindStr;
  if (parser.parseKeyword(&kindStr))
    return {};
  std::optional<MaskKind> kind = symbolizeMaskKind(kindStr);
  if (!kind) {
    emitErr(kindLoc) << "unknown mask kind '" << kindStr
                     << "' (expected none, causal or window)";
    return {};
  }
  MaskAlignment align = MaskAlignment::TopLeft;
  int64_t left = 0, right = 0;
  if (*kind != MaskKind::None) {
    SMLoc alignLoc;
    StringRef alignStr;
    if (parser.parseComma())
      return {};
    alignLoc = parser.getCurrentLocation();
    if (parser.parseKeyword(&alignStr))
      return {};
    std::optional<MaskAlignment> a = symbolizeMaskAlignment(alignStr);
    if (!a) {
      emitErr(alignLoc) << "unknown mask alignment '" << alignStr
                        << "' (expected top_left or bottom_right)";
      return {};
    }
    align = *a;
  }
  if (*kind == MaskKind::Window) {
    if (parser.parseComma() || parser.parseKeyword("left") ||
        parser.parseEqual() || parser.parseInteger(left) ||
        parser.parseComma() || parser.parseKeyword("right") ||
        parser.parseEqual() || parser.parseInteger(right))
      return {};
  }
  if (parser.parseGreater())
    return {};
  return parser.getChecked<MaskAttr>(ctx, *kind, align, left, right);
}

void MaskAttr::print(AsmPrinter &printer) const {
  printer << "<" << stringifyMaskKind(getKind());
  if (getKind() != MaskKind::None)
    printer << ", " << stringifyMaskAlignment(getAlignment());
  if (getKind() == MaskKind::Window)
    printer << ", left = " << getLeft() << ", right = " << getRight();
  printer << ">";
}

/// The largest window extent. The mask and K/V range lowerings add an extent
/// (plus one) to a row index in `index` arithmetic; bounding extents by
/// INT32_MAX keeps that far from overflow, and loses nothing: an extent of at
/// least Nk keys is as good as an unbounded one.
static constexpr int64_t kMaxWindowExtent = std::numeric_limits<int32_t>::max();

LogicalResult MaskAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                               MaskKind kind, MaskAlignment, int64_t left,
                               int64_t right) {
  if (kind == MaskKind::Window) {
    auto inRange = [](int64_t v) { return v >= 0 && v <= kMaxWindowExtent; };
    if (!inRange(left) || !inRange(right))
      return emitError() << "window extents must be in [0, " << kMaxWindowExtent
                         << "], got left = " << left << ", right = " << right;
    return success();
  }
  if (left != 0 || right != 0)
    return emitError() << "only window masks carry left/right extents";
  return success();
}

//===----------------------------------------------------------------------===//
// TileConfigAttr
//===----------------------------------------------------------------------===//

LogicalResult GpuConfigAttr::verify(
    function_ref<InFlightDiagnostic()> emitError, bool, bool, bool, bool,
    bool overlapSoftmax, bool warpSpecialize, bool pingPong, bool persistent,
    unsigned fmaExp2, bool peelLastBlock, unsigned rescaleSlack, bool asyncPV,
    bool, bool stageLoads, bool stageStores, bool earlyQK, unsigned groupM,
    bool loadsAhead, bool guardedRescale, bool hoistRowMax, bool) {
  if (fmaExp2 > 8)
    return emitError() << "fma_exp2 counts exponentials of every 8, so it "
                          "must be in [0, 8], got "
                       << fmaExp2;
  // Probabilities up to 2^slack must fit the 16-bit P operand (f16's
  // largest finite value is 65504 < 2^16).
  if (rescaleSlack > 15)
    return emitError() << "rescale_slack bounds the probabilities by "
                          "2^rescale_slack, which a 16-bit float holds up to "
                          "15, got "
                       << rescaleSlack;
  // Two rules for when the reference moves: one per kernel.
  if (guardedRescale && rescaleSlack != 0)
    return emitError() << "guarded_rescale moves the reference when the "
                          "probabilities grow, rescale_slack when the "
                          "maximum does: set one of them";
  // P V in flight across an iteration reads its V stage until the next
  // iteration's wait: only the mbarrier ring of warp specialization
  // releases a stage there (the cp.async ring's barriers are per
  // iteration). The peeled last block assumes one product in flight at a
  // time and is not built for it.
  if (asyncPV && (!overlapSoftmax || !warpSpecialize))
    return emitError() << "async_pv rotates the overlap of the softmax and "
                          "needs overlap_softmax and warp_specialize";
  if (asyncPV && peelLastBlock)
    return emitError() << "async_pv is not built with peel_last_block";
  // early_qk moves the next block's Q K^T of async_pv's rotation back in
  // front of the softmax; without async_pv the overlap already has it
  // there.
  if (earlyQK && !asyncPV)
    return emitError() << "early_qk issues the next scores before the "
                          "softmax in async_pv's rotation and needs async_pv";
  // The loads go a block ahead with the next block's product, which only
  // the overlap issues a block ahead; the cp.async schedule of
  // attn-pipeline would hoist them back to the top of the body.
  if (loadsAhead && (!overlapSoftmax || !warpSpecialize))
    return emitError() << "loads_ahead loads the next block's tiles beside "
                          "its scores and needs overlap_softmax and "
                          "warp_specialize";
  // The staged tiles' copies are TMA boxes that the producer issues; the
  // cp.async copies of the other kernels move whole rows only.
  if (stageLoads && !warpSpecialize)
    return emitError() << "stage_loads copies tiles with the TMA producer "
                          "and needs warp_specialize";
  // The staged output's TMA stores are issued per consumer warpgroup,
  // which only warp specialization has.
  if (stageStores && !warpSpecialize)
    return emitError() << "stage_stores stores the output with TMA per "
                          "consumer warpgroup and needs warp_specialize";
  // Only a persistent kernel chooses the order of its tiles; the others
  // get theirs from the hardware's launch order.
  if (groupM != 0 && !persistent)
    return emitError() << "group_m orders the tiles of a persistent kernel "
                          "and needs persistent";
  return success();
}

LogicalResult
TileConfigAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                       int64_t blockM, int64_t blockN, int64_t warps,
                       int64_t stages, bool splitKV) {
  // Q blocks may also be 192 rows on 12 warps: three wgmma warpgroups of
  // 64 rows, the form FlashAttention-3 uses where one warpgroup's softmax
  // is long against its products (more softmax warps per sub-partition to
  // hide it under the others' products).
  if (blockM <= 0 || blockM > 256 ||
      !(llvm::isPowerOf2_64(blockM) || blockM == 192))
    return emitError() << "block_m must be a power of two in [1, 256] or "
                          "192, got "
                       << blockM;
  // K/V blocks may also be any multiple of 16 (a k16 step of P V): the
  // wide non-power-of-two blocks FlashAttention-3 uses on Hopper (128 x 176
  // at D = 128, 128 x 80 at D = 256) trade score registers for fewer
  // softmax rounds per key.
  if (blockN <= 0 || blockN > 256 ||
      !(llvm::isPowerOf2_64(blockN) || blockN % 16 == 0))
    return emitError()
           << "block_n must be a power of two or a multiple of 16 in [1, "
              "256], got "
           << blockN;
  if (warps <= 0 || warps > 16 || !(llvm::isPowerOf2_64(warps) || warps == 12))
    return emitError() << "warps must be a power of two in [1, 16] or 12, "
                          "got "
                       << warps;
  if (stages <= 0 || stages > 8)
    return emitError() << "stages must be in [1, 8], got " << stages;
  return success();
}
