//===- Pipeline.cpp - overlap the K/V copies with the products ------------===//
//
// attn-stage-shared leaves every copy at its load, waited for right before
// its first reader. This pass software-pipelines the copies of a chain of
// K/V loops (consecutive scf.for over one contiguous range of positions, as
// attn-tile, attn-split-kv-loop and attn-reverse-kv-loops build them) by
// the `stages` of the program's tile configuration.
//
// Algorithm (per attn.program, per chain):
//  1. Check the chain: step 1, each loop starting where the previous one
//     ends; every loop body copies into the same buffers in the same order,
//     each copy at the top level of the body, its indices the same pure
//     function of the loop's position in every loop (so a copy for position
//     p can be issued from any loop, or before the chain).
//  2. stages = 1, two copies (K, read by the first product; V, by a later
//     one): K is prefetched one block ahead into the one K buffer: the
//     first block's K before the chain; in each block, V is issued where K
//     was, S waits for all but the newest group (K and Q), a barrier after
//     S lets the next block's K into the buffer (behind a guard, one commit
//     group per block either way), and P V waits for all but the newest
//     group (V, while K goes on). Not when K is read by an async product
//     (attn-overlap-softmax): it reads K until its wait, past that barrier.
//  3. stages = s > 1: the buffers get s stages; block j lives in stage
//     j % s. Before the chain, blocks lo .. lo + s - 2 are issued (one
//     commit group each, empty past the range). Each block waits for its
//     own group (all but the newest s - 2), passes one barrier (every
//     thread is done with block j - 1), then issues block j + s - 1 into
//     block j - 1's stage; no other wait or barrier remains in the body.
//  4. Other shapes keep the schedule attn-stage-shared made (with a
//     warning when stages > 1 was asked for).
//  5. Tiles a K/V loop loads into registers (a bias), as a pure function of
//     its position from a buffer the program does not write, are loaded at
//     the top of the body, so that the Q K^T product hides the load's
//     latency (attn-tile loads the bias next to its use, after the
//     product). Prefetching them a block ahead (a second tile carried
//     across iterations) was tried: 30-55 registers more, and spills for
//     bf16 at the 64 x 64 tiles.
//  6. A product in flight across iterations (async_pv's P V, yielded
//     async) is an error here: only attn-warp-specialize's mbarrier ring
//     releases its buffer after the next iteration's wait.
//
//===----------------------------------------------------------------------===//

#include "attn/Dialect/Attn/Transforms/CopyChains.h"
#include "attn/Dialect/Attn/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"

namespace mlir {
namespace attn {
#define GEN_PASS_DEF_ATTNPIPELINE
#include "attn/Dialect/Attn/Transforms/Passes.h.inc"
} // namespace attn
} // namespace mlir

using namespace mlir;
using namespace mlir::attn;

namespace {

class Pipeliner {
public:
  Pipeliner(ProgramOp program, int64_t stages)
      : program(program), stages(stages) {}
  void run();

private:
  ProgramOp program;
  int64_t stages;

  void prefetchFirst(CopyChain &chain);
  void ring(CopyChain &chain);
  void hoistRegisterLoads(scf::ForOp loop);
  /// Issues the copies of loop `loop` for position `position` at `b`; with
  /// a stage, into that stage of the (multi-stage) buffers in `staged`.
  void issue(OpBuilder &b, scf::ForOp loop, MutableArrayRef<ChainCopy> copies,
             Value position, Value stage, ArrayRef<Value> staged);
};

void Pipeliner::issue(OpBuilder &b, scf::ForOp loop,
                      MutableArrayRef<ChainCopy> copies,
                      Value position, Value stage, ArrayRef<Value> staged) {
  IRMapping mapping;
  mapping.map(loop.getInductionVar(), position);
  for (auto [i, copy] : llvm::enumerate(copies)) {
    SmallVector<Value> indices;
    for (Value idx : copy.op.getIndices())
      indices.push_back(cloneAt(b, idx, loop, position, mapping));
    Value dest = copy.op.getDest();
    if (stage) {
      auto type = cast<SharedBufferType>(staged[i].getType());
      dest = LocalViewOp::create(b, copy.op.getLoc(), type.dropLeadingDim(),
                                 staged[i], stage);
    }
    AsyncCopyOp::create(b, copy.op.getLoc(), copy.op.getSource(), indices,
                        dest);
  }
}

/// Sets the wait right before `reader` (attn-stage-shared put one there,
/// followed by a barrier) to `pending`.
static bool setWaitBefore(Operation *reader, int64_t pending) {
  Operation *barrier = reader->getPrevNode();
  auto wait = barrier ? dyn_cast_or_null<AsyncWaitOp>(barrier->getPrevNode())
                      : AsyncWaitOp();
  if (!isa_and_nonnull<gpu::BarrierOp>(barrier) || !wait)
    return false;
  wait.setPending(pending);
  return true;
}

void Pipeliner::prefetchFirst(CopyChain &chain) {
  // Step 2. Check first, rewrite after: K (copy 0) is read first, V later.
  for (auto [loop, copies] : llvm::zip(chain.loops, chain.copies)) {
    Operation *kReader = firstReader(loop, copies[0].op.getDest());
    Operation *vReader = firstReader(loop, copies[1].op.getDest());
    // An async product reads K until its wait: the barrier after the
    // reader would let the next block's K in too early.
    bool asyncReader = false;
    if (kReader)
      kReader->walk([&](DotOp dot) { asyncReader |= dot.getAsync(); });
    if (asyncReader || !kReader || !vReader ||
        !kReader->isBeforeInBlock(vReader) ||
        !copies[0].op->isBeforeInBlock(kReader) ||
        !copies[1].op->isBeforeInBlock(vReader) ||
        !isa_and_nonnull<AsyncWaitOp>(kReader->getPrevNode()
                                          ? kReader->getPrevNode()->getPrevNode()
                                          : nullptr) ||
        !isa_and_nonnull<AsyncWaitOp>(vReader->getPrevNode()
                                          ? vReader->getPrevNode()->getPrevNode()
                                          : nullptr))
      return;
    // V moves up to where K was: its indices must be available there.
    for (Value idx : copies[1].op.getIndices())
      if (Operation *def = idx.getDefiningOp();
          def && def->getBlock() == loop.getBody() &&
          !def->isBeforeInBlock(copies[0].op))
        return;
  }
  Value lo = chain.lower(), hi = chain.upper();
  scf::ForOp firstLoop = chain.loops.front();
  Location loc = firstLoop.getLoc();
  // The first block's K, before the chain.
  {
    OpBuilder b(firstLoop);
    Value any = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, lo, hi);
    auto ifOp = scf::IfOp::create(b, loc, any, /*withElseRegion=*/false);
    OpBuilder inner = OpBuilder::atBlockBegin(ifOp.thenBlock());
    issue(inner, firstLoop, MutableArrayRef(chain.copies.front()).take_front(1), lo,
          Value(), {});
    AsyncCommitOp::create(b, loc);
  }
  for (auto [loop, copies] : llvm::zip(chain.loops, chain.copies)) {
    ChainCopy k = copies[0], v = copies[1];
    Operation *kReader = firstReader(loop, k.op.getDest());
    Operation *vReader = firstReader(loop, v.op.getDest());
    // V where K was.
    v.op->moveBefore(k.op);
    v.commit->moveAfter(v.op);
    // S waits for K (and Q), not V; P V for V, not the next K.
    setWaitBefore(kReader, 1);
    setWaitBefore(vReader, 1);
    // Once every thread is done with K, the next block's K.
    OpBuilder b(loop.getContext());
    b.setInsertionPointAfter(kReader);
    Location l = loop.getLoc();
    gpu::BarrierOp::create(b, l);
    Value next = arith::AddIOp::create(
        b, l, loop.getInductionVar(), arith::ConstantIndexOp::create(b, l, 1));
    Value more =
        arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, next, hi);
    auto ifOp = scf::IfOp::create(b, l, more, /*withElseRegion=*/false);
    OpBuilder inner = OpBuilder::atBlockBegin(ifOp.thenBlock());
    issue(inner, loop, MutableArrayRef(copies).take_front(1), next, Value(),
          {});
    // One group per block, copy or not, so that the waits count the same
    // groups in every block.
    AsyncCommitOp::create(b, l);
    k.commit->erase();
    k.op->erase();
  }
}

void Pipeliner::ring(CopyChain &chain) {
  // Step 3. The buffers with `stages` stages.
  SmallVector<Value> staged;
  for (Value buffer : chain.buffers) {
    auto alloc = buffer.getDefiningOp<LocalAllocOp>();
    auto type = cast<SharedBufferType>(buffer.getType());
    SmallVector<int64_t> shape{stages};
    llvm::append_range(shape, type.getShape());
    OpBuilder b(alloc);
    staged.push_back(LocalAllocOp::create(
        b, alloc.getLoc(),
        SharedBufferType::get(type.getContext(), shape, type.getElementType(),
                              type.getLayout()),
        IntegerAttr()));
  }
  Value lo = chain.lower(), hi = chain.upper();
  scf::ForOp firstLoop = chain.loops.front();
  Location loc = firstLoop.getLoc();
  {
    // Blocks lo .. lo + stages - 2, before the chain.
    OpBuilder b(firstLoop);
    Value s = arith::ConstantIndexOp::create(b, loc, stages);
    for (int64_t i = 0; i + 1 < stages; ++i) {
      Value blk = arith::AddIOp::create(
          b, loc, lo, arith::ConstantIndexOp::create(b, loc, i));
      Value any =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, blk, hi);
      auto ifOp = scf::IfOp::create(b, loc, any, /*withElseRegion=*/false);
      OpBuilder inner = OpBuilder::atBlockBegin(ifOp.thenBlock());
      Value stage = arith::RemUIOp::create(inner, loc, blk, s);
      issue(inner, firstLoop, chain.copies.front(), blk, stage, staged);
      AsyncCommitOp::create(b, loc);
    }
  }
  for (auto [loop, copies] : llvm::zip(chain.loops, chain.copies)) {
    Location l = loop.getLoc();
    OpBuilder b = OpBuilder::atBlockBegin(loop.getBody());
    Value s = arith::ConstantIndexOp::create(b, l, stages);
    Value iv = loop.getInductionVar();
    // Block j lives in stage j % stages (by the absolute position: no
    // first-block register across the loop).
    Value stage = arith::RemUIOp::create(b, l, iv, s);
    // This block's stage of every buffer, for its readers.
    for (auto [buffer, multi] : llvm::zip(chain.buffers, staged)) {
      auto type = cast<SharedBufferType>(buffer.getType());
      Value view = LocalViewOp::create(b, l, type, multi, stage);
      buffer.replaceUsesWithIf(view, [&](OpOperand &use) {
        return loop->isAncestor(use.getOwner());
      });
    }
    AsyncWaitOp::create(b, l, stages - 2);
    gpu::BarrierOp::create(b, l);
    Value ahead = arith::AddIOp::create(
        b, l, iv, arith::ConstantIndexOp::create(b, l, stages - 1));
    Value more =
        arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, ahead, hi);
    auto ifOp = scf::IfOp::create(b, l, more, /*withElseRegion=*/false);
    {
      OpBuilder inner = OpBuilder::atBlockBegin(ifOp.thenBlock());
      Value aheadStage = arith::RemUIOp::create(
          inner, l,
          arith::AddIOp::create(
              inner, l, stage,
              arith::ConstantIndexOp::create(inner, l, stages - 1)),
          s);
      issue(inner, loop, copies, ahead, aheadStage, staged);
    }
    AsyncCommitOp::create(b, l);
    // The copies, waits and barriers of attn-stage-shared go.
    for (ChainCopy &c : copies) {
      c.commit->erase();
      c.op->erase();
    }
    for (Operation &op :
         llvm::make_early_inc_range(loop.getBody()->without_terminator())) {
      if (&op == ifOp.getOperation() || op.isBeforeInBlock(ifOp))
        continue;
      if (isa<AsyncWaitOp, gpu::BarrierOp>(op))
        op.erase();
    }
  }
  for (Value buffer : chain.buffers)
    buffer.getDefiningOp()->erase();
}

/// The register tile loads of `loop` that step 5 can move, in body order:
/// at the top level of the body, a pure function of the position, from a
/// buffer of `program` that nothing in it writes.
static SmallVector<LoadOp> hoistableLoads(ProgramOp program,
                                          scf::ForOp loop) {
  SmallVector<LoadOp> loads;
  if (!matchPattern(loop.getStep(), m_One()))
    return loads;
  for (Operation &op : loop.getBody()->without_terminator()) {
    auto load = dyn_cast<LoadOp>(op);
    if (!load || !isa_and_nonnull<RegisterLayoutInterface>(
                     load.getType().getEncoding()))
      continue;
    Value source = load.getSource();
    bool written = llvm::any_of(source.getUsers(), [&](Operation *user) {
      return user != program && program->isAncestor(user) &&
             !isa<LoadOp, memref::DimOp>(user);
    });
    bool fromProgram = llvm::is_contained(program.getBuffers(), source);
    if (written || !fromProgram ||
        !llvm::all_of(load.getIndices(),
                      [&](Value v) { return isPureFunctionOfIV(v, loop); }))
      continue;
    loads.push_back(load);
  }
  return loads;
}

void Pipeliner::hoistRegisterLoads(scf::ForOp loop) {
  // Step 5: each load, with what its indices are computed from, moves to
  // the top of the body, where the copy schedule's waits end.
  SmallVector<LoadOp> loads = hoistableLoads(program, loop);
  if (loads.empty())
    return;
  Block *body = loop.getBody();
  OpBuilder b = OpBuilder::atBlockBegin(body);
  IRMapping mapping;
  for (LoadOp load : loads) {
    SmallVector<Value> indices;
    for (Value idx : load.getIndices())
      indices.push_back(
          cloneAt(b, idx, loop, loop.getInductionVar(), mapping));
    Value early = LoadOp::create(b, load.getLoc(), load.getType(),
                                 load.getSource(), indices);
    load.getResult().replaceAllUsesWith(early);
    load.erase();
  }
}

void Pipeliner::run() {
  for (CopyChain &chain : findCopyChains(program)) {
    if (!checkCopyChain(chain)) {
      if (stages > 1)
        chain.loops.front().emitWarning()
            << "stages = " << stages
            << " needs K/V loops over one contiguous range of blocks whose "
               "copies are the same function of the block; these copies "
               "are not pipelined";
      continue;
    }
    if (stages == 1) {
      if (chain.buffers.size() == 2)
        prefetchFirst(chain);
      continue;
    }
    ring(chain);
  }
  // Step 5, after the copy schedule is in place: the loads go above its
  // top-of-body waits too.
  program.getBody().walk([&](scf::ForOp loop) {
    if (loop->getParentOp() == program)
      hoistRegisterLoads(loop);
  });
}

struct AttnPipelinePass
    : public attn::impl::AttnPipelineBase<AttnPipelinePass> {
  void runOnOperation() override {
    getOperation()->walk([&](ProgramOp program) {
      // attn-warp-specialize scheduled the copies of such programs (where
      // it could).
      bool specialized = false;
      program.walk([&](WarpSpecializeOp) { specialized = true; });
      if (specialized)
        return;
      // A product in flight across an iteration (async_pv's P V) reads
      // its shared buffer past the barrier at the end of the body, where
      // the cp.async ring copies the next block into it: only the
      // mbarrier ring of attn-warp-specialize releases the buffer after
      // the next iteration's wait.
      WalkResult inFlight = program.walk([&](DotOp dot) {
        if (!dot.getAsync() ||
            !llvm::any_of(dot->getUsers(), [](Operation *user) {
              return isa<scf::YieldOp>(user);
            }))
          return WalkResult::advance();
        dot.emitError() << "an asynchronous product in flight across K/V "
                           "iterations (async_pv) reads shared buffers that "
                           "only attn-warp-specialize's mbarrier ring "
                           "releases after its wait; this program keeps the "
                           "cp.async schedule (see the warning of "
                           "attn-warp-specialize)";
        return WalkResult::interrupt();
      });
      if (inFlight.wasInterrupted())
        return signalPassFailure();
      if (TileConfigAttr config = program.getConfigAttr())
        Pipeliner(program, config.getStages()).run();
    });
  }
};
} // namespace
