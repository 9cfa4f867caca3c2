//===- Dialects.cpp - the attn dialect in MLIR's C API --------------------===//

#include "attn-c/Dialects.h"

#include "attn/Compiler/Registration.h"
#include "attn/Dialect/Attn/IR/AttnDialect.h"
#include "attn/Dialect/Attn/IR/BufferizableOpInterfaceImpl.h"

#include "mlir/CAPI/Registration.h"

// The handle's registration hook inserts the dialect; the bufferization
// model of attn.attention is an external model, registered beside it.
static void insertAttnDialect(MlirDialectRegistry registry) {
  mlir::DialectRegistry *r = unwrap(registry);
  r->insert<mlir::attn::AttnDialect>();
  mlir::attn::registerBufferizableOpInterfaceExternalModels(*r);
}

static MlirDialect loadAttnDialect(MlirContext context) {
  return wrap(unwrap(context)->getOrLoadDialect<mlir::attn::AttnDialect>());
}

static MlirStringRef attnNamespace() {
  return wrap(mlir::attn::AttnDialect::getDialectNamespace());
}

static const MlirDialectRegistrationHooks attnHooks = {
    insertAttnDialect, loadAttnDialect, attnNamespace};

MlirDialectHandle mlirGetDialectHandle__attn__() {
  return MlirDialectHandle{&attnHooks};
}

void attnRegisterPasses() { mlir::attn::registerAttnPasses(); }
