//===- AllocateShared.cpp - offsets of the shared buffers of a program ----===//
//
// Every attn.local_alloc of a program gets a byte offset into the
// program's dynamic shared memory, in program order, each aligned as its
// layout needs: 128 bytes (the swizzle permutes 16-byte chunks within
// 128-byte groups, so a buffer must start on such a group), 1024 for the
// blocked layout of wgmma operands (the hardware swizzles absolute address
// bits 4-6 with bits 7-9, so an 8-row atom must start at a multiple of 1024). Buffers are never reused: the tile
// programs hold a few buffers that all live from their allocation to the
// end. The program records the total as `shared_bytes`; a total over
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
      SmallVector<LocalAllocOp> allocs;
      program.getBody().walk([&](LocalAllocOp alloc) {
        allocs.push_back(alloc);
        total = llvm::alignTo(total, alloc.getType().getAlignment());
        alloc.setOffsetAttr(
            IntegerAttr::get(IntegerType::get(&getContext(), 64), total));
        total += alloc.getType().getSizeInBytes();
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
        for (LocalAllocOp alloc : allocs)
          diag.attachNote(alloc.getLoc())
              << alloc.getType() << ": " << alloc.getType().getSizeInBytes()
              << " bytes";
        failedAny = true;
      }
    });
    if (failedAny)
      signalPassFailure();
  }
};
} // namespace
