//===- InitAllPasses.h - the attn passes, header-only -----------*- C++ -*-===//
//
// Registers the attn passes (ODS-generated registration of the dialect's
// transforms and of the conversions) with MLIR's pass registry, so that an
// embedder's pass pipeline strings can name them. The attn pipelines and
// the upstream passes they are built from are registered by
// attn::registerAttnPasses (attn/Compiler/Registration.h), which needs the
// compiler library.
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_INITALLPASSES_H
#define ATTN_INITALLPASSES_H

#include "attn/Conversion/Passes.h"
#include "attn/Dialect/Attn/Transforms/Passes.h"

namespace mlir {
namespace attn {

inline void registerAllPasses() {
  registerAttnTransformsPasses();
  registerAttnConversionPasses();
}

} // namespace attn
} // namespace mlir

#endif // ATTN_INITALLPASSES_H
