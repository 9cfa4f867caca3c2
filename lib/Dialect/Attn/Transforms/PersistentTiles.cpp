//===- PersistentTiles.cpp - a warp-specialized program over many tiles ---===//
//
// Algorithm (on a program as attn-warp-specialize leaves it: allocations
// and side-effect free code, then the attn.warp_specialize op):
//  1. Check that shape: nothing but allocations and pure ops before the
//     op, nothing after it, the chain's last loop at the consumers' top
//     level.
//  2. The copies before the chain (Q; an overlapped program's first K
//     block is in the K ring) get an "empty" barrier next to their "full" one:
//     the producer may overwrite them for the next tile only once every
//     consumer thread is past the chain (their last reader).
//  3. Each region becomes one loop over rounds of the workers' tiles
//     (round k: tiles [k * grid_dim.x, (k + 1) * grid_dim.x) of the
//     grid_m * grid_bh, worker block_id.x taking the block_id.x-th, under
//     a mask the mirrored one in odd rounds), carrying the blocks
//     the chain went through so far (`base`; the round index counts the
//     tiles done):
//     * the program's pure code is cloned into it with the program ids
//       (t mod grid_m, t / grid_m; in groups of query blocks of every
//       batch-head with gpu_config's group_m), so each tile computes its
//       own rows, heads and block range;
//     * every chain position that derives a ring stage and phase adds
//       `base`, so that the rings go on from tile to tile (their barriers
//       are initialized once per CTA); a ring with a lead position (the
//       first K block) adds the tiles before as well (`tilesBefore`);
//     * the producer waits for "empty" of the copies before the chain with
//       the parity of the tile before (a fresh barrier passes it at once),
//       the consumers wait for their "full" with the tile's own and arrive
//       at "empty" after the chain's last loop.
//  4. The original pure code, now unused, goes; the program is marked
//     `persistent`.
//
//===----------------------------------------------------------------------===//

#include "attn/Dialect/Attn/Transforms/PersistentTiles.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::attn;

namespace {

/// The loop over the tiles in one role's region and what it carries.
struct TileLoop {
  scf::ForOp loop;
  Value base, it;
  IRMapping mapping;
};

/// The query block and the batch-head of tile `tile`: every query block
/// of a batch-head before the next one, or with `groupM` (gpu_config's
/// `group_m`) groups of `groupM` query blocks of every batch-head in turn,
/// the last group holding what is left:
///   group = tile / (groupM grid_bh), first = group groupM,
///   rows = min(groupM, grid_m - first), r = tile mod (groupM grid_bh),
///   block = (first + r mod rows, r / rows).
static std::pair<Value, Value> tileCoordinates(OpBuilder &b, Location loc,
                                               Value tile, Value gridM,
                                               Value gridBh, unsigned groupM) {
  if (groupM == 0)
    return {arith::RemUIOp::create(b, loc, tile, gridM),
            arith::DivUIOp::create(b, loc, tile, gridM)};
  Value g = arith::ConstantIndexOp::create(b, loc, groupM);
  Value perGroup = arith::MulIOp::create(b, loc, g, gridBh);
  Value first = arith::MulIOp::create(
      b, loc, arith::DivUIOp::create(b, loc, tile, perGroup), g);
  Value rows = arith::MinUIOp::create(
      b, loc, g, arith::SubIOp::create(b, loc, gridM, first));
  Value r = arith::RemUIOp::create(b, loc, tile, perGroup);
  return {arith::AddIOp::create(b, loc, first,
                                arith::RemUIOp::create(b, loc, r, rows)),
          arith::DivUIOp::create(b, loc, r, rows)};
}

/// Step 3 for `region`: moves its code into a tile loop with the program's
/// pure code `pure` cloned in front of it.
TileLoop loopOverTiles(SpecializedProgram &s, Region &region,
                       ArrayRef<Operation *> pure) {
  ProgramOp program = s.program;
  Location loc = program.getLoc();
  Block &block = region.front();
  OpBuilder b = OpBuilder::atBlockBegin(&block);
  Value worker = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  Value workers = gpu::GridDimOp::create(b, loc, gpu::Dimension::x);
  Value tiles =
      arith::MulIOp::create(b, loc, program.getGridM(), program.getGridBh());
  Value c0 = arith::ConstantIndexOp::create(b, loc, 0);
  Value c1 = arith::ConstantIndexOp::create(b, loc, 1);
  // Unmasked (tiles of equal work): worker w takes tiles w, w + workers,
  // ... Under a mask the tiles' work differs: round k of the workers takes
  // tiles [k * workers, (k + 1) * workers), worker w the w-th of them in
  // even rounds and the (workers - 1 - w)-th in odd ones. With the heavy
  // query blocks first in each head, a worker that gets a heavy tile in
  // one round then gets a light one, so that the CTAs' sums stay close (a
  // plain stride ran causal D = 128 0.95-0.99x the one-CTA-per-tile kernel
  // up to N = 8192, mirrored 1.03-1.21x;
  // results/h200/2026-12-01-persistent-zigzag.md). The set of tiles in
  // flight at a time is the same. Worker w's rounds: the full ones, and
  // the last partial one if its position there is below the remainder.
  auto mask = program->getAttrOfType<MaskAttr>("attn.mask");
  bool mirror = mask && mask.getKind() != MaskKind::None;
  TileLoop t;
  Value tile;
  if (!mirror) {
    t.loop = scf::ForOp::create(b, loc, worker, tiles, workers,
                                ValueRange{c0, c0});
    t.it = t.loop.getRegionIterArg(1);
  } else {
    Value full = arith::DivUIOp::create(b, loc, tiles, workers);
    Value rest = arith::RemUIOp::create(b, loc, tiles, workers);
    Value mirrored = arith::SubIOp::create(
        b, loc, arith::SubIOp::create(b, loc, workers, c1), worker);
    auto position = [&](OpBuilder &pb, Value round) -> Value {
      Value odd = arith::CmpIOp::create(
          pb, loc, arith::CmpIPredicate::ne,
          arith::AndIOp::create(pb, loc, round, c1), c0);
      return arith::SelectOp::create(pb, loc, odd, mirrored, worker);
    };
    Value inLast = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                         position(b, full), rest);
    Value rounds = arith::AddIOp::create(
        b, loc, full, arith::SelectOp::create(b, loc, inLast, c1, c0));
    t.loop = scf::ForOp::create(b, loc, c0, rounds, c1, ValueRange{c0});
    // The round counts the CTA's tiles so far.
    t.it = t.loop.getInductionVar();
    OpBuilder lb = OpBuilder::atBlockBegin(t.loop.getBody());
    tile = arith::AddIOp::create(
        lb, loc, arith::MulIOp::create(lb, loc, t.it, workers),
        position(lb, t.it));
  }
  // No loop-invariant code motion out of the tile loop (the latch's
  // !llvm.loop metadata, through scf-to-cf): LLVM would hoist what each
  // tile recomputes and the consumers keep live only between their first
  // product and the chain, such as the 16 64-bit wgmma descriptors of the
  // first K block at D = 256, to the kernel's entry, live across every
  // tile's K/V loop. That spilled the D = 256 overlapped kernel (52 bytes
  // at the 240-register cap); with the hint it has none.
  MLIRContext *ctx = b.getContext();
  t.loop->setAttr(
      "llvm.loop_annotation",
      LLVM::LoopAnnotationAttr::get(
          ctx, /*disableNonforced=*/{}, /*vectorize=*/{}, /*interleave=*/{},
          /*unroll=*/{}, /*unrollAndJam=*/{},
          LLVM::LoopLICMAttr::get(ctx, b.getBoolAttr(true), {}),
          /*distribute=*/{}, /*pipeline=*/{}, /*peeled=*/{},
          /*unswitch=*/{}, /*mustProgress=*/{}, /*isVectorized=*/{},
          /*startLoc=*/{}, /*endLoc=*/{}, /*parallelAccesses=*/{}));
  Block *body = t.loop.getBody();
  for (Operation *op = t.loop->getNextNode(); op;) {
    Operation *next = op->getNextNode();
    op->moveBefore(body, body->end());
    op = next;
  }
  t.base = t.loop.getRegionIterArg(0);
  if (!mirror)
    tile = t.loop.getInductionVar();
  OpBuilder lb(body, tile.getDefiningOp() ? std::next(Block::iterator(tile.getDefiningOp()))
                                          : body->begin());
  auto [blockM, blockBh] =
      tileCoordinates(lb, loc, tile, program.getGridM(), program.getGridBh(),
                      program.getGpuConfigOrDefault().getGroupM());
  t.mapping.map(program.getBlockIdM(), blockM);
  t.mapping.map(program.getBlockIdBH(), blockBh);
  for (Operation *op : pure)
    lb.clone(*op, t.mapping);
  for (Operation *op : pure)
    for (Value result : op->getResults())
      result.replaceUsesWithIf(t.mapping.lookup(result), [&](OpOperand &use) {
        return t.loop->isAncestor(use.getOwner());
      });
  s.base.replaceUsesWithIf(t.base, [&](OpOperand &use) {
    return t.loop->isAncestor(use.getOwner());
  });
  s.tilesBefore.replaceUsesWithIf(t.it, [&](OpOperand &use) {
    return t.loop->isAncestor(use.getOwner());
  });
  // The blocks this tile's chain goes through (none for an empty range).
  OpBuilder yb = OpBuilder::atBlockEnd(body);
  Value lower = t.mapping.lookupOrDefault(s.lower);
  Value upper = t.mapping.lookupOrDefault(s.upper);
  Value count = arith::MaxSIOp::create(
      yb, loc, arith::SubIOp::create(yb, loc, upper, lower),
      arith::ConstantIndexOp::create(yb, loc, 0));
  Value next = arith::AddIOp::create(yb, loc, t.base, count);
  if (mirror)
    scf::YieldOp::create(yb, loc, ValueRange{next});
  else
    scf::YieldOp::create(
        yb, loc,
        ValueRange{next, arith::AddIOp::create(yb, loc, t.it, c1)});
  return t;
}

} // namespace

bool mlir::attn::makePersistent(SpecializedProgram &s, std::string &why) {
  ProgramOp program = s.program;
  // Step 1.
  SmallVector<Operation *> pure;
  bool afterWs = false;
  for (Operation &op : program.getBody().front()) {
    if (&op == s.ws.getOperation()) {
      afterWs = true;
      continue;
    }
    if (afterWs) {
      why = "'" + op.getName().getStringRef().str() +
            "' follows the warp-specialized region";
      return false;
    }
    if (isa<LocalAllocOp, MBarrierAllocOp>(op) ||
        s.base.getDefiningOp() == &op || s.tilesBefore.getDefiningOp() == &op)
      continue;
    // Regions are cloned as they are: only ones that use no value from
    // above (an attn.kv_range's mask_mod) need no remapping.
    if (!isMemoryEffectFree(&op) ||
        (op.getNumRegions() != 0 &&
         !op.hasTrait<OpTrait::IsIsolatedFromAbove>())) {
      why = "'" + op.getName().getStringRef().str() +
            "' runs before the warp-specialized region and is not "
            "side-effect free code that a tile loop can recompute";
      return false;
    }
    pure.push_back(&op);
  }
  // The tile loops remap the program ids only in the code they clone.
  for (Value id : {Value(program.getBlockIdM()), Value(program.getBlockIdBH())})
    for (Operation *user : id.getUsers())
      if (s.ws->isAncestor(user)) {
        why = "'" + user->getName().getStringRef().str() +
              "' in the warp-specialized region uses a program id directly";
        return false;
      }
  if (!s.lastLoop ||
      s.lastLoop->getBlock() != &s.ws.getConsumers().front()) {
    why = "the K/V chain's last loop is not at the consumers' top level";
    return false;
  }

  // Step 2.
  Location loc = program.getLoc();
  Value preEmpty;
  if (s.pre) {
    OpBuilder b(s.pre.getContext());
    b.setInsertionPointAfterValue(s.pre);
    preEmpty = MBarrierAllocOp::create(
        b, loc, cast<MBarriersType>(s.pre.getType()),
        b.getI64IntegerAttr(s.consumerThreads), IntegerAttr());
  }

  // Step 3.
  TileLoop producer = loopOverTiles(s, s.ws.getProducer(), pure);
  TileLoop consumers = loopOverTiles(s, s.ws.getConsumers(), pure);
  if (preEmpty) {
    Block *body = producer.loop.getBody();
    // After the cloned code, before the producer's first copy.
    Operation *firstMoved = nullptr;
    for (Operation &op : *body)
      if (!isMemoryEffectFree(&op) || isa<scf::IfOp>(op)) {
        firstMoved = &op;
        break;
      }
    OpBuilder b(firstMoved);
    Value c0 = arith::ConstantIndexOp::create(b, loc, 0);
    Value before = arith::AddIOp::create(
        b, loc, producer.it, arith::ConstantIndexOp::create(b, loc, 1));
    MBarrierWaitOp::create(b, loc, preEmpty, c0, before);
    s.preWait.getPhaseMutable().assign(consumers.it);
    b.setInsertionPointAfter(s.lastLoop);
    MBarrierArriveOp::create(b, loc, preEmpty,
                             arith::ConstantIndexOp::create(b, loc, 0));
  }

  // Step 4.
  for (Operation *op : llvm::reverse(pure))
    if (op->use_empty())
      op->erase();
  if (s.base.use_empty())
    s.base.getDefiningOp()->erase();
  if (s.tilesBefore.use_empty())
    s.tilesBefore.getDefiningOp()->erase();
  program.setPersistent(true);
  return true;
}
