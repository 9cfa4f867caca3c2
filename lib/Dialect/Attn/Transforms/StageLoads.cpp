//===- StageLoads.cpp - register-tile loads through shared memory ---------===//
//
// A bias tile loaded by the consumers right before the scores need it puts
// the load's latency on the softmax's path: long-scoreboard stalls per
// issued instruction went from 0.43 to 2.74 with a bias, which cost 1.8-2.0x
// whatever its size (docs/perf-log.md, seventeenth session). Here such a
// load becomes a tile in shared memory, which the later passes copy like K
// and V: attn-stage-shared into a buffer, attn-warp-specialize with the
// producer's TMA, a ring of `stages` blocks ahead. A load of the same tile
// of the same buffer before the loops (attn-overlap-softmax's first block
// with `loads_ahead`) is staged too, with the same layout: the producer
// copies it into the ring's lead position, as it does the first K block.
//
//===----------------------------------------------------------------------===//

#include "attn/Dialect/Attn/Transforms/CopyChains.h"
#include "attn/Dialect/Attn/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

namespace mlir {
namespace attn {
#define GEN_PASS_DEF_ATTNSTAGELOADS
#include "attn/Dialect/Attn/Transforms/Passes.h.inc"
} // namespace attn
} // namespace mlir

using namespace mlir;
using namespace mlir::attn;

namespace {
/// Loop-invariant index computations of the staged loads, hoisted once to
/// one place in front of the K/V loops: the buffer's leading indices (a
/// broadcast bias selects 0 or the batch / head inside each loop) must be
/// the same values in every loop of a chain for the copies to be the same
/// function of the block (CopyChains.h) and for attn-stage-shared to make
/// one plane of the buffer for all of them.
class Hoister {
public:
  explicit Hoister(Operation *at) : at(at) {}
  /// `v` (used in `loop`) computed in front of the loops, or null where it
  /// depends on the loop or on something not available there.
  Value hoist(Value v, scf::ForOp loop) {
    Operation *def = v.getDefiningOp();
    if (!def || !loop->isAncestor(def))
      return available(v) ? v : Value();
    if (def->getNumRegions() != 0 || !isMemoryEffectFree(def) ||
        def->getNumResults() != 1)
      return Value();
    SmallVector<Value> operands;
    for (Value operand : def->getOperands()) {
      Value h = hoist(operand, loop);
      if (!h)
        return Value();
      operands.push_back(h);
    }
    for (Operation *done : hoisted)
      if (done->getName() == def->getName() &&
          done->getAttrDictionary() == def->getAttrDictionary() &&
          llvm::equal(done->getOperands(), operands) &&
          done->getResultTypes() == def->getResultTypes())
        return done->getResult(0);
    OpBuilder b(at);
    IRMapping mapping;
    mapping.map(def->getOperands(), operands);
    Operation *clone = b.clone(*def, mapping);
    hoisted.push_back(clone);
    return clone->getResult(0);
  }

private:
  Operation *at;
  SmallVector<Operation *> hoisted;

  /// Whether `v`, defined outside the loops, dominates `at`.
  bool available(Value v) {
    if (auto arg = dyn_cast<BlockArgument>(v))
      return arg.getParentRegion()->isAncestor(at->getParentRegion());
    Operation *def = v.getDefiningOp();
    if (def->getBlock() == at->getBlock())
      return def->isBeforeInBlock(at);
    return def->getParentRegion()->isProperAncestor(at->getParentRegion());
  }
};

struct AttnStageLoadsPass
    : public attn::impl::AttnStageLoadsBase<AttnStageLoadsPass> {
  using Base::Base;
  void runOnOperation() override {
    getOperation()->walk([&](ProgramOp program) {
      if (!staging || !program.getGpuConfigOrDefault().getStageLoads())
        return;
      // A copy ahead of the block must not read what a store of this
      // kernel may still change.
      llvm::SmallDenseSet<Value> written;
      program.walk([&](StoreOp store) { written.insert(store.getDest()); });
      MLIRContext *ctx = program.getContext();
      auto unswizzled = UnswizzledSharedLayoutAttr::get(ctx);
      SmallVector<std::pair<LoadOp, Attribute>> loads;
      SmallVector<LoadOp> leads;
      program.walk([&](LoadOp load) {
        auto loop = dyn_cast<scf::ForOp>(load->getParentOp());
        RankedTensorType type = load.getType();
        if (load->getParentOp() == program.getOperation())
          leads.push_back(load);
        if (!loop || !isa_and_nonnull<MmaLayoutAttr>(type.getEncoding()) ||
            type.getRank() != 2 ||
            type.getElementType().getIntOrFloatBitWidth() != 16 ||
            written.contains(load.getSource()) ||
            !llvm::all_of(load.getIndices(), [&](Value v) {
              return isPureFunctionOfIV(v, loop);
            }))
          return;
        // Rows of a multiple of 128 bytes take K's layout (the 128-byte
        // swizzle in 64-column blocks), in which the accumulator layout's
        // reads are free of bank conflicts; in unswizzled rows of such a
        // length a quad column's eight rows would hit the same banks.
        auto mma = cast<MmaLayoutAttr>(type.getEncoding());
        int64_t rows = type.getDimSize(0), cols = type.getDimSize(1);
        if (cols % 64 == 0 && rows % 8 == 0) {
          loads.push_back({load, SwizzledSharedLayoutAttr::get(
                                     ctx, /*blocked=*/mma.isWarpgroup())});
          return;
        }
        // Other multiples of 16 columns: column blocks in TMA's 64- or
        // 32-byte swizzle, as conflict-free as the 128-byte one (where
        // unswizzled rows of 80 or 112 columns conflict 2-way, of 96
        // 4-way). Written by the TMA producer's boxes only: a warpgroup
        // layout's tile.
        if (narrowSwizzles && mma.isWarpgroup() && rows % 8 == 0 &&
            rows <= 256 && cols % 16 == 0) {
          loads.push_back({load, SwizzledSharedLayoutAttr::get(
                                     ctx, /*blocked=*/true,
                                     /*span=*/cols % 32 == 0 ? 64 : 32)});
          return;
        }
        if (failed(unswizzled.verifyEncoding(
                type.getShape(), type.getElementType(), [&] {
                  return mlir::emitRemark(load.getLoc())
                         << "stage_loads: this tile stays a register load: ";
                })))
          return;
        loads.push_back({load, unswizzled});
      });
      if (loads.empty())
        return;
      // The leads, with their loops' layout, after the others (the
      // hoisting below goes in front of the first staged load in a loop).
      size_t inLoops = loads.size();
      for (LoadOp lead : leads)
        for (size_t i = 0; i < inLoops; ++i)
          if (loads[i].first.getSource() == lead.getSource() &&
              loads[i].first.getType() == lead.getType()) {
            loads.push_back({lead, loads[i].second});
            break;
          }
      // In front of the first K/V loop with a staged load.
      Block *body = &program.getBody().front();
      Operation *front = loads.front().first;
      while (front->getBlock() != body)
        front = front->getParentOp();
      Hoister hoister(front);
      for (auto [load, layout] : loads) {
        auto loop = dyn_cast<scf::ForOp>(load->getParentOp());
        int64_t leading = load.getSource().getType().getRank() - 2;
        for (int64_t d = 0; loop && d < leading; ++d) {
          Value old = load.getIndices()[d];
          Value h = hoister.hoist(old, loop);
          if (!h || h == old)
            continue;
          load.getIndicesMutable()[d].set(h);
          if (Operation *def = old.getDefiningOp(); def && def->use_empty())
            def->erase();
        }
        RankedTensorType type = load.getType();
        auto staged = RankedTensorType::get(type.getShape(),
                                            type.getElementType(), layout);
        OpBuilder b(load->getNextNode());
        load.getResult().setType(staged);
        auto convert = ConvertLayoutOp::create(b, load.getLoc(), type,
                                               load.getResult());
        load.getResult().replaceAllUsesExcept(convert.getResult(), convert);
      }
    });
  }
};
} // namespace
