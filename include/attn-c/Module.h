/*===- attn-c/Module.h - compile an MlirModule, from C ------------*- C -*-===*\
|*                                                                            *|
|* For hosts that build attn IR through MLIR's C API (the dialect handle of  *|
|* attn-c/Dialects.h) rather than as text: attnCompileModule compiles such a *|
|* module as attnCompileSource compiles text. Kept apart from                *|
|* attn-c/Compiler.h, which no MLIR type crosses (the Python bindings use   *|
|* that one alone, through libattn_c.so).                                    *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef ATTN_C_MODULE_H
#define ATTN_C_MODULE_H

#include "attn-c/Compiler.h"

#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Compiles every attn.attention of `module` for the options' target, as
/// attnCompileSource does; `module` itself is not modified. It is printed
/// with its locations and compiled in a context of the compiler's own (with
/// every dialect and translation the pipelines need, which the caller's
/// context need not have), so diagnostics point at the caller's locations.
/// `name` is the artifacts' stem (NULL: "module"). A null module gives a
/// failed result with a diagnostic.
MLIR_CAPI_EXPORTED AttnCompileResult *
attnCompileModule(MlirModule module, const char *name,
                  const AttnCompileOptions *options);

#ifdef __cplusplus
}
#endif

#endif // ATTN_C_MODULE_H
