//===- TileAttention.cpp - attn.attention to a tile program ---------------===//
//
// Algorithm (per attn.attention on memrefs):
//  1. Check that the op can be tiled: buffers, a tile configuration, static
//     head dims, query blocks that split evenly across the configured warps.
//  2. Create an attn.program over (ceildiv(Nq, block_m), B * Hq).
//  3. In its body, decode batch, query head and (GQA) K/V head from the
//     program ids (query blocks in reverse order under a right-bounded
//     mask: heaviest first), load the query block and initialise the running
//     max
//     (-inf), sum (0) and accumulator (0).
//  4. Loop over the K/V blocks that attn.kv_range marks visible: load K,
//     S = Q K^T, the score modifications (softcap, ALiBi, bias, score_mod,
//     mask_mod: elementwise math on the score tile, with attn.iota tiles of
//     the query and key indices; the regions are cloned with each scalar op
//     applied to tiles), mask S, update the online softmax, P V into the
//     accumulator. Every block is masked here; attn-split-kv-loop removes
//     the masks that are not needed. A mask_mod region that interval
//     reasoning can bound rides on attn.mask (and on attn.kv_range), so
//     that the split drops it in the blocks it shows in full;
//     attn-expand-mask-mods spells out what is left. Any other mask_mod
//     is applied element-wise here, in every block.
//  5. Normalise (attn.finalize) and store the output and log-sum-exp.
//
// Sizes the verifier could not compare (dynamic dims) are compared when the
// program runs, before it starts: a mismatch stops it with a message
// (cf.assert) instead of reading or writing out of bounds.
//
//===----------------------------------------------------------------------===//

#include "attn/Dialect/Attn/Transforms/MaskModRange.h"
#include "attn/Dialect/Attn/Transforms/Passes.h"
#include "attn/Dialect/Attn/Transforms/RegionOnTiles.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/PatternMatch.h"

#include <cmath>
#include <limits>

namespace mlir {
namespace attn {
#define GEN_PASS_DEF_ATTNTILE
#include "attn/Dialect/Attn/Transforms/Passes.h.inc"
} // namespace attn
} // namespace mlir

using namespace mlir;
using namespace mlir::attn;

/// Step 1: everything that would make tiling impossible, diagnosed on `op`.
static LogicalResult checkTileable(AttentionOp op) {
  if (!op.hasBufferSemantics())
    return op.emitOpError()
           << "on tensors must be bufferized before tiling (run "
              "one-shot-bufferize, or the attn-lower-to-cpu pipeline)";
  TileConfigAttr config = op.getConfigAttr();
  if (!config)
    return op.emitOpError() << "has no tile configuration (run "
                               "attn-default-config first)";
  int64_t d = op.getQueryType().getDimSize(3);
  int64_t dv = op.getValueType().getDimSize(3);
  if (ShapedType::isDynamic(d) || ShapedType::isDynamic(dv) ||
      ShapedType::isDynamic(op.getKeyType().getDimSize(3)) ||
      ShapedType::isDynamic(op.getOutputType().getDimSize(3)))
    return op.emitOpError() << "head dims must be static to tile";
  // Each warp owns 16-row slices of the query block (the m16 of the tensor
  // core MMA) and each key block feeds at least one k16 step.
  int64_t rowsPerStep = 16 * config.getWarps();
  if (config.getBlockM() % rowsPerStep != 0)
    return op.emitOpError() << "cannot tile with " << config
                            << ": block_m must be a multiple of 16 x warps ("
                            << rowsPerStep << ")";
  if (config.getBlockN() < 16)
    return op.emitOpError() << "cannot tile with " << config
                            << ": block_n must be at least 16";
  return success();
}

static Value splat(ImplicitLocOpBuilder &b, RankedTensorType type, float v) {
  return arith::ConstantOp::create(
      b, DenseElementsAttr::get(type, b.getF32FloatAttr(v).getValue()));
}

/// Runtime checks of the shape constraints that involve a dynamic dim.
static void emitRuntimeShapeChecks(ImplicitLocOpBuilder &b, AttentionOp op) {
  auto dim = [&](Value buffer, int64_t i) -> Value {
    return memref::DimOp::create(b, buffer, i);
  };
  auto isDynamic = [](Value buffer, int64_t i) {
    return cast<MemRefType>(buffer.getType()).isDynamicDim(i);
  };
  Value q = op.getQuery(), k = op.getKey(), v = op.getValue(),
        o = op.getOutput(), lse = op.getLse();
  auto checkEqual = [&](Value x, int64_t i, StringRef xName, Value y,
                        int64_t j, StringRef yName, StringRef what) {
    if (!isDynamic(x, i) && !isDynamic(y, j))
      return; // The verifier compared them.
    Value ok = arith::CmpIOp::create(b, arith::CmpIPredicate::eq, dim(x, i),
                                     dim(y, j));
    cf::AssertOp::create(b, ok,
                         (Twine("attn.attention: ") + what + " of '" + yName +
                          "' differs from '" + xName + "'")
                             .str());
  };
  checkEqual(q, 0, "query", k, 0, "key", "batch size");
  checkEqual(q, 0, "query", v, 0, "value", "batch size");
  checkEqual(q, 0, "query", o, 0, "output", "batch size");
  checkEqual(q, 1, "query", o, 1, "output", "head count");
  checkEqual(k, 1, "key", v, 1, "value", "head count");
  checkEqual(q, 2, "query", o, 2, "output", "length");
  checkEqual(k, 2, "key", v, 2, "value", "length");
  if (lse) {
    checkEqual(q, 0, "query", lse, 0, "lse", "batch size");
    checkEqual(q, 1, "query", lse, 1, "lse", "head count");
    checkEqual(q, 2, "query", lse, 2, "lse", "length");
  }
  if (Value bias = op.getBias()) {
    // [B or 1, Hq or 1, Nq, Nk].
    auto checkBroadcast = [&](int64_t i, StringRef what, Value full,
                              int64_t fullIndex) {
      if (!isDynamic(bias, i) && !isDynamic(full, fullIndex))
        return; // The verifier compared them.
      Value extent = dim(bias, i);
      Value same = arith::CmpIOp::create(b, arith::CmpIPredicate::eq, extent,
                                         dim(full, fullIndex));
      Value one = arith::CmpIOp::create(
          b, arith::CmpIPredicate::eq, extent,
          arith::ConstantIndexOp::create(b, 1));
      cf::AssertOp::create(b, arith::OrIOp::create(b, same, one),
                           (Twine("attn.attention: ") + what +
                            " of 'bias' is neither 1 nor that of 'query'")
                               .str());
    };
    checkBroadcast(0, "batch size", q, 0);
    checkBroadcast(1, "head count", q, 1);
    checkEqual(q, 2, "query", bias, 2, "bias", "length");
    checkEqual(k, 2, "key", bias, 3, "bias", "key length");
  }
  if (Value slopes = op.getAlibiSlopes())
    checkEqual(q, 1, "query", slopes, 0, "alibi_slopes", "head count");
  if (isDynamic(q, 1) || isDynamic(k, 1)) {
    Value hq = dim(q, 1), hkv = dim(k, 1);
    Value c0 = arith::ConstantIndexOp::create(b, 0);
    Value c1 = arith::ConstantIndexOp::create(b, 1);
    Value positive =
        arith::CmpIOp::create(b, arith::CmpIPredicate::sgt, hkv, c0);
    Value divisor = arith::SelectOp::create(b, positive, hkv, c1);
    Value divides = arith::CmpIOp::create(
        b, arith::CmpIPredicate::eq, arith::RemUIOp::create(b, hq, divisor),
        c0);
    cf::AssertOp::create(b, arith::AndIOp::create(b, positive, divides),
                         "attn.attention: the query head count must be a "
                         "multiple of the key/value head count");
  }
}

namespace {
/// What the K/V loop body needs to apply the score modifications.
struct ScoreMods {
  AttentionOp op;
  Value batch, head, row0, nq, nk;
  /// The per-head ALiBi slope (f32), loaded before the loop.
  Value slope;
};
} // namespace

/// c log2 e where a softcap c > 0 is the only score modification.
static std::optional<double> softcapOnlyBound(AttentionOp op) {
  std::optional<APFloat> cap = op.getSoftcap();
  if (!cap || op.getBias() || op.getAlibiSlopes() ||
      !op.getScoreMod().empty() || !op.getMaskMod().empty())
    return std::nullopt;
  double c = cap->convertToDouble();
  if (!(c > 0))
    return std::nullopt;
  return c * M_LOG2E;
}

// A softcap alone leaves scores of at most 1 in units of the softmax's
// scale (c tanh(s scale / c), c in the scale: applyScoreMods), so
// rowmax(t) <= c log2 e, and the softmax needs no running maximum where
// exp2 of the lowest row maximum against it, 2^(-2 c log2 e), is a normal
// number of P's type: f32 and bf16 P for c up to 43 (125 binary orders),
// never f16 P (a row of scores 10 under the cap is already subnormal).
std::optional<float> mlir::attn::softmaxMaxBound(AttentionOp op) {
  Type elt = op.getQueryType().getElementType();
  std::optional<double> bound = softcapOnlyBound(op);
  if (!bound || 2 * *bound > 125 || !(elt.isF32() || elt.isBF16()))
    return std::nullopt;
  return static_cast<float>(*bound);
}

// The same bound from below: tanh keeps the scores in [-1, 1] in units of
// the softmax's scale. 2 c log2 e <= 118 keeps 2^(t - r) for any reference
// r >= -c log2 e at most 2^118, and a row sum of up to 256 of them (the
// widest K/V block) at most 2^126, finite in f32.
std::optional<float> mlir::attn::softmaxScoreBound(AttentionOp op) {
  std::optional<double> bound = softcapOnlyBound(op);
  if (!bound || 2 * *bound > 118)
    return std::nullopt;
  return static_cast<float>(*bound);
}

/// Steps 4's score modifications on the raw scores `s` (of block `col0`):
/// returns the modified scores and the scale (times log2(e)) the online
/// softmax still applies to them.
static std::pair<Value, float> applyScoreMods(ImplicitLocOpBuilder &b,
                                              const ScoreMods &mods, Value s,
                                              Value col0) {
  AttentionOp op = mods.op;
  auto scoreT = cast<RankedTensorType>(s.getType());
  ArrayRef<int64_t> shape = scoreT.getShape();
  Type f32 = b.getF32Type();
  double scale = op.getScaleOrDefault();
  if (!op.hasScoreModifications())
    return {s, static_cast<float>(scale * M_LOG2E)};
  auto splat = [&](double v) -> Value {
    return arith::ConstantOp::create(
        b, DenseElementsAttr::get(scoreT, b.getF32FloatAttr(v).getValue()));
  };
  auto afn = arith::FastMathFlagsAttr::get(b.getContext(),
                                           arith::FastMathFlags::afn);
  std::optional<double> cap;
  if (std::optional<APFloat> c = op.getSoftcap())
    cap = c->convertToDouble();
  bool onlySoftcap = cap && !op.getBias() && !op.getAlibiSlopes() &&
                     op.getScoreMod().empty() && op.getMaskMod().empty();
  if (onlySoftcap) {
    // c tanh(s scale / c): the factor c goes to the softmax's scale.
    Value t = arith::MulFOp::create(b, s, splat(scale / *cap));
    t = math::TanhOp::create(b, t, afn);
    return {t, static_cast<float>(*cap * M_LOG2E)};
  }
  // The scores in natural units, then each modification in turn. The
  // scale's product may contract with an add that follows (the bias's):
  // one FMA per score instead of a multiply and an add, on the FMA pipe
  // the bias already loads with three more instructions per score
  // (docs/perf-log.md, seventeenth session).
  auto contract = arith::FastMathFlagsAttr::get(b.getContext(),
                                                arith::FastMathFlags::contract);
  Value x = arith::MulFOp::create(b, s, splat(scale), contract);
  if (cap) {
    Value t = arith::MulFOp::create(b, x, splat(1.0 / *cap));
    t = math::TanhOp::create(b, t, afn);
    x = arith::MulFOp::create(b, t, splat(*cap));
  }
  auto indexT = RankedTensorType::get(shape, b.getIndexType());
  Value qIdx, kvIdx;
  auto indices = [&]() {
    if (!qIdx) {
      qIdx = IotaOp::create(b, indexT, 0, mods.row0);
      kvIdx = IotaOp::create(b, indexT, 1, col0);
    }
  };
  if (op.getAlibiSlopes()) {
    indices();
    // -slope |j - d(i)|, d(i) = i (+ Nk - Nq when bottom-right aligned).
    Value diag = qIdx;
    if (op.getMaskOrDefault().getAlignment() == MaskAlignment::BottomRight) {
      Value shift = arith::SubIOp::create(b, mods.nk, mods.nq);
      diag = arith::AddIOp::create(b, diag,
                                   tensor::SplatOp::create(b, indexT, shift));
    }
    Value dist = arith::SubIOp::create(b, kvIdx, diag);
    dist = arith::IndexCastOp::create(
        b, RankedTensorType::get(shape, b.getI32Type()), dist);
    Value fdist = arith::SIToFPOp::create(b, scoreT, dist);
    fdist = math::AbsFOp::create(b, fdist);
    Value penalty = arith::MulFOp::create(
        b, fdist, tensor::SplatOp::create(b, scoreT, mods.slope));
    x = arith::SubFOp::create(b, x, penalty);
  }
  if (Value bias = op.getBias()) {
    auto type = cast<MemRefType>(bias.getType());
    Value c0 = arith::ConstantIndexOp::create(b, 0);
    Value c1 = arith::ConstantIndexOp::create(b, 1);
    // A dimension of extent 1 broadcasts (decided at run time when dynamic).
    auto broadcastIndex = [&](int64_t dim, Value index) -> Value {
      if (type.getDimSize(dim) == 1)
        return c0;
      if (!type.isDynamicDim(dim))
        return index;
      Value extent = memref::DimOp::create(b, bias, dim);
      Value one = arith::CmpIOp::create(b, arith::CmpIPredicate::eq, extent, c1);
      return arith::SelectOp::create(b, one, c0, index);
    };
    Value tile = LoadOp::create(
        b, RankedTensorType::get(shape, type.getElementType()), bias,
        ValueRange{broadcastIndex(0, mods.batch), broadcastIndex(1, mods.head),
                   mods.row0, col0});
    if (!type.getElementType().isF32())
      tile = arith::ExtFOp::create(b, scoreT, tile);
    x = arith::AddFOp::create(b, x, tile, contract);
  }
  bool inlineMaskMod =
      !op.getMaskMod().empty() && !canBoundMaskMod(op.getMaskMod());
  if (!op.getScoreMod().empty() || inlineMaskMod) {
    indices();
    Value bTile = tensor::SplatOp::create(b, indexT, mods.batch);
    Value hTile = tensor::SplatOp::create(b, indexT, mods.head);
    if (!op.getScoreMod().empty())
      x = cloneOntoTiles(b, op.getScoreMod(), {x, bTile, hTile, qIdx, kvIdx},
                         shape);
    // A mask_mod that interval reasoning can bound goes on the attn.mask
    // instead (tileAttention), where attn-split-kv-loop can drop it in the
    // blocks it shows in full; any other is applied here, in every block.
    if (inlineMaskMod) {
      Value visible = cloneOntoTiles(b, op.getMaskMod(),
                                     {bTile, hTile, qIdx, kvIdx}, shape);
      x = arith::SelectOp::create(
          b, visible, x, splat(-std::numeric_limits<double>::infinity()));
    }
  }
  (void)f32;
  return {x, static_cast<float>(M_LOG2E)};
}

static void tileAttention(RewriterBase &rewriter, AttentionOp op) {
  TileConfigAttr config = op.getConfigAttr();
  int64_t bm = config.getBlockM(), bn = config.getBlockN();
  int64_t d = op.getQueryType().getDimSize(3);
  int64_t dv = op.getValueType().getDimSize(3);
  MaskAttr mask = op.getMaskOrDefault();
  Type elt = op.getQueryType().getElementType();
  Type f32 = rewriter.getF32Type();
  Value q = op.getQuery(), k = op.getKey(), v = op.getValue(),
        o = op.getOutput(), lse = op.getLse();

  // Step 2: sizes and the grid.
  rewriter.setInsertionPoint(op);
  ImplicitLocOpBuilder b(op.getLoc(), rewriter);
  auto dim = [&](Value buffer, int64_t i) -> Value {
    return memref::DimOp::create(b, buffer, i);
  };
  auto cst = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, v);
  };
  emitRuntimeShapeChecks(b, op);
  Value batch = dim(q, 0), hq = dim(q, 1), nq = dim(q, 2), hkv = dim(k, 1),
        nk = dim(k, 2);
  Value c0 = cst(0), c1 = cst(1), blockM = cst(bm), blockN = cst(bn);
  Value gridM = arith::CeilDivUIOp::create(b, nq, blockM);
  Value gridBH = arith::MulIOp::create(b, batch, hq);
  Value group = arith::DivUIOp::create(b, hq, hkv);
  SmallVector<std::pair<BufferRole, Value>> buffers = {
      {BufferRole::Q, q}, {BufferRole::K, k}, {BufferRole::V, v},
      {BufferRole::O, o}};
  if (lse)
    buffers.push_back({BufferRole::LSE, lse});
  if (Value bias = op.getBias())
    buffers.push_back({BufferRole::Bias, bias});
  if (Value slopes = op.getAlibiSlopes())
    buffers.push_back({BufferRole::AlibiSlopes, slopes});
  auto program = ProgramOp::create(b, gridM, gridBH, buffers, config,
                                   op.getGpuConfigAttr());
  // What the program computes, for the kernel metadata (informational).
  program->setAttr("attn.mask", mask);
  program->setAttr("attn.scale", b.getF64FloatAttr(op.getScaleOrDefault()));
  SmallVector<Attribute> modNames;
  if (op.getSoftcap())
    modNames.push_back(b.getStringAttr("softcap"));
  if (op.getAlibiSlopes())
    modNames.push_back(b.getStringAttr("alibi"));
  if (op.getBias())
    modNames.push_back(b.getStringAttr("bias"));
  if (!op.getScoreMod().empty())
    modNames.push_back(b.getStringAttr("score_mod"));
  if (!op.getMaskMod().empty())
    modNames.push_back(b.getStringAttr("mask_mod"));
  if (!modNames.empty())
    program->setAttr("attn.score_mods", b.getArrayAttr(modNames));
  // The softcap's value too: a caller matching prebuilt kernels to calls
  // (attn.torch) needs it, and no buffer says it.
  if (std::optional<APFloat> softcap = op.getSoftcap())
    program->setAttr("attn.softcap",
                     b.getF64FloatAttr(softcap->convertToDouble()));

  // Step 3: program ids to indices; the query block; the softmax state.
  b.setInsertionPointToStart(&program.getBody().front());
  Value bIdx = arith::DivUIOp::create(b, program.getBlockIdBH(), hq);
  Value head = arith::RemUIOp::create(b, program.getBlockIdBH(), hq);
  Value kvHead = arith::DivUIOp::create(b, head, group);
  // With a causal mask later query blocks see more K/V blocks. GPUs start
  // programs in id order and give each free slot the next one, so the
  // heaviest blocks go first: the last wave is made of the lightest ones
  // rather than of the heaviest. (Windows, right-bounded too, see about
  // equally many keys per query block; the order does not matter there.)
  Value tileM = program.getBlockIdM();
  if (!mask.isRightUnbounded())
    tileM = arith::SubIOp::create(
        b, arith::SubIOp::create(b, gridM, c1), tileM);
  Value row0 = arith::MulIOp::create(b, tileM, blockM);

  auto tile = [&](ArrayRef<int64_t> shape, Type type) {
    return RankedTensorType::get(shape, type);
  };
  Value qTile = LoadOp::create(b, tile({bm, d}, elt), q,
                               ValueRange{bIdx, head, row0, c0});
  RankedTensorType rowT = tile({bm}, f32), accT = tile({bm, dv}, f32),
                   scoreT = tile({bm, bn}, f32);
  Value m0 = splat(b, rowT, -std::numeric_limits<float>::infinity());
  Value l0 = splat(b, rowT, 0.0f);
  Value acc0 = splat(b, accT, 0.0f);
  Value scoreZero = splat(b, scoreT, 0.0f);

  std::optional<float> maxBound = softmaxMaxBound(op);
  std::optional<float> scoreBound = softmaxScoreBound(op);

  // Step 4: the loop over visible K/V blocks. A mask_mod region that
  // interval reasoning can bound (MaskModRange.h) narrows the range too:
  // the loop then skips the K/V blocks at either end in which it hides
  // every key (a document mask visits only its document's blocks).
  KVRangeOp range;
  if (canBoundMaskMod(op.getMaskMod())) {
    range = KVRangeOp::create(b, KVRangeKind::Visible, row0, nq, nk,
                              /*from=*/Value(), /*to=*/Value(), bIdx, head,
                              mask, bm, bn);
    IRMapping mapping;
    op.getMaskMod().cloneInto(&range.getMaskMod(), mapping);
  } else {
    range =
        KVRangeOp::create(b, KVRangeKind::Visible, row0, nq, nk, mask, bm, bn);
  }
  ScoreMods mods{op, bIdx, head, row0, nq, nk, Value()};
  if (Value slopes = op.getAlibiSlopes())
    mods.slope = memref::LoadOp::create(b, slopes, ValueRange{head});
  auto loop = scf::ForOp::create(
      b, range.getLower(), range.getUpper(), c1, ValueRange{m0, l0, acc0},
      [&](OpBuilder &nested, Location loc, Value j, ValueRange state) {
        ImplicitLocOpBuilder lb(loc, nested);
        Value col0 = arith::MulIOp::create(lb, j, blockN);
        Value kTile = LoadOp::create(lb, tile({bn, d}, elt), k,
                                     ValueRange{bIdx, kvHead, col0, c0});
        Value s = DotOp::create(lb, scoreT, qTile, kTile, scoreZero,
                                /*pred=*/Value(), /*transpose_b=*/true);
        auto [modified, scaleLog2e] = applyScoreMods(lb, mods, s, col0);
        auto masked =
            MaskOp::create(lb, scoreT, modified, row0, nq, col0, nk, mask);
        if (!range.getMaskMod().empty()) {
          masked.getBatchHeadMutable().assign(ValueRange{bIdx, head});
          IRMapping mapping;
          op.getMaskMod().cloneInto(&masked.getMaskMod(), mapping);
        }
        s = masked;
        auto softmax = OnlineSoftmaxOp::create(
            lb, s, state[0], state[1], state[2], /*block_max=*/Value(),
            lb.getF32FloatAttr(scaleLog2e),
            maxBound ? lb.getF32FloatAttr(*maxBound) : FloatAttr(),
            scoreBound ? lb.getF32FloatAttr(*scoreBound) : FloatAttr());
        Value p = softmax.getProbs();
        if (elt != f32)
          p = arith::TruncFOp::create(lb, tile({bm, bn}, elt), p);
        Value vTile = LoadOp::create(lb, tile({bn, dv}, elt), v,
                                     ValueRange{bIdx, kvHead, col0, c0});
        Value acc = DotOp::create(lb, accT, p, vTile, softmax.getNewAcc(),
                                  /*pred=*/Value(), /*transpose_b=*/false);
        scf::YieldOp::create(
            lb, ValueRange{softmax.getNewMax(), softmax.getNewSum(), acc});
      });

  // Step 5: normalise and store.
  auto fin = FinalizeOp::create(b, loop.getResult(2), loop.getResult(0),
                                loop.getResult(1));
  Value out = fin.getOutput();
  if (elt != f32)
    out = arith::TruncFOp::create(b, tile({bm, dv}, elt), out);
  StoreOp::create(b, out, o, ValueRange{bIdx, head, row0, c0});
  if (lse)
    StoreOp::create(b, fin.getLse(), lse, ValueRange{bIdx, head, row0});
  rewriter.eraseOp(op);
}

namespace {
struct AttnTilePass : public attn::impl::AttnTileBase<AttnTilePass> {
  void runOnOperation() override {
    SmallVector<AttentionOp> ops;
    getOperation()->walk([&](AttentionOp op) { ops.push_back(op); });
    IRRewriter rewriter(&getContext());
    bool failedAny = false;
    for (AttentionOp op : ops) {
      if (failed(checkTileable(op))) {
        failedAny = true;
        continue;
      }
      tileAttention(rewriter, op);
    }
    if (failedAny)
      signalPassFailure();
  }
};
} // namespace
