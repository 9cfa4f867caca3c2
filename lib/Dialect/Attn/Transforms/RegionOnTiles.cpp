//===- RegionOnTiles.cpp - scalar modification regions applied to tiles ---===//

#include "attn/Dialect/Attn/Transforms/RegionOnTiles.h"

#include "attn/Dialect/Attn/IR/AttnDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::attn;

Value mlir::attn::cloneOntoTiles(ImplicitLocOpBuilder &b, Region &region,
                                 ValueRange args, ArrayRef<int64_t> shape) {
  IRMapping mapping;
  Block &block = region.front();
  for (auto [arg, tile] : llvm::zip(block.getArguments(), args))
    mapping.map(arg, tile);
  for (Operation &op : block.without_terminator()) {
    Type scalar = op.getResult(0).getType();
    auto tileType = RankedTensorType::get(shape, scalar);
    Value result;
    if (auto cst = dyn_cast<arith::ConstantOp>(op)) {
      result = arith::ConstantOp::create(
          b, DenseElementsAttr::get(tileType, cst.getValue()));
    } else {
      OperationState state(op.getLoc(), op.getName());
      for (Value operand : op.getOperands())
        state.addOperands(mapping.lookup(operand));
      state.addTypes(tileType);
      state.addAttributes(op.getAttrs());
      result = b.create(state)->getResult(0);
    }
    mapping.map(op.getResult(0), result);
  }
  return mapping.lookup(cast<YieldOp>(block.getTerminator()).getValues()[0]);
}

Value mlir::attn::buildMaskModTile(ImplicitLocOpBuilder &b, Region &region,
                                   Value batch, Value head, Value rowStart,
                                   Value colStart, ArrayRef<int64_t> shape) {
  auto indexT = RankedTensorType::get(shape, b.getIndexType());
  Value qIdx = IotaOp::create(b, indexT, 0, rowStart);
  Value kvIdx = IotaOp::create(b, indexT, 1, colStart);
  Value bTile = tensor::SplatOp::create(b, indexT, batch);
  Value hTile = tensor::SplatOp::create(b, indexT, head);
  return cloneOntoTiles(b, region, {bTile, hTile, qIdx, kvIdx}, shape);
}
