//===- AttnLayouts.cpp - GPU layouts of tiles -----------------------------===//
//
// Each layout checks the tile shapes it can describe (the VerifiableTensor-
// Encoding interface makes `tensor<..., #layout>` verify through it) and,
// for register layouts, how many elements one thread holds.
//
//===----------------------------------------------------------------------===//

#include "attn/Dialect/Attn/IR/AttnDialect.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectImplementation.h"

using namespace mlir;
using namespace mlir::attn;

//===----------------------------------------------------------------------===//
// MmaLayoutAttr
//===----------------------------------------------------------------------===//

LogicalResult MmaLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                    int64_t warps, int64_t version) {
  if (warps <= 0 || warps > 32)
    return emitError() << "#attn.mma needs 1 to 32 warps, got " << warps;
  if (version != 2 && version != 3)
    return emitError() << "#attn.mma version is 2 (mma.sync) or 3 (wgmma), got "
                       << version;
  if (version == 3 && warps % 4 != 0)
    return emitError() << "#attn.mma version 3 (wgmma) needs whole warpgroups "
                          "(a multiple of 4 warps), got "
                       << warps;
  return success();
}

/// `rows` must be whole 16-row m-tiles of every warp.
static LogicalResult verifyMmaRows(int64_t rows, int64_t warps,
                                   function_ref<InFlightDiagnostic()> emitError,
                                   StringRef what) {
  if (ShapedType::isDynamic(rows) || rows <= 0 || rows % (16 * warps) != 0)
    return emitError() << what << " with " << warps
                       << " warps needs a row count that is a multiple of "
                       << 16 * warps << " (16 rows per warp and m-tile), got "
                       << rows;
  return success();
}

LogicalResult
MmaLayoutAttr::verifyEncoding(ArrayRef<int64_t> shape, Type elementType,
                              function_ref<InFlightDiagnostic()> emitError) const {
  if (shape.size() != 2)
    return emitError() << "#attn.mma lays out 2-D tiles, got rank "
                       << shape.size();
  if (failed(verifyMmaRows(shape[0], getWarps(), emitError, "#attn.mma")))
    return failure();
  if (ShapedType::isDynamic(shape[1]) || shape[1] <= 0 || shape[1] % 8 != 0)
    return emitError() << "#attn.mma needs a column count that is a multiple "
                          "of 8 (one n-tile), got "
                       << shape[1];
  if (isWarpgroup() && shape[0] != 16 * getWarps())
    return emitError() << "#attn.mma version 3 (wgmma) holds 64 rows per "
                          "warpgroup: "
                       << getWarps() << " warps need " << 16 * getWarps()
                       << " rows, got " << shape[0];
  return success();
}

int64_t MmaLayoutAttr::getElementsPerThread(ArrayRef<int64_t> shape) const {
  return getMTiles(shape[0]) * (shape[1] / 8) * 4;
}

//===----------------------------------------------------------------------===//
// DotOperandLayoutAttr
//===----------------------------------------------------------------------===//

LogicalResult DotOperandLayoutAttr::verifyEncoding(
    ArrayRef<int64_t> shape, Type elementType,
    function_ref<InFlightDiagnostic()> emitError) const {
  if (shape.size() != 2)
    return emitError() << "#attn.dot_operand lays out 2-D tiles, got rank "
                       << shape.size();
  if (failed(verifyMmaRows(shape[0], getWarps(), emitError,
                           "#attn.dot_operand")))
    return failure();
  if (ShapedType::isDynamic(shape[1]) || shape[1] <= 0 || shape[1] % 16 != 0)
    return emitError() << "#attn.dot_operand needs a column count that is a "
                          "multiple of 16 (one k-step), got "
                       << shape[1];
  return success();
}

int64_t
DotOperandLayoutAttr::getElementsPerThread(ArrayRef<int64_t> shape) const {
  return getParent().getMTiles(shape[0]) * (shape[1] / 16) * 8;
}

int64_t DotOperandLayoutAttr::getWarps() const {
  return getParent().getWarps();
}

//===----------------------------------------------------------------------===//
// RowsLayoutAttr
//===----------------------------------------------------------------------===//

LogicalResult
RowsLayoutAttr::verifyEncoding(ArrayRef<int64_t> shape, Type elementType,
                               function_ref<InFlightDiagnostic()> emitError) const {
  if (shape.size() != 1)
    return emitError() << "#attn.rows lays out 1-D tiles, got rank "
                       << shape.size();
  return verifyMmaRows(shape[0], getWarps(), emitError, "#attn.rows");
}

int64_t RowsLayoutAttr::getElementsPerThread(ArrayRef<int64_t> shape) const {
  return 2 * getParent().getMTiles(shape[0]);
}

int64_t RowsLayoutAttr::getWarps() const { return getParent().getWarps(); }

//===----------------------------------------------------------------------===//
// SwizzledSharedLayoutAttr
//===----------------------------------------------------------------------===//

LogicalResult
SwizzledSharedLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 bool blocked, int64_t span) {
  if (span != 32 && span != 64 && span != 128)
    return emitError() << "#attn.swizzled's span is a TMA swizzle width: 32, "
                          "64 or 128 bytes, got "
                       << span;
  if (span != 128 && !blocked)
    return emitError() << "#attn.swizzled with a span of " << span
                       << " bytes must be blocked (one TMA box per column "
                          "block)";
  return success();
}

LogicalResult SwizzledSharedLayoutAttr::verifyEncoding(
    ArrayRef<int64_t> shape, Type elementType,
    function_ref<InFlightDiagnostic()> emitError) const {
  if (shape.size() != 2)
    return emitError() << "#attn.swizzled lays out 2-D tiles, got rank "
                       << shape.size();
  if (elementType.getIntOrFloatBitWidth() != 16)
    return emitError() << "#attn.swizzled holds 2-byte elements, got "
                       << elementType;
  int64_t chunks = getSpan() / 16;
  if (ShapedType::isDynamic(shape[1]) || shape[1] <= 0 ||
      shape[1] % (8 * chunks) != 0)
    return emitError() << "#attn.swizzled needs a column count that is a "
                          "multiple of "
                       << 8 * chunks << " (" << chunks
                       << " chunks of 16 bytes), got " << shape[1];
  if (ShapedType::isDynamic(shape[0]) || shape[0] <= 0)
    return emitError() << "#attn.swizzled needs a static row count";
  if (getBlocked() && shape[0] % 8 != 0)
    return emitError() << "#attn.swizzled<blocked> needs a row count that is "
                          "a multiple of 8 (one swizzle atom), got "
                       << shape[0];
  return success();
}

// `#attn.swizzled`, `#attn.swizzled<blocked>` or
// `#attn.swizzled<blocked, span = N>`.
Attribute SwizzledSharedLayoutAttr::parse(AsmParser &parser, Type) {
  bool blocked = false;
  int64_t span = 128;
  if (succeeded(parser.parseOptionalLess())) {
    // `span` alone parses, so that the verifier says what it needs.
    blocked = succeeded(parser.parseOptionalKeyword("blocked"));
    if (!blocked || succeeded(parser.parseOptionalComma())) {
      if (failed(parser.parseOptionalKeyword("span"))) {
        parser.emitError(parser.getCurrentLocation(),
                         blocked ? "expected 'span'"
                                 : "expected 'blocked' or 'span'");
        return {};
      }
      if (parser.parseEqual() || parser.parseInteger(span))
        return {};
    }
    if (parser.parseGreater())
      return {};
  }
  return SwizzledSharedLayoutAttr::getChecked(
      [&] { return parser.emitError(parser.getNameLoc()); },
      parser.getContext(), blocked, span);
}

void SwizzledSharedLayoutAttr::print(AsmPrinter &printer) const {
  if (!getBlocked())
    return;
  printer << "<blocked";
  if (getSpan() != 128)
    printer << ", span = " << getSpan();
  printer << ">";
}

//===----------------------------------------------------------------------===//
// UnswizzledSharedLayoutAttr
//===----------------------------------------------------------------------===//

LogicalResult UnswizzledSharedLayoutAttr::verifyEncoding(
    ArrayRef<int64_t> shape, Type elementType,
    function_ref<InFlightDiagnostic()> emitError) const {
  if (shape.size() != 2)
    return emitError() << "#attn.unswizzled lays out 2-D tiles, got rank "
                       << shape.size();
  if (elementType.getIntOrFloatBitWidth() != 16)
    return emitError() << "#attn.unswizzled holds 2-byte elements, got "
                       << elementType;
  if (ShapedType::isDynamic(shape[0]) || shape[0] <= 0 || shape[0] > 256)
    return emitError() << "#attn.unswizzled needs a static row count in "
                          "[1, 256] (one TMA box), got "
                       << shape[0];
  if (ShapedType::isDynamic(shape[1]) || shape[1] <= 0 || shape[1] > 256 ||
      shape[1] % 8 != 0)
    return emitError() << "#attn.unswizzled needs a column count in [8, 256] "
                          "that is a multiple of 8 (whole 16-byte units of "
                          "one TMA box), got "
                       << shape[1];
  return success();
}
