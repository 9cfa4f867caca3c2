//===- SharedMemoryToNVVM.cpp - shared buffers, copies into them, reads -===//
//
// A shared buffer is a byte offset into the kernel's dynamic shared memory
// (`@attn_smem`), placed by attn-allocate-shared; a stage of a multi-stage
// buffer is that offset plus the stage's bytes. Tiles reach shared memory
// with cp.async (attn.async_copy, WarpMMA::copyTileAsync, in groups that
// attn.async_wait waits for), or with the TMA producer's boxes
// (WarpSpecializeToNVVM.cpp), or from registers (attn.local_store); each
// thread reads its elements of a register layout back with
// attn.local_load. Addresses follow the buffer's layout (#attn.swizzled in
// every span, #attn.unswizzled).
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"
#include "WarpMMA.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace mlir::attn;
using namespace mlir::attn::nvgpu;

namespace {

struct LocalAllocLowering : public OpConversionPattern<LocalAllocOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(LocalAllocOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::optional<int64_t> offset = op.getOffset();
    if (!offset)
      return rewriter.notifyMatchFailure(
          op, "no offset (run attn-allocate-shared)");
    rewriter.replaceOp(
        op, arith::ConstantIntOp::create(rewriter, op.getLoc(), *offset, 32));
    return success();
  }
};

struct LocalViewLowering : public OpConversionPattern<LocalViewOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(LocalViewOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    Value stage = toI32(b, adaptor.getIndex().front());
    Value stageBytes =
        arith::MulIOp::create(b, stage, i32(b, op.getType().getSizeInBytes()));
    auto [dynamic, base] = splitSharedOffset(adaptor.getSource().front());
    Value offset = stageBytes;
    if (dynamic)
      offset = arith::AddIOp::create(b, dynamic, offset);
    if (base)
      offset = arith::AddIOp::create(b, offset, i32(b, base));
    rewriter.replaceOp(op, offset);
    return success();
  }
};

/// cp.async of a tile of whole rows (WarpMMA::copyTileAsync).
struct AsyncCopyLowering : public OpConversionPattern<AsyncCopyOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AsyncCopyOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    ValueRange memref = adaptor.getSource();
    int64_t rank = op.getSource().getType().getRank();
    SmallVector<Value> idx = scalarIndices(adaptor.getIndices());
    SharedBufferType dest = op.getDest().getType();
    Type elt = dest.getElementType();
    WarpMMA mma = makeWarpMMA(b, op, elt);
    Value plane = planePointer(b, memref, idx, rank - 2, elt);
    ValueRange strides = memref.drop_front(1 + rank);
    // Checked before the conversion (ConvertTileToNVVM.cpp).
    auto layout = cast<SwizzledSharedLayoutAttr>(dest.getLayout());
    WarpMMA::CopyPlan plan =
        mma.planCopy(plane, strides[rank - 2], dest.getShape()[1],
                     dest.getShape()[0], layout.getBlocked());
    Value bound = arith::TruncIOp::create(b, b.getI32Type(), memref[rank - 1]);
    auto [dynamic, base] = splitSharedOffset(adaptor.getDest().front());
    mma.copyTileAsync(plan, toI32(b, idx[rank - 2]), bound, dest.getShape()[0],
                      base, dynamic);
    rewriter.eraseOp(op);
    return success();
  }
};

struct AsyncCommitLowering : public OpConversionPattern<AsyncCommitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AsyncCommitOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<NVVM::CpAsyncCommitGroupOp>(op);
    return success();
  }
};

struct AsyncWaitLowering : public OpConversionPattern<AsyncWaitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AsyncWaitOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    NVVM::CpAsyncWaitGroupOp::create(b, op.getPending());
    // cp.async writes through the generic proxy; wgmma reads shared memory
    // through the async proxy, which sees those writes only after a proxy
    // fence by each writing thread (before the barrier that follows).
    if (getGpuConfig(op).getWgmma())
      fenceAsyncProxy(b);
    rewriter.eraseOp(op);
    return success();
  }
};

/// Calls `fn(index, ptr)` for each 4-byte pair of 16-bit elements that this
/// thread holds in an #attn.mma tile (`index`: the pair's first element in
/// tile order), `ptr` its place in the shared buffer at byte offset `base`
/// in `layout`: what attn.local_store writes and attn.local_load reads.
/// Swizzled rows are conflict-free (the eight rows of a quad column read
/// eight chunks, in every span); in #attn.unswizzled rows of 2C bytes the
/// eight rows conflict 2-way where C is an odd multiple of 16 (80, 112, 176
/// columns), 4-way at an odd multiple of 32 (96): attn-stage-loads picks
/// the swizzled layout where C is a multiple of 64 (and, with
/// narrow-swizzles, a 32- or 64-byte span where it is one of 16 or 32).
static void forEachPair(ImplicitLocOpBuilder &b, Operation *op,
                        RankedTensorType type, Attribute layout, Value base,
                        function_ref<void(int64_t, Value)> fn) {
  Type elt = type.getElementType();
  WarpMMA warp = makeWarpMMA(b, op, elt);
  Value smem = getSharedBase(b);
  MmaTile tile(cast<MmaLayoutAttr>(type.getEncoding()), type.getShape());
  ThreadIds ids = getThreadIds(b, op);
  auto swizzled = dyn_cast<SwizzledSharedLayoutAttr>(layout);
  int64_t rows = type.getDimSize(0), cols = type.getDimSize(1);
  Value lane = arith::MulIOp::create(b, ids.quadLane, i32(b, 4));
  for (int64_t mt = 0; mt < tile.mTiles; ++mt)
    for (int64_t half = 0; half < 2; ++half) {
      Value row = rowOf(b, ids, tile.mTiles, 16 * mt + 8 * half);
      Value rowStart;
      if (!swizzled)
        rowStart = arith::AddIOp::create(
            b, arith::AddIOp::create(b, base, lane),
            arith::MulIOp::create(b, row, i32(b, 2 * cols)));
      for (int64_t nt = 0; nt < tile.nTiles; ++nt) {
        Value off;
        if (swizzled)
          off = arith::AddIOp::create(
              b,
              arith::AddIOp::create(
                  b, base,
                  warp.sharedOffset(row, i32(b, 8 * nt), cols, rows,
                                    swizzled.getBlocked(), swizzled.getSpan())),
              lane);
        else
          off = arith::AddIOp::create(b, rowStart, i32(b, 16 * nt));
        fn(tile.index(mt, nt, 2 * half),
           LLVM::GEPOp::create(b, smem.getType(), b.getI8Type(), smem,
                               ArrayRef<LLVM::GEPArg>{off}));
      }
    }
}

/// attn.local_store of an #attn.mma tile of 16-bit elements: each thread
/// writes its pairs (one 4-byte store each) at their places.
struct LocalStoreLowering : public OpConversionPattern<LocalStoreOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(LocalStoreOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getValue().getType());
    auto mma = dyn_cast<MmaLayoutAttr>(type.getEncoding());
    if (!mma || type.getElementType().getIntOrFloatBitWidth() != 16)
      return rewriter.notifyMatchFailure(op, "not a 16-bit #attn.mma tile");
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    ValueRange values = adaptor.getValue();
    Attribute layout = op.getDest().getType().getLayout();
    forEachPair(b, op, type, layout, adaptor.getDest().front(),
                [&](int64_t i, Value ptr) {
                  LLVM::StoreOp::create(b,
                                        packPair(b, values[i], values[i + 1]),
                                        ptr, /*alignment=*/4);
                });
    // Ordinary stores that wgmma will read (blocked tiles) need a proxy
    // fence by each writing thread, like cp.async (AsyncWaitLowering).
    auto swizzled = dyn_cast<SwizzledSharedLayoutAttr>(layout);
    if (swizzled && swizzled.getBlocked())
      fenceAsyncProxy(b);
    rewriter.eraseOp(op);
    return success();
  }
};

/// Byte offset of element (row, col) of an [rows, cols] tile of 16-bit
/// elements at byte `base` in shared-memory `layout` (col a multiple of 8).
static Value sharedElementOffset(ImplicitLocOpBuilder &b, WarpMMA &warp,
                                 Attribute layout, Value base, Value row,
                                 Value col, int64_t rows, int64_t cols) {
  Value off;
  if (auto swizzled = dyn_cast<SwizzledSharedLayoutAttr>(layout))
    off = warp.sharedOffset(row, col, cols, rows, swizzled.getBlocked(),
                            swizzled.getSpan());
  else
    off = arith::AddIOp::create(b,
                                arith::MulIOp::create(b, row, i32(b, 2 * cols)),
                                arith::MulIOp::create(b, col, i32(b, 2)));
  return arith::AddIOp::create(b, base, off);
}

/// attn.local_load into an #attn.mma tile of 16-bit elements: each thread
/// reads its pairs (one 4-byte load each) from their places, the mirror of
/// LocalStoreLowering. With `ldmatrix`, where the tile has an even number
/// of n-tiles, four pairs per `ldmatrix.x4` instead: a quad column of the
/// accumulator layout (rows group and group + 8 of an m-tile, columns
/// 2 quadLane, + 1 of an n-tile) is exactly an 8 x 8 matrix's fragment,
/// so the four matrices [rows 0-7 | 8-15] x [n-tile nt | nt + 1] give the
/// thread its pairs (mt, nt, 0), (mt, nt, 2), (mt, nt + 1, 0),
/// (mt, nt + 1, 2); lane l supplies row l % 8 of matrix l / 8. A fourth of
/// the instructions of the 4-byte loads for the same bytes, in every
/// layout whose 16-byte chunks are whole (all of them).
struct LocalLoadLowering : public OpConversionPattern<LocalLoadOp> {
  LocalLoadLowering(TileTypeConverter &converter, MLIRContext *ctx,
                    bool ldmatrix)
      : OpConversionPattern(converter, ctx), ldmatrix(ldmatrix) {}
  LogicalResult
  matchAndRewrite(LocalLoadOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = op.getType();
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    Type elt = type.getElementType();
    MmaTile tile(cast<MmaLayoutAttr>(type.getEncoding()), type.getShape());
    SmallVector<Value> values(tile.size());
    Attribute layout = op.getSource().getType().getLayout();
    Value base = adaptor.getSource().front();
    if (!ldmatrix || tile.nTiles % 2 != 0) {
      forEachPair(b, op, type, layout, base, [&](int64_t i, Value ptr) {
        Value pair =
            LLVM::LoadOp::create(b, b.getI32Type(), ptr, /*alignment=*/4);
        std::tie(values[i], values[i + 1]) = unpackPair(b, elt, pair);
      });
      rewriter.replaceOpWithMultiple(op, {values});
      return success();
    }
    WarpMMA warp = makeWarpMMA(b, op, elt);
    ThreadIds ids = getThreadIds(b, op);
    int64_t rows = type.getDimSize(0), cols = type.getDimSize(1);
    // Lane l: row l % 8 of matrix j = l / 8, whose rows are 8 (j % 2) into
    // the m-tile and whose columns are n-tile j / 2 of the pair.
    Value matrix = arith::DivUIOp::create(b, ids.lane, i32(b, 8));
    Value rowInTile = arith::AddIOp::create(
        b, arith::RemUIOp::create(b, ids.lane, i32(b, 8)),
        arith::MulIOp::create(b, arith::RemUIOp::create(b, matrix, i32(b, 2)),
                              i32(b, 8)));
    Value colInPair = arith::MulIOp::create(
        b, arith::DivUIOp::create(b, matrix, i32(b, 2)), i32(b, 8));
    Value warpRow =
        arith::MulIOp::create(b, ids.warp, i32(b, 16 * tile.mTiles));
    for (int64_t mt = 0; mt < tile.mTiles; ++mt) {
      Value row = arith::AddIOp::create(
          b, warpRow, arith::AddIOp::create(b, rowInTile, i32(b, 16 * mt)));
      for (int64_t nt = 0; nt < tile.nTiles; nt += 2) {
        Value col = arith::AddIOp::create(b, colInPair, i32(b, 8 * nt));
        std::array<Value, 4> regs = warp.ldmatrixX4(
            sharedElementOffset(b, warp, layout, base, row, col, rows, cols),
            /*transpose=*/false);
        for (int64_t j = 0; j < 4; ++j) {
          int64_t i = tile.index(mt, nt + j / 2, 2 * (j % 2));
          std::tie(values[i], values[i + 1]) = unpackPair(b, elt, regs[j]);
        }
      }
    }
    rewriter.replaceOpWithMultiple(op, {values});
    return success();
  }

private:
  bool ldmatrix;
};
} // namespace

void nvgpu::populateSharedMemoryToNVVMPatterns(TileTypeConverter &converter,
                                               RewritePatternSet &patterns,
                                               bool ldmatrixLocalLoads) {
  patterns.add<LocalAllocLowering, LocalViewLowering, AsyncCopyLowering,
               AsyncCommitLowering, AsyncWaitLowering, LocalStoreLowering>(
      converter, patterns.getContext());
  patterns.add<LocalLoadLowering>(converter, patterns.getContext(),
                                  ldmatrixLocalLoads);
}
