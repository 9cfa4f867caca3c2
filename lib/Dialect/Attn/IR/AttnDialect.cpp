//===- AttnDialect.cpp - attn dialect registration ------------------------===//

#include "attn/Dialect/Attn/IR/AttnDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::attn;

#include "attn/Dialect/Attn/IR/AttnOpsDialect.cpp.inc"

#include "attn/Dialect/Attn/IR/AttnEnums.cpp.inc"

#include "attn/Dialect/Attn/IR/AttnAttrInterfaces.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "attn/Dialect/Attn/IR/AttnAttrs.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "attn/Dialect/Attn/IR/AttnTypes.cpp.inc"

void AttnDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "attn/Dialect/Attn/IR/AttnAttrs.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "attn/Dialect/Attn/IR/AttnTypes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "attn/Dialect/Attn/IR/AttnOps.cpp.inc"
      >();
}
