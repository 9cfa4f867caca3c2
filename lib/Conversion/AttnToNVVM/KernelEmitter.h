//===- KernelEmitter.h - one attn.program to one sm_80 kernel ---*- C++ -*-===//
//
// Walks the body of an attn.program in order and emits, into a gpu.func,
// the per-thread code of the FlashAttention-2 kernel: index arithmetic is
// cloned, tile ops become cp.async / ldmatrix / mma.sync code on register
// fragments (docs/gpu-kernels.md). Fragments.cpp holds the tile math,
// KernelEmitter.cpp the walk, the loads, the loops and the stores.
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_LIB_CONVERSION_ATTNTONVVM_KERNELEMITTER_H
#define ATTN_LIB_CONVERSION_ATTNTONVVM_KERNELEMITTER_H

#include "ProgramInfo.h"
#include "WarpMMA.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

#include <functional>

namespace mlir {
namespace attn {
namespace sm80 {

/// Per-thread registers of tile values in the mma accumulator layout.
/// Row values of a thread: for m-tile mt, rows g (2 mt) and g + 8 (2 mt + 1).
struct RowState {
  SmallVector<Value, 4> rows;
};
/// Accumulator registers: m-tile mt, n8 column tile nt at [mt * NT + nt].
struct AccTile {
  SmallVector<std::array<Value, 4>> tiles;
};
/// P rounded to f16/bf16 and repacked as A operands: m-tile mt, k16 step kk
/// at [mt * KS + kk].
struct PackedA {
  SmallVector<std::array<Value, 4>> steps;
};


/// Emits the kernel of one program into `kernel` (whose entry block holds
/// the kernel arguments in ABI order) at `b`.
class KernelEmitter {
public:
  KernelEmitter(ProgramInfo &info, gpu::GPUFuncOp kernel, ImplicitLocOpBuilder &b,
                Value smemBase)
      : info(info), b(b),
        mma(b, info.elt, smemBase, 32 * info.warps) {
    Block &entry = kernel.getBody().front();
    for (int r = 0; r < NumRoles; ++r)
      ptr[r] = entry.getArgument(r);
    auto arg = [&](int i) -> Value { return entry.getArgument(NumRoles + i); };
    auto asIndex = [&](Value v) -> Value {
      return arith::IndexCastOp::create(b, b.getIndexType(), v);
    };
    batch = asIndex(arg(0));
    hq = asIndex(arg(1));
    hkv = asIndex(arg(2));
    nq = asIndex(arg(3));
    nk = asIndex(arg(4));
    for (int r = 0; r < NumRoles; ++r)
      for (int s = 0; s < 3; ++s)
        if (r != LSE || s < 2)
          strides[r][s] = arg(5 + 3 * r + s);
    // Values from outside the program (sizes, constants, block ids) are
    // materialised before this op, at the top of the kernel, so that they
    // dominate every use whichever loop asks for them first.
    prologueEnd = mma.i32(0).getDefiningOp();
  }

  LogicalResult emit();

private:
  // Values of the host function / program, materialised in the kernel.
  FailureOr<Value> lookup(Value v);
  LogicalResult cloneScalarOp(Operation *op);

  // Tile ops.
  LogicalResult emitLoad(LoadOp load, int64_t smemOffset, Role role,
                         Value row0Override = Value(),
                         Value stageOffset = Value());
  FailureOr<Value> rowOffset(Role role, ValueRange indices);
  AccTile emitScores(DotOp dot);
  void emitMask(MaskOp op, AccTile &s, Value row0, Value col0);
  void emitOnlineSoftmax(AccTile &s, RowState &m, RowState &l, AccTile &acc);
  /// acc *= alphas (one per row of the thread), unless all are 1.
  void rescale(AccTile &acc, ArrayRef<Value> alphas);
  PackedA packProbs(const AccTile &p);
  void emitPV(const PackedA &p, AccTile &acc, Value col0Unused);
  /// Per-lane shared byte offsets of the first Q, K and V fragments.
  struct LaneBases {
    Value q, k, v;
  };
  LaneBases laneBases();
  /// Shared byte offset of one ldmatrix operand (see Fragments.cpp).
  Value fragmentOffset(Value laneBase, int64_t chunkDelta, int64_t imm,
                       Value stage);
  LogicalResult emitLoop(scf::ForOp loop);
  void unflatten(ValueRange values, RowState &m, RowState &l, AccTile &acc);
  LogicalResult emitStores(FinalizeOp fin, ArrayRef<StoreOp> stores);

  /// Row of this thread within the block (i32) for m-tile `mt`, half 0/1.
  Value rowOf(int64_t mt, int half);
  Value toI32(Value index) {
    return arith::IndexCastOp::create(b, b.getI32Type(), index);
  }
  Value toIndex(Value i32v) {
    return arith::IndexCastOp::create(b, b.getIndexType(), i32v);
  }

  ProgramInfo &info;
  ImplicitLocOpBuilder &b;
  WarpMMA mma;
  std::array<Value, NumRoles> ptr;
  std::array<std::array<Value, 3>, NumRoles> strides{};
  Value batch, hq, hkv, nq, nk;
  IRMapping mapping;
  // Per-role global offset (element units, i64) of the (batch, head) plane
  // and the first row of the block, for the loads/stores seen.
  DenseMap<Value, RowState> rowStates;
  DenseMap<Value, AccTile> accTiles;
  DenseMap<Value, PackedA> packed;
  DenseMap<Value, double> splats;
  Operation *prologueEnd;
  // K prefetch across the K/V loops (see emit()): the K load to repeat for
  // the next block and the end of the visible block range.
  LoadOp prefetchK;
  Value kvUpper;
  // Multi-stage K/V buffers (stages > 1): the V load repeated for every
  // block (with prefetchK), and the byte offsets of the current block's K
  // and V buffers relative to the first ones (null with one stage).
  LoadOp firstV;
  /// Pointer to the (batch, head) plane `load` reads (cached for K and V).
  FailureOr<Value> planeBase(LoadOp load, Role role);
  std::array<Value, NumRoles> planeBases{};
  /// The copy plan of `role`'s tensor for `load`'s (batch, head).
  FailureOr<WarpMMA::CopyPlan> planCopy(LoadOp load, Role role);
  /// Issues the copies of block j + stages - 1 (set per loop body; emitted
  /// once, where takeIssueAhead() is first called).
  std::function<LogicalResult()> issueAhead;
  LogicalResult takeIssueAhead() {
    if (!issueAhead)
      return success();
    auto fn = std::move(issueAhead);
    issueAhead = nullptr;
    return fn();
  }
  Value kStage, vStage;
  /// With loop_local_ids, the kernel's thread ids while a loop body is
  /// emitted with its own (restored after the loop).
  std::optional<std::array<Value, 5>> outerIds;
  /// K and V of the block at loop position `position` into stage buffer
  /// `stage` (i32); with a null stage (one stage), only K, into the single
  /// K buffer.
  LogicalResult issueBlock(Value position, Value stage);
  bool findPrefetchable(ArrayRef<scf::ForOp> loops);
  /// Whether `offset` is the first key of the block that loop position
  /// `iv` visits: `iv * block_n`, or `(last - iv) * block_n` after
  /// attn-reverse-kv-loops (then `last` must be the same for every loop and
  /// is recorded in `reversedFrom`).
  bool isBlockAt(Value offset, Value iv);
  /// The block index that loop position `position` visits (index).
  FailureOr<Value> blockAt(Value position);
  Value reversedFrom;
};

} // namespace sm80
} // namespace attn
} // namespace mlir

#endif // ATTN_LIB_CONVERSION_ATTNTONVVM_KERNELEMITTER_H
