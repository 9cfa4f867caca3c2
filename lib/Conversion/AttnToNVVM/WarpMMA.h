//===- WarpMMA.h - tensor-core building blocks for sm_80 kernels -*- C++ -*-===//
//
// The NVVM-level pieces an FA2-style kernel is made of, each a small method:
// swizzled shared-memory addressing, cp.async tile copies with zero fill,
// ldmatrix fragment loads, mma.sync m16n8k16, quad reductions with shuffles,
// exp2/log2 and f32 -> f16/bf16 packing. Every one builds NVVM (or LLVM,
// arith, gpu) ops; none assembles PTX text.
//
// Fragment layouts (PTX ISA, mma.m16n8k16), lane = 4 * g + t:
//   A (16x16): a0 = (g, 2t..2t+1)  a1 = (g+8, 2t..)  a2 = (g, 2t+8..)  a3 = (g+8, 2t+8..)
//   B (16x8):  b0 = (k 2t..2t+1, n g)  b1 = (k 2t+8.., n g)
//   C (16x8):  c0,c1 = (g, 2t..2t+1)   c2,c3 = (g+8, 2t..2t+1)
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_LIB_CONVERSION_ATTNTONVVM_WARPMMA_H
#define ATTN_LIB_CONVERSION_ATTNTONVVM_WARPMMA_H

#include "mlir/IR/ImplicitLocOpBuilder.h"

#include <array>

namespace mlir {
namespace attn {

/// Per-thread view of the kernel: thread ids and the helpers above.
class WarpMMA {
public:
  /// `elt` is f16 or bf16; `smemBase` is the !llvm.ptr<3> of dynamic shared
  /// memory; `threads` is the CTA size.
  WarpMMA(ImplicitLocOpBuilder &b, Type elt, Value smemBase, int64_t threads);
  /// The same, with the thread ids given (i32: thread, warp, lane, lane /
  /// 4, lane % 4) instead of read here.
  WarpMMA(ImplicitLocOpBuilder &b, Type elt, Value smemBase, int64_t threads,
          std::array<Value, 5> ids);

  ImplicitLocOpBuilder &builder() { return b; }
  Value i32(int64_t v);
  Value i64(int64_t v);
  Value f32(double v);

  /// Thread index, warp, lane, lane / 4 and lane % 4 (all i32).
  Value tid, warp, lane, group, quadLane;
  /// Sets tid and derives warp, lane, group and quadLane from it.
  void setThreadIds(Value threadIndex);

  /// Byte offset of element (row, col) of a [*, cols] tile of 2-byte
  /// elements whose 16-byte chunks are XOR-swizzled by row % 8, so that the
  /// 8 rows an ldmatrix reads fall in 8 different bank groups. `col` is a
  /// multiple of 8; `cols` a multiple of 64.
  Value swizzled(Value row, Value col, int64_t cols);
  /// The same in the blocked layout (#attn.swizzled<blocked, span = S>) of
  /// a tile of `rows` rows: S / 2-column blocks of [rows, S / 2], S-byte
  /// rows, swizzled as TMA's S-byte mode writes them (S = 128: 64-column
  /// blocks whose chunks are XOR-swizzled by row % 8).
  Value swizzledBlocked(Value row, Value col, int64_t rows, int64_t span = 128);
  /// One of the two, as `blocked` says.
  Value sharedOffset(Value row, Value col, int64_t cols, int64_t rows,
                     bool blocked, int64_t span = 128) {
    return blocked ? swizzledBlocked(row, col, rows, span)
                   : swizzled(row, col, cols);
  }

  /// What every copy of one tensor's tiles by this thread shares (see
  /// planCopy): built once, outside the loops that copy.
  struct CopyPlan {
    Value chunkBase;  // this thread's column of row 0 (global pointer)
    Value stride;     // row stride, elements (i64)
    Value rowInTile;  // first row this thread copies (i32)
    Value chunk;      // 16-byte chunk of the row this thread copies (i32)
    Value dst0;       // swizzled shared offset of that chunk (i32)
    int64_t cols = 0;
    int64_t rows = 0;     // rows of the shared tile (blocked layout)
    bool blocked = false; // #attn.swizzled<blocked>
  };
  /// Plans the copies of [*, cols] tiles of the (batch, head) plane at
  /// `base` (a global pointer) with row stride `rowStride` (elements, i64)
  /// into [rows, cols] shared tiles, blocked or not.
  CopyPlan planCopy(Value base, Value rowStride, int64_t cols, int64_t rows,
                    bool blocked);
  /// Issues cp.async copies of a [rows, cols] tile whose row r is global
  /// row `row0 + r` of the planned plane into shared memory at
  /// `smemOffset`, swizzled; rows at or past `numRows` are zero-filled. All
  /// threads take part. `dynamicSmemOffset` (i32, may be null) is added to
  /// `smemOffset`: the stage buffer of a multi-stage copy; it must be a
  /// multiple of 128 so that it leaves the swizzle bits alone.
  void copyTileAsync(const CopyPlan &plan, Value row0, Value numRows,
                     int64_t rows, int64_t smemOffset,
                     Value dynamicSmemOffset = Value());
  /// ldmatrix.x4 (optionally .trans) at the given shared byte offset of
  /// this lane's row; four packed 2 x 16-bit registers.
  std::array<Value, 4> ldmatrixX4(Value byteOffset, bool transpose);

  /// d = a * b + c for one m16n8k16 tile; a, b are packed registers (i32).
  std::array<Value, 4> mma(ArrayRef<Value> a, ArrayRef<Value> b,
                           ArrayRef<Value> c);

  /// Max or sum of `v` over the four lanes of a quad (lanes sharing a row).
  Value quadReduce(Value v, bool isMax);

  /// 2^x and log2(x), approximate (ex2.approx.ftz, lg2.approx).
  Value exp2(Value x);
  /// 2^x on the FMA pipe (a polynomial, no MUFU operation), as accurate as
  /// exp2: -inf gives 0, NaN stays NaN. For x <= 0 (as in the softmax);
  /// +inf gives NaN.
  Value fmaExp2(Value x);
  Value log2(Value x);

  /// Two f32 rounded to `elt` and packed into one i32 (x in the low half).
  Value pack(Value x, Value y);

  Type eltType() const { return elt; }

private:
  ImplicitLocOpBuilder &b;
  Type elt;
  Value smemBase;
  int64_t threads;
};

} // namespace attn
} // namespace mlir

#endif // ATTN_LIB_CONVERSION_ATTNTONVVM_WARPMMA_H
