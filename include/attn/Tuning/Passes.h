//===- Passes.h - tuning passes ---------------------------------*- C++ -*-===//

#ifndef ATTN_TUNING_PASSES_H
#define ATTN_TUNING_PASSES_H

#include "mlir/Pass/Pass.h"

#include <memory>

namespace mlir {
namespace attn {

#define GEN_PASS_DECL
#include "attn/Tuning/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "attn/Tuning/Passes.h.inc"

} // namespace attn
} // namespace mlir

#endif // ATTN_TUNING_PASSES_H
