//===- DotToNVVM.cpp - attn.dot on the tensor cores -----------------------===//
//
// Two patterns, by the version of the result's #attn.mma layout.
//
// Version 3 (sm_90a, wgmma): per 16-wide k-step one wgmma.mma_async
// m64nNk16 per warpgroup (N up to 256 per instruction), B from shared
// memory through a descriptor, A from shared memory (Q) or from registers
// (P, the RS form); operands in #attn.swizzled<blocked>, whose column
// blocks and k-steps are descriptor offsets from one base. The product is
// issued after a wgmma fence and committed; a synchronous product is waited
// for (wait 0) right there, an `async` one by the attn.dot_wait its result
// passes through (wait `pending`, then a fence on its registers). A guarded
// product (`if %pred`) is one inline-PTX statement per accumulator chunk
// that branches over its wgmma instructions.
//
// Version 2: `acc + A B` (or `A B^T`) in the #attn.mma layout, as mma.sync
// m16n8k16 tiles: per 16-wide k-step, each warp's A fragments (ldmatrix from shared
// memory, or the A-operand registers of a dot-operand tile), then per pair
// of 8-column n-tiles one ldmatrix.x4 of B (`.trans` when B is stored
// [K, N]; plain when it is B^T stored [N, K]), which feeds two mma.sync per
// m-tile of the warp. A guarded product selects, register by register,
// between its result and the accumulator.
//
// Operand addresses. An ldmatrix.x4 lane reads 16 bytes at row r of its
// matrix, chunk c (8 elements), stored at chunk c ^ (r % 8) (#attn.swizzled).
// Every fragment a lane loads in one product has the same r % 8 and a chunk
// that differs from the first one's by a constant k (even, as each x4 spans
// two chunks, and the lane's own chunk bit is bit 0), so its address is
//   laneBase ^ 16 (k & 7)  +  16 (k & ~7) + row offset  (+ stage buffer),
// one XOR of a per-lane base and an immediate. Written this way the loop
// keeps at most four XORed bases per operand live, not one address per
// ldmatrix (LLVM hoists every loop-invariant address; ptxas does not
// rematerialise them, which cost 30-60 registers at D = 128).
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"
#include "WarpMMA.h"
#include "Wgmma.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace mlir::attn;
using namespace mlir::attn::nvgpu;

namespace {

/// Byte offset of one ldmatrix operand (see the file comment).
static Value fragmentOffset(ImplicitLocOpBuilder &b, Value laneBase,
                            int64_t chunkDelta, int64_t imm, Value stage) {
  Value off = laneBase;
  if (int64_t flip = 16 * (chunkDelta & 7))
    off = arith::XOrIOp::create(b, off, i32(b, flip));
  if (stage)
    off = arith::AddIOp::create(b, stage, off);
  int64_t add = 16 * (chunkDelta & ~int64_t(7)) + imm;
  if (add)
    off = arith::AddIOp::create(b, off, i32(b, add));
  return off;
}

/// Packs the A scalars of fragment `kk` of a dot-operand tile (m-tile, then
/// k-step) into the four registers of the m16n8k16 / wgmma A fragment.
static std::array<Value, 4> packA(ImplicitLocOpBuilder &b, ValueRange aIn,
                                  int64_t kk, Type elt) {
  Type vecT = VectorType::get({2}, elt);
  std::array<Value, 4> frag;
  for (int r = 0; r < 4; ++r) {
    Value v = LLVM::UndefOp::create(b, vecT);
    v = LLVM::InsertElementOp::create(b, v, aIn[8 * kk + 2 * r], i32(b, 0));
    v = LLVM::InsertElementOp::create(b, v, aIn[8 * kk + 2 * r + 1],
                                      i32(b, 1));
    frag[r] = LLVM::BitcastOp::create(b, b.getI32Type(), v);
  }
  return frag;
}

struct DotLowering : public OpConversionPattern<DotOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(DotOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto mma = dyn_cast_or_null<MmaLayoutAttr>(op.getType().getEncoding());
    if (!mma || mma.isWarpgroup())
      return rewriter.notifyMatchFailure(op, "result not in #attn.mma v2");
    auto bBuffer = dyn_cast<SharedBufferType>(op.getB().getType());
    if (!bBuffer)
      return rewriter.notifyMatchFailure(op, "B not in shared memory");
    auto aBuffer = dyn_cast<SharedBufferType>(op.getA().getType());
    Type elt = bBuffer.getElementType();
    MmaTile tile(mma, op.getType().getShape());
    int64_t k = bBuffer.getShape()[op.getTransposeB() ? 1 : 0];
    int64_t kSteps = k / 16;

    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    ThreadIds ids = getThreadIds(b, op);
    int64_t threads = 32 * mma.getWarps();
    WarpMMA warp(b, elt, getSharedBase(b), threads,
                 {ids.tid, ids.warp, ids.lane, ids.group, ids.quadLane});

    // The accumulator: n-tile (mt, nt) at [mt * NT + nt].
    ValueRange accIn = adaptor.getAcc();
    SmallVector<std::array<Value, 4>> acc(tile.mTiles * tile.nTiles);
    for (int64_t i = 0; i < (int64_t)acc.size(); ++i)
      for (int e = 0; e < 4; ++e)
        acc[i][e] = accIn[4 * i + e];

    // Lane bases: matrix `sub` of an x4 (lanes 8 sub .. 8 sub + 7 give its
    // row addresses), row r8 of it.
    Value sub = arith::DivUIOp::create(b, ids.lane, i32(b, 8));
    Value r8 = arith::RemUIOp::create(b, ids.lane, i32(b, 8));
    Value subLo = arith::RemUIOp::create(b, sub, i32(b, 2));
    Value subHi = arith::DivUIOp::create(b, sub, i32(b, 2));
    auto laneBase = [&](Value row, Value chunk, int64_t rowBytes) -> Value {
      return arith::AddIOp::create(
          b, arith::MulIOp::create(b, row, i32(b, rowBytes)),
          arith::MulIOp::create(b, arith::XOrIOp::create(b, chunk, r8),
                                i32(b, 16)));
    };

    // A fragments from registers (a dot-operand tile): the scalars of
    // (mt, kk) are a0..a3 as pairs, packed before the product.
    SmallVector<std::array<Value, 4>> aRegs;
    if (!aBuffer)
      for (int64_t i = 0; i < tile.mTiles * kSteps; ++i)
        aRegs.push_back(packA(b, adaptor.getA(), i, elt));
    // A from shared memory ([M, K], rows of 2K bytes): matrix i covers rows
    // 8 (i % 2).., k 8 (i / 2)..
    Value aBase, aDyn;
    int64_t aStatic = 0, aRowBytes = 2 * k;
    if (aBuffer) {
      std::tie(aDyn, aStatic) = splitSharedOffset(adaptor.getA().front());
      aBase = laneBase(
          arith::AddIOp::create(
              b, arith::MulIOp::create(b, ids.warp, i32(b, 16 * tile.mTiles)),
              arith::AddIOp::create(b, r8,
                                    arith::MulIOp::create(b, subLo, i32(b, 8)))),
          subHi, aRowBytes);
    }
    // B: stored [N, K] (transpose_b: matrix i covers n 8 (i / 2).., k
    // 8 (i % 2)..) or [K, N] (.trans: matrix i covers k 8 (i % 2).., n
    // 8 (i / 2)..).
    auto [bDyn, bStatic] = splitSharedOffset(adaptor.getB().front());
    bool transposed = op.getTransposeB();
    int64_t bRowBytes = 2 * bBuffer.getShape()[1];
    Value bBase =
        transposed
            ? laneBase(arith::AddIOp::create(
                           b, r8, arith::MulIOp::create(b, subHi, i32(b, 8))),
                       subLo, bRowBytes)
            : laneBase(arith::AddIOp::create(
                           b, r8, arith::MulIOp::create(b, subLo, i32(b, 8))),
                       subHi, bRowBytes);

    for (int64_t kk = 0; kk < kSteps; ++kk) {
      SmallVector<std::array<Value, 4>> a;
      for (int64_t mt = 0; mt < tile.mTiles; ++mt)
        a.push_back(aBuffer ? warp.ldmatrixX4(
                                  fragmentOffset(b, aBase, 2 * kk,
                                                 16 * mt * aRowBytes + aStatic,
                                                 aDyn),
                                  /*transpose=*/false)
                            : aRegs[mt * kSteps + kk]);
      for (int64_t nt = 0; nt < tile.nTiles; nt += 2) {
        Value off =
            transposed
                ? fragmentOffset(b, bBase, 2 * kk,
                                 bStatic + 8 * nt * bRowBytes, bDyn)
                : fragmentOffset(b, bBase, nt,
                                 bStatic + 16 * kk * bRowBytes, bDyn);
        std::array<Value, 4> frag = warp.ldmatrixX4(off, !transposed);
        // One B fragment feeds every m-tile of the warp.
        for (int64_t mt = 0; mt < tile.mTiles; ++mt) {
          auto &t0 = acc[mt * tile.nTiles + nt];
          auto &t1 = acc[mt * tile.nTiles + nt + 1];
          t0 = warp.mma(a[mt], {frag[0], frag[1]}, t0);
          t1 = warp.mma(a[mt], {frag[2], frag[3]}, t1);
        }
      }
    }
    SmallVector<Value> results;
    for (const auto &t : acc)
      results.append(t.begin(), t.end());
    // A guarded product: the accumulator itself when the guard is false.
    if (Value pred = adaptor.getPred().empty() ? Value()
                                                : adaptor.getPred().front())
      for (auto [r, in] : llvm::zip(results, accIn))
        r = arith::SelectOp::create(b, pred, r, in);
    rewriter.replaceOpWithMultiple(op, {results});
    return success();
  }
};

struct WarpgroupDotLowering : public OpConversionPattern<DotOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(DotOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto mma = dyn_cast_or_null<MmaLayoutAttr>(op.getType().getEncoding());
    if (!mma || !mma.isWarpgroup())
      return rewriter.notifyMatchFailure(op, "result not in #attn.mma v3");
    auto bBuffer = dyn_cast<SharedBufferType>(op.getB().getType());
    if (!bBuffer || !cast<SwizzledSharedLayoutAttr>(bBuffer.getLayout())
                         .getBlocked())
      return rewriter.notifyMatchFailure(
          op, "B not in shared memory as #attn.swizzled<blocked>");
    auto aBuffer = dyn_cast<SharedBufferType>(op.getA().getType());
    if (aBuffer &&
        !cast<SwizzledSharedLayoutAttr>(aBuffer.getLayout()).getBlocked())
      return rewriter.notifyMatchFailure(
          op, "A in shared memory but not #attn.swizzled<blocked>");
    Type elt = bBuffer.getElementType();
    ArrayRef<int64_t> shape = op.getType().getShape();
    int64_t n = shape[1];
    // B stored [N, K] (transpose_b: K-major) or [K, N] (MN-major).
    bool bMNMajor = !op.getTransposeB();
    int64_t k = bBuffer.getShape()[bMNMajor ? 0 : 1];
    int64_t bRows = bBuffer.getShape()[0];
    int64_t kSteps = k / 16;

    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    ThreadIds ids = getThreadIds(b, op);
    Value smem = getSharedBase(b);

    // Descriptor bases. An 8-row atom is 1024 bytes (SBO); K-major
    // operands ignore LBO; an MN-major B steps LBO from one 64-column block
    // to the next.
    auto base = [&](Value offset) {
      auto [dynamic, stat] = splitSharedOffset(offset);
      Value off = i32(b, stat);
      if (dynamic)
        off = arith::AddIOp::create(b, dynamic, off);
      return off;
    };
    Value descB = wgmmaDescriptor(b, smem, base(adaptor.getB().front()),
                                  bMNMajor ? 128 * bRows : 16, 1024);
    Value descA;
    int64_t aRows = 0;
    SmallVector<std::array<Value, 4>> aRegs;
    if (aBuffer) {
      // Warpgroup w / 4 multiplies rows [64 (w / 4), 64 (w / 4 + 1)) of A.
      aRows = aBuffer.getShape()[0];
      Value wgRows = arith::MulIOp::create(
          b, arith::DivUIOp::create(b, ids.warp, i32(b, 4)), i32(b, 64 * 128));
      descA = wgmmaDescriptor(
          b, smem, arith::AddIOp::create(b, base(adaptor.getA().front()), wgRows),
          16, 1024);
    } else {
      for (int64_t kk = 0; kk < kSteps; ++kk)
        aRegs.push_back(packA(b, adaptor.getA(), kk, elt));
    }

    // The accumulator in N-chunks of at most 256 columns, one struct each
    // (n-tile nt's four values at fields 4 (nt - first) ..).
    ValueRange accIn = adaptor.getAcc();
    SmallVector<std::pair<int64_t, int64_t>> chunks; // (first column, width)
    for (int64_t n0 = 0; n0 < n; n0 += 256)
      chunks.push_back({n0, std::min<int64_t>(256, n - n0)});
    // A zero accumulator (the scores' product) is not materialized: the
    // first k-step overwrites (scale-d 0) an undefined one. That saves a
    // register move per accumulator value and block, and leaves ptxas
    // free to place the product's registers where dead values were (the
    // previous block's probabilities under async_pv). Not for a guarded
    // product, which must leave its accumulator as it was.
    bool overwrite = false;
    DenseElementsAttr accInit;
    if (aBuffer && adaptor.getPred().empty() &&
        matchPattern(op.getAcc(), m_Constant(&accInit)) && accInit.isSplat())
      overwrite = accInit.getSplatValue<APFloat>().isPosZero();
    SmallVector<Value> acc;
    for (auto [n0, width] : chunks) {
      Type structT = wgmmaAccumulatorType(b.getContext(), width);
      Value s = LLVM::UndefOp::create(b, structT);
      if (!overwrite)
        for (int64_t i = 0; i < width / 2; ++i)
          s = LLVM::InsertValueOp::create(b, s, accIn[n0 / 2 + i], i);
      acc.push_back(s);
    }

    // A guarded product's steps, per accumulator chunk, are one statement
    // that branches over them when the guard is false (its registers then
    // keep the accumulator, and no other instruction writes them, which
    // ptxas would answer by serializing every wgmma, C7515). The fence and
    // the commit are not guarded: an empty group completes at once.
    Value pred =
        adaptor.getPred().empty() ? Value() : adaptor.getPred().front();
    SmallVector<SmallVector<WgmmaStep>> guarded(chunks.size());
    NVVM::WgmmaFenceAlignedOp::create(b);
    for (int64_t kk = 0; kk < kSteps; ++kk) {
      // K-major operands: k-step kk is 32 bytes into the rows of column
      // block kk / 4. MN-major B: 16 rows (2 atoms) further.
      int64_t kBytesA = (kk / 4) * 128 * aRows + (kk % 4) * 32;
      for (auto [c, chunk] : llvm::enumerate(chunks)) {
        auto [n0, width] = chunk;
        int64_t bBytes = bMNMajor ? kk * 16 * 128 + (n0 / 64) * 128 * bRows
                                  : (kk / 4) * 128 * bRows + (kk % 4) * 32 +
                                        n0 * 128;
        Value db = advanceDescriptor(b, descB, bBytes);
        Value da = aBuffer ? advanceDescriptor(b, descA, kBytesA) : Value();
        if (pred)
          guarded[c].push_back(WgmmaStep{
              aBuffer ? SmallVector<Value, 4>()
                      : SmallVector<Value, 4>(aRegs[kk].begin(),
                                              aRegs[kk].end()),
              da, db});
        else
          acc[c] = aBuffer ? wgmmaSS(b, acc[c], da, db, width, elt, bMNMajor,
                                     /*overwrite=*/overwrite && kk == 0)
                           : wgmmaRS(b, acc[c], aRegs[kk], db, width, elt,
                                     bMNMajor);
      }
    }
    if (pred)
      for (auto [c, chunk] : llvm::enumerate(chunks))
        acc[c] = wgmmaGuarded(b, acc[c], guarded[c], chunk.second, elt,
                              bMNMajor, pred);
    NVVM::WgmmaGroupSyncAlignedOp::create(b);
    // An async product's registers are only read after its attn.dot_wait.
    if (!op.getAsync()) {
      NVVM::WgmmaWaitGroupSyncOp::create(b, 0);
      for (Value &chunk : acc)
        chunk = fenceAccumulator(b, chunk);
    }

    SmallVector<Value> results;
    for (auto [c, chunk] : llvm::enumerate(chunks))
      for (int64_t i = 0; i < chunk.second / 2; ++i)
        results.push_back(LLVM::ExtractValueOp::create(b, acc[c], i));
    rewriter.replaceOpWithMultiple(op, {results});
    return success();
  }
};

/// wgmma.wait_group `pending`, then every operand register through an
/// accumulator fence: the registers are the tensor cores' until the wait,
/// and the fence keeps LLVM from reading them above it.
struct DotWaitLowering : public OpConversionPattern<DotWaitOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(DotWaitOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    NVVM::WgmmaWaitGroupSyncOp::create(b, op.getPending());
    SmallVector<SmallVector<Value>> results;
    for (ValueRange regs : adaptor.getValues())
      results.push_back(fenceRegisters(b, regs));
    SmallVector<ValueRange> ranges(results.begin(), results.end());
    rewriter.replaceOpWithMultiple(op, ranges);
    return success();
  }
};
} // namespace

void nvgpu::populateDotToNVVMPatterns(TileTypeConverter &converter,
                                      RewritePatternSet &patterns) {
  patterns.add<DotLowering, WarpgroupDotLowering, DotWaitLowering>(
      converter, patterns.getContext());
}
