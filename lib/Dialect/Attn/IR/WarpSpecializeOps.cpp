//===- WarpSpecializeOps.cpp - producer/consumer programs -----------------===//

#include "attn/Dialect/Attn/IR/AttnDialect.h"

using namespace mlir;
using namespace mlir::attn;

//===----------------------------------------------------------------------===//
// MBarrierAllocOp
//===----------------------------------------------------------------------===//

LogicalResult MBarrierAllocOp::verify() {
  // Initialized by one thread for all: every thread must reach it, before
  // the program splits into producer and consumers.
  if (!isa<ProgramOp>((*this)->getParentOp()))
    return emitOpError() << "must be at the top level of an attn.program "
                            "(every thread initializes and then uses it)";
  return success();
}

//===----------------------------------------------------------------------===//
// TmaCopyOp
//===----------------------------------------------------------------------===//

LogicalResult TmaCopyOp::verify() {
  MemRefType source = getSource().getType();
  SharedBufferType dest = getDest().getType();
  if (dest.getRank() != 2)
    return emitOpError() << "copies into one 2-D stage, got " << dest;
  if (source.getRank() < 2 || source.getRank() > 5)
    return emitOpError() << "copies from a buffer of rank 2 to 5 (what a TMA "
                            "descriptor describes), got "
                         << source;
  if (getIndices().size() != static_cast<size_t>(source.getRank()))
    return emitOpError() << "expected " << source.getRank()
                         << " indices for " << source << ", got "
                         << getIndices().size();
  if (source.getElementType() != dest.getElementType())
    return emitOpError() << "element types differ: " << source.getElementType()
                         << " vs " << dest.getElementType();
  auto layout = dyn_cast<SwizzledSharedLayoutAttr>(dest.getLayout());
  if ((!layout || !layout.getBlocked()) &&
      !isa<UnswizzledSharedLayoutAttr>(dest.getLayout()))
    return emitOpError() << "writes column blocks with a TMA swizzle or "
                            "one box without a swizzle: the destination "
                            "needs #attn.swizzled<blocked> (any span) or "
                            "#attn.unswizzled, got "
                         << dest;
  if (dest.getShape()[0] > 256)
    return emitOpError() << "copies at most 256 rows (a TMA box), got "
                         << dest.getShape()[0];
  auto ws = (*this)->getParentOfType<WarpSpecializeOp>();
  if (!ws || !ws.getProducer().isAncestor((*this)->getParentRegion()))
    return emitOpError() << "is issued by the producer thread: it must be "
                            "inside the producer region of "
                            "attn.warp_specialize";
  return success();
}

//===----------------------------------------------------------------------===//
// TmaStoreOp, TmaStoreWaitOp
//===----------------------------------------------------------------------===//

/// Whether `op` is inside the consumers region of an attn.warp_specialize.
static bool inConsumers(Operation *op) {
  auto ws = op->getParentOfType<WarpSpecializeOp>();
  return ws && ws.getConsumers().isAncestor(op->getParentRegion());
}

LogicalResult TmaStoreOp::verify() {
  SharedBufferType source = getSource().getType();
  MemRefType dest = getDest().getType();
  if (source.getRank() != 2)
    return emitOpError() << "stores one 2-D tile, got " << source;
  if (dest.getRank() < 2 || dest.getRank() > 5)
    return emitOpError() << "stores into a buffer of rank 2 to 5 (what a TMA "
                            "descriptor describes), got "
                         << dest;
  if (getIndices().size() != static_cast<size_t>(dest.getRank()))
    return emitOpError() << "expected " << dest.getRank() << " indices for "
                         << dest << ", got " << getIndices().size();
  if (source.getElementType() != dest.getElementType())
    return emitOpError() << "element types differ: " << source.getElementType()
                         << " vs " << dest.getElementType();
  auto layout = dyn_cast<SwizzledSharedLayoutAttr>(source.getLayout());
  if (!layout || !layout.getBlocked() || layout.getSpan() != 128)
    return emitOpError() << "reads 64-column blocks with the 128-byte "
                            "swizzle: the source needs "
                            "#attn.swizzled<blocked>, got "
                         << source;
  // Each consumer warpgroup stores its 64 rows.
  if (source.getShape()[0] % 64 != 0)
    return emitOpError() << "stores 64 rows per consumer warpgroup: the "
                            "tile's rows must be a multiple of 64, got "
                         << source.getShape()[0];
  if (!inConsumers(*this))
    return emitOpError() << "is issued per consumer warpgroup: it must be "
                            "inside the consumers region of "
                            "attn.warp_specialize";
  return success();
}

LogicalResult TmaStoreWaitOp::verify() {
  if (!inConsumers(*this))
    return emitOpError() << "waits for a consumer warpgroup's TMA stores: it "
                            "must be inside the consumers region of "
                            "attn.warp_specialize";
  return success();
}

//===----------------------------------------------------------------------===//
// WarpSpecializeOp
//===----------------------------------------------------------------------===//

LogicalResult WarpSpecializeOp::verify() {
  Operation *op = getOperation();
  if (!isa<ProgramOp>(op->getParentOp()) || op->getNextNode())
    return emitOpError() << "must be the last op of an attn.program (the "
                            "producer's threads run nothing after it)";
  // setmaxnreg takes 24..256 registers in steps of 8.
  for (int64_t regs : {getProducerRegisters(), getConsumerRegisters()})
    if (regs < 24 || regs > 256 || regs % 8 != 0)
      return emitOpError() << "register budgets are multiples of 8 in [24, "
                              "256] (setmaxnreg), got "
                           << regs;
  int64_t threads = 128 * (getConsumerWarpgroups() + 1);
  if (threads > 1024)
    return emitOpError() << "needs " << threads
                         << " threads (consumers and the producer "
                            "warpgroup), over 1024";
  return success();
}

//===----------------------------------------------------------------------===//
// TurnWaitOp, TurnSignalOp
//===----------------------------------------------------------------------===//

static LogicalResult verifyTurn(Operation *op) {
  if (!inConsumers(op))
    return op->emitOpError() << "takes turns among consumer warpgroups: it "
                                "must be inside the consumers region of "
                                "attn.warp_specialize";
  return success();
}

LogicalResult TurnWaitOp::verify() { return verifyTurn(*this); }
LogicalResult TurnSignalOp::verify() { return verifyTurn(*this); }
