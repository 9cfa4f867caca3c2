//===- GPUOps.cpp - ops of laid-out tile programs -------------------------===//

#include "attn/Dialect/Attn/IR/AttnDialect.h"

using namespace mlir;
using namespace mlir::attn;

//===----------------------------------------------------------------------===//
// ConvertLayoutOp
//===----------------------------------------------------------------------===//

LogicalResult ConvertLayoutOp::verify() {
  auto source = cast<RankedTensorType>(getSource().getType());
  auto result = cast<RankedTensorType>(getResult().getType());
  if (!source.getEncoding() || !result.getEncoding())
    return emitOpError() << "converts between layouts: both types need one";
  return success();
}

//===----------------------------------------------------------------------===//
// LocalViewOp
//===----------------------------------------------------------------------===//

LogicalResult LocalViewOp::verify() {
  SharedBufferType source = getSource().getType();
  if (source.getRank() != 3)
    return emitOpError() << "takes a stage of a 3-D buffer, got "
                         << source;
  if (getResult().getType() != source.dropLeadingDim())
    return emitOpError() << "result must be " << source.dropLeadingDim()
                         << ", got " << getResult().getType();
  return success();
}

//===----------------------------------------------------------------------===//
// AsyncCopyOp
//===----------------------------------------------------------------------===//

LogicalResult AsyncCopyOp::verify() {
  MemRefType source = getSource().getType();
  SharedBufferType dest = getDest().getType();
  if (dest.getRank() != 2)
    return emitOpError() << "copies into one 2-D stage, got " << dest;
  if (getIndices().size() != static_cast<size_t>(source.getRank()))
    return emitOpError() << "expected " << source.getRank()
                         << " indices for " << source << ", got "
                         << getIndices().size();
  if (source.getRank() < 2)
    return emitOpError() << "copies a 2-D tile from a buffer of rank 2 or "
                            "more, got "
                         << source;
  if (source.getElementType() != dest.getElementType())
    return emitOpError() << "element types differ: " << source.getElementType()
                         << " vs " << dest.getElementType();
  return success();
}

//===----------------------------------------------------------------------===//
// PrefetchOp
//===----------------------------------------------------------------------===//

LogicalResult PrefetchOp::verify() {
  MemRefType source = getSource().getType();
  auto tile = cast<RankedTensorType>(getTile());
  if (getIndices().size() != static_cast<size_t>(source.getRank()))
    return emitOpError() << "expected " << source.getRank()
                         << " indices for " << source << ", got "
                         << getIndices().size();
  if (tile.getRank() != 2 || source.getRank() < 2)
    return emitOpError() << "prefetches a 2-D tile from a buffer of rank 2 "
                            "or more, got "
                         << tile << " from " << source;
  if (source.getElementType() != tile.getElementType())
    return emitOpError() << "element types differ: " << source.getElementType()
                         << " vs " << tile.getElementType();
  if (!isa_and_nonnull<MmaLayoutAttr>(tile.getEncoding()))
    return emitOpError() << "needs a tile in an accumulator layout "
                            "(#attn.mma), got "
                         << tile;
  return success();
}

//===----------------------------------------------------------------------===//
// LocalStoreOp
//===----------------------------------------------------------------------===//

LogicalResult LocalStoreOp::verify() {
  auto value = cast<RankedTensorType>(getValue().getType());
  SharedBufferType dest = getDest().getType();
  if (value.getShape() != dest.getShape() ||
      value.getElementType() != dest.getElementType())
    return emitOpError() << "stores a " << value << " into " << dest
                         << ": shapes and element types must match";
  if (!isa_and_nonnull<RegisterLayoutInterface>(value.getEncoding()))
    return emitOpError() << "stores a tile held in registers: its type needs "
                            "a register layout";
  return success();
}

//===----------------------------------------------------------------------===//
// LocalLoadOp
//===----------------------------------------------------------------------===//

LogicalResult LocalLoadOp::verify() {
  auto result = cast<RankedTensorType>(getResult().getType());
  SharedBufferType source = getSource().getType();
  if (result.getShape() != source.getShape() ||
      result.getElementType() != source.getElementType())
    return emitOpError() << "reads a " << result << " from " << source
                         << ": shapes and element types must match";
  if (!isa_and_nonnull<MmaLayoutAttr>(result.getEncoding()) ||
      result.getElementType().getIntOrFloatBitWidth() != 16)
    return emitOpError() << "reads 16-bit elements into an accumulator "
                            "layout (#attn.mma), got "
                         << result;
  return success();
}

//===----------------------------------------------------------------------===//
// DotWaitOp
//===----------------------------------------------------------------------===//

LogicalResult DotWaitOp::inferReturnTypes(
    MLIRContext *, std::optional<Location>, ValueRange operands,
    DictionaryAttr, OpaqueProperties, RegionRange,
    SmallVectorImpl<Type> &inferredReturnTypes) {
  for (Value v : operands)
    inferredReturnTypes.push_back(v.getType());
  return success();
}

LogicalResult DotWaitOp::verify() {
  if (getValues().empty())
    return emitOpError() << "waits for at least one product";
  for (Value v : getValues()) {
    auto mma = dyn_cast_or_null<MmaLayoutAttr>(
        cast<RankedTensorType>(v.getType()).getEncoding());
    if (!mma || !mma.isWarpgroup())
      return emitOpError() << "waits for wgmma products: each operand needs "
                              "a #attn.mma<version = 3> layout, got "
                           << v.getType();
  }
  return success();
}
