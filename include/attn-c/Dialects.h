/*===- attn-c/Dialects.h - the attn dialect in MLIR's C API -------*- C -*-===*\
|*                                                                            *|
|* The dialect handle (mlirGetDialectHandle__attn__) for MLIR's C API, as     *|
|* every upstream dialect has one: mlirDialectHandleRegisterDialect or        *|
|* mlirDialectHandleInsertDialect make attn IR parse in an MlirContext.       *|
|* Registering the dialect this way registers attn.attention's                *|
|* bufferization model too.                                                   *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef ATTN_C_DIALECTS_H
#define ATTN_C_DIALECTS_H

#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Attn, attn);

/// Registers the attn passes, the attn pipelines and the upstream passes
/// they are built from with MLIR's global pass registry (for pass pipeline
/// strings such as "builtin.module(attn-lower-to-cpu)").
MLIR_CAPI_EXPORTED void attnRegisterPasses(void);

#ifdef __cplusplus
}
#endif

#endif /* ATTN_C_DIALECTS_H */
