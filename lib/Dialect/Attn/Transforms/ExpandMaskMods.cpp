//===- ExpandMaskMods.cpp - mask_mod regions of attn.mask, element-wise ---===//
//
// attn-tile leaves a mask_mod region on the attn.mask of its K/V loop, so
// that attn-split-kv-loop can drop it with the mask in the blocks the region
// shows in full. Neither lowering compiles the region itself: this pass
// spells each one out as tile ops (RegionOnTiles.h) and a select, in front
// of the mask without the region.
//
//===----------------------------------------------------------------------===//

#include "attn/Dialect/Attn/Transforms/Passes.h"
#include "attn/Dialect/Attn/Transforms/RegionOnTiles.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/PatternMatch.h"

#include <limits>

namespace mlir {
namespace attn {
#define GEN_PASS_DEF_ATTNEXPANDMASKMODS
#include "attn/Dialect/Attn/Transforms/Passes.h.inc"
} // namespace attn
} // namespace mlir

using namespace mlir;
using namespace mlir::attn;

static void expandMaskMod(RewriterBase &rewriter, MaskOp op) {
  rewriter.setInsertionPoint(op);
  ImplicitLocOpBuilder b(op.getLoc(), rewriter);
  RankedTensorType type = op.getType();
  Value visible = buildMaskModTile(b, op.getMaskMod(), op.getBatchHead()[0],
                                   op.getBatchHead()[1], op.getRowStart(),
                                   op.getColStart(), type.getShape());
  Value negInf = arith::ConstantOp::create(
      b, DenseElementsAttr::get(
             type, b.getF32FloatAttr(-std::numeric_limits<float>::infinity())
                       .getValue()));
  Value scores = arith::SelectOp::create(b, visible, op.getScores(), negInf);
  rewriter.replaceOpWithNewOp<MaskOp>(op, type, scores, op.getRowStart(),
                                      op.getNumQueries(), op.getColStart(),
                                      op.getNumKeys(), op.getMask());
}

namespace {
struct AttnExpandMaskModsPass
    : public attn::impl::AttnExpandMaskModsBase<AttnExpandMaskModsPass> {
  void runOnOperation() override {
    SmallVector<MaskOp> masks;
    getOperation()->walk([&](MaskOp op) {
      if (!op.getMaskMod().empty())
        masks.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (MaskOp op : masks)
      expandMaskMod(rewriter, op);
  }
};
} // namespace
