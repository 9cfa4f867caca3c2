//===- BufferizableOpInterfaceImpl.cpp - bufferizing attn.attention -------===//

#include "attn/Dialect/Attn/IR/BufferizableOpInterfaceImpl.h"
#include "attn/Dialect/Attn/IR/AttnDialect.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/IR/DstBufferizableOpInterfaceImpl.h"

using namespace mlir;
using namespace mlir::attn;
using namespace mlir::bufferization;

namespace {
struct AttentionOpInterface
    : public DstBufferizableOpInterfaceExternalModel<AttentionOpInterface,
                                                     AttentionOp> {
  /// The destinations are overwritten whole, never read: bufferization need
  /// not copy their old contents.
  bool bufferizesToMemoryRead(Operation *op, OpOperand &operand,
                              const AnalysisState &) const {
    return !cast<DestinationStyleOpInterface>(op).isDpsInit(&operand);
  }

  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    auto attention = cast<AttentionOp>(op);
    if (attention.hasBufferSemantics())
      return success();
    SmallVector<Value> buffers;
    for (Value operand : op->getOperands()) {
      FailureOr<Value> buffer = getBuffer(rewriter, operand, options, state);
      if (failed(buffer))
        return failure();
      buffers.push_back(*buffer);
    }
    // The same op on the buffers, with no results: same attributes (operand
    // segments included), same regions.
    rewriter.setInsertionPoint(op);
    OperationState newState(op->getLoc(), op->getName());
    newState.addOperands(buffers);
    newState.addAttributes(op->getAttrs());
    for (Region &region : op->getRegions())
      newState.addRegion()->takeBody(region);
    rewriter.create(newState);
    // The results are the destinations: the last one or two operands.
    replaceOpWithBufferizedValues(
        rewriter, op,
        ArrayRef(buffers).take_back(attention.getDpsInits().size()));
    return success();
  }
};
} // namespace

void mlir::attn::registerBufferizableOpInterfaceExternalModels(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, AttnDialect *) {
    AttentionOp::attachInterface<AttentionOpInterface>(*ctx);
  });
}
