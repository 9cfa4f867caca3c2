//===- BufferizableOpInterfaceImpl.h - bufferizing attn ops -----*- C++ -*-===//

#ifndef ATTN_DIALECT_ATTN_IR_BUFFERIZABLEOPINTERFACEIMPL_H
#define ATTN_DIALECT_ATTN_IR_BUFFERIZABLEOPINTERFACEIMPL_H

namespace mlir {
class DialectRegistry;
namespace attn {
/// Lets One-Shot Bufferize turn `attn.attention` on tensors into
/// `attn.attention` on memrefs, writing in place into its destinations.
void registerBufferizableOpInterfaceExternalModels(DialectRegistry &registry);
} // namespace attn
} // namespace mlir

#endif // ATTN_DIALECT_ATTN_IR_BUFFERIZABLEOPINTERFACEIMPL_H
