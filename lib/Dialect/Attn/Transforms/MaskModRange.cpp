//===- MaskModRange.cpp - K/V blocks a mask_mod region may show -----------===//
//
// The interval evaluation of a mask_mod region (see MaskModRange.h).
//
// Every integer value of the region that the evaluation tracks has, besides
// the runtime pair of values [lo, hi] it emits, a static range computed here
// from the assumed ranges of the arguments. A value is tracked only when its
// static range fits a signed 32-bit integer (or its own type, if narrower):
// then no op on it or its bounds can wrap, on the GPU's 32-bit index or the
// CPU's 64-bit one, and each emitted bound is a value the op really takes
// (or, for remainders, a bound of one). Every i1 value becomes the pair
// (may be false, may be true); an op that is not understood gives
// (true, true). Ops are built with createOrFold, so constant pairs fold
// away and an evaluation that learns nothing ends in a constant "may be
// true" (that is what canBoundMaskMod looks for).
//
//===----------------------------------------------------------------------===//

#include "attn/Dialect/Attn/Transforms/MaskModRange.h"

#include "attn/Dialect/Attn/IR/AttnDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/TypeSwitch.h"

#include <optional>

using namespace mlir;
using namespace mlir::attn;

namespace {

using Wide = __int128;

/// A static range of an integer value: every value it takes at runtime.
struct StaticRange {
  Wide lo, hi;
};

/// A tracked integer value: its runtime bounds and static range.
struct Interval {
  Value lo, hi;
  StaticRange range;
};

/// An i1 value: whether it may be false, whether it may be true.
struct Truth {
  Value mayFalse, mayTrue;
};

/// The largest query/key position the evaluation assumes: the runtime
/// refuses lengths above 2^31 - 1025 (runtime/README.md), so positions are at
/// most 2^31 - 1026.
constexpr Wide kMaxPosition = (Wide(1) << 31) - 1026;
/// Batch and head indices stay below the grid's 2^31 - 1 programs.
constexpr Wide kMaxBatchHead = (Wide(1) << 31) - 2;

/// The widest static range tracked for a value of `type`: a signed 32-bit
/// integer for index (32 bits in GPU kernels), the type's own for narrower
/// integers.
static StaticRange trackedLimit(Type type) {
  unsigned width =
      type.isIndex() ? 32 : std::min(32u, type.getIntOrFloatBitWidth());
  return {-(Wide(1) << (width - 1)), (Wide(1) << (width - 1)) - 1};
}

class IntervalEvaluator {
public:
  IntervalEvaluator(OpBuilder &b, Location loc) : b(b), loc(loc) {}

  /// Evaluates `maskMod` for the given argument intervals; returns the
  /// result's truth pair.
  Truth evaluate(Region &maskMod, ArrayRef<Interval> args) {
    Block &block = maskMod.front();
    for (auto [arg, interval] : llvm::zip(block.getArguments(), args))
      ints[arg] = interval;
    for (Operation &op : block.without_terminator())
      evaluateOp(op);
    return truthOf(block.getTerminator()->getOperand(0));
  }

private:
  Value cst(Type type, Wide v) {
    return arith::ConstantOp::create(b, loc, type,
                                     b.getIntegerAttr(type, (int64_t)v));
  }
  Value i1(bool v) { return cst(b.getI1Type(), v); }
  template <typename OpTy> Value fold(Value x, Value y) {
    return b.createOrFold<OpTy>(loc, x, y);
  }
  Value andB(Value x, Value y) { return fold<arith::AndIOp>(x, y); }
  Value orB(Value x, Value y) { return fold<arith::OrIOp>(x, y); }
  Value notB(Value x) { return fold<arith::XOrIOp>(x, i1(true)); }
  Value select(Value c, Value x, Value y) {
    return b.createOrFold<arith::SelectOp>(loc, c, x, y);
  }
  Value cmp(arith::CmpIPredicate pred, Value x, Value y) {
    return b.createOrFold<arith::CmpIOp>(loc, pred, x, y);
  }

  Truth unknown() { return {i1(true), i1(true)}; }

  Truth truthOf(Value v) {
    auto it = truths.find(v);
    return it == truths.end() ? unknown() : it->second;
  }
  std::optional<Interval> intervalOf(Value v) {
    auto it = ints.find(v);
    if (it == ints.end())
      return std::nullopt;
    return it->second;
  }

  /// Records `value` as tracked if its static range fits.
  void track(Value value, Value lo, Value hi, StaticRange range) {
    StaticRange limit = trackedLimit(value.getType());
    if (range.lo >= limit.lo && range.hi <= limit.hi)
      ints[value] = {lo, hi, range};
  }

  static std::optional<int64_t> positiveConstant(Value v) {
    APInt c;
    if (!matchPattern(v, m_ConstantInt(&c)) || c.getBitWidth() > 64 ||
        c.getSExtValue() <= 0)
      return std::nullopt;
    return c.getSExtValue();
  }

  void evaluateOp(Operation &op) {
    Value result = op.getResult(0);
    Type type = result.getType();
    if (type.isInteger(1)) {
      if (std::optional<Truth> t = evaluateTruth(op))
        truths[result] = *t;
      return;
    }
    if (type.isIntOrIndex())
      evaluateInteger(op, result);
  }

  // Integer ops -------------------------------------------------------------

  void evaluateInteger(Operation &op, Value result) {
    Type type = result.getType();
    if (auto c = dyn_cast<arith::ConstantOp>(op)) {
      auto attr = dyn_cast<IntegerAttr>(c.getValue());
      if (!attr || attr.getValue().getBitWidth() > 64)
        return;
      Wide v = attr.getValue().getSExtValue();
      Value copy = cst(type, v);
      track(result, copy, copy, {v, v});
      return;
    }
    if (auto sel = dyn_cast<arith::SelectOp>(op)) {
      std::optional<Interval> x = intervalOf(sel.getTrueValue()),
                              y = intervalOf(sel.getFalseValue());
      if (!x || !y || !sel.getCondition().getType().isInteger(1))
        return;
      Truth c = truthOf(sel.getCondition());
      Value lo = select(
          c.mayTrue,
          select(c.mayFalse, fold<arith::MinSIOp>(x->lo, y->lo), x->lo), y->lo);
      Value hi = select(
          c.mayTrue,
          select(c.mayFalse, fold<arith::MaxSIOp>(x->hi, y->hi), x->hi), y->hi);
      track(result, lo, hi,
            {std::min(x->range.lo, y->range.lo),
             std::max(x->range.hi, y->range.hi)});
      return;
    }
    if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
            arith::ExtUIOp, arith::TruncIOp>(op)) {
      std::optional<Interval> x = intervalOf(op.getOperand(0));
      if (!x)
        return;
      // Unsigned casts read a negative value as a large one.
      bool isUnsigned = isa<arith::IndexCastUIOp, arith::ExtUIOp>(op);
      if (isUnsigned && x->range.lo < 0)
        return;
      // Casts are the identity on values that fit both types (track checks
      // the result's; the operand's fits by being tracked).
      auto cast = [&](Value v) -> Value {
        OperationState state(loc, op.getName(), ValueRange{v}, {type});
        return b.create(state)->getResult(0);
      };
      track(result, cast(x->lo), cast(x->hi), x->range);
      return;
    }
    if (op.getNumOperands() != 2)
      return;
    std::optional<Interval> x = intervalOf(op.getOperand(0)),
                            y = intervalOf(op.getOperand(1));
    if (!x || !y)
      return;
    StaticRange xr = x->range, yr = y->range;
    bool nonNegative = xr.lo >= 0 && yr.lo >= 0;
    llvm::TypeSwitch<Operation *>(&op)
        .Case([&](arith::AddIOp) {
          track(result, fold<arith::AddIOp>(x->lo, y->lo),
                fold<arith::AddIOp>(x->hi, y->hi),
                {xr.lo + yr.lo, xr.hi + yr.hi});
        })
        .Case([&](arith::SubIOp) {
          track(result, fold<arith::SubIOp>(x->lo, y->hi),
                fold<arith::SubIOp>(x->hi, y->lo),
                {xr.lo - yr.hi, xr.hi - yr.lo});
        })
        .Case([&](arith::MulIOp) { evaluateMul(result, *x, *y); })
        .Case([&](arith::MinSIOp) {
          track(result, fold<arith::MinSIOp>(x->lo, y->lo),
                fold<arith::MinSIOp>(x->hi, y->hi),
                {std::min(xr.lo, yr.lo), std::min(xr.hi, yr.hi)});
        })
        .Case([&](arith::MaxSIOp) {
          track(result, fold<arith::MaxSIOp>(x->lo, y->lo),
                fold<arith::MaxSIOp>(x->hi, y->hi),
                {std::max(xr.lo, yr.lo), std::max(xr.hi, yr.hi)});
        })
        // On values that are not negative, unsigned min and max are the
        // signed ones.
        .Case([&](arith::MinUIOp) {
          if (nonNegative)
            track(result, fold<arith::MinSIOp>(x->lo, y->lo),
                  fold<arith::MinSIOp>(x->hi, y->hi),
                  {std::min(xr.lo, yr.lo), std::min(xr.hi, yr.hi)});
        })
        .Case([&](arith::MaxUIOp) {
          if (nonNegative)
            track(result, fold<arith::MaxSIOp>(x->lo, y->lo),
                  fold<arith::MaxSIOp>(x->hi, y->hi),
                  {std::max(xr.lo, yr.lo), std::max(xr.hi, yr.hi)});
        })
        .Case<arith::DivUIOp, arith::DivSIOp, arith::FloorDivSIOp,
              arith::CeilDivUIOp, arith::CeilDivSIOp, arith::RemUIOp,
              arith::RemSIOp>(
            [&](Operation *div) { evaluateDivision(*div, result, *x, *y); })
        .Default([](Operation *) {});
  }

  void evaluateMul(Value result, const Interval &x, const Interval &y) {
    StaticRange xr = x.range, yr = y.range;
    Wide products[] = {xr.lo * yr.lo, xr.lo * yr.hi, xr.hi * yr.lo,
                       xr.hi * yr.hi};
    StaticRange range = {*std::min_element(products, products + 4),
                         *std::max_element(products, products + 4)};
    StaticRange limit = trackedLimit(result.getType());
    if (range.lo < limit.lo || range.hi > limit.hi)
      return;
    // Every product of two bounds is a product the op may compute: within
    // the static range, so none wraps. The smallest and largest of the four
    // bound the product.
    Value p[] = {
        fold<arith::MulIOp>(x.lo, y.lo), fold<arith::MulIOp>(x.lo, y.hi),
        fold<arith::MulIOp>(x.hi, y.lo), fold<arith::MulIOp>(x.hi, y.hi)};
    Value lo = fold<arith::MinSIOp>(fold<arith::MinSIOp>(p[0], p[1]),
                                    fold<arith::MinSIOp>(p[2], p[3]));
    Value hi = fold<arith::MaxSIOp>(fold<arith::MaxSIOp>(p[0], p[1]),
                                    fold<arith::MaxSIOp>(p[2], p[3]));
    track(result, lo, hi, range);
  }

  /// Division and remainder by a positive constant. Quotients are monotone
  /// in the dividend (they round toward zero, down or up, but never go back);
  /// a remainder is exact only where both bounds share a quotient. Unsigned
  /// forms, and remainders, only on dividends that are never negative.
  void evaluateDivision(Operation &op, Value result, const Interval &x,
                        const Interval &y) {
    std::optional<int64_t> c = positiveConstant(op.getOperand(1));
    if (!c)
      return;
    bool isUnsignedOrRem =
        isa<arith::DivUIOp, arith::CeilDivUIOp, arith::RemUIOp, arith::RemSIOp>(
            op);
    if (isUnsignedOrRem && x.range.lo < 0)
      return;
    Type type = result.getType();
    // The region's constant is not in scope where the evaluation is built.
    Value divisor = cst(type, *c);
    auto apply = [&](Value v) -> Value {
      OperationState state(loc, op.getName(), ValueRange{v, divisor}, {type});
      return b.create(state)->getResult(0);
    };
    auto floorDiv = [&](Wide v) {
      return v >= 0 ? v / *c : -((-v + *c - 1) / *c);
    };
    if (isa<arith::RemUIOp, arith::RemSIOp>(op)) {
      Value sameQuotient =
          cmp(arith::CmpIPredicate::eq,
              b.createOrFold<arith::DivUIOp>(loc, x.lo, divisor),
              b.createOrFold<arith::DivUIOp>(loc, x.hi, divisor));
      Value lo = select(sameQuotient, apply(x.lo), cst(type, 0));
      Value hi = select(sameQuotient, apply(x.hi), cst(type, *c - 1));
      track(result, lo, hi, {0, *c - 1});
      return;
    }
    // Static quotient bounds: floor of the low bound, ceiling of the high
    // one cover every rounding.
    StaticRange range = {floorDiv(x.range.lo), -floorDiv(-x.range.hi)};
    track(result, apply(x.lo), apply(x.hi), range);
  }

  // i1 ops ------------------------------------------------------------------

  std::optional<Truth> evaluateTruth(Operation &op) {
    if (auto c = dyn_cast<arith::ConstantOp>(op)) {
      auto attr = dyn_cast<IntegerAttr>(c.getValue());
      if (!attr)
        return std::nullopt;
      bool v = attr.getValue().getBoolValue();
      return Truth{i1(!v), i1(v)};
    }
    if (auto sel = dyn_cast<arith::SelectOp>(op)) {
      Truth c = truthOf(sel.getCondition()), x = truthOf(sel.getTrueValue()),
            y = truthOf(sel.getFalseValue());
      return Truth{
          orB(andB(c.mayTrue, x.mayFalse), andB(c.mayFalse, y.mayFalse)),
          orB(andB(c.mayTrue, x.mayTrue), andB(c.mayFalse, y.mayTrue))};
    }
    if (auto cmpOp = dyn_cast<arith::CmpIOp>(op)) {
      if (cmpOp.getLhs().getType().isInteger(1))
        return compareTruths(cmpOp);
      return compareIntervals(cmpOp);
    }
    if (op.getNumOperands() != 2)
      return std::nullopt;
    Truth x = truthOf(op.getOperand(0)), y = truthOf(op.getOperand(1));
    return llvm::TypeSwitch<Operation *, std::optional<Truth>>(&op)
        .Case([&](arith::AndIOp) {
          return Truth{orB(x.mayFalse, y.mayFalse), andB(x.mayTrue, y.mayTrue)};
        })
        .Case([&](arith::OrIOp) {
          return Truth{andB(x.mayFalse, y.mayFalse), orB(x.mayTrue, y.mayTrue)};
        })
        .Case([&](arith::XOrIOp) { return xorTruth(x, y); })
        .Default([](Operation *) { return std::nullopt; });
  }

  Truth xorTruth(Truth x, Truth y) {
    return {orB(andB(x.mayTrue, y.mayTrue), andB(x.mayFalse, y.mayFalse)),
            orB(andB(x.mayTrue, y.mayFalse), andB(x.mayFalse, y.mayTrue))};
  }

  /// eq / ne of two i1 values: not-xor and xor.
  std::optional<Truth> compareTruths(arith::CmpIOp op) {
    Truth ne = xorTruth(truthOf(op.getLhs()), truthOf(op.getRhs()));
    switch (op.getPredicate()) {
    case arith::CmpIPredicate::ne:
      return ne;
    case arith::CmpIPredicate::eq:
      return Truth{ne.mayTrue, ne.mayFalse};
    default:
      return std::nullopt;
    }
  }

  std::optional<Truth> compareIntervals(arith::CmpIOp op) {
    std::optional<Interval> x = intervalOf(op.getLhs()),
                            y = intervalOf(op.getRhs());
    if (!x || !y)
      return std::nullopt;
    using P = arith::CmpIPredicate;
    P pred = op.getPredicate();
    // Unsigned comparisons of values that are never negative are the
    // signed ones.
    if (x->range.lo >= 0 && y->range.lo >= 0) {
      switch (pred) {
      case P::ult:
        pred = P::slt;
        break;
      case P::ule:
        pred = P::sle;
        break;
      case P::ugt:
        pred = P::sgt;
        break;
      case P::uge:
        pred = P::sge;
        break;
      default:
        break;
      }
    }
    // x < y may hold iff the smallest x is below the largest y, and may
    // fail iff the largest x reaches the smallest y; the other orders
    // follow by swapping and negating.
    auto lessThan = [&](const Interval &a, const Interval &c, bool orEqual) {
      return Truth{cmp(orEqual ? P::sgt : P::sge, a.hi, c.lo),
                   cmp(orEqual ? P::sle : P::slt, a.lo, c.hi)};
    };
    switch (pred) {
    case P::slt:
      return lessThan(*x, *y, false);
    case P::sle:
      return lessThan(*x, *y, true);
    case P::sgt:
      return lessThan(*y, *x, false);
    case P::sge:
      return lessThan(*y, *x, true);
    case P::eq:
    case P::ne: {
      Value overlap =
          andB(cmp(P::sle, x->lo, y->hi), cmp(P::sle, y->lo, x->hi));
      Value bothOnePoint =
          andB(andB(cmp(P::eq, x->lo, x->hi), cmp(P::eq, y->lo, y->hi)),
               cmp(P::eq, x->lo, y->lo));
      Truth eq{notB(bothOnePoint), overlap};
      return pred == P::eq ? eq : Truth{eq.mayTrue, eq.mayFalse};
    }
    default:
      return std::nullopt;
    }
  }

  OpBuilder &b;
  Location loc;
  DenseMap<Value, Interval> ints;
  DenseMap<Value, Truth> truths;
};

} // namespace

bool mlir::attn::canBoundMaskMod(Region &maskMod) {
  if (maskMod.empty())
    return false;
  // Evaluate into a scratch block that is thrown away: an evaluation that
  // folds to a constant "may be true" learns nothing.
  MLIRContext *ctx = maskMod.getContext();
  OpBuilder b(ctx);
  Location loc = UnknownLoc::get(ctx);
  Block scratch;
  b.setInsertionPointToStart(&scratch);
  Type index = b.getIndexType();
  SmallVector<Interval> args;
  for (Wide max : {kMaxBatchHead, kMaxBatchHead, kMaxPosition, kMaxPosition})
    args.push_back({scratch.addArgument(index, loc),
                    scratch.addArgument(index, loc),
                    {0, max}});
  Truth t = IntervalEvaluator(b, loc).evaluate(maskMod, args);
  return !matchPattern(t.mayTrue, m_One());
}

/// Blocks per group in the two-level scan of narrowKVRangeByMaskMod, and
/// the blocks fullKVRangeByMaskMod tries for the start of its run.
constexpr int64_t kGroup = 8;

namespace {
/// The interval evaluation of a region for one program's query rows, over
/// the keys of a run of blocks.
struct BlockEvaluator {
  Region &maskMod;
  Value batch, head, numKeys;
  Interval rows;
  int64_t blockN;

  BlockEvaluator(OpBuilder &b, Location loc, Region &maskMod, Value batch,
                 Value head, Value rowStart, Value numQueries, Value numKeys,
                 int64_t blockM, int64_t blockN)
      : maskMod(maskMod), batch(batch), head(head), numKeys(numKeys),
        blockN(blockN) {
    Value rowEnd = arith::MinSIOp::create(
        b, loc,
        arith::AddIOp::create(b, loc, rowStart,
                              arith::ConstantIndexOp::create(b, loc, blockM)),
        numQueries);
    rows = {rowStart,
            arith::SubIOp::create(b, loc, rowEnd,
                                  arith::ConstantIndexOp::create(b, loc, 1)),
            {0, kMaxPosition}};
  }

  /// The region's truth pair over the keys of blocks [first, end).
  Truth evaluate(OpBuilder &ob, Location loc, Value first, Value end) {
    Value bn = arith::ConstantIndexOp::create(ob, loc, blockN);
    Value k0 = arith::MulIOp::create(ob, loc, first, bn);
    Value kEnd = arith::MinSIOp::create(
        ob, loc, arith::MulIOp::create(ob, loc, end, bn), numKeys);
    Interval keys{
        k0,
        arith::SubIOp::create(ob, loc, kEnd,
                              arith::ConstantIndexOp::create(ob, loc, 1)),
        {0, kMaxPosition}};
    StaticRange batchHead = {0, kMaxBatchHead};
    return IntervalEvaluator(ob, loc).evaluate(
        maskMod,
        {{batch, batch, batchHead}, {head, head, batchHead}, rows, keys});
  }
};
} // namespace

/// Whether a predicate may hold for one of the blocks [first, end).
using GroupTest = function_ref<Value(OpBuilder &, Value first, Value end)>;

/// The condition region of a block search whose state is (next position,
/// result so far): go on while the position is inside [lo, hi) (above lo
/// going backward) and nothing has been found.
static void continueSearch(OpBuilder &b, Location loc, ValueRange args,
                           bool forward, Value lo, Value hi, Value notFound) {
  using P = arith::CmpIPredicate;
  Value more = forward ? arith::CmpIOp::create(b, loc, P::slt, args[0], hi)
                       : arith::CmpIOp::create(b, loc, P::sgt, args[0], lo);
  Value searching = arith::CmpIOp::create(b, loc, P::eq, args[1], notFound);
  scf::ConditionOp::create(
      b, loc, arith::AndIOp::create(b, loc, more, searching), args);
}

/// Tests the blocks of [first, end) one at a time from one end and stops at
/// the first for which `test` holds: returns that block (forward) or one
/// past it (backward), or `notFound`, which must be neither.
static Value scanBlocks(OpBuilder &b, Location loc, Value first, Value end,
                        bool forward, Value notFound, GroupTest test) {
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  auto loop = scf::WhileOp::create(
      b, loc, TypeRange{b.getIndexType(), b.getIndexType()},
      ValueRange{forward ? first : end, notFound},
      [&](OpBuilder &ob, Location, ValueRange args) {
        continueSearch(ob, loc, args, forward, first, end, notFound);
      },
      [&](OpBuilder &ob, Location, ValueRange args) {
        Value block =
            forward ? args[0] : arith::SubIOp::create(ob, loc, args[0], one);
        Value next = arith::AddIOp::create(ob, loc, block, one);
        Value hit = arith::SelectOp::create(ob, loc, test(ob, block, next),
                                            forward ? block : next, notFound);
        scf::YieldOp::create(ob, loc, ValueRange{forward ? next : block, hit});
      });
  return loop.getResult(1);
}

/// Searches blocks in groups of kGroup from one end of [lo, hi) toward the
/// other, stopping at the first group that holds a block for which `test`
/// may hold; returns the first such block (forward) or one past the last
/// (backward), or `notFound`. A group is skipped only where its own test
/// (one interval for all its keys) rules it out, so `test` fails for every
/// block skipped; a scan block by block would cost N / block_n evaluations
/// per program, this one about N / (kGroup * block_n) where the blocks
/// `test` rules out are contiguous, plus the blocks of the last group up to
/// the one found.
static Value searchBlocks(OpBuilder &b, Location loc, Value lo, Value hi,
                          bool forward, Value notFound, GroupTest test) {
  Value start = forward ? lo : hi;
  auto loop = scf::WhileOp::create(
      b, loc, TypeRange{b.getIndexType(), b.getIndexType()},
      ValueRange{start, notFound},
      [&](OpBuilder &ob, Location, ValueRange args) {
        continueSearch(ob, loc, args, forward, lo, hi, notFound);
      },
      [&](OpBuilder &ob, Location, ValueRange args) {
        Value j = args[0];
        Value g = arith::ConstantIndexOp::create(ob, loc, kGroup);
        // The group [gFirst, gEnd).
        Value gFirst =
            forward ? j
                    : arith::MaxSIOp::create(
                          ob, loc, arith::SubIOp::create(ob, loc, j, g), lo);
        Value gEnd =
            forward ? arith::MinSIOp::create(
                          ob, loc, arith::AddIOp::create(ob, loc, j, g), hi)
                    : j;
        auto inGroup = scf::IfOp::create(
            ob, loc, test(ob, gFirst, gEnd),
            [&](OpBuilder &tb, Location) {
              scf::YieldOp::create(
                  tb, loc,
                  scanBlocks(tb, loc, gFirst, gEnd, forward, notFound, test));
            },
            [&](OpBuilder &eb, Location) {
              scf::YieldOp::create(eb, loc, notFound);
            });
        scf::YieldOp::create(
            ob, loc, ValueRange{forward ? gEnd : gFirst, inGroup.getResult(0)});
      });
  return loop.getResult(1);
}

std::pair<Value, Value> mlir::attn::narrowKVRangeByMaskMod(
    OpBuilder &b, Location loc, Region &maskMod, Value batch, Value head,
    Value rowStart, Value numQueries, Value numKeys, int64_t blockM,
    int64_t blockN, Value lower, Value upper) {
  BlockEvaluator eval(b, loc, maskMod, batch, head, rowStart, numQueries,
                      numKeys, blockM, blockN);
  // Whether the region may show one of the keys of blocks [first, end).
  auto mayShow = [&](OpBuilder &ob, Value first, Value end) -> Value {
    return eval.evaluate(ob, loc, first, end).mayTrue;
  };
  // [first, end): first is `upper` when no block may show a key; the
  // backward search then has nothing to do and returns `first`.
  Value first =
      searchBlocks(b, loc, lower, upper, /*forward=*/true, upper, mayShow);
  Value end =
      searchBlocks(b, loc, first, upper, /*forward=*/false, first, mayShow);
  return {first, end};
}

/// The run of blocks in [start, end) for which `test` surely fails: it
/// starts at the first such block among the kGroup from `start` (a group
/// test cannot find it: a group for which `test` may hold may still hold
/// such blocks) and ends before the first block after it for which `test`
/// may hold (a group search), or at `end`. [end, end) where none of the
/// kGroup blocks is one.
static std::pair<Value, Value> findRun(OpBuilder &b, Location loc, Value start,
                                       Value end, GroupTest test) {
  Value tryEnd = arith::MinSIOp::create(
      b, loc,
      arith::AddIOp::create(b, loc, start,
                            arith::ConstantIndexOp::create(b, loc, kGroup)),
      end);
  auto fails = [&](OpBuilder &ob, Value first, Value last) -> Value {
    return arith::XOrIOp::create(ob, loc, test(ob, first, last),
                                 arith::ConstantIntOp::create(ob, loc, 1, 1));
  };
  Value first = scanBlocks(b, loc, start, tryEnd, /*forward=*/true, end, fails);
  Value last = searchBlocks(b, loc, first, end, /*forward=*/true, end, test);
  return {first, last};
}

std::pair<Value, Value> mlir::attn::fullKVRangeByMaskMod(
    OpBuilder &b, Location loc, Region &maskMod, Value batch, Value head,
    Value rowStart, Value numQueries, Value numKeys, int64_t blockM,
    int64_t blockN, Value from, Value to, Value lower, Value upper) {
  BlockEvaluator eval(b, loc, maskMod, batch, head, rowStart, numQueries,
                      numKeys, blockM, blockN);
  // Whether the region may hide one of the keys of blocks [first, end)
  // from one of the rows.
  auto mayHide = [&](OpBuilder &ob, Value first, Value end) -> Value {
    return eval.evaluate(ob, loc, first, end).mayFalse;
  };
  Value start = from ? arith::MaxSIOp::create(b, loc, from, lower) : lower;
  if (to)
    upper = arith::MinSIOp::create(b, loc, to, upper);
  return findRun(b, loc, start, upper, mayHide);
}

std::pair<Value, Value> mlir::attn::hiddenKVRangeByMaskMod(
    OpBuilder &b, Location loc, Region &maskMod, Value batch, Value head,
    Value rowStart, Value numQueries, Value numKeys, int64_t blockM,
    int64_t blockN, Value from, Value to, Value lower, Value upper) {
  BlockEvaluator eval(b, loc, maskMod, batch, head, rowStart, numQueries,
                      numKeys, blockM, blockN);
  auto mayShow = [&](OpBuilder &ob, Value first, Value end) -> Value {
    return eval.evaluate(ob, loc, first, end).mayTrue;
  };
  Value start = arith::MaxSIOp::create(b, loc, from, lower);
  Value end = arith::MinSIOp::create(b, loc, to, upper);
  auto [first, last] = findRun(b, loc, start, end, mayShow);
  // None found: the empty range at `start`, so that what comes after the
  // run (attn-split-kv-loop's search for full blocks) starts at `start`.
  Value found =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, first, end);
  return {arith::SelectOp::create(b, loc, found, first, start),
          arith::SelectOp::create(b, loc, found, last, start)};
}

bool mlir::attn::maskModMayHideInterior(Region &maskMod) {
  WalkResult walk = maskMod.walk([](Operation *op) {
    if (isa<arith::OrIOp, arith::XOrIOp>(op) ||
        (isa<arith::SelectOp>(op) && op->getResult(0).getType().isInteger(1)))
      return WalkResult::interrupt();
    auto cmp = dyn_cast<arith::CmpIOp>(op);
    if (cmp && cmp.getPredicate() == arith::CmpIPredicate::ne)
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return walk.wasInterrupted();
}

std::pair<Value, Value>
mlir::attn::applyMaskModToKVRange(OpBuilder &b, KVRangeOp op, Value batch,
                                  Value head, Value rowStart, Value numQueries,
                                  Value numKeys, Value from, Value to,
                                  Value lower, Value upper) {
  if (op.getKind() == KVRangeKind::Visible)
    return narrowKVRangeByMaskMod(b, op.getLoc(), op.getMaskMod(), batch, head,
                                  rowStart, numQueries, numKeys, op.getBlockM(),
                                  op.getBlockN(), lower, upper);
  if (op.getKind() == KVRangeKind::Hidden)
    return hiddenKVRangeByMaskMod(b, op.getLoc(), op.getMaskMod(), batch, head,
                                  rowStart, numQueries, numKeys, op.getBlockM(),
                                  op.getBlockN(), from, to, lower, upper);
  return fullKVRangeByMaskMod(b, op.getLoc(), op.getMaskMod(), batch, head,
                              rowStart, numQueries, numKeys, op.getBlockM(),
                              op.getBlockN(), from, to, lower, upper);
}
