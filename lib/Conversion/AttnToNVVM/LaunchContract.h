//===- LaunchContract.h - what a kernel's launch must satisfy ----*- C++
//-*-===//
//
// The runtime launches a kernel from its metadata, so the shape checks of
// the host function (attn-tile's cf.assert ops) must survive outlining as
// data: OutlineKernel reads them into a Contract (equal sizes, broadcast
// dimensions, grouped-query divisibility), which becomes the metadata's
// "contract" the runtime checks before every launch, and it writes the
// configuration the kernel was built for into a constant global that the
// runtime checks the metadata against at load.
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_LIB_CONVERSION_ATTNTONVVM_LAUNCHCONTRACT_H
#define ATTN_LIB_CONVERSION_ATTNTONVVM_LAUNCHCONTRACT_H

#include "attn/Dialect/Attn/IR/AttnDialect.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"

#include <map>
#include <optional>

namespace mlir {
namespace attn {
namespace nvgpu {

/// A buffer dimension: (argument number, dimension).
using BufferDim = std::pair<unsigned, int64_t>;

/// `memref.dim` of a kernel buffer with a constant index, as a BufferDim.
std::optional<BufferDim> asBufferDim(Value v, ArrayRef<Value> args);

/// The launch contract read from the host function's asserts.
struct Contract {
  /// Equal sizes: each dimension's representative (the first in argument
  /// order of its class).
  std::map<BufferDim, BufferDim> representative;
  SmallVector<std::pair<BufferDim, BufferDim>> equal;
  /// (divisor, dividend): the divisor is positive and divides the dividend.
  SmallVector<std::pair<BufferDim, BufferDim>> divides;
  /// (dim, full): dim is 1 or equal to full (a broadcast dimension).
  SmallVector<std::pair<BufferDim, BufferDim>> broadcasts;

  BufferDim find(BufferDim d) {
    auto it = representative.find(d);
    if (it == representative.end() || it->second == d)
      return d;
    return it->second = find(it->second);
  }
  void unite(BufferDim a, BufferDim b) {
    a = find(a);
    b = find(b);
    if (a == b)
      return;
    if (b < a)
      std::swap(a, b);
    representative[a] = a;
    representative[b] = a;
  }
};

/// Reads one assert into `contract`; false if it is none of the three forms
/// (equal sizes, a broadcast dimension, attn-tile's grouped-query check).
bool readAssert(cf::AssertOp op, ArrayRef<Value> args, Contract &contract);

/// The constant global `attn_contract_<kernel>` (i64 fields in the
/// runtime's order, attn_contract.h) describing what `kernel` was built
/// for, at `mb` (the GPU module's body).
void emitLaunchContract(OpBuilder &mb, gpu::GPUFuncOp kernel,
                        TileConfigAttr config, int64_t format, int64_t threads,
                        int64_t sharedBytes, ProgramOp program,
                        ArrayRef<Value> args,
                        ArrayRef<SmallVector<StringRef>> roles);

} // namespace nvgpu
} // namespace attn
} // namespace mlir

#endif // ATTN_LIB_CONVERSION_ATTNTONVVM_LAUNCHCONTRACT_H
