//===- ElementwiseChain.cpp - a tile computed elementwise from one op -----===//

#include "attn/Dialect/Attn/Transforms/ElementwiseChain.h"

#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;

Operation *mlir::attn::elementwiseChainRoot(Value value) {
  Value v = value;
  while (Operation *def = v.getDefiningOp()) {
    bool link = isMemoryEffectFree(def) && def->getNumRegions() == 0 &&
                def->getNumResults() == 1;
    if (!link)
      return def;
    if (v != value && !v.hasOneUse())
      return nullptr;
    Value next;
    for (Value operand : def->getOperands()) {
      if (matchPattern(operand, m_Constant()))
        continue;
      if (next)
        return nullptr;
      next = operand;
    }
    if (!next)
      return nullptr;
    v = next;
  }
  return nullptr;
}
