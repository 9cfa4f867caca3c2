//===- Registration.h - what an attn tool registers -------------*- C++ -*-===//

#ifndef ATTN_COMPILER_REGISTRATION_H
#define ATTN_COMPILER_REGISTRATION_H

namespace mlir {
class DialectRegistry;
namespace attn {

/// The attn dialect, the upstream dialects that attn programs use or lower
/// to, and the interface models their bufferization needs. Only these: a
/// tool that embeds attn need not load every upstream dialect.
void registerAttnDialects(DialectRegistry &registry);

/// The attn passes, the attn pipelines, and the upstream passes the
/// pipelines are built from (so that each step can be run on its own).
void registerAttnPasses();

} // namespace attn
} // namespace mlir

#endif // ATTN_COMPILER_REGISTRATION_H
