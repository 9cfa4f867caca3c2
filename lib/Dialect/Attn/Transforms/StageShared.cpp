//===- StageShared.cpp - tiles in shared memory become buffers ------------===//
//
// After attn-assign-layouts, a tile whose type has the #attn.swizzled
// encoding is one that dots read from shared memory (#attn.unswizzled:
// one that attn-stage-loads staged, read back into registers). This pass makes the
// shared memory explicit, with the simplest schedule that is correct (no
// copy overlaps anything; attn-pipeline improves on it).
//
// Algorithm (per attn.program):
//  1. Each attn.load of a swizzled tile becomes an attn.async_copy into a
//     buffer, then attn.async_commit; each convert_layout to a swizzled
//     tile an attn.local_store into a buffer (the buffer of the tile it is
//     an elementwise function of, where nothing else reads it:
//     inPlaceBuffer). Buffers are allocated once:
//     outside loops at the load, and for loads inside a run of consecutive
//     loops of the program body, before the run, one buffer per (source,
//     tile type) shared by the loops of the run (they run one after the
//     other, so they can reuse it; attn-split-kv-loop makes such runs).
//     A convert_layout of such a tile back to #attn.mma (a load that
//     attn-stage-loads staged) becomes an attn.local_load of the buffer.
//  2. Before each op that reads a buffer: attn.async_wait {pending = 0}
//     and a barrier (the copy landed, and every thread's part is visible).
//  3. At the end of every loop body that writes a buffer: a barrier, so
//     that no thread overwrites a buffer in the next iteration while
//     another still reads it.
//
//===----------------------------------------------------------------------===//

#include "attn/Dialect/Attn/Transforms/ElementwiseChain.h"
#include "attn/Dialect/Attn/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"

namespace mlir {
namespace attn {
#define GEN_PASS_DEF_ATTNSTAGESHARED
#include "attn/Dialect/Attn/Transforms/Passes.h.inc"
} // namespace attn
} // namespace mlir

using namespace mlir;
using namespace mlir::attn;

namespace {

/// The op of the program body that holds `op` (op itself at top level).
static Operation *topLevelAncestor(Operation *op, Block *body) {
  while (op->getBlock() != body)
    op = op->getParentOp();
  return op;
}

/// The first op of the run of consecutive scf.for ops (with only
/// side-effect free ops between them) that `loop` belongs to.
static Operation *runStart(Operation *loop) {
  Operation *start = loop;
  for (Operation *op = loop->getPrevNode(); op; op = op->getPrevNode()) {
    if (isa<scf::ForOp>(op))
      start = op;
    else if (!isMemoryEffectFree(op))
      break;
  }
  return start;
}

/// The buffer that `convert` (to shared memory) may store its tile into in
/// place of a new one: where the tile is an elementwise function (one
/// non-constant operand an op) of an attn.local_load of a buffer of the
/// same type that nothing else reads (a scaled Q over its copy): each
/// thread reads its elements before it writes them, in the same layout.
static Value inPlaceBuffer(ConvertLayoutOp convert) {
  auto read =
      dyn_cast_or_null<LocalLoadOp>(elementwiseChainRoot(convert.getSource()));
  if (!read || read.getType().getEncoding() !=
                   convert.getSource().getType().getEncoding())
    return Value();
  Value buffer = read.getSource();
  RankedTensorType type = convert.getType();
  if (buffer.getType() !=
      SharedBufferType::get(convert.getContext(), type.getShape(),
                            type.getElementType(), type.getEncoding()))
    return Value();
  for (Operation *user : buffer.getUsers())
    if (user != read.getOperation() && !isa<AsyncCopyOp>(user))
      return Value();
  return buffer;
}

class Stager {
public:
  explicit Stager(ProgramOp program) : program(program) {}
  LogicalResult run();

private:
  ProgramOp program;
  /// Buffers by (run start, source, type, ordinal): the ordinal counts the
  /// tiles of that source and type staged in one loop before this one, so
  /// that the clones of one load in the loops of a run share a buffer and
  /// two tiles of one loop body do not. The run start is null outside
  /// loops, where every tile gets its own buffer.
  DenseMap<std::tuple<Operation *, Value, Type, unsigned>, Value> shared;
  DenseMap<std::tuple<Operation *, Value, Type>, unsigned> ordinals;

  Value allocate(Operation *at, Value source, SharedBufferType type);
  /// The 2-D plane of `load`'s source that its tile lies in (a
  /// memref.subview at its leading indices), created once per source and
  /// leading indices where the load's buffer is allocated; the source
  /// itself when it has rank 2.
  Value plane(LoadOp load, Operation *allocation);
  DenseMap<std::pair<Operation *, Value>, SmallVector<std::pair<SmallVector<Value>, Value>>> planes;
  Operation *lastAllocPoint = nullptr;
  SharedBufferType bufferType(RankedTensorType tile) {
    return SharedBufferType::get(tile.getContext(), tile.getShape(),
                                 tile.getElementType(), tile.getEncoding());
  }
};

Value Stager::allocate(Operation *at, Value source, SharedBufferType type) {
  Block *body = &program.getBody().front();
  Operation *top = topLevelAncestor(at, body);
  Operation *start = isa<scf::ForOp>(top) && top != at ? runStart(top) : nullptr;
  unsigned ordinal = start ? ordinals[{top, source, type}]++ : 0;
  Value &buffer = shared[{start, source, type, ordinal}];
  if (buffer && start)
    return buffer;
  OpBuilder b(start ? start : at);
  buffer = LocalAllocOp::create(b, at->getLoc(), type, IntegerAttr());
  return buffer;
}

Value Stager::plane(LoadOp load, Operation *allocation) {
  auto type = cast<MemRefType>(load.getSource().getType());
  int64_t rank = type.getRank();
  if (rank <= 2)
    return load.getSource();
  SmallVector<Value> leading(load.getIndices().take_front(rank - 2));
  // Where the buffer was allocated, if the leading indices are available
  // there (they are for K/V loops: batch and head); else at the load.
  Operation *at = allocation;
  for (Value idx : leading)
    if (Operation *def = idx.getDefiningOp();
        def && def->getBlock() == at->getBlock() && !def->isBeforeInBlock(at))
      at = load;
  if (at != load && !llvm::all_of(leading, [&](Value idx) {
        return idx.getParentRegion()->isAncestor(at->getParentRegion());
      }))
    at = load;
  auto &known = planes[{at, load.getSource()}];
  for (auto &[indices, plane] : known)
    if (indices == leading)
      return plane;
  OpBuilder b(at);
  Location loc = load.getLoc();
  SmallVector<OpFoldResult> offsets, sizes, strides;
  for (Value idx : leading) {
    offsets.push_back(idx);
    sizes.push_back(b.getIndexAttr(1));
  }
  for (int64_t d = rank - 2; d < rank; ++d) {
    offsets.push_back(b.getIndexAttr(0));
    if (type.isDynamicDim(d))
      sizes.push_back(
          memref::DimOp::create(b, loc, load.getSource(), d).getResult());
    else
      sizes.push_back(b.getIndexAttr(type.getDimSize(d)));
  }
  strides.assign(rank, b.getIndexAttr(1));
  auto planeType = memref::SubViewOp::inferRankReducedResultType(
      type.getShape().take_back(2), type, offsets, sizes, strides);
  Value plane = memref::SubViewOp::create(b, loc, cast<MemRefType>(planeType),
                                          load.getSource(), offsets, sizes,
                                          strides);
  known.push_back({leading, plane});
  return plane;
}

LogicalResult Stager::run() {
  // Step 1.
  SmallVector<Operation *> staged;
  program.getBody().walk([&](Operation *op) {
    if (op->getNumResults() != 1)
      return;
    auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    bool shared = type && isa_and_nonnull<SwizzledSharedLayoutAttr,
                                          UnswizzledSharedLayoutAttr>(
                              type.getEncoding());
    if (shared && isa<LoadOp, ConvertLayoutOp>(op))
      staged.push_back(op);
  });
  DenseSet<Operation *> writingLoops;
  for (Operation *op : staged) {
    auto type = cast<RankedTensorType>(op->getResult(0).getType());
    OpBuilder b(op);
    Location loc = op->getLoc();
    Value buffer;
    if (auto load = dyn_cast<LoadOp>(op)) {
      buffer = allocate(op, load.getSource(), bufferType(type));
      Value source = plane(load, buffer.getDefiningOp());
      b.setInsertionPoint(op);
      AsyncCopyOp::create(b, loc, source,
                          load.getIndices().take_back(
                              cast<MemRefType>(source.getType()).getRank()),
                          buffer);
      AsyncCommitOp::create(b, loc);
    } else {
      auto convert = cast<ConvertLayoutOp>(op);
      buffer = inPlaceBuffer(convert);
      if (!buffer)
        buffer = allocate(op, Value(), bufferType(type));
      b.setInsertionPoint(op);
      LocalStoreOp::create(b, loc, convert.getSource(), buffer);
    }
    for (Operation *parent = op->getParentOp(); parent != program;
         parent = parent->getParentOp())
      if (isa<scf::ForOp>(parent))
        writingLoops.insert(parent);
    // Step 2: every reader waits for the copy and for the other threads.
    for (OpOperand &use : llvm::make_early_inc_range(op->getUses())) {
      Operation *user = use.getOwner();
      auto readBack = dyn_cast<ConvertLayoutOp>(user);
      if (!isa<DotOp>(user) &&
          !(readBack && isa_and_nonnull<MmaLayoutAttr>(
                            readBack.getType().getEncoding())))
        return user->emitOpError()
               << "reads a tile staged in shared memory; only attn.dot and "
                  "a conversion to #attn.mma (attn.local_load) read shared "
                  "memory";
      Operation *prev = user->getPrevNode();
      bool synced = prev && isa<gpu::BarrierOp>(prev) && prev->getPrevNode() &&
                    isa<AsyncWaitOp>(prev->getPrevNode()) &&
                    cast<AsyncWaitOp>(prev->getPrevNode()).getPending() == 0;
      if (!synced) {
        OpBuilder ub(user);
        AsyncWaitOp::create(ub, user->getLoc(), 0);
        gpu::BarrierOp::create(ub, user->getLoc());
      }
      if (readBack) {
        OpBuilder rb(user);
        Value read = LocalLoadOp::create(rb, user->getLoc(), readBack.getType(),
                                         buffer);
        readBack.getResult().replaceAllUsesWith(read);
        user->erase();
        continue;
      }
      use.set(buffer);
    }
    op->erase();
  }
  // Step 3.
  for (Operation *loop : writingLoops) {
    Operation *yield = cast<scf::ForOp>(loop).getBody()->getTerminator();
    OpBuilder b(yield);
    gpu::BarrierOp::create(b, loop->getLoc());
  }
  return success();
}

struct AttnStageSharedPass
    : public attn::impl::AttnStageSharedBase<AttnStageSharedPass> {
  void runOnOperation() override {
    bool failedAny = false;
    getOperation()->walk([&](ProgramOp program) {
      if (failed(Stager(program).run()))
        failedAny = true;
    });
    if (failedAny)
      signalPassFailure();
  }
};
} // namespace
