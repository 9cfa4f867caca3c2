//===- AccumulateBias.cpp - a term of the scores as Q K^T's accumulator ---===//
//
// Algorithm (per attn.program with #attn.gpu_config<accumulate_bias>):
//  1. For each attn.dot in a loop body with a zero splat accumulator and A
//     defined outside the loop, whose result only feeds an arith.mulf by
//     a splat constant c with |c| <= 1 (so that c a cannot overflow A's
//     type where a . b times c is finite in f32), whose result only feeds
//     an arith.addf with some x: match.
//  2. Once per (A, c), right after A's definition: As = truncf(extf(A) *
//     c), in f32 (the scale's rounding to A's type would be a second
//     error); an f32 A (the CPU lowering's) is multiplied as it is.
//  3. At the add (after x): attn.dot As, B, x with the product's attributes
//     replaces the add; the multiply and the old product go.
// c (a . b) + x = (c a) . b + x up to the rounding of c a to A's type;
// the online softmax's scale and everything after the add are unchanged.
//
//===----------------------------------------------------------------------===//

#include "attn/Dialect/Attn/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"

namespace mlir {
namespace attn {
#define GEN_PASS_DEF_ATTNACCUMULATEBIAS
#include "attn/Dialect/Attn/Transforms/Passes.h.inc"
} // namespace attn
} // namespace mlir

using namespace mlir;
using namespace mlir::attn;

namespace {

/// The splat value of `v` if it is a floating-point splat constant.
static std::optional<APFloat> splat(Value v) {
  DenseElementsAttr dense;
  if (!matchPattern(v, m_Constant(&dense)) || !dense.isSplat() ||
      !isa<FloatType>(dense.getElementType()))
    return std::nullopt;
  return dense.getSplatValue<APFloat>();
}

/// Step 1: the product's multiply and add, or null.
struct Match {
  DotOp dot;
  arith::MulFOp scale;
  arith::AddFOp add;
  Value term;
};

static std::optional<Match> match(DotOp dot) {
  auto loop = dyn_cast<scf::ForOp>(dot->getParentOp());
  if (!loop || loop->isAncestor(dot.getA().getParentBlock()->getParentOp()))
    return std::nullopt;
  std::optional<APFloat> acc = splat(dot.getAcc());
  if (!acc || !acc->isPosZero() || !dot.getResult().hasOneUse())
    return std::nullopt;
  auto mul = dyn_cast<arith::MulFOp>(*dot.getResult().getUsers().begin());
  if (!mul || !mul.getResult().hasOneUse())
    return std::nullopt;
  Value c = mul.getLhs() == dot.getResult() ? mul.getRhs() : mul.getLhs();
  std::optional<APFloat> cv = splat(c);
  // |c| > 1 (or NaN) could take c a past A's largest finite value: left
  // alone rather than turned into infinite scores.
  if (!cv || cv->isNaN() || abs(*cv) > APFloat::getOne(cv->getSemantics()))
    return std::nullopt;
  auto add = dyn_cast<arith::AddFOp>(*mul.getResult().getUsers().begin());
  if (!add || add->getBlock() != dot->getBlock())
    return std::nullopt;
  Value term = add.getLhs() == mul.getResult() ? add.getRhs() : add.getLhs();
  if (term == mul.getResult() || term.getType() != dot.getType())
    return std::nullopt;
  return Match{dot, mul, add, term};
}

/// Step 2: `a` times the splat `c`, rounded to `a`'s type, after `a`.
static Value scaledOperand(OpBuilder &b, Value a, APFloat c) {
  auto type = cast<RankedTensorType>(a.getType());
  auto wide = RankedTensorType::get(type.getShape(), b.getF32Type());
  bool lost;
  c.convert(APFloat::IEEEsingle(), APFloat::rmNearestTiesToEven, &lost);
  Location loc = a.getLoc();
  bool narrow = type.getElementType() != wide.getElementType();
  Value ext = narrow ? arith::ExtFOp::create(b, loc, wide, a) : a;
  Value cst = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(wide, b.getFloatAttr(b.getF32Type(), c)));
  Value mul = arith::MulFOp::create(b, loc, ext, cst);
  return narrow ? arith::TruncFOp::create(b, loc, type, mul) : mul;
}

struct AttnAccumulateBiasPass
    : public attn::impl::AttnAccumulateBiasBase<AttnAccumulateBiasPass> {
  void runOnOperation() override {
    getOperation()->walk([&](ProgramOp program) {
      if (!program.getGpuConfigOrDefault().getAccumulateBias())
        return;
      SmallVector<Match> matches;
      program.walk([&](DotOp dot) {
        if (std::optional<Match> m = match(dot))
          matches.push_back(*m);
      });
      // One scaled A per (A, scale) pair.
      SmallVector<std::tuple<Value, double, Value>> scaled;
      for (Match &m : matches) {
        Value a = m.dot.getA();
        Value c = m.scale.getLhs() == m.dot.getResult() ? m.scale.getRhs()
                                                        : m.scale.getLhs();
        APFloat cv = *splat(c);
        double key = cv.convertToDouble();
        Value as;
        for (auto &[a2, key2, as2] : scaled)
          if (a2 == a && key2 == key)
            as = as2;
        if (!as) {
          OpBuilder b(program.getContext());
          if (Operation *def = a.getDefiningOp())
            b.setInsertionPointAfter(def);
          else
            b.setInsertionPointToStart(cast<BlockArgument>(a).getOwner());
          as = scaledOperand(b, a, cv);
          scaled.push_back({a, key, as});
        }
        OpBuilder b(m.add);
        auto dot = cast<DotOp>(b.clone(*m.dot));
        dot.setOperand(0, as);
        dot.setOperand(2, m.term);
        m.add.getResult().replaceAllUsesWith(dot.getResult());
        m.add.erase();
        m.scale.erase();
        m.dot.erase();
        if (Operation *def = c.getDefiningOp(); def && def->use_empty())
          def->erase();
      }
    });
  }
};

} // namespace
