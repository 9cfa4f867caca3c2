/*===- attn-c/CPU.h - running CPU compilations in process ------*- C -*-===*\
|*                                                                          *|
|* A compilation for the "cpu" target (attn-c/Compiler.h) JIT-compiled by  *|
|* MLIR's ExecutionEngine and called in this process: the semantics of a   *|
|* spec on host arrays, with no GPU (the Python package's attn.cpu).       *|
|*                                                                          *|
\*===----------------------------------------------------------------------===*/

#ifndef ATTN_C_CPU_H
#define ATTN_C_CPU_H

#include "attn-c/Compiler.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct AttnCPUKernel AttnCPUKernel;

/// JIT-compiles function `function` of the successful "cpu" compilation
/// `result` (which may be destroyed afterwards). NULL on failure, with the
/// reason in `err` (`errLen` bytes, NUL-terminated).
MLIR_CAPI_EXPORTED AttnCPUKernel *
attnCPUKernelCreate(const AttnCompileResult *result, const char *function,
                    char *err, size_t errLen);

/// The number of scalar arguments the function takes: per memref argument of
/// rank R, 3 + 2 R (allocated and aligned pointers, offset, sizes, strides:
/// the LLVM lowering of a memref descriptor), in argument order.
MLIR_CAPI_EXPORTED size_t attnCPUKernelGetNumArgs(const AttnCPUKernel *kernel);

/// Calls the function. `args[i]` points to the value of scalar argument i
/// (a void* or an int64_t). The caller must pass shapes the function
/// accepts: its own shape checks abort the process. Returns 0, or non-zero
/// with the reason in `err`.
MLIR_CAPI_EXPORTED int attnCPUKernelCall(AttnCPUKernel *kernel, void **args,
                                         size_t numArgs, char *err,
                                         size_t errLen);

MLIR_CAPI_EXPORTED void attnCPUKernelDestroy(AttnCPUKernel *kernel);

#ifdef __cplusplus
}
#endif

#endif /* ATTN_C_CPU_H */
