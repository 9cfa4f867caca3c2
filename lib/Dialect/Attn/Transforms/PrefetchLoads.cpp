//===- PrefetchLoads.cpp - register-tile loads into L1 a block ahead ------===//
//
// A bias tile is loaded in the consumers' instruction stream right before
// the scores need it, and its latency (an L2 hit) is on the softmax's path:
// the bias cost the same at D = 128 whether it was 34 MB (broadcast, in L2)
// or 537 MB (docs/perf-log.md, seventeenth session). Loading it a block
// earlier needs registers the consumers do not have (the block-ahead
// prefetch of the sixteenth session); an L1 prefetch needs none.
//
//===----------------------------------------------------------------------===//

#include "attn/Dialect/Attn/Transforms/CopyChains.h"
#include "attn/Dialect/Attn/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"

namespace mlir {
namespace attn {
#define GEN_PASS_DEF_ATTNPREFETCHLOADS
#include "attn/Dialect/Attn/Transforms/Passes.h.inc"
} // namespace attn
} // namespace mlir

using namespace mlir;
using namespace mlir::attn;

namespace {
struct AttnPrefetchLoadsPass
    : public attn::impl::AttnPrefetchLoadsBase<AttnPrefetchLoadsPass> {
  void runOnOperation() override {
    getOperation()->walk([&](ProgramOp program) {
      if (!program.getGpuConfigOrDefault().getPrefetchLoads())
        return;
      // Buffers the program writes: a prefetch must not read what a
      // store of this kernel may still change.
      llvm::SmallDenseSet<Value> written;
      program.walk([&](StoreOp store) { written.insert(store.getDest()); });
      SmallVector<std::pair<scf::ForOp, LoadOp>> loads;
      program.walk([&](LoadOp load) {
        auto loop = dyn_cast<scf::ForOp>(load->getParentOp());
        auto type = load.getType();
        if (!loop || !isa_and_nonnull<MmaLayoutAttr>(type.getEncoding()) ||
            type.getRank() != 2 || written.contains(load.getSource()) ||
            !llvm::all_of(load.getIndices(), [&](Value v) {
              return isPureFunctionOfIV(v, loop);
            }))
          return;
        loads.push_back({loop, load});
      });
      for (auto [loop, load] : loads) {
        OpBuilder b = OpBuilder::atBlockBegin(loop.getBody());
        Location loc = load.getLoc();
        Value next = arith::AddIOp::create(b, loc, loop.getInductionVar(),
                                           loop.getStep());
        IRMapping mapping;
        SmallVector<Value> indices;
        for (Value idx : load.getIndices())
          indices.push_back(cloneAt(b, idx, loop, next, mapping));
        PrefetchOp::create(b, loc, load.getSource(), indices,
                           TypeAttr::get(load.getType()));
      }
    });
  }
};
} // namespace
