//===- AllocateShared.cpp - offsets of the shared buffers of a program ----===//
//
// Every attn.local_alloc of a program gets a byte offset into the
// program's dynamic shared memory, in program order, each aligned as its
// layout needs: 128 bytes (the swizzle permutes 16-byte chunks within
// 128-byte groups, so a buffer must start on such a group), 1024 for the
// blocked layout of wgmma operands (the hardware swizzles absolute address
// bits 4-6 with bits 7-9, so an 8-row atom must start at a multiple of 1024). Buffers are never reused: the tile
// programs hold a few buffers that all live from their allocation to the
// end; mbarriers (8 bytes each) are placed the same way. The program
// records the total as `shared_bytes`; a total over
// `max-shared-bytes` is diagnosed with every buffer's size.
//
//===----------------------------------------------------------------------===//

#include "attn/Dialect/Attn/Transforms/Passes.h"

#include "llvm/Support/MathExtras.h"

namespace mlir {
namespace attn {
#define GEN_PASS_DEF_ATTNALLOCATESHARED
#include "attn/Dialect/Attn/Transforms/Passes.h.inc"
} // namespace attn
} // namespace mlir

using namespace mlir;
using namespace mlir::attn;

namespace {
struct AttnAllocateSharedPass
    : public attn::impl::AttnAllocateSharedBase<AttnAllocateSharedPass> {
  using Base::Base;
  void runOnOperation() override {
    bool failedAny = false;
    getOperation()->walk([&](ProgramOp program) {
      int64_t total = 0;
      SmallVector<Operation *> allocs;
      auto place = [&](Operation *alloc, int64_t align, int64_t bytes) {
        allocs.push_back(alloc);
        total = llvm::alignTo(total, align);
        alloc->setAttr("offset", IntegerAttr::get(
                                     IntegerType::get(&getContext(), 64), total));
        total += bytes;
      };
      program.getBody().walk([&](Operation *op) {
        if (auto alloc = dyn_cast<LocalAllocOp>(op))
          place(op, alloc.getType().getAlignment(),
                alloc.getType().getSizeInBytes());
        // An mbarrier is 8 bytes, 8-byte aligned.
        if (auto bars = dyn_cast<MBarrierAllocOp>(op))
          place(op, 8, 8 * bars.getType().getCount());
      });
      program->setAttr("shared_bytes",
                       IntegerAttr::get(IntegerType::get(&getContext(), 64),
                                        total));
      if (total > maxSharedBytes) {
        InFlightDiagnostic diag = program.emitOpError()
                                  << "needs " << total
                                  << " bytes of shared memory, over the "
                                     "target's "
                                  << static_cast<int64_t>(maxSharedBytes)
                                  << " (max-shared-bytes)";
        for (Operation *alloc : allocs) {
          Type type = alloc->getResult(0).getType();
          int64_t bytes = isa<MBarriersType>(type)
                              ? 8 * cast<MBarriersType>(type).getCount()
                              : cast<SharedBufferType>(type).getSizeInBytes();
          diag.attachNote(alloc->getLoc()) << type << ": " << bytes << " bytes";
        }
        failedAny = true;
      }
    });
    if (failedAny)
      signalPassFailure();
  }
};
} // namespace
