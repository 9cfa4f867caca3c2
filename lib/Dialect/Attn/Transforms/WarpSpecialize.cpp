//===- WarpSpecialize.cpp - a TMA producer warpgroup and its consumers ----===//
//
// The cp.async ring of attn-pipeline has every thread copy, so each K/V
// block starts with a CTA-wide barrier that keeps the warpgroups in
// lockstep (a third of the stall cycles of the sm_90a kernels, ncu,
// docs/perf-log.md). Here one producer thread issues every copy with TMA
// and the consumers wait for each stage on an mbarrier, as FlashAttention-3
// does: nothing in the K/V loop waits for all threads.
//
// Algorithm (per attn.program whose #attn.gpu_config has warp_specialize;
// the program as attn-stage-shared left it):
//  1. Check: wgmma, no async products, nothing staged from registers in
//     the K/V loops (a tile stored before them, a scaled Q, moves to the
//     consumers with the code that computes it; step 3); one
//     chain of K/V loops (CopyChains.h) copying K then V; the other copies
//     (Q) at the top level before the chain; every copy reads a program
//     buffer whole (directly, or through a rank-reducing unit-stride
//     subview of its full trailing extents, so that rows past the end read
//     zeros from TMA as they do from cp.async), and no buffer copied with
//     two tile heights (a kernel has one TMA descriptor per buffer).
//     Anything else keeps the cp.async schedule of attn-pipeline, with a
//     warning that says why (the knob is a schedule, not semantics).
//  2. Barriers at the top of the program: `pre` (the copies before the
//     chain, one arrival each), and per copy of the chain `full` (one
//     arrival, the producer's) and `empty` (every consumer thread) with
//     `stages` barriers; the chain's buffers get `stages` stages. A copy
//     before the chain from a buffer the chain copies (attn-overlap-
//     softmax's first K block, read by synchronous products before the
//     chain only) is a "lead": it takes the ring position in front of the
//     chain's (lower - 1) in that copy's ring, whose later positions shift
//     by one, instead of a buffer and a `pre` arrival of its own.
//  3. attn.warp_specialize replaces the program from the first chain loop
//     to its end: `consumers` is that code; `producer` issues the copies
//     before the chain (into `pre`), then for every block t of the chain,
//     relative block r = t - lo, stage r % stages, phase r / stages:
//     waits for `empty[stage]` of the phase before and copies into the
//     stage (announcing to `full[stage]`).
//  4. In every chain loop: the block's stage and phase at the top; before
//     the first reader of a copy's buffer a wait for `full[stage]`, after
//     the last an arrival at `empty[stage]` (the products are waited for
//     at the op: their shared-memory reads are done); the cp.async copies,
//     commits, waits and barriers go. The consumers start by waiting for
//     `pre`.
//  5. With `ping_pong` (two or more consumer warpgroups): every product of
//     a chain loop becomes one turn (attn.turn_wait before it, after its
//     stage's full wait; attn.turn_signal after it), so that the
//     warpgroups' products alternate and one's softmax runs under
//     another's products. With `async_pv` the body's products (issued
//     back to back, waited for later) are one turn together.
//  6. With `peel_last_block` (and `overlap_softmax`, not `ping_pong`): the
//     last block runs once, after the chain, without the spare product of
//     the next block (PeelLastBlock.h).
//  7. With `persistent`: both roles loop over the tiles (PersistentTiles.h),
//     every chain position offset by the blocks of the CTA's earlier tiles.
//
//===----------------------------------------------------------------------===//

#include "attn/Dialect/Attn/Transforms/CopyChains.h"
#include "attn/Dialect/Attn/Transforms/Passes.h"
#include "attn/Dialect/Attn/Transforms/PeelLastBlock.h"
#include "attn/Dialect/Attn/Transforms/PersistentTiles.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"

namespace mlir {
namespace attn {
#define GEN_PASS_DEF_ATTNWARPSPECIALIZE
#include "attn/Dialect/Attn/Transforms/Passes.h.inc"
} // namespace attn
} // namespace mlir

using namespace mlir;
using namespace mlir::attn;

namespace {

/// Where a TMA copy reads: a program buffer and the full-rank indices of
/// the tile's first element (built at the copy's place by `tmaSource`).
struct TmaSource {
  Value buffer;
  SmallVector<Value> indices;
};

/// Whether `size` is the extent of `buffer`'s dimension `d`.
// Whether `op` only reads memory (a scalar such as an ALiBi slope loaded
// before the K/V loops): the producer's threads may run it too, as they
// run the side-effect free code there. A read changes nothing another
// thread sees; where only the consumers use the value, the producer's
// copy of it is dead code.
static bool onlyReadsMemory(Operation &op) {
  auto iface = dyn_cast<MemoryEffectOpInterface>(op);
  if (!iface || op.getNumRegions() != 0)
    return false;
  SmallVector<MemoryEffects::EffectInstance> effects;
  iface.getEffects(effects);
  return llvm::all_of(effects, [](const MemoryEffects::EffectInstance &e) {
    return isa<MemoryEffects::Read>(e.getEffect());
  });
}

/// Whether `op`, before the K/V chain, moves to the consumers: a product,
/// a tile load (attn-overlap-softmax's first block) or a tile stored from
/// registers (a scaled Q), or side-effect free code that reads one of the
/// ops in `moved` (those that move before it).
static bool movesToConsumers(Operation &op,
                             const llvm::SmallPtrSetImpl<Operation *> &moved) {
  if (isa<DotOp, LocalLoadOp, LoadOp, LocalStoreOp>(op))
    return true;
  return isMemoryEffectFree(&op) && op.getNumRegions() == 0 &&
         llvm::any_of(op.getOperands(), [&](Value v) {
           return moved.contains(v.getDefiningOp());
         });
}

static bool isFullExtent(OpFoldResult size, Value buffer, int64_t d) {
  auto type = cast<MemRefType>(buffer.getType());
  if (auto attr = dyn_cast<Attribute>(size))
    return !type.isDynamicDim(d) &&
           cast<IntegerAttr>(attr).getInt() == type.getDimSize(d);
  auto dim = cast<Value>(size).getDefiningOp<memref::DimOp>();
  std::optional<int64_t> index = dim ? dim.getConstantIndex() : std::nullopt;
  return dim && dim.getSource() == buffer && index && *index == d;
}

/// The program buffer `copy` reads (directly or through a subview TMA can
/// describe), or null with `why`.
static Value tmaBuffer(ProgramOp program, AsyncCopyOp copy, std::string &why) {
  Value source = copy.getSource();
  if (llvm::is_contained(program.getBuffers(), source))
    return source;
  auto view = source.getDefiningOp<memref::SubViewOp>();
  if (!view || !llvm::is_contained(program.getBuffers(), view.getSource())) {
    why = "a copy reads a view TMA cannot describe (not a program buffer or "
          "a subview of one)";
    return Value();
  }
  Value buffer = view.getSource();
  int64_t rank = view.getSourceType().getRank();
  int64_t kept = copy.getSource().getType().getRank();
  SmallVector<OpFoldResult> offsets = view.getMixedOffsets();
  SmallVector<OpFoldResult> sizes = view.getMixedSizes();
  bool unitStrides = llvm::all_of(view.getStaticStrides(),
                                  [](int64_t s) { return s == 1; });
  bool ok = unitStrides && kept == 2;
  for (int64_t d = 0; ok && d < rank; ++d) {
    if (d < rank - kept)
      ok = isConstantIntValue(sizes[d], 1);
    else
      ok = isConstantIntValue(offsets[d], 0) && isFullExtent(sizes[d], buffer, d);
  }
  if (!ok) {
    why = "a copy reads a subview that is not unit-stride rows and columns "
          "of whole trailing dimensions (TMA bounds are the buffer's)";
    return Value();
  }
  return buffer;
}

/// The TMA source of `copy` (checked by tmaBuffer) and its indices, built at
/// `b` from the copy's indices `indices` (already at `b`'s place).
static TmaSource tmaSource(OpBuilder &b, ProgramOp program, AsyncCopyOp copy,
                           ValueRange indices) {
  std::string why;
  Value buffer = tmaBuffer(program, copy, why);
  if (buffer == copy.getSource())
    return TmaSource{buffer, SmallVector<Value>(indices)};
  auto view = copy.getSource().getDefiningOp<memref::SubViewOp>();
  int64_t rank = view.getSourceType().getRank();
  int64_t kept = copy.getSource().getType().getRank();
  SmallVector<OpFoldResult> offsets = view.getMixedOffsets();
  TmaSource result{buffer, {}};
  Location loc = copy.getLoc();
  for (int64_t d = 0; d < rank - kept; ++d)
    result.indices.push_back(getValueOrCreateConstantIndexOp(b, loc, offsets[d]));
  llvm::append_range(result.indices, indices);
  return result;
}

/// The last op of `loop`'s body (at its top level) after which `buffer` is
/// no longer read: its last product or attn.local_load, or for an
/// asynchronous product the attn.dot_wait that completes it.
static Operation *lastReader(scf::ForOp loop, Value buffer) {
  Operation *last = nullptr;
  for (Operation &op : loop.getBody()->without_terminator()) {
    op.walk([&](LocalLoadOp load) {
      if (load.getSource() == buffer)
        last = &op;
    });
    op.walk([&](DotOp dot) {
      if (dot.getA() != buffer && dot.getB() != buffer)
        return;
      last = &op;
      if (dot.getAsync())
        for (Operation *user : dot->getUsers())
          if (isa<DotWaitOp>(user) && user->getBlock() == loop.getBody() &&
              last->isBeforeInBlock(user))
            last = user;
    });
  }
  return last;
}

/// The iter_arg that `reader` (the last reader of a stage in `loop`) leaves
/// in flight: an async product whose result is yielded, not waited for in
/// the body.
static std::optional<unsigned> inFlightIterArg(scf::ForOp loop,
                                               Operation *reader) {
  auto dot = dyn_cast_or_null<DotOp>(reader);
  if (!dot || !dot.getAsync())
    return std::nullopt;
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  for (OpOperand &use : dot.getResult().getUses())
    if (use.getOwner() == yield.getOperation())
      return use.getOperandNumber();
  return std::nullopt;
}

/// The attn.dot_wait of `v` in `block` (at its top level), if any.
static DotWaitOp waitOf(Value v, Block *block) {
  for (Operation *user : v.getUsers())
    if (auto wait = dyn_cast<DotWaitOp>(user);
        wait && wait->getBlock() == block)
      return wait;
  return nullptr;
}

class Specializer {
public:
  explicit Specializer(ProgramOp program) : program(program) {}
  /// Specializes the program; false (with a warning) where it cannot.
  bool run();

private:
  ProgramOp program;
  TileConfigAttr config;
  CopyChain chain;
  /// The copies before the chain (Q).
  SmallVector<ChainCopy> preCopies;
  /// With `persistent`: a constant 0 added to every chain position, which
  /// the tile loops replace by the blocks of the tiles before.
  Value base;
  /// With `persistent`: a constant 0 that the tile loops replace by the
  /// number of tiles before; the rings with a lead position advance by one
  /// more per tile.
  Value tilesBefore;
  /// Per chain copy: 1 where a copy before the chain reads the same buffer
  /// (attn-overlap-softmax's first K block) and takes the ring's position
  /// in front of the chain's, 0 otherwise.
  SmallVector<int64_t> lead;

  /// Whether the program can be specialized; `why` says why not.
  bool check(std::string &why);
  Value makeBarriers(OpBuilder &b, int64_t count, int64_t arrivals);
  /// The stage and phase of chain copy `copy`'s ring for chain position
  /// `pos` (the lead copy before the chain is at `pos = lower - 1`).
  std::pair<Value, Value> stageAndPhase(OpBuilder &b, Location loc, Value pos,
                                        unsigned copy);
  /// Builds `attn.tma_copy` of `copy` at `b` (its indices computed by
  /// `indices`, at `b`'s place).
  void emitTma(OpBuilder &b, AsyncCopyOp copy, ValueRange indices, Value dest,
               Value barriers, Value index);
  /// For a stage whose last reader in `loop` is an async product yielded
  /// as iter_arg `arg` (async_pv's P V, in flight across the iteration):
  /// the arrival at `empty` for block pos - 1 after the body's wait for
  /// that iter_arg (when pos > lower), and for the chain's last block
  /// after the wait for the last loop's result.
  void releaseAfterNextWait(scf::ForOp loop, unsigned arg, Value empty,
                            unsigned copy);
  /// `if (cond) arrive(empty, stage(pos))` at `b` (`copy`'s ring).
  void arriveIf(OpBuilder &b, Location loc, Value cond, Value empty,
                Value pos, unsigned copy);
};

bool Specializer::check(std::string &why) {
  config = program.getConfigAttr();
  auto fail = [&](const Twine &reason) {
    why = reason.str();
    return false;
  };
  if (!config || !program.getGpuConfigOrDefault().getWgmma())
    return fail("it needs wgmma (a producer warpgroup feeds warpgroup MMA "
                "consumers)");
  if (config.getWarps() % 4 != 0)
    return fail("it needs whole consumer warpgroups (warps a multiple of 4)");
  if (program.getGpuConfigOrDefault().getPingPong() && config.getWarps() < 8)
    return fail("ping_pong needs two or more consumer warpgroups (warps >= 8)");
  // Tiles staged from registers in the K/V loops would need the producer
  // to wait for the consumers; one stored before the loops (a scaled Q,
  // attn-accumulate-bias) is the consumers' own, stored by them in front
  // of the chain.
  bool staged = false;
  program.walk([&](LocalStoreOp store) {
    staged |= store->getParentOp() != program.getOperation();
  });
  if (staged)
    return fail("it cannot feed tiles staged from registers in the K/V "
                "loops (attn.local_store)");
  SmallVector<CopyChain> chains = findCopyChains(program);
  auto copying = llvm::make_filter_range(chains, [](CopyChain &c) {
    bool copies = false;
    for (scf::ForOp loop : c.loops)
      loop.walk([&](AsyncCopyOp) { copies = true; });
    return copies;
  });
  auto it = copying.begin();
  if (it == copying.end() || std::next(it) != copying.end())
    return fail("it needs exactly one chain of K/V loops with copies");
  chain = *it;
  if (!checkCopyChain(chain))
    return fail("it needs K/V loops over one contiguous range of blocks "
                "whose copies are the same function of the block");
  scf::ForOp first = chain.loops.front();
  bool ok = true;
  program.getBody().walk([&](AsyncCopyOp copy) {
    if (llvm::any_of(chain.loops,
                     [&](scf::ForOp l) { return l->isAncestor(copy); }))
      return;
    auto commit = dyn_cast_or_null<AsyncCommitOp>(copy->getNextNode());
    if (copy->getParentOp() != program || !commit ||
        !copy->isBeforeInBlock(first))
      ok = false;
    preCopies.push_back({copy, commit});
  });
  if (!ok)
    return fail("copies outside the K/V loops must be at the top level of "
                "the program, before them");
  // One TMA descriptor per buffer: one tile height per buffer.
  SmallVector<AsyncCopyOp> copies;
  for (ChainCopy &c : preCopies)
    copies.push_back(c.op);
  for (ChainCopy &c : chain.copies.front())
    copies.push_back(c.op);
  llvm::SmallDenseMap<Value, int64_t> rows;
  for (AsyncCopyOp copy : copies) {
    Value buffer = tmaBuffer(program, copy, why);
    if (!buffer)
      return false;
    int64_t r = copy.getDest().getType().getShape()[0];
    auto [entry, inserted] = rows.try_emplace(buffer, r);
    if (!inserted && entry->second != r)
      return fail("one buffer is copied with tiles of " +
                  Twine(entry->second) + " and " + Twine(r) +
                  " rows, and a kernel has one TMA descriptor per buffer");
  }
  for (auto [loop, copies] : llvm::zip(chain.loops, chain.copies))
    for (ChainCopy &c : copies) {
      if (!firstReader(loop, c.op.getDest()))
        return fail("a copied buffer is not read by a product of its loop");
      // A product in flight across the iteration (async_pv) is released
      // after its wait in the next iteration and after the chain.
      std::optional<unsigned> arg =
          inFlightIterArg(loop, lastReader(loop, c.op.getDest()));
      if (arg && (!waitOf(loop.getRegionIterArgs()[*arg], loop.getBody()) ||
                  !waitOf(chain.loops.back().getResult(*arg),
                          chain.loops.back()->getBlock())))
        return fail("an asynchronous product yielded by a K/V loop is not "
                    "waited for in the next iteration and after the chain");
    }
  // Everything before the chain runs on the producer's threads too: it
  // must have no effect but allocating shared buffers and the copies.
  // Products and tile loads there (attn-overlap-softmax's first block)
  // move to the consumers.
  llvm::SmallPtrSet<Operation *, 8> moved;
  for (Operation &op : program.getBody().front()) {
    if (&op == first.getOperation())
      break;
    if (!isMemoryEffectFree(&op) && !onlyReadsMemory(op) &&
        !isa<LocalAllocOp, AsyncCopyOp, AsyncCommitOp, AsyncWaitOp,
             gpu::BarrierOp, DotOp, LocalLoadOp, LoadOp, LocalStoreOp>(op))
      return fail("'" + op.getName().getStringRef() +
                  "' runs before the K/V loops, where the producer's threads "
                  "run too; only side-effect free code, reads and copies may");
    // Products, tile loads and the side-effect free code computed from
    // them move to the consumers, in front of the chain: what stays must
    // not read them.
    if (movesToConsumers(op, moved)) {
      moved.insert(&op);
      continue;
    }
    if (llvm::any_of(op.getOperands(), [&](Value v) {
          return moved.contains(v.getDefiningOp());
        }))
      return fail("a tile loaded before the K/V loops is read before them "
                  "by '" +
                  op.getName().getStringRef() +
                  "', which stays where the producer's threads run (a "
                  "product, a load or side-effect free code would move to "
                  "the consumers with the tile)");
  }
  return true;
}

Value Specializer::makeBarriers(OpBuilder &b, int64_t count,
                                int64_t arrivals) {
  return MBarrierAllocOp::create(
      b, program.getLoc(), MBarriersType::get(b.getContext(), count),
      b.getI64IntegerAttr(arrivals), IntegerAttr());
}

std::pair<Value, Value> Specializer::stageAndPhase(OpBuilder &b, Location loc,
                                                   Value pos, unsigned copy) {
  Value rel = arith::SubIOp::create(b, loc, pos, chain.lower());
  if (lead[copy])
    rel = arith::AddIOp::create(
        b, loc, rel, arith::ConstantIndexOp::create(b, loc, lead[copy]));
  if (base)
    rel = arith::AddIOp::create(b, loc, rel, base);
  if (lead[copy] && tilesBefore)
    rel = arith::AddIOp::create(b, loc, rel, tilesBefore);
  Value s = arith::ConstantIndexOp::create(b, loc, config.getStages());
  return {arith::RemUIOp::create(b, loc, rel, s),
          arith::DivUIOp::create(b, loc, rel, s)};
}

void Specializer::emitTma(OpBuilder &b, AsyncCopyOp copy, ValueRange indices,
                          Value dest, Value barriers, Value index) {
  TmaSource src = tmaSource(b, program, copy, indices);
  TmaCopyOp::create(b, copy.getLoc(), src.buffer, src.indices, dest, barriers,
                    index, /*tensor_map=*/Value());
}

void Specializer::arriveIf(OpBuilder &b, Location loc, Value cond,
                           Value empty, Value pos, unsigned copy) {
  auto guard = scf::IfOp::create(b, loc, cond, /*withElseRegion=*/false);
  OpBuilder gb = OpBuilder::atBlockBegin(guard.thenBlock());
  Value stage = stageAndPhase(gb, loc, pos, copy).first;
  MBarrierArriveOp::create(gb, loc, empty, stage);
}

void Specializer::releaseAfterNextWait(scf::ForOp loop, unsigned arg,
                                       Value empty, unsigned copy) {
  Location loc = loop.getLoc();
  // In the body: block pos - 1's stage, once its product is waited for.
  // Every consumer thread takes the same branch (the position is
  // uniform), as the barrier's arrival count needs.
  // Both waits exist (check()).
  DotWaitOp wait = waitOf(loop.getRegionIterArgs()[arg], loop.getBody());
  OpBuilder b(wait->getNextNode());
  Value pos = loop.getInductionVar();
  Value after = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, pos,
                                      chain.lower());
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  arriveIf(b, loc, after, empty,
           arith::SubIOp::create(b, loc, pos, one).getResult(), copy);
  // After the chain: its last block's stage.
  scf::ForOp last = chain.loops.back();
  if (loop != last)
    return;
  b.setInsertionPointAfter(waitOf(last.getResult(arg), last->getBlock()));
  Value any = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                    chain.lower(), chain.upper());
  one = arith::ConstantIndexOp::create(b, loc, 1);
  arriveIf(b, loc, any, empty,
           arith::SubIOp::create(b, loc, chain.upper(), one).getResult(),
           copy);
}

bool Specializer::run() {
  std::string why;
  if (!check(why)) {
    program.emitWarning() << "warp_specialize: not applied, the copies keep "
                             "the cp.async schedule of attn-pipeline: "
                          << why;
    return false;
  }
  MLIRContext *ctx = program.getContext();
  Location loc = program.getLoc();
  int64_t stages = config.getStages();
  int64_t consumerGroups = config.getWarps() / 4;
  scf::ForOp first = chain.loops.front();
  SmallVector<ChainCopy> &firstCopies = chain.copies.front();
  // The first and last readers, before any rewriting.
  SmallVector<SmallVector<std::pair<Operation *, Operation *>>> readers;
  for (auto [loop, copies] : llvm::zip(chain.loops, chain.copies)) {
    readers.emplace_back();
    for (ChainCopy &c : copies)
      readers.back().push_back({firstReader(loop, c.op.getDest()),
                                lastReader(loop, c.op.getDest())});
  }

  // Step 2.
  OpBuilder b(first);
  bool persistent = program.getGpuConfigOrDefault().getPersistent();
  if (persistent) {
    base = arith::ConstantIndexOp::create(b, loc, 0);
    tilesBefore = arith::ConstantIndexOp::create(b, loc, 0);
  }
  // A copy before the chain from a buffer the chain copies from, into a
  // buffer of the chain's tile type that only products and register loads
  // before the chain read (attn-overlap-softmax's first K block, and with
  // loads_ahead its first bias tile), takes the position in front of the
  // chain's in that copy's ring instead of a buffer of its own: 40 KiB at
  // D = 256, 128 x 80, which lets FlashAttention-3's tile fit with the
  // overlap. The others (Q) complete `pre`.
  std::string unused;
  SmallVector<Value> chainSources;
  for (ChainCopy &c : firstCopies)
    chainSources.push_back(tmaBuffer(program, c.op, unused));
  lead.assign(firstCopies.size(), 0);
  SmallVector<std::pair<ChainCopy, unsigned>> leadCopies;
  SmallVector<ChainCopy> plainPre;
  for (ChainCopy &c : preCopies) {
    auto *it = llvm::find(chainSources, tmaBuffer(program, c.op, unused));
    unsigned i = it - chainSources.begin();
    Value dest = c.op.getDest();
    bool readBeforeChain = llvm::all_of(dest.getUsers(), [&](Operation *u) {
      auto dot = dyn_cast<DotOp>(u);
      return u == c.op.getOperation() ||
             ((isa<LocalLoadOp>(u) || (dot && !dot.getAsync())) &&
              u->getBlock() == first->getBlock() && u->isBeforeInBlock(first));
    });
    if (it != chainSources.end() && !lead[i] && readBeforeChain &&
        dest.getType() == chain.buffers[i].getType()) {
      lead[i] = 1;
      leadCopies.push_back({c, i});
    } else {
      plainPre.push_back(c);
    }
  }
  Value pre = plainPre.empty() ? Value() : makeBarriers(b, 1, plainPre.size());
  SmallVector<Value> full, empty, staged;
  for (Value buffer : chain.buffers) {
    full.push_back(makeBarriers(b, stages, 1));
    empty.push_back(makeBarriers(b, stages, 128 * consumerGroups));
    auto type = cast<SharedBufferType>(buffer.getType());
    SmallVector<int64_t> shape{stages};
    llvm::append_range(shape, type.getShape());
    staged.push_back(LocalAllocOp::create(
        b, loc,
        SharedBufferType::get(ctx, shape, type.getElementType(),
                              type.getLayout()),
        IntegerAttr()));
  }

  // Step 3. Register budgets for setmaxnreg (multiples of 8): the producer
  // keeps 24; the consumers share the rest of what the CTA was launched
  // with (the entry cap, 65536 registers over the threads of the CTAs of
  // an SM, one of 384 threads or two of 256, rounded down to 8, times the
  // threads), at most 240: a setmaxnreg.inc beyond that pool waits
  // forever. A producer of more than two rings (K, V and a staged bias:
  // coordinates of three tiles) spilled 4-8 bytes at 24 and none at 32;
  // it gets 32, the consumers 232 with two warpgroups (no spills in the
  // staged-bias kernels at 232). So does a persistent one that narrows
  // its K/V range by a mask_mod (below).
  int64_t ctas = consumerGroups == 1 ? 2 : 1;
  int64_t entryCap = 65536 / (ctas * 128 * (consumerGroups + 1)) / 8 * 8;
  auto consumerBudget = [&](int64_t producerRegs) {
    return std::min<int64_t>(240, (entryCap * (consumerGroups + 1) -
                                   producerRegs) /
                                      consumerGroups / 8 * 8);
  };
  int64_t producerRegs = 24;
  if (chain.buffers.size() > 2)
    producerRegs = 32;
  // The producer runs the search of a K/V range narrowed by a mask_mod
  // region (MaskModRange.h) too: with the tile loop of a persistent kernel
  // beside it that spilled 4 bytes at 24 and none at 32 (the document-mask
  // kernels; not persistent, 24 does not spill and 232 registers for the
  // consumers of the causal one does).
  if (program.getGpuConfigOrDefault().getPersistent())
    program.walk([&](KVRangeOp range) {
      if (!range.getMaskMod().empty())
        producerRegs = 32;
    });
  int64_t consumerRegs = consumerBudget(producerRegs);
  auto ws = WarpSpecializeOp::create(
      b, loc, b.getI64IntegerAttr(consumerGroups),
      b.getI64IntegerAttr(producerRegs), b.getI64IntegerAttr(consumerRegs));
  Block *producer = new Block(), *consumers = new Block();
  ws.getProducer().push_back(producer);
  ws.getConsumers().push_back(consumers);
  // The first chain loop and everything after it are the consumers'.
  for (Operation *op = first; op;) {
    Operation *next = op->getNextNode();
    op->moveBefore(consumers, consumers->end());
    op = next;
  }

  // The producer: the copies before the chain, then the chain's. A lead
  // copy is issued only when the chain has blocks: K may then be empty
  // (Nk = 0), and the runtime passes no descriptor for an empty tensor
  // (format 3). Otherwise the producer arrives without bytes, so that the
  // consumers' wait completes and the ring's phases go on; they do not use
  // the tile then.
  OpBuilder pb = OpBuilder::atBlockBegin(producer);
  Value c0 = arith::ConstantIndexOp::create(pb, loc, 0);
  Value c1 = arith::ConstantIndexOp::create(pb, loc, 1);
  for (ChainCopy &c : plainPre)
    emitTma(pb, c.op, c.op.getIndices(), c.op.getDest(), pre, c0);
  Value beforeChain = arith::SubIOp::create(pb, loc, chain.lower(), c1);
  for (auto [c, i] : leadCopies) {
    auto [stage, phase] = stageAndPhase(pb, loc, beforeChain, i);
    MBarrierWaitOp::create(pb, loc, empty[i], stage,
                           arith::AddIOp::create(pb, loc, phase, c1));
    auto type = cast<SharedBufferType>(staged[i].getType());
    Value any = arith::CmpIOp::create(pb, loc, arith::CmpIPredicate::slt,
                                      chain.lower(), chain.upper());
    auto guard = scf::IfOp::create(pb, loc, any, /*withElseRegion=*/true);
    OpBuilder gb = OpBuilder::atBlockBegin(guard.thenBlock());
    Value dest =
        LocalViewOp::create(gb, loc, type.dropLeadingDim(), staged[i], stage);
    emitTma(gb, c.op, c.op.getIndices(), dest, full[i], stage);
    gb.setInsertionPointToStart(guard.elseBlock());
    MBarrierArriveOp::create(gb, loc, full[i], stage);
  }
  auto loop = scf::ForOp::create(pb, loc, chain.lower(), chain.upper(), c1);
  {
    OpBuilder lb = OpBuilder::atBlockBegin(loop.getBody());
    Value pos = loop.getInductionVar();
    // One stage and phase per lead (every copy's without the overlap).
    // Per ring: the stage and the phase before (a fresh barrier counts it
    // as complete).
    llvm::SmallDenseMap<int64_t, std::pair<Value, Value>> ring;
    auto at = [&](unsigned i) {
      auto [it, inserted] = ring.try_emplace(lead[i]);
      if (inserted) {
        auto [stage, phase] = stageAndPhase(lb, loc, pos, i);
        it->second = {stage, arith::AddIOp::create(lb, loc, phase, c1)};
      }
      return it->second;
    };
    IRMapping mapping;
    for (auto [i, c] : llvm::enumerate(firstCopies)) {
      auto [stage, before] = at(i);
      MBarrierWaitOp::create(lb, loc, empty[i], stage, before);
      SmallVector<Value> indices;
      for (Value idx : c.op.getIndices())
        indices.push_back(cloneAt(lb, idx, first, pos, mapping));
      auto type = cast<SharedBufferType>(staged[i].getType());
      Value dest =
          LocalViewOp::create(lb, loc, type.dropLeadingDim(), staged[i], stage);
      emitTma(lb, c.op, indices, dest, full[i], stage);
    }
  }

  // Step 4.
  OpBuilder cb = OpBuilder::atBlockBegin(consumers);
  MBarrierWaitOp preWait;
  if (pre)
    preWait = MBarrierWaitOp::create(
        cb, loc, pre, arith::ConstantIndexOp::create(cb, loc, 0),
        arith::ConstantIndexOp::create(cb, loc, 0));
  // A lead copy's tile: its ring stage once full, in place of its buffer.
  SmallVector<std::tuple<Value, Value, unsigned>> leadViews;
  for (auto [c, i] : leadCopies) {
    Value beforeChain = arith::SubIOp::create(
        cb, loc, chain.lower(), arith::ConstantIndexOp::create(cb, loc, 1));
    auto [stage, phase] = stageAndPhase(cb, loc, beforeChain, i);
    MBarrierWaitOp::create(cb, loc, full[i], stage, phase);
    Value view = LocalViewOp::create(cb, loc, c.op.getDest().getType(),
                                     staged[i], stage);
    Operation *copy = c.op;
    c.op.getDest().replaceUsesWithIf(
        view, [&](OpOperand &use) { return use.getOwner() != copy; });
    leadViews.push_back({view, stage, i});
  }
  // Products and tile loads before the chain (attn-overlap-softmax's
  // first block) are the consumers' too, after the wait, with the code
  // computed from them (a bias tile as the first product's accumulator);
  // the barriers of their cp.async copies go.
  llvm::SmallPtrSet<Operation *, 8> moved;
  for (Operation &op : llvm::make_early_inc_range(program.getBody().front())) {
    if (&op == ws.getOperation())
      break;
    if (movesToConsumers(op, moved)) {
      moved.insert(&op);
      op.moveBefore(consumers, cb.getInsertionPoint());
      // Every consumer thread's part of a stored tile is written before
      // any wgmma reads it (a barrier among the consumers there).
      if (isa<LocalStoreOp>(op))
        gpu::BarrierOp::create(cb, op.getLoc());
    } else if (isa<gpu::BarrierOp>(op)) {
      op.erase();
    }
  }
  // A lead stage is released after its last reader (a synchronous
  // product or a load into registers).
  for (auto [view, stage, i] : leadViews) {
    Operation *last = nullptr;
    for (Operation *user : view.getUsers())
      if (!last || last->isBeforeInBlock(user))
        last = user;
    OpBuilder ab(consumers, last ? std::next(Block::iterator(last))
                                 : cb.getInsertionPoint());
    MBarrierArriveOp::create(ab, loc, empty[i], stage);
  }
  for (auto [l, copies, rs] : llvm::zip(chain.loops, chain.copies, readers)) {
    scf::ForOp kvLoop = l;
    Location ll = kvLoop.getLoc();
    OpBuilder lb = OpBuilder::atBlockBegin(kvLoop.getBody());
    llvm::SmallDenseMap<int64_t, std::pair<Value, Value>> ring;
    for (auto [i, c] : llvm::enumerate(copies)) {
      auto [it, inserted] = ring.try_emplace(lead[i]);
      if (inserted)
        it->second = stageAndPhase(lb, ll, kvLoop.getInductionVar(), i);
      auto [stage, phase] = it->second;
      auto type = cast<SharedBufferType>(c.op.getDest().getType());
      Value view = LocalViewOp::create(lb, ll, type, staged[i], stage);
      chain.buffers[i].replaceUsesWithIf(view, [&](OpOperand &use) {
        return kvLoop->isAncestor(use.getOwner());
      });
      OpBuilder rb(rs[i].first);
      MBarrierWaitOp::create(rb, ll, full[i], stage, phase);
      if (std::optional<unsigned> arg = inFlightIterArg(kvLoop, rs[i].second)) {
        releaseAfterNextWait(kvLoop, *arg, empty[i], i);
        continue;
      }
      rb.setInsertionPointAfter(rs[i].second);
      MBarrierArriveOp::create(rb, ll, empty[i], stage);
    }
    for (ChainCopy &c : copies) {
      c.commit->erase();
      c.op->erase();
    }
    for (Operation &op :
         llvm::make_early_inc_range(kvLoop.getBody()->without_terminator()))
      if (isa<AsyncWaitOp, gpu::BarrierOp>(op))
        op.erase();
    // Step 5.
    GpuConfigAttr gpuConfig = program.getGpuConfigOrDefault();
    if (gpuConfig.getPingPong()) {
      SmallVector<Operation *> products;
      for (Operation &op : kvLoop.getBody()->without_terminator()) {
        bool product = false;
        op.walk([&](DotOp) { product = true; });
        if (product)
          products.push_back(&op);
      }
      // With async_pv a block's two products are issued back to back
      // (block j + 1's Q K^T, block j's P V) and waited for later: one
      // turn from the first issue to the last, as FlashAttention-3 passes
      // the turn right after issuing both. Otherwise (and with early_qk,
      // whose products have the softmax between them) a turn per product.
      SmallVector<std::pair<Operation *, Operation *>> turns;
      if (gpuConfig.getAsyncPv() && !gpuConfig.getEarlyQk() &&
          !products.empty())
        turns.push_back({products.front(), products.back()});
      else
        for (Operation *op : products)
          turns.push_back({op, op});
      for (auto [from, to] : turns) {
        OpBuilder tb(from);
        TurnWaitOp::create(tb, from->getLoc());
        tb.setInsertionPointAfter(to);
        TurnSignalOp::create(tb, to->getLoc());
      }
    }
  }
  for (ChainCopy &c : preCopies) {
    Value dest = c.op.getDest();
    c.commit->erase();
    c.op->erase();
    // A lead copy's own buffer is no longer read.
    if (dest.use_empty())
      dest.getDefiningOp()->erase();
  }
  // No cp.async group is left to wait for.
  program.getBody().walk([](AsyncWaitOp op) { op->erase(); });
  for (Value buffer : chain.buffers)
    buffer.getDefiningOp()->erase();

  // Step 6 (the chain's range before the peel bounds its loops).
  Value lower = chain.lower(), upper = chain.upper();
  GpuConfigAttr gpu = program.getGpuConfigOrDefault();
  if (gpu.getPeelLastBlock()) {
    if (!gpu.getOverlapSoftmax() || gpu.getPingPong())
      program.emitWarning() << "peel_last_block: not applied: it needs "
                               "overlap_softmax and not ping_pong";
    else if (!peelLastBlock(program, chain.loops, lower, upper, why))
      program.emitWarning() << "peel_last_block: not applied: " << why;
  }

  // Step 7.
  if (persistent) {
    SpecializedProgram sp{program, ws,   pre,  preWait,
                          lower,   upper, chain.loops.back(),
                          base, tilesBefore, 128 * consumerGroups};
    if (!makePersistent(sp, why))
      program.emitWarning()
          << "persistent: not applied, one CTA per tile: " << why;
  }
  return true;
}

struct AttnWarpSpecializePass
    : public attn::impl::AttnWarpSpecializeBase<AttnWarpSpecializePass> {
  void runOnOperation() override {
    getOperation()->walk([&](ProgramOp program) {
      if (program.getGpuConfigOrDefault().getWarpSpecialize())
        Specializer(program).run();
    });
  }
};
} // namespace
