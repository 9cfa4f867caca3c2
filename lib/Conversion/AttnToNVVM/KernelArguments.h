//===- KernelArguments.h - a kernel's buffers as the runtime sees them -*- C++
//-*-===//
//
// What the launch metadata says of each kernel argument (its roles, element
// type, static shape, whether the kernel writes it and the alignment its
// pointer and strides need) and of the TMA descriptors the runtime builds
// for it (the box each of the kernel's copies and stores moves).
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_LIB_CONVERSION_ATTNTONVVM_KERNELARGUMENTS_H
#define ATTN_LIB_CONVERSION_ATTNTONVVM_KERNELARGUMENTS_H

#include "attn/Dialect/Attn/IR/AttnDialect.h"

#include <utility>

namespace mlir {
namespace attn {
namespace nvgpu {

/// How the kernel accesses `buffer` (in `program`): whether it writes it,
/// and the byte alignment its pointer and its strides must have. Tiles
/// copied with cp.async move 16-byte chunks; 16-bit tiles stored from
/// #attn.mma registers go out as 4-byte pairs when their columns are
/// statically inside the buffer, in 16-byte pieces when moreover they are
/// whole 32-column groups in a warp-specialized kernel
/// (RegisterStoreLowering); everything else is accessed element by element.
std::pair<bool, int64_t> accessOf(ProgramOp program, Value buffer);

/// The JSON-facing description of one kernel argument.
DictionaryAttr describeBuffer(MLIRContext *ctx, MemRefType type,
                              ArrayRef<StringRef> roles, bool writes,
                              int64_t align);

/// One TMA descriptor of a kernel: the argument it describes and the box
/// rows of the copies that use it.
struct TensorMap {
  unsigned arg;
  int64_t rows;
  int64_t elementBytes;
  /// Columns of one box: column blocks of `swizzle`-byte rows
  /// (#attn.swizzled<blocked, span = swizzle>), or the tile's whole rows
  /// unswizzled (swizzle 0).
  int64_t boxCols;
  int64_t swizzle;

  bool operator==(const TensorMap &o) const {
    return arg == o.arg && rows == o.rows && elementBytes == o.elementBytes &&
           boxCols == o.boxCols && swizzle == o.swizzle;
  }
};

/// The descriptor that `copy` (of argument `arg`) reads through: its
/// destination's rows, and its layout's box and swizzle.
TensorMap copyMap(TmaCopyOp copy, unsigned arg);

/// The TMA descriptors `program`'s copies need, in argument order.
SmallVector<TensorMap> tensorMapsOf(ProgramOp program, ArrayRef<Value> args);

} // namespace nvgpu
} // namespace attn
} // namespace mlir

#endif // ATTN_LIB_CONVERSION_ATTNTONVVM_KERNELARGUMENTS_H
