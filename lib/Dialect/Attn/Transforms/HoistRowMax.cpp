//===- HoistRowMax.cpp - a softmax's row maximum before a monotone mod ----===//
//
// Algorithm (per attn.program with #attn.gpu_config<hoist_row_max>):
//  1. For each attn.online_softmax with a positive scale, no max_bound and
//     no block_max, walk its scores' definitions back while each is a
//     monotone non-decreasing elementwise step on a 2-D f32 tile of the
//     same shape (monotoneOperand()); the value where the walk stops is the
//     root. No step: nothing to do.
//  2. Right before the chain's first step, reduce the root's rows (max)
//     and apply every step, in order, to that row tile: the same op and
//     attributes, splat constants as row tiles.
//  3. The result becomes the softmax's block_max.
// rowmax(f(r)) = f(rowmax(r)) for non-decreasing f, NaN included (max
// propagates it, every step keeps it). An approximate step (tanh.approx)
// that is not exactly monotone moves the reference by its error, which the
// softmax tolerates (the op's description).
//
//===----------------------------------------------------------------------===//

#include "attn/Dialect/Attn/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Matchers.h"

#include <cmath>

namespace mlir {
namespace attn {
#define GEN_PASS_DEF_ATTNHOISTROWMAX
#include "attn/Dialect/Attn/Transforms/Passes.h.inc"
} // namespace attn
} // namespace mlir

using namespace mlir;
using namespace mlir::attn;

/// The splat value of `v` if it is an f32 splat constant, else nullopt.
static std::optional<double> splatValue(Value v) {
  DenseElementsAttr dense;
  if (!matchPattern(v, m_Constant(&dense)) || !dense.isSplat() ||
      !dense.getElementType().isF32())
    return std::nullopt;
  return dense.getSplatValue<APFloat>().convertToDouble();
}

/// If `op` is a non-decreasing function of one of its operands (the others
/// splat constants), that operand's index.
static std::optional<unsigned> monotoneOperand(Operation *op) {
  if (op->getNumResults() != 1)
    return std::nullopt;
  if (isa<math::TanhOp, math::ExpOp, math::Exp2Op>(op))
    return 0u;
  if (op->getNumOperands() != 2)
    return std::nullopt;
  std::optional<double> c0 = splatValue(op->getOperand(0)),
                        c1 = splatValue(op->getOperand(1));
  auto positive = [](std::optional<double> c) {
    return c && std::isfinite(*c) && *c > 0;
  };
  auto finite = [](std::optional<double> c) { return c && std::isfinite(*c); };
  if (isa<arith::MulFOp>(op)) {
    if (positive(c1))
      return 0u;
    if (positive(c0))
      return 1u;
  }
  if (isa<arith::DivFOp>(op) && positive(c1))
    return 0u;
  if (isa<arith::AddFOp>(op)) {
    if (finite(c1))
      return 0u;
    if (finite(c0))
      return 1u;
  }
  if (isa<arith::SubFOp>(op) && finite(c1))
    return 0u;
  return std::nullopt;
}

/// Steps 1-3 for one softmax.
static void hoist(OnlineSoftmaxOp softmax) {
  if (softmax.getBlockMax() || softmax.getMaxBound() ||
      !(softmax.getScaleLog2e().convertToDouble() > 0))
    return;
  auto tileT = softmax.getScores().getType();
  // Steps from the softmax back to the root, last step first.
  SmallVector<std::pair<Operation *, unsigned>> steps;
  Value v = softmax.getScores();
  while (Operation *def = v.getDefiningOp()) {
    std::optional<unsigned> index = monotoneOperand(def);
    if (!index || def->getResult(0).getType() != tileT ||
        def->getOperand(*index).getType() != tileT)
      break;
    steps.push_back({def, *index});
    v = def->getOperand(*index);
  }
  if (steps.empty())
    return;
  auto rowT = softmax.getMax().getType();
  OpBuilder b(steps.back().first);
  Location loc = softmax.getLoc();
  Value row = ReduceRowsOp::create(b, loc, rowT, ReductionKind::Max, v);
  for (auto [op, index] : llvm::reverse(steps)) {
    SmallVector<Value> operands;
    for (auto [i, operand] : llvm::enumerate(op->getOperands()))
      operands.push_back(
          i == index ? row
                     : arith::ConstantOp::create(
                           b, op->getLoc(), rowT,
                           DenseElementsAttr::get(
                               rowT, b.getF32FloatAttr(*splatValue(operand)))));
    OperationState state(op->getLoc(), op->getName(), operands, {rowT},
                         op->getAttrs());
    row = b.create(state)->getResult(0);
  }
  softmax.getBlockMaxMutable().assign(row);
}

namespace {
struct AttnHoistRowMaxPass
    : public attn::impl::AttnHoistRowMaxBase<AttnHoistRowMaxPass> {
  void runOnOperation() override {
    getOperation()->walk([](ProgramOp program) {
      if (!program.getGpuConfigOrDefault().getHoistRowMax())
        return;
      program.walk([](OnlineSoftmaxOp softmax) { hoist(softmax); });
    });
  }
};
} // namespace
