//===- LoopAnnotations.cpp - scf.for loop hints onto llvm.br ---------------===//
//
// The discardable `llvm.loop_annotation` that scf-to-cf and cf-to-llvm copy
// onto a loop's back edge becomes the branch's own `loop_annotation`, the
// one the LLVM IR translation turns into !llvm.loop metadata.
//
//===----------------------------------------------------------------------===//

#include "attn/Conversion/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace mlir {
namespace attn {
#define GEN_PASS_DEF_ATTNLOOPANNOTATIONS
#include "attn/Conversion/Passes.h.inc"
} // namespace attn
} // namespace mlir

using namespace mlir;

namespace {
constexpr llvm::StringLiteral kCarried = "llvm.loop_annotation";

template <typename BranchOp>
LogicalResult promote(BranchOp op) {
  Attribute carried = op->getDiscardableAttr(kCarried);
  if (!carried)
    return success();
  auto annotation = dyn_cast<LLVM::LoopAnnotationAttr>(carried);
  if (!annotation)
    return op.emitOpError() << "'" << kCarried
                            << "' must be an #llvm.loop_annotation";
  // Two loops sharing a latch cannot happen after scf-to-cf; a hint already
  // on the branch wins only if it is the same one.
  if (auto own = op.getLoopAnnotationAttr(); own && own != annotation)
    return op.emitOpError() << "has two different loop annotations";
  op.setLoopAnnotationAttr(annotation);
  op->removeDiscardableAttr(kCarried);
  return success();
}

struct AttnLoopAnnotationsPass
    : public attn::impl::AttnLoopAnnotationsBase<AttnLoopAnnotationsPass> {
  void runOnOperation() override {
    WalkResult result = getOperation()->walk([](Operation *op) {
      LogicalResult ok = success();
      if (auto br = dyn_cast<LLVM::BrOp>(op))
        ok = promote(br);
      else if (auto condBr = dyn_cast<LLVM::CondBrOp>(op))
        ok = promote(condBr);
      return failed(ok) ? WalkResult::interrupt() : WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
