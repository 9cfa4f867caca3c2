//===- MemoryToNVVM.cpp - global memory -----------------------------------===//
//
// Buffers arrive as (pointer, sizes, strides) kernel arguments; a tile spans
// a buffer's last two dimensions from its indices, and the innermost
// dimension of every buffer is contiguous (the runtime checks that before a
// launch, docs/gpu-kernels.md). Register tiles are loaded and stored by
// each thread for the elements it holds, with bounds checks. Tiles for the
// tensor cores go through shared memory: SharedMemoryToNVVM.cpp.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"
#include "WarpMMA.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::attn;
using namespace mlir::attn::nvgpu;

/// `v` (index) as i64, looking through the index_cast that brought an i64
/// kernel argument into index arithmetic: sizes and strides stay 64-bit
/// (an index is 32 bits in the kernels, and a stride can exceed 2^31).
static Value asI64(ImplicitLocOpBuilder &b, Value v) {
  if (auto cast = v.getDefiningOp<arith::IndexCastOp>())
    if (cast.getIn().getType().isInteger(64))
      return cast.getIn();
  return arith::IndexCastOp::create(b, b.getI64Type(), v);
}

static Value gep(ImplicitLocOpBuilder &b, Value base, Type elt, Value offset) {
  return LLVM::GEPOp::create(b, base.getType(), elt, base,
                             ArrayRef<LLVM::GEPArg>{offset});
}

/// Whether the tile's columns [c0, c0 + cols) are inside a dimension of
/// static extent `extent` for every value of `c0` (a constant).
static bool columnsInBounds(Value c0, int64_t cols, int64_t extent) {
  APInt start;
  return !ShapedType::isDynamic(extent) &&
         matchPattern(c0, m_ConstantInt(&start)) &&
         start.getSExtValue() >= 0 && start.getSExtValue() + cols <= extent;
}

namespace {

struct DimLowering : public OpConversionPattern<memref::DimOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(memref::DimOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::optional<int64_t> index = op.getConstantIndex();
    ValueRange memref = adaptor.getSource();
    int64_t rank = (memref.size() - 1) / 2;
    if (!index || *index < 0 || *index >= rank)
      return rewriter.notifyMatchFailure(op, "dynamic or bad dimension");
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    rewriter.replaceOp(op, arith::IndexCastOp::create(b, b.getIndexType(),
                                                      memref[1 + *index]));
    return success();
  }
};

/// A unit-stride view of a buffer (the plane a K/V tile lies in, computed
/// once before the K/V loops): the pointer moves to the view's first
/// element; the kept dimensions keep their sizes and strides.
struct SubViewLowering : public OpConversionPattern<memref::SubViewOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(memref::SubViewOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!llvm::all_of(op.getStaticStrides(), [](int64_t s) { return s == 1; }))
      return rewriter.notifyMatchFailure(op, "non-unit view strides");
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    ValueRange source = adaptor.getSource();
    int64_t rank = op.getSourceType().getRank();
    ValueRange strides = source.drop_front(1 + rank);
    auto asI64 = [&](OpFoldResult ofr, ValueRange converted) -> Value {
      if (auto attr = dyn_cast<Attribute>(ofr))
        return i64(b, cast<IntegerAttr>(attr).getInt());
      return ::asI64(b, converted.front());
    };
    SmallVector<OpFoldResult> offsets = op.getMixedOffsets();
    SmallVector<OpFoldResult> sizes = op.getMixedSizes();
    // The converted dynamic operands, in the order the op lists them.
    auto dynOffsets = adaptor.getOffsets(), dynSizes = adaptor.getSizes();
    size_t nextOffset = 0, nextSize = 0;
    Value offset = i64(b, 0);
    SmallVector<Value> sizeValues;
    for (int64_t d = 0; d < rank; ++d) {
      Value o = isa<Attribute>(offsets[d])
                    ? asI64(offsets[d], {})
                    : asI64(offsets[d], dynOffsets[nextOffset++]);
      Value sz = isa<Attribute>(sizes[d]) ? asI64(sizes[d], {})
                                          : asI64(sizes[d], dynSizes[nextSize++]);
      if (!matchPattern(o, m_Zero()))
        offset = arith::AddIOp::create(b, offset,
                                       arith::MulIOp::create(b, o, strides[d]));
      sizeValues.push_back(sz);
    }
    llvm::SmallBitVector dropped = op.getDroppedDims();
    SmallVector<Value> results{
        LLVM::GEPOp::create(b, source[0].getType(),
                            op.getSourceType().getElementType(), source[0],
                            ArrayRef<LLVM::GEPArg>{offset})};
    for (int64_t d = 0; d < rank; ++d)
      if (!dropped.test(d))
        results.push_back(sizeValues[d]);
    for (int64_t d = 0; d < rank; ++d)
      if (!dropped.test(d))
        results.push_back(strides[d]);
    rewriter.replaceOpWithMultiple(op, {results});
    return success();
  }
};

/// The sizes and strides of a kernel buffer (its arguments); the base is
/// the argument's pointer and the offset 0 (the runtime passes a pointer to
/// the first element).
struct ExtractMetadataLowering
    : public OpConversionPattern<memref::ExtractStridedMetadataOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(memref::ExtractStridedMetadataOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    ValueRange source = adaptor.getSource();
    SmallVector<SmallVector<Value>> results;
    results.push_back({source[0]});
    results.push_back({arith::ConstantIndexOp::create(b, 0)});
    for (Value v : source.drop_front())
      results.push_back(
          {arith::IndexCastOp::create(b, b.getIndexType(), v).getResult()});
    rewriter.replaceOpWithMultiple(op, results);
    return success();
  }
};

/// A view of a kernel buffer with the given sizes and strides (offset 0).
struct ReinterpretCastLowering
    : public OpConversionPattern<memref::ReinterpretCastOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(memref::ReinterpretCastOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!llvm::all_of(op.getStaticOffsets(), [](int64_t o) { return o == 0; }))
      return rewriter.notifyMatchFailure(op, "non-zero offset");
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    SmallVector<Value> results{adaptor.getSource().front()};
    auto dynSizes = adaptor.getSizes(), dynStrides = adaptor.getStrides();
    size_t nextSize = 0, nextStride = 0;
    for (int64_t v : op.getStaticSizes())
      results.push_back(ShapedType::isDynamic(v)
                            ? asI64(b, dynSizes[nextSize++].front())
                            : i64(b, v));
    for (int64_t v : op.getStaticStrides())
      results.push_back(ShapedType::isDynamic(v)
                            ? asI64(b, dynStrides[nextStride++].front())
                            : i64(b, v));
    rewriter.replaceOpWithMultiple(op, {results});
    return success();
  }
};

/// A scalar read of a buffer (a per-head slope): one global load.
struct ScalarLoadLowering : public OpConversionPattern<memref::LoadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(memref::LoadOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    ValueRange memref = adaptor.getMemref();
    int64_t rank = op.getMemRefType().getRank();
    ValueRange strides = memref.drop_front(1 + rank);
    Value offset = i64(b, 0);
    for (int64_t d = 0; d < rank; ++d) {
      Value idx = arith::IndexCastOp::create(
          b, b.getI64Type(), adaptor.getIndices()[d].front());
      // The innermost dimension is contiguous.
      offset = arith::AddIOp::create(
          b, offset,
          d + 1 == rank ? idx : Value(arith::MulIOp::create(b, idx, strides[d])));
    }
    Type elt = op.getType();
    Value ptr = gep(b, memref[0], elt, offset);
    rewriter.replaceOp(op, LLVM::LoadOp::create(b, elt, ptr));
    return success();
  }
};

/// An i32 position or offset, sign-extended to the i64 of address math.
static Value wide(ImplicitLocOpBuilder &b, Value i32v) {
  return arith::ExtSIOp::create(b, b.getI64Type(), i32v);
}

/// attn.load into registers: each thread reads the elements it holds, zero
/// outside the buffer (the address is clamped to the plane's first element,
/// which every launched kernel's buffer has, so no read goes astray).
/// 2-D tiles of 16-bit elements (a bias) are read a pair per 4-byte load
/// where the whole tile lies inside the buffer with 4-byte aligned rows
/// (checked in the kernel: one uniform branch per load), element by element
/// elsewhere. The element-wise path alone (a bounds-checked two-byte load
/// per element) made a bias cost 2.8-3.1x the attention without it
/// (results/h200/2026-12-04-session15-r4.md). Sixteen bytes per lane with
/// the quad's exchange (as the stores do) spilled in the D = 128 bias
/// kernel (4 bytes; 80 shuffles per K/V block).
struct RegisterLoadLowering : public OpConversionPattern<LoadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(LoadOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = op.getType();
    MmaLayoutAttr parent = getMmaParent(type);
    if (!parent)
      return rewriter.notifyMatchFailure(op, "not a register layout");
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    ValueRange memref = adaptor.getSource();
    int64_t rank = op.getSource().getType().getRank();
    int64_t tileRank = type.getRank();
    SmallVector<Value> idx = scalarIndices(adaptor.getIndices());
    Type elt = type.getElementType();
    Value plane = planePointer(b, memref, idx, rank - tileRank, elt);
    ValueRange sizes = memref.slice(1, rank);
    ValueRange strides = memref.drop_front(1 + rank);
    ThreadIds ids = getThreadIds(b, op);
    if (tileRank == 1) {
      SmallVector<Value> values;
      MmaTile t(parent, {type.getDimSize(0), 8});
      Value r0 = toI32(b, idx[rank - 1]);
      for (int64_t mt = 0; mt < t.mTiles; ++mt)
        for (int64_t half = 0; half < 2; ++half)
          values.push_back(loadElement(
              b, plane, sizes, strides, elt, Value(),
              wide(b, arith::AddIOp::create(
                  b, r0, rowOf(b, ids, t.mTiles, 16 * mt + 8 * half)))));
      rewriter.replaceOpWithMultiple(op, {values});
      return success();
    }
    MmaTile tile(parent, type.getShape());
    Value r0 = toI32(b, idx[rank - 2]), c0 = toI32(b, idx[rank - 1]);
    if (elt.getIntOrFloatBitWidth() != 16) {
      rewriter.replaceOpWithMultiple(
          op, {loadScalars(b, ids, tile, plane, sizes, strides, elt, r0, c0)});
      return success();
    }
    // The whole tile inside the buffer, and every row's first element of
    // the tile 4-byte aligned (base, row stride and first column): the same
    // for every thread, so the branch is uniform.
    Value rows = sizes[rank - 2], cols = sizes[rank - 1];
    Value rowEnd = arith::AddIOp::create(b, wide(b, r0), i64(b, type.getDimSize(0)));
    Value colEnd = arith::AddIOp::create(b, wide(b, c0), i64(b, type.getDimSize(1)));
    Value addressBits = arith::OrIOp::create(
        b, LLVM::PtrToIntOp::create(b, b.getI64Type(), plane),
        arith::ShLIOp::create(
            b, arith::OrIOp::create(b, strides[rank - 2], wide(b, c0)), i64(b, 1)));
    Value inside = arith::AndIOp::create(
        b,
        arith::AndIOp::create(
            b, arith::CmpIOp::create(b, arith::CmpIPredicate::sle, rowEnd, rows),
            arith::CmpIOp::create(b, arith::CmpIPredicate::sle, colEnd, cols)),
        arith::CmpIOp::create(
            b, arith::CmpIPredicate::eq,
            arith::AndIOp::create(b, addressBits, i64(b, 3)), i64(b, 0)));
    SmallVector<Type> types(tile.size(), elt);
    auto ifOp = scf::IfOp::create(b, types, inside, /*withElseRegion=*/true);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(ifOp.thenBlock());
      scf::YieldOp::create(
          b, loadPairs(b, ids, tile, plane, strides[rank - 2], elt, r0, c0));
      b.setInsertionPointToStart(ifOp.elseBlock());
      scf::YieldOp::create(
          b, loadScalars(b, ids, tile, plane, sizes, strides, elt, r0, c0));
    }
    rewriter.replaceOpWithMultiple(op, {ifOp.getResults()});
    return success();
  }

private:
  /// One element at (row, col) (i64 buffer coordinates, row null for 1-D
  /// tiles), zero outside the buffer.
  static Value loadElement(ImplicitLocOpBuilder &b, Value plane,
                           ValueRange sizes, ValueRange strides, Type elt,
                           Value row, Value col) {
    int64_t rank = sizes.size();
    Value inBounds = arith::CmpIOp::create(b, arith::CmpIPredicate::slt, col,
                                           sizes[rank - 1]);
    Value offset = col;
    if (row) {
      inBounds = arith::AndIOp::create(
          b, inBounds,
          arith::CmpIOp::create(b, arith::CmpIPredicate::slt, row,
                                sizes[rank - 2]));
      offset = arith::AddIOp::create(
          b, arith::MulIOp::create(b, row, strides[rank - 2]), col);
    }
    offset = arith::SelectOp::create(b, inBounds, offset, i64(b, 0));
    Value v = LLVM::LoadOp::create(b, elt, gep(b, plane, elt, offset));
    return arith::SelectOp::create(
        b, inBounds, v, arith::ConstantOp::create(b, b.getZeroAttr(elt)));
  }

  /// A 2-D tile element by element, with bounds checks.
  static SmallVector<Value> loadScalars(ImplicitLocOpBuilder &b,
                                        const ThreadIds &ids,
                                        const MmaTile &tile, Value plane,
                                        ValueRange sizes, ValueRange strides,
                                        Type elt, Value r0, Value c0) {
    SmallVector<Value> values(tile.size());
    Value colBase = arith::AddIOp::create(
        b, c0, arith::MulIOp::create(b, ids.quadLane, i32(b, 2)));
    for (int64_t mt = 0; mt < tile.mTiles; ++mt)
      for (int64_t half = 0; half < 2; ++half) {
        Value row = wide(b, arith::AddIOp::create(
            b, r0, rowOf(b, ids, tile.mTiles, 16 * mt + 8 * half)));
        for (int64_t nt = 0; nt < tile.nTiles; ++nt)
          for (int64_t e = 0; e < 2; ++e) {
            Value col = wide(b, arith::AddIOp::create(
                b, colBase, i32(b, MmaTile::colDelta(nt, e))));
            values[tile.index(mt, nt, 2 * half + e)] =
                loadElement(b, plane, sizes, strides, elt, row, col);
          }
      }
    return values;
  }

  /// A 2-D tile of 16-bit elements inside the buffer with 4-byte aligned
  /// rows (the caller checked): each thread's pair of adjacent columns in
  /// an 8-column tile as one 4-byte load, at constant offsets from the
  /// row's first pair.
  static SmallVector<Value> loadPairs(ImplicitLocOpBuilder &b,
                                      const ThreadIds &ids,
                                      const MmaTile &tile, Value plane,
                                      Value rowStride, Type elt, Value r0,
                                      Value c0) {
    SmallVector<Value> values(tile.size());
    Value colBase = wide(b, arith::AddIOp::create(
        b, c0, arith::MulIOp::create(b, ids.quadLane, i32(b, 2))));
    for (int64_t mt = 0; mt < tile.mTiles; ++mt)
      for (int64_t half = 0; half < 2; ++half) {
        Value row = wide(b, arith::AddIOp::create(
            b, r0, rowOf(b, ids, tile.mTiles, 16 * mt + 8 * half)));
        Value start = gep(
            b, plane, elt,
            arith::AddIOp::create(b, arith::MulIOp::create(b, row, rowStride),
                                  colBase));
        for (int64_t nt = 0; nt < tile.nTiles; ++nt) {
          Value pair = LLVM::LoadOp::create(
              b, b.getI32Type(), gep(b, start, elt, i64(b, 8 * nt)),
              /*alignment=*/4);
          auto [lo, hi] = unpackPair(b, elt, pair);
          values[tile.index(mt, nt, 2 * half)] = lo;
          values[tile.index(mt, nt, 2 * half + 1)] = hi;
        }
      }
    return values;
  }
};

/// attn.prefetch: each thread prefetches into L1 lines of the rows it
/// holds in the tile's accumulator layout (rows r and r + 8 of each of its
/// m-tiles, as attn.load reads them). A row of C elements of e bytes
/// touches at most ceil(C * e / 128) + 1 lines of 128 bytes; the quad's
/// four threads, which hold the same rows, take its chunks k = q, q + 4,
/// .. at columns min(k * 128 / e, C - 1). Rows and columns are clamped
/// into the buffer: a tile past its end prefetches its last line again.
struct PrefetchLowering : public OpConversionPattern<PrefetchOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(PrefetchOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getTile());
    MmaLayoutAttr parent = getMmaParent(type);
    if (!parent)
      return rewriter.notifyMatchFailure(op, "not a register layout");
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    ValueRange memref = adaptor.getSource();
    int64_t rank = op.getSource().getType().getRank();
    SmallVector<Value> idx = scalarIndices(adaptor.getIndices());
    Type elt = type.getElementType();
    Value plane = planePointer(b, memref, idx, rank - 2, elt);
    ValueRange sizes = memref.slice(1, rank);
    ValueRange strides = memref.drop_front(1 + rank);
    Value rows = sizes[rank - 2], cols = sizes[rank - 1];
    ThreadIds ids = getThreadIds(b, op);
    MmaTile tile(parent, type.getShape());
    int64_t bytes = std::max<int64_t>(1, elt.getIntOrFloatBitWidth() / 8);
    int64_t width = type.getDimSize(1);
    int64_t perLine = std::max<int64_t>(1, 128 / bytes);
    int64_t chunks = (width * bytes + 127) / 128 + 1;
    // Every launched kernel's buffer has an element (the loads rely on it
    // too), so the clamped addresses are inside it.
    Value one = i64(b, 1);
    Value lastRow = arith::SubIOp::create(b, rows, one);
    Value lastCol = arith::SubIOp::create(b, cols, one);
    Value r0 = toI32(b, idx[rank - 2]), c0 = wide(b, toI32(b, idx[rank - 1]));
    // Chunk k0 + q of a row, within the tile and the buffer: the same
    // columns for every row the thread holds.
    Value quad = wide(b, ids.quadLane);
    SmallVector<Value> colsOfThread;
    for (int64_t k0 = 0; k0 < chunks; k0 += 4) {
      Value k = arith::AddIOp::create(b, quad, i64(b, k0));
      Value col = arith::MinSIOp::create(
          b, arith::MulIOp::create(b, k, i64(b, perLine)), i64(b, width - 1));
      colsOfThread.push_back(arith::MinSIOp::create(
          b, arith::AddIOp::create(b, c0, col), lastCol));
    }
    for (int64_t mt = 0; mt < tile.mTiles; ++mt)
      for (int64_t half = 0; half < 2; ++half) {
        Value row = wide(b, arith::AddIOp::create(
            b, r0, rowOf(b, ids, tile.mTiles, 16 * mt + 8 * half)));
        row = arith::MinSIOp::create(b, row, lastRow);
        Value start = gep(b, plane, elt,
                          arith::MulIOp::create(b, row, strides[rank - 2]));
        for (Value col : colsOfThread)
          NVVM::PrefetchOp::create(
              b, NVVM::PrefetchCacheLevelAttr::get(b.getContext(),
                                                   NVVM::PrefetchCacheLevel::L1),
              /*evictPriority=*/nullptr, gep(b, start, elt, col),
              /*predicate=*/Value(), /*tensormap=*/false, /*uniform=*/false,
              /*in_param_space=*/false);
      }
    rewriter.eraseOp(op);
    return success();
  }
};

/// The 4 x 4 transpose across a quad: lane q holds a[j] = M[q][j] and
/// gets M[j][q], j = 0..3, as a vector<4xi32>. Two butterfly steps: the
/// off-diagonal 2 x 2 blocks swapped with lane q ^ 2, then the off-diagonal
/// elements of each block with lane q ^ 1; each step sends the two elements
/// the partner needs (which two depends on the lane's bit) and puts the two
/// received in their place: 4 shuffles and 12 selects.
static Value quadTranspose(ImplicitLocOpBuilder &b, Value quadLane,
                           ArrayRef<Value> a) {
  SmallVector<Value> m(a);
  for (int64_t bit : {2, 1}) {
    Value set = arith::CmpIOp::create(
        b, arith::CmpIPredicate::ne,
        arith::AndIOp::create(b, quadLane, i32(b, bit)), i32(b, 0));
    // Element j is off-diagonal where its bit differs from the lane's.
    // bit 2: lanes without it send m[2], m[3] and take m[0], m[1] ...
    int64_t lo0 = 0, lo1 = bit == 2 ? 1 : 2;             // j without the bit
    int64_t hi0 = lo0 + bit, hi1 = lo1 + bit;             // j with it
    Value send0 = arith::SelectOp::create(b, set, m[lo0], m[hi0]);
    Value send1 = arith::SelectOp::create(b, set, m[lo1], m[hi1]);
    Value got0 = gpu::ShuffleOp::create(b, send0, bit, 32, gpu::ShuffleMode::XOR)
                     .getShuffleResult();
    Value got1 = gpu::ShuffleOp::create(b, send1, bit, 32, gpu::ShuffleMode::XOR)
                     .getShuffleResult();
    // ... and a lane with the bit takes them into m[lo], one without into m[hi].
    m[lo0] = arith::SelectOp::create(b, set, got0, m[lo0]);
    m[lo1] = arith::SelectOp::create(b, set, got1, m[lo1]);
    m[hi0] = arith::SelectOp::create(b, set, m[hi0], got0);
    m[hi1] = arith::SelectOp::create(b, set, m[hi1], got1);
  }
  Type vecT = VectorType::get({4}, b.getI32Type());
  Value v = LLVM::UndefOp::create(b, vecT);
  for (int64_t j = 0; j < 4; ++j)
    v = LLVM::InsertElementOp::create(b, v, m[j], i32(b, j));
  return v;
}

/// attn.store from registers. 2-D tiles (#attn.mma): per row of the thread,
/// under one bounds check, pairs of 16-bit elements as one 4-byte store, or
/// in warp-specialized kernels (storesQuadVectors) 16 bytes per lane after
/// the quad's exchange (the runtime holds such buffers to 16-byte aligned
/// rows), other types element by element. 1-D tiles (#attn.rows): the
/// first lane of each quad stores the quad's rows.
struct RegisterStoreLowering : public OpConversionPattern<StoreOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(StoreOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = op.getValue().getType();
    MmaLayoutAttr parent = getMmaParent(type);
    if (!parent)
      return rewriter.notifyMatchFailure(op, "not a register layout");
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    ValueRange memref = adaptor.getDest();
    MemRefType memrefType = op.getDest().getType();
    int64_t rank = memrefType.getRank(), tileRank = type.getRank();
    SmallVector<Value> idx = scalarIndices(adaptor.getIndices());
    ValueRange values = adaptor.getValue();
    Type elt = type.getElementType();
    ValueRange sizes = memref.slice(1, rank);
    ValueRange strides = memref.drop_front(1 + rank);
    Value ptr = memref[0];
    Value plane = planeOffset(b, memref, idx, rank - tileRank);
    ThreadIds ids = getThreadIds(b, op);
    Value rowStart = idx[rank - tileRank];
    Value rowBound = arith::IndexCastOp::create(b, b.getIndexType(),
                                                sizes[rank - tileRank]);
    MmaTile t(parent, {type.getDimSize(0), 8});
    // Whole 8-column groups of 16-bit elements in a row of the tile that
    // lies inside the buffer's rows: the quad's lanes exchange their pairs
    // (quadTranspose) so that each writes 16 contiguous bytes, one 16-byte
    // store where there were four 4-byte ones (each a 16-byte piece of a
    // 32-byte sector). Every row's exchange comes before the first row's
    // bounds check (the shuffles need every lane of the warp). Only in
    // warp-specialized kernels, where it was measured (1.04-1.22x at
    // N = 512-1024, results/h200/2026-12-03-session11-r5.md) and whose
    // consumers' register budget is set by setmaxnreg: the extra code took
    // the 128 x 128 D = 64 kernel without a producer from 128 to 129
    // registers, one CTA per SM instead of two (0.8x).
    std::optional<MmaTile> full;
    if (tileRank == 2)
      full.emplace(parent, type.getShape());
    bool vectors =
        storesQuadVectors(op, getGpuConfig(op).getWarpSpecialize());
    SmallVector<Value> quadRows;
    for (int64_t mt = 0; vectors && mt < t.mTiles; ++mt)
      for (int64_t half = 0; half < 2; ++half) {
        SmallVector<Value> pairs;
        for (int64_t nt = 0; nt < full->nTiles; ++nt)
          pairs.push_back(packPair(b, values[full->index(mt, nt, 2 * half)],
                                   values[full->index(mt, nt, 2 * half + 1)]));
        for (int64_t g = 0; g < full->nTiles; g += 4)
          quadRows.push_back(
              quadTranspose(b, ids.quadLane, ArrayRef(pairs).slice(g, 4)));
      }
    for (int64_t mt = 0; mt < t.mTiles; ++mt)
      for (int64_t half = 0; half < 2; ++half) {
        Value row = arith::AddIOp::create(
            b, rowStart, toIndex(b, rowOf(b, ids, t.mTiles, 16 * mt + 8 * half)));
        ArrayRef<Value> quadRow;
        if (vectors)
          quadRow = ArrayRef(quadRows).slice((2 * mt + half) * (full->nTiles / 4),
                                             full->nTiles / 4);
        Value inBounds =
            arith::CmpIOp::create(b, arith::CmpIPredicate::slt, row, rowBound);
        if (tileRank == 1) {
          inBounds = arith::AndIOp::create(
              b, inBounds,
              arith::CmpIOp::create(b, arith::CmpIPredicate::eq, ids.quadLane,
                                    i32(b, 0)));
        }
        auto ifOp = scf::IfOp::create(b, inBounds, /*withElseRegion=*/false);
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(ifOp.thenBlock());
        Value row64 = arith::IndexCastOp::create(b, b.getI64Type(), row);
        if (tileRank == 1) {
          Value off = arith::AddIOp::create(b, plane, row64);
          LLVM::StoreOp::create(b, values[2 * mt + half], gep(b, ptr, elt, off),
                                /*alignment=*/elt.getIntOrFloatBitWidth() / 8);
          continue;
        }
        MmaTile &tile = *full;
        Value rowBase = arith::AddIOp::create(
            b, plane, arith::MulIOp::create(b, row64, strides[rank - 2]));
        Value c0 = idx[rank - 1];
        if (vectors) {
          // Lane q of the quad holds group 4 g + q: columns 8 (4 g + q) ..
          // 8 (4 g + q) + 7, after the tile's first column.
          Value laneCol = arith::ExtUIOp::create(
              b, b.getI64Type(),
              arith::MulIOp::create(b, ids.quadLane, i32(b, 8)));
          Value start = arith::AddIOp::create(
              b, arith::AddIOp::create(b, rowBase, laneCol),
              arith::IndexCastOp::create(b, b.getI64Type(), c0));
          for (auto [g, vec] : llvm::enumerate(quadRow)) {
            Value off = arith::AddIOp::create(b, start, i64(b, 32 * g));
            LLVM::StoreOp::create(b, vec, gep(b, ptr, elt, off),
                                  /*alignment=*/16);
          }
          continue;
        }
        bool inside = columnsInBounds(c0, type.getDimSize(1),
                                      memrefType.getDimSize(rank - 1));
        Value colBound = sizes[rank - 1];
        for (int64_t nt = 0; nt < tile.nTiles; ++nt) {
          Value x = values[tile.index(mt, nt, 2 * half)];
          Value y = values[tile.index(mt, nt, 2 * half + 1)];
          Value col = arith::AddIOp::create(
              b, arith::MulIOp::create(b, ids.quadLane, i32(b, 2)),
              i32(b, 8 * nt));
          Value col64 = arith::ExtUIOp::create(b, b.getI64Type(), col);
          if (!inside)
            col64 = arith::AddIOp::create(
                b, col64, arith::IndexCastOp::create(b, b.getI64Type(), c0));
          Value off = arith::AddIOp::create(b, rowBase, col64);
          if (inside && elt.getIntOrFloatBitWidth() == 16) {
            LLVM::StoreOp::create(b, packPair(b, x, y), gep(b, ptr, elt, off),
                                  /*alignment=*/4);
            continue;
          }
          for (int64_t e = 0; e < 2; ++e) {
            Value at = e ? Value(arith::AddIOp::create(b, off, i64(b, 1))) : off;
            Value colE = e ? Value(arith::AddIOp::create(b, col64, i64(b, 1)))
                           : col64;
            auto store = [&](OpBuilder &nb, Location loc) {
              ImplicitLocOpBuilder sb(loc, nb);
              LLVM::StoreOp::create(sb, e ? y : x, gep(sb, ptr, elt, at),
                                    elt.getIntOrFloatBitWidth() / 8);
            };
            if (inside) {
              store(b, b.getLoc());
              continue;
            }
            Value ok = arith::CmpIOp::create(b, arith::CmpIPredicate::slt,
                                             colE, colBound);
            auto colIf = scf::IfOp::create(b, ok, /*withElseRegion=*/false);
            OpBuilder::InsertionGuard g(b);
            b.setInsertionPointToStart(colIf.thenBlock());
            store(b, b.getLoc());
          }
        }
      }
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void nvgpu::populateMemoryToNVVMPatterns(TileTypeConverter &converter,
                                         RewritePatternSet &patterns) {
  patterns.add<DimLowering, SubViewLowering, ExtractMetadataLowering,
               ReinterpretCastLowering, ScalarLoadLowering,
               RegisterLoadLowering, RegisterStoreLowering, PrefetchLowering>(
      converter, patterns.getContext());
}
