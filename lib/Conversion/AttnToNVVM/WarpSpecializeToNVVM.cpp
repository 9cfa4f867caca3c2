//===- WarpSpecializeToNVVM.cpp - TMA, mbarriers, producer/consumer -------===//
//
// attn.mbarrier_*, attn.tma_copy and attn.tma_store(_wait) become the NVVM
// mbarrier and cp.async.bulk(.tensor) ops (the barriers are 8-byte words in the
// program's dynamic shared memory, at the offset attn-allocate-shared
// gave); attn.warp_specialize becomes a branch on the thread id with the
// setmaxnreg of each side, its consumers' barriers named barriers among the
// consumer threads only.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace mlir::attn;
using namespace mlir::attn::nvgpu;

/// The named barrier of the consumer threads (0 is bar.sync's, the CTA's).
static constexpr int64_t kConsumerBarrier = 1;
/// Consumer warpgroup w waits for its turn at named barrier kTurnBarrier +
/// w, which the warpgroup before it arrives at (256 threads: the two).
static constexpr int64_t kTurnBarrier = 2;
/// Consumer warpgroup w's own barrier (its 128 threads) around its TMA
/// stores: kStoreBarrier + w, after the turn barriers' (16 in all).
static constexpr int64_t kStoreBarrier = 8;

/// A shared-memory pointer to byte `offset` (i32) of the dynamic shared
/// memory.
static Value sharedPointer(ImplicitLocOpBuilder &b, Value offset) {
  Value base = getSharedBase(b);
  return LLVM::GEPOp::create(b, base.getType(), b.getI8Type(), base,
                             ArrayRef<LLVM::GEPArg>{offset});
}

/// Barrier `index` (an index value) of the barriers at `offset`.
static Value barrierPointer(ImplicitLocOpBuilder &b, Value offset,
                            Value index) {
  Value byte = arith::MulIOp::create(b, toI32(b, index), i32(b, 8));
  return sharedPointer(b, arith::AddIOp::create(b, offset, byte));
}

static Value threadId(ImplicitLocOpBuilder &b) {
  return toI32(b, gpu::ThreadIdOp::create(b, gpu::Dimension::x));
}

/// The named barrier of consumer warpgroup `wg` (i32).
static Value turnBarrier(ImplicitLocOpBuilder &b, Value wg) {
  return arith::AddIOp::create(b, wg, i32(b, kTurnBarrier));
}

static Value consumerWarpgroup(ImplicitLocOpBuilder &b) {
  return arith::DivUIOp::create(b, threadId(b), i32(b, 128));
}

/// The coordinates of one TMA box, innermost first, of the tile at `idx`
/// (i32, outermost first, as the tile ops take them): its column plus
/// `colOffset`, its row plus `rowOffset` (where given), the outer indices.
static SmallVector<Value> boxCoordinates(ImplicitLocOpBuilder &b,
                                         ArrayRef<Value> idx,
                                         int64_t colOffset,
                                         Value rowOffset = Value()) {
  SmallVector<Value> coords;
  coords.push_back(arith::AddIOp::create(b, idx.back(), i32(b, colOffset)));
  int64_t d = idx.size() - 2;
  if (rowOffset)
    coords.push_back(arith::AddIOp::create(b, idx[d--], rowOffset));
  for (; d >= 0; --d)
    coords.push_back(idx[d]);
  return coords;
}

/// Consumer warpgroup `wg`'s own barrier, its 128 threads.
static void storeBarrier(ImplicitLocOpBuilder &b, Value wg) {
  NVVM::BarrierOp::create(b, Type(),
                          arith::AddIOp::create(b, wg, i32(b, kStoreBarrier)),
                          i32(b, 128), {}, Value());
}

namespace {

struct MBarrierAllocLowering : public OpConversionPattern<MBarrierAllocOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MBarrierAllocOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::optional<int64_t> offset = op.getOffset();
    if (!offset)
      return rewriter.notifyMatchFailure(op, "no offset (run attn-allocate-shared)");
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    Value base = i32(b, *offset);
    // Thread 0 initializes; the CTA barrier after it publishes the
    // initialized barriers to every thread (producer included) before any
    // use.
    Value first = arith::CmpIOp::create(b, arith::CmpIPredicate::eq,
                                        threadId(b), i32(b, 0));
    auto ifOp = scf::IfOp::create(b, first, /*withElseRegion=*/false);
    {
      ImplicitLocOpBuilder ib(op.getLoc(), rewriter);
      ib.setInsertionPointToStart(ifOp.thenBlock());
      for (int64_t i = 0; i < op.getType().getCount(); ++i)
        NVVM::MBarrierInitOp::create(
            ib, sharedPointer(ib, i32(ib, *offset + 8 * i)),
            i32(ib, op.getArrivals()), /*predicate=*/Value());
      NVVM::FenceMbarrierInitOp::create(ib);
    }
    gpu::BarrierOp::create(b);
    rewriter.replaceOp(op, base);
    return success();
  }
};

struct MBarrierWaitLowering : public OpConversionPattern<MBarrierWaitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MBarrierWaitOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    Value bar = barrierPointer(b, adaptor.getBarriers().front(),
                               adaptor.getIndex().front());
    Value parity =
        arith::RemUIOp::create(b, toI32(b, adaptor.getPhase().front()), i32(b, 2));
    // The suspend-time hint CUTLASS uses (ns); the op loops until done.
    NVVM::MBarrierTryWaitParityOp::create(b, bar, parity, i32(b, 10000000));
    rewriter.eraseOp(op);
    return success();
  }
};

struct MBarrierArriveLowering : public OpConversionPattern<MBarrierArriveOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MBarrierArriveOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    Value bar = barrierPointer(b, adaptor.getBarriers().front(),
                               adaptor.getIndex().front());
    NVVM::MBarrierArriveOp::create(b, Type(), bar, /*count=*/Value());
    rewriter.eraseOp(op);
    return success();
  }
};

/// One arrive.expect_tx of the tile's bytes, then one box per column block
/// (each an [R, S / 2] tile of S-byte rows, S R bytes apart: the
/// #attn.swizzled<blocked, span = S> layout is what TMA's S-byte swizzle
/// writes; S = 128 for wgmma's operands).
struct TmaCopyLowering : public OpConversionPattern<TmaCopyOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TmaCopyOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (adaptor.getTensorMap().empty())
      return op.emitOpError()
             << "has no TMA descriptor: only a copy of a kernel buffer "
                "(outlined by convert-attn-tile-to-nvvm) has one";
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    SharedBufferType dest = op.getDest().getType();
    int64_t rows = dest.getShape()[0], cols = dest.getShape()[1];
    int64_t eltBytes = dest.getElementType().getIntOrFloatBitWidth() / 8;
    // #attn.swizzled<blocked, span = S>: boxes of S-byte rows, one after
    // the other; #attn.unswizzled: one box of whole rows.
    auto swizzled = dyn_cast<SwizzledSharedLayoutAttr>(dest.getLayout());
    int64_t boxCols = swizzled ? swizzled.getSpan() / eltBytes : cols;
    Value bar = barrierPointer(b, adaptor.getBarriers().front(),
                               adaptor.getIndex().front());
    NVVM::MBarrierArriveExpectTxOp::create(
        b, Type(), bar, i32(b, op.getBytes()), NVVM::MemScopeKind::CTA,
        /*relaxed=*/false, /*predicate=*/Value());
    SmallVector<Value> idx;
    for (ValueRange v : adaptor.getIndices())
      idx.push_back(toI32(b, v.front()));
    Value tmap = adaptor.getTensorMap().front();
    Value dst = adaptor.getDest().front();
    for (int64_t block = 0; block * boxCols < cols; ++block) {
      SmallVector<Value> coords = boxCoordinates(b, idx, block * boxCols);
      // sm_90 TMA writes to shared::cluster addresses; this CTA's shared
      // addresses are ones (no cluster: a cluster of one).
      Value smem = LLVM::AddrSpaceCastOp::create(
          b, LLVM::LLVMPointerType::get(b.getContext(), 7),
          sharedPointer(b, arith::AddIOp::create(b, dst,
                                                 i32(b, block * rows * boxCols *
                                                            eltBytes))));
      NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
          b, smem, tmap, coords, bar, /*im2colOffsets=*/ValueRange(),
          /*multicastMask=*/Value(), /*l2CacheHint=*/Value(),
          NVVM::TMALoadMode::TILE, /*isCTAOnly=*/false,
          /*group=*/NVVM::CTAGroupKindAttr(), /*predicate=*/Value());
    }
    rewriter.eraseOp(op);
    return success();
  }
};

/// Branches to `body` in the first thread of the executing consumer
/// warpgroup (`tid`: the thread id, i32).
static void inWarpgroupLeader(ImplicitLocOpBuilder &b, Value tid,
                              function_ref<void(ImplicitLocOpBuilder &)> body) {
  Value lane = arith::RemUIOp::create(b, tid, i32(b, 128));
  Value leader =
      arith::CmpIOp::create(b, arith::CmpIPredicate::eq, lane, i32(b, 0));
  auto ifOp = scf::IfOp::create(b, leader, /*withElseRegion=*/false);
  ImplicitLocOpBuilder ib(b.getLoc(), b);
  ib.setInsertionPointToStart(ifOp.thenBlock());
  body(ib);
}

/// The warpgroup's 128 threads meet at its store barrier; then its first
/// thread issues one box per 64-column block of the warpgroup's 64 rows
/// (#attn.swizzled<blocked>: block c of an [R, C] tile is R rows of 128
/// bytes at c x 128 R; warpgroup w's rows start 64 x 128 w bytes into it,
/// a multiple of the swizzle's 1024-byte atom) and commits them as one
/// bulk group. The threads' writes (attn.local_store) were fenced for the
/// async proxy before the barrier.
struct TmaStoreLowering : public OpConversionPattern<TmaStoreOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TmaStoreOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (adaptor.getTensorMap().empty())
      return op.emitOpError()
             << "has no TMA descriptor: only a store into a kernel buffer "
                "(outlined by convert-attn-tile-to-nvvm) has one";
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    SharedBufferType source = op.getSource().getType();
    int64_t rows = source.getShape()[0], cols = source.getShape()[1];
    int64_t eltBytes = source.getElementType().getIntOrFloatBitWidth() / 8;
    int64_t boxCols = 128 / eltBytes;
    Value tid = threadId(b);
    Value wg = arith::DivUIOp::create(b, tid, i32(b, 128));
    storeBarrier(b, wg);
    SmallVector<Value> idx;
    for (ValueRange v : adaptor.getIndices())
      idx.push_back(toI32(b, v.front()));
    Value tmap = adaptor.getTensorMap().front();
    Value src = adaptor.getSource().front();
    inWarpgroupLeader(b, tid, [&](ImplicitLocOpBuilder &ib) {
      Value wgRows = arith::MulIOp::create(ib, wg, i32(ib, 64));
      Value wgBytes = arith::MulIOp::create(ib, wg, i32(ib, 64 * 128));
      for (int64_t block = 0; block * boxCols < cols; ++block) {
        // The block's column, the warpgroup's first row.
        SmallVector<Value> coords =
            boxCoordinates(ib, idx, block * boxCols, wgRows);
        Value offset = arith::AddIOp::create(
            ib, arith::AddIOp::create(ib, src, wgBytes),
            i32(ib, block * rows * 128));
        NVVM::CpAsyncBulkTensorSharedCTAToGlobalOp::create(
            ib, tmap, sharedPointer(ib, offset), coords,
            /*l2CacheHint=*/Value(), NVVM::TMAStoreMode::TILE,
            /*predicate=*/Value());
      }
      NVVM::CpAsyncBulkCommitGroupOp::create(ib);
    });
    rewriter.eraseOp(op);
    return success();
  }
};

/// The warpgroup's first thread (the one that issued its stores) waits
/// until they have read shared memory; the warpgroup's barrier tells the
/// others.
struct TmaStoreWaitLowering : public OpConversionPattern<TmaStoreWaitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TmaStoreWaitOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    Value tid = threadId(b);
    inWarpgroupLeader(b, tid, [&](ImplicitLocOpBuilder &ib) {
      NVVM::CpAsyncBulkWaitGroupOp::create(ib, 0, ib.getUnitAttr());
    });
    Value wg = arith::DivUIOp::create(b, tid, i32(b, 128));
    storeBarrier(b, wg);
    rewriter.eraseOp(op);
    return success();
  }
};

struct WarpSpecializeLowering : public OpConversionPattern<WarpSpecializeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(WarpSpecializeOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    int64_t consumers = 128 * op.getConsumerWarpgroups();
    // The consumers' barriers wait for the consumer threads only: the
    // producer never reaches them.
    SmallVector<gpu::BarrierOp> barriers;
    op.getConsumers().walk([&](gpu::BarrierOp bar) { barriers.push_back(bar); });
    for (gpu::BarrierOp bar : barriers) {
      ImplicitLocOpBuilder bb(bar.getLoc(), rewriter);
      bb.setInsertionPoint(bar);
      NVVM::BarrierOp::create(bb, Type(), i32(bb, kConsumerBarrier),
                              i32(bb, consumers), {}, Value());
      rewriter.eraseOp(bar);
    }
    // Turns (ping-pong): warpgroup w waits at its named barrier, which the
    // warpgroup before it arrives at; lowered here, where the number of
    // warpgroups is known.
    SmallVector<Operation *> turnOps;
    op.getConsumers().walk([&](Operation *t) {
      if (isa<TurnWaitOp, TurnSignalOp>(t))
        turnOps.push_back(t);
    });
    bool turns = !turnOps.empty();
    for (Operation *t : turnOps) {
      ImplicitLocOpBuilder tb(t->getLoc(), rewriter);
      tb.setInsertionPoint(t);
      Value wg = consumerWarpgroup(tb);
      if (isa<TurnWaitOp>(t)) {
        NVVM::BarrierOp::create(tb, Type(), turnBarrier(tb, wg), i32(tb, 256),
                                {}, Value());
      } else {
        Value next = arith::RemUIOp::create(
            tb, arith::AddIOp::create(tb, wg, i32(tb, 1)),
            i32(tb, op.getConsumerWarpgroups()));
        NVVM::BarrierArriveOp::create(tb, turnBarrier(tb, next), i32(tb, 256));
      }
      rewriter.eraseOp(t);
    }
    Value tid = threadId(b);
    Value isConsumer =
        arith::CmpIOp::create(b, arith::CmpIPredicate::ult, tid, i32(b, consumers));
    auto branch = scf::IfOp::create(b, isConsumer, /*withElseRegion=*/true);
    // setmaxnreg is per warpgroup: every warp of one executes the same.
    {
      ImplicitLocOpBuilder cb(op.getLoc(), rewriter);
      cb.setInsertionPointToStart(branch.thenBlock());
      NVVM::SetMaxRegisterOp::create(cb, op.getConsumerRegisters(),
                                     NVVM::SetMaxRegisterAction::increase);
      // Turns start at warpgroup 0: the last one passes it the first turn;
      // warpgroup 0 takes the last one's final turn back at the end, so
      // that no barrier is left half arrived.
      Value wg, first;
      if (turns) {
        wg = consumerWarpgroup(cb);
        Value last = arith::CmpIOp::create(cb, arith::CmpIPredicate::eq, wg,
                                           i32(cb, op.getConsumerWarpgroups() - 1));
        auto pre = scf::IfOp::create(cb, last, /*withElseRegion=*/false);
        ImplicitLocOpBuilder ib(op.getLoc(), rewriter);
        ib.setInsertionPointToStart(pre.thenBlock());
        NVVM::BarrierArriveOp::create(ib, i32(ib, kTurnBarrier), i32(ib, 256));
        first = arith::CmpIOp::create(cb, arith::CmpIPredicate::eq, wg, i32(cb, 0));
      }
      rewriter.inlineBlockBefore(&op.getConsumers().front(),
                                 branch.thenBlock()->getTerminator());
      if (turns) {
        cb.setInsertionPoint(branch.thenBlock()->getTerminator());
        auto post = scf::IfOp::create(cb, first, /*withElseRegion=*/false);
        ImplicitLocOpBuilder ib(op.getLoc(), rewriter);
        ib.setInsertionPointToStart(post.thenBlock());
        NVVM::BarrierOp::create(ib, Type(), i32(ib, kTurnBarrier), i32(ib, 256),
                                {}, Value());
      }
    }
    {
      ImplicitLocOpBuilder pb(op.getLoc(), rewriter);
      pb.setInsertionPointToStart(branch.elseBlock());
      NVVM::SetMaxRegisterOp::create(pb, op.getProducerRegisters(),
                                     NVVM::SetMaxRegisterAction::decrease);
      Value leader = arith::CmpIOp::create(pb, arith::CmpIPredicate::eq, tid,
                                           i32(pb, consumers));
      auto issue = scf::IfOp::create(pb, leader, /*withElseRegion=*/false);
      rewriter.inlineBlockBefore(&op.getProducer().front(),
                                 issue.thenBlock()->getTerminator());
    }
    rewriter.eraseOp(op);
    return success();
  }
};
} // namespace

void nvgpu::populateWarpSpecializeToNVVMPatterns(TileTypeConverter &converter,
                                                 RewritePatternSet &patterns) {
  patterns.add<MBarrierAllocLowering, MBarrierWaitLowering,
               MBarrierArriveLowering, TmaCopyLowering, TmaStoreLowering,
               TmaStoreWaitLowering, WarpSpecializeLowering>(
      converter, patterns.getContext());
}
