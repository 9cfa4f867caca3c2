//===- AttnTypes.cpp - attn types -----------------------------------------===//

#include "attn/Dialect/Attn/IR/AttnDialect.h"

#include "mlir/IR/DialectImplementation.h"

using namespace mlir;
using namespace mlir::attn;

// !attn.shared<2x64x128xf16, #attn.swizzled>
Type SharedBufferType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape;
  Type elementType;
  Attribute layout;
  if (parser.parseLess() ||
      parser.parseDimensionList(shape, /*allowDynamic=*/false) ||
      parser.parseType(elementType) || parser.parseComma() ||
      parser.parseAttribute(layout) || parser.parseGreater())
    return {};
  return parser.getChecked<SharedBufferType>(parser.getContext(),
                                             ArrayRef<int64_t>(shape),
                                             elementType, layout);
}

void SharedBufferType::print(AsmPrinter &printer) const {
  printer << "<";
  for (int64_t dim : getShape())
    printer << dim << "x";
  printer << getElementType() << ", " << getLayout() << ">";
}

LogicalResult
SharedBufferType::verify(function_ref<InFlightDiagnostic()> emitError,
                         ArrayRef<int64_t> shape, Type elementType,
                         Attribute layout) {
  if (shape.size() != 2 && shape.size() != 3)
    return emitError() << "!attn.shared holds a 2-D tile or stages of one "
                          "(rank 2 or 3), got rank "
                       << shape.size();
  if (!elementType.isIntOrFloat())
    return emitError() << "!attn.shared holds integers or floats, got "
                       << elementType;
  for (int64_t dim : shape)
    if (dim <= 0)
      return emitError() << "!attn.shared needs positive extents";
  auto encoding = dyn_cast<VerifiableTensorEncoding>(layout);
  if (!isa<SwizzledSharedLayoutAttr, UnswizzledSharedLayoutAttr>(layout) ||
      !encoding)
    return emitError() << "!attn.shared needs a shared-memory layout "
                          "(#attn.swizzled or #attn.unswizzled), got "
                       << layout;
  return encoding.verifyEncoding(shape.take_back(2), elementType, emitError);
}

int64_t SharedBufferType::getSizeInBytes() const {
  int64_t bytes = getElementType().getIntOrFloatBitWidth() / 8;
  for (int64_t dim : getShape())
    bytes *= dim;
  return bytes;
}

SharedBufferType SharedBufferType::dropLeadingDim() const {
  return SharedBufferType::get(getContext(), getShape().drop_front(1),
                               getElementType(), getLayout());
}

LogicalResult
MBarriersType::verify(function_ref<InFlightDiagnostic()> emitError,
                      int64_t count) {
  if (count < 1 || count > 64)
    return emitError() << "!attn.mbarriers holds 1 to 64 barriers, got "
                       << count;
  return success();
}
