//===- LoweringUtils.h - what the sm_80 patterns share ----------*- C++ -*-===//
//
// The type converter from laid-out tiles to per-thread values, the thread
// ids a pattern's code is written in terms of, and the register layouts'
// coordinates. Each pattern file of convert-attn-tile-to-nvvm uses these.
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_LIB_CONVERSION_ATTNTONVVM_LOWERINGUTILS_H
#define ATTN_LIB_CONVERSION_ATTNTONVVM_LOWERINGUTILS_H

#include "attn/Dialect/Attn/IR/AttnDialect.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir {
namespace attn {
class WarpMMA;
namespace nvgpu {

/// Laid-out tiles to what one thread holds of them, shared buffers to byte
/// offsets into dynamic shared memory, memrefs to the kernel arguments that
/// describe them:
///  - `tensor<..., #layout>` with a register layout: one scalar per element
///    the thread holds, in the layout's order (index tiles keep `index`);
///  - `!attn.shared<...>`: one i32, the buffer's byte offset;
///  - `memref<d0 x .. x elt>` of rank r: a global pointer, then r sizes and
///    r strides (elements), all i64: the kernel ABI of a buffer.
class TileTypeConverter : public TypeConverter {
public:
  explicit TileTypeConverter(MLIRContext *ctx);
};

/// The thread's id in the CTA and what follows from it (all i32).
struct ThreadIds {
  Value tid, warp, lane, group, quadLane;
};

/// The thread ids for code emitted at `b` on behalf of `op`. With the
/// kernel's `loop_local_ids` knob and `op` inside a K/V loop (a loop of the
/// kernel body), the ids are derived from `tid | (iv >> 31)`: an opaque
/// zero (positions are below 2^31) that keeps LLVM from hoisting what is
/// built from them out of the loop or sharing it with the other loops
/// (docs/gpu-kernels.md).
ThreadIds getThreadIds(ImplicitLocOpBuilder &b, Operation *op);

/// The GPU configuration of the kernel that holds `op` (every knob off when
/// it has none).
GpuConfigAttr getGpuConfig(Operation *op);

/// The kernel's dynamic shared memory (`@attn_smem`, !llvm.ptr<3>).
Value getSharedBase(ImplicitLocOpBuilder &b);

/// Constants.
Value i32(ImplicitLocOpBuilder &b, int64_t v);
Value i64(ImplicitLocOpBuilder &b, int64_t v);
Value f32(ImplicitLocOpBuilder &b, double v);
Value toI32(ImplicitLocOpBuilder &b, Value index);
Value toIndex(ImplicitLocOpBuilder &b, Value i32v);

/// An `#attn.mma` tile as the patterns see it: MT m-tiles per warp, NT
/// 8-column n-tiles; register (mt, nt, e) is at `index(mt, nt, e)`.
struct MmaTile {
  MmaTile(MmaLayoutAttr layout, ArrayRef<int64_t> shape)
      : warps(layout.getWarps()), mTiles(layout.getMTiles(shape[0])),
        nTiles(shape[1] / 8) {}
  int64_t warps, mTiles, nTiles;
  int64_t index(int64_t mt, int64_t nt, int64_t e) const {
    return (mt * nTiles + nt) * 4 + e;
  }
  int64_t size() const { return mTiles * nTiles * 4; }
  /// Row of register (mt, *, e) relative to the thread's first row
  /// (`warp * 16 MT + group`), and its column relative to `2 quadLane`.
  static int64_t rowDelta(int64_t mt, int64_t e) { return 16 * mt + 8 * (e / 2); }
  static int64_t colDelta(int64_t nt, int64_t e) { return 8 * nt + e % 2; }
};

/// The first row of the thread in a tile of `mTiles` m-tiles per warp, plus
/// `delta` (i32): `warp * 16 MT + group + delta`.
Value rowOf(ImplicitLocOpBuilder &b, const ThreadIds &ids, int64_t mTiles,
            int64_t delta);

/// The MMA layout of a laid-out tile type (the parent for rows and dot
/// operands), or null.
MmaLayoutAttr getMmaParent(Type type);

/// Splits a shared-memory byte offset built by the patterns (a constant, or
/// `x + constant`) into a dynamic part (null when none) and a constant.
std::pair<Value, int64_t> splitSharedOffset(Value offset);

/// The element offset (i64) of [indices[0], .., indices[leading - 1], 0,
/// ..] in a converted memref (pointer, sizes, strides): the plane of its
/// last dimensions that a tile lives in; planePointer the pointer (to
/// `elt`) to it.
Value planeOffset(ImplicitLocOpBuilder &b, ValueRange memref,
                  ValueRange indices, int64_t leading);
Value planePointer(ImplicitLocOpBuilder &b, ValueRange memref,
                   ValueRange indices, int64_t leading, Type elt);

/// The single value each index of a 1:N adaptor stands for.
SmallVector<Value> scalarIndices(ArrayRef<ValueRange> indices);

/// The warp-level helper for code emitted at `b` on behalf of `op` (its
/// kernel's threads, the thread ids getThreadIds gives there).
WarpMMA makeWarpMMA(ImplicitLocOpBuilder &b, Operation *op, Type elt);

/// fence.proxy.async.shared::cta: this thread's ordinary shared-memory
/// writes (cp.async included) become visible to the async proxy that wgmma
/// and TMA read through (before the barrier that follows).
void fenceAsyncProxy(ImplicitLocOpBuilder &b);

/// Two 16-bit elements as one i32 (x in the low half), and back (the low
/// one first).
Value packPair(ImplicitLocOpBuilder &b, Value x, Value y);
std::pair<Value, Value> unpackPair(ImplicitLocOpBuilder &b, Type elt,
                                   Value pair);

//===----------------------------------------------------------------------===//
// Pattern sets, one per op family
//===----------------------------------------------------------------------===//

/// arith and math on tiles (one scalar op per register), tile constants,
/// attn.convert_layout between register layouts.
void populateElementwiseToNVVMPatterns(TileTypeConverter &converter,
                                       RewritePatternSet &patterns);
/// Global memory: attn.load, attn.store and attn.prefetch of register
/// tiles; memref.dim, memref.load, views of kernel buffers.
void populateMemoryToNVVMPatterns(TileTypeConverter &converter,
                                  RewritePatternSet &patterns);
/// Shared memory: buffers and their stages, cp.async copies and their
/// waits, attn.local_store and attn.local_load (with `ldmatrixLocalLoads`
/// four pairs per ldmatrix.x4 where it can, else one per 4-byte load).
void populateSharedMemoryToNVVMPatterns(TileTypeConverter &converter,
                                        RewritePatternSet &patterns,
                                        bool ldmatrixLocalLoads);
/// attn.dot on tensor cores (ldmatrix + mma.sync).
void populateDotToNVVMPatterns(TileTypeConverter &converter,
                               RewritePatternSet &patterns);
/// attn.mask, attn.iota, attn.kv_range.
void populateMaskToNVVMPatterns(TileTypeConverter &converter,
                                RewritePatternSet &patterns);
/// attn.reduce_rows, attn.broadcast_rows.
void populateReduceToNVVMPatterns(TileTypeConverter &converter,
                                  RewritePatternSet &patterns);
/// attn.online_softmax, attn.finalize.
void populateSoftmaxToNVVMPatterns(TileTypeConverter &converter,
                                   RewritePatternSet &patterns);
void populateWarpSpecializeToNVVMPatterns(TileTypeConverter &converter,
                                          RewritePatternSet &patterns);

/// Whether `store` (a register tile into a buffer) goes out 16 bytes per
/// lane in a kernel that is (or not) `warpSpecialized`: 16-bit elements,
/// columns from 0 in whole 32-column groups, statically inside the
/// buffer's rows. RegisterStoreLowering then exchanges the quads' pairs
/// (quadTranspose) and the launch metadata asks for 16-byte aligned rows
/// (OutlineKernel.cpp); the two read this one condition.
bool storesQuadVectors(StoreOp store, bool warpSpecialized);

/// Moves each attn.program of `module`'s functions into a kernel gpu.func
/// of `gpuModule` (memref arguments, one per distinct buffer, in the
/// program's buffer order) and erases the host function; see
/// OutlineKernel.cpp.
/// The kernel attribute counting the TMA descriptors after the buffers
/// (read by attn-tensor-map-params).
inline constexpr llvm::StringLiteral kTensorMapCountAttr = "attn.tensor_maps";

LogicalResult outlineKernels(ModuleOp module, gpu::GPUModuleOp gpuModule,
                             StringRef chip);

} // namespace nvgpu
} // namespace attn
} // namespace mlir

#endif // ATTN_LIB_CONVERSION_ATTNTONVVM_LOWERINGUTILS_H
