//===- TileAttention.cpp - attn.attention to a tile program ---------------===//
//
// Algorithm (per attn.attention on memrefs):
//  1. Check that the op can be tiled: buffers, a tile configuration, static
//     head dims, query blocks that split evenly across the configured warps.
//  2. Create an attn.program over (ceildiv(Nq, block_m), B * Hq).
//  3. In its body, decode batch, query head and (GQA) K/V head from the
//     program ids (query blocks in reverse order under a right-bounded
//     mask: heaviest first), load the query block and initialise the running max
//     (-inf), sum (0) and accumulator (0).
//  4. Loop over the K/V blocks that attn.kv_range marks visible: load K,
//     S = Q K^T, mask S, update the online softmax, P V into the accumulator.
//     Every block is masked here; attn-split-kv-loop removes the masks that
//     are not needed.
//  5. Normalise (attn.finalize) and store the output and log-sum-exp.
//
// Sizes the verifier could not compare (dynamic dims) are compared when the
// program runs, before it starts: a mismatch stops it with a message
// (cf.assert) instead of reading or writing out of bounds.
//
//===----------------------------------------------------------------------===//

#include "attn/Dialect/Attn/Transforms/Passes.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
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
  auto program = ProgramOp::create(b, gridM, gridBH, buffers, config,
                                   op.getGpuConfigAttr());

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

  // Step 4: the loop over visible K/V blocks.
  auto range = KVRangeOp::create(b, KVRangeKind::Visible, row0, nq, nk, mask,
                                 bm, bn);
  auto scaleLog2e = b.getF32FloatAttr(
      static_cast<float>(op.getScaleOrDefault() * M_LOG2E));
  auto loop = scf::ForOp::create(
      b, range.getLower(), range.getUpper(), c1, ValueRange{m0, l0, acc0},
      [&](OpBuilder &nested, Location loc, Value j, ValueRange state) {
        ImplicitLocOpBuilder lb(loc, nested);
        Value col0 = arith::MulIOp::create(lb, j, blockN);
        Value kTile = LoadOp::create(lb, tile({bn, d}, elt), k,
                                     ValueRange{bIdx, kvHead, col0, c0});
        Value s = DotOp::create(lb, scoreT, qTile, kTile, scoreZero,
                                /*transpose_b=*/true);
        s = MaskOp::create(lb, scoreT, s, row0, nq, col0, nk, mask);
        auto softmax = OnlineSoftmaxOp::create(lb, s, state[0], state[1],
                                               state[2], scaleLog2e);
        Value p = softmax.getProbs();
        if (elt != f32)
          p = arith::TruncFOp::create(lb, tile({bm, bn}, elt), p);
        Value vTile = LoadOp::create(lb, tile({bn, dv}, elt), v,
                                     ValueRange{bIdx, kvHead, col0, c0});
        Value acc = DotOp::create(lb, accT, p, vTile, softmax.getNewAcc(),
                                  /*transpose_b=*/false);
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
