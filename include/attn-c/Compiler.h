/*===- attn-c/Compiler.h - compile attention to kernels, from C ---*- C -*-===*\
|*                                                                            *|
|* The embedding entry point (in the spirit of IREE's embedding_api.h): an    *|
|* ML compiler or a C host hands attn IR as text and gets back kernel         *|
|* artifacts in memory (PTX, a cubin, the runtime's JSON per kernel) or on    *|
|* disk, or, for the CPU target, the lowered LLVM-dialect module. Every      *|
|* diagnostic comes back as an object with its severity, its location and     *|
|* its message. No MLIR types cross this interface: each compilation has its *|
|* own context. Thread-safe across compilations.                              *|
|*                                                                            *|
|* Versioned: a caller built against ATTN_C_API_VERSION checks                *|
|* attnGetAPIVersion() at run time; functions are only added, and a change   *|
|* of meaning bumps the version.                                              *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef ATTN_C_COMPILER_H
#define ATTN_C_COMPILER_H

#include <stdbool.h>
#include <stddef.h>

#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ATTN_C_API_VERSION 1

/// The version of this interface the library implements.
MLIR_CAPI_EXPORTED int attnGetAPIVersion(void);
/// "attn (git <commit>), LLVM <version>", as recorded in kernel artifacts.
/// Owned by the library.
MLIR_CAPI_EXPORTED const char *attnGetCompilerVersion(void);

typedef struct AttnCompileOptions AttnCompileOptions;
typedef struct AttnCompileResult AttnCompileResult;

/// Options with their defaults: target "sm_90a", PTX only, K/V loops split.
MLIR_CAPI_EXPORTED AttnCompileOptions *attnCompileOptionsCreate(void);
MLIR_CAPI_EXPORTED void attnCompileOptionsDestroy(AttnCompileOptions *options);
/// "cpu", "sm_80" or "sm_90a" (any other name is reported by the compile).
MLIR_CAPI_EXPORTED void attnCompileOptionsSetTarget(AttnCompileOptions *options,
                                                    const char *target);
/// GPU targets: also assemble a cubin with ptxas.
MLIR_CAPI_EXPORTED void attnCompileOptionsSetCubin(AttnCompileOptions *options,
                                                   bool cubin);
/// GPU targets: the CUDA toolkit for ptxas and libdevice ("" = PATH,
/// CUDA_HOME).
MLIR_CAPI_EXPORTED void attnCompileOptionsSetToolkit(AttnCompileOptions *options,
                                                     const char *path);
/// GPU targets: the SQLite tuning database to take configurations from
/// (docs/tuning.md; "" = none, the heuristic). A database that cannot be
/// used is a warning in the result's diagnostics, and the heuristic decides.
MLIR_CAPI_EXPORTED void attnCompileOptionsSetTuningDB(AttnCompileOptions *options,
                                                      const char *path);
/// Split each K/V loop into unmasked and masked parts (default true).
MLIR_CAPI_EXPORTED void
attnCompileOptionsSetSplitKVLoop(AttnCompileOptions *options, bool split);

/// Parses `source` (`length` bytes of MLIR text; `sourceName` names it in
/// diagnostics) and compiles every attn.attention in it for the options'
/// target. Never returns NULL (except out of memory); the result says
/// whether it succeeded and carries every diagnostic either way. `options`
/// may be NULL (the defaults).
MLIR_CAPI_EXPORTED AttnCompileResult *
attnCompileSource(const char *source, size_t length, const char *sourceName,
                  const AttnCompileOptions *options);

MLIR_CAPI_EXPORTED bool attnCompileResultSucceeded(const AttnCompileResult *r);

typedef enum {
  AttnDiagnosticError,
  AttnDiagnosticWarning,
  AttnDiagnosticNote,
  AttnDiagnosticRemark
} AttnDiagnosticSeverity;

/// The diagnostics in the order they were emitted (a note follows its
/// error). Strings are owned by the result.
MLIR_CAPI_EXPORTED size_t
attnCompileResultGetNumDiagnostics(const AttnCompileResult *r);
MLIR_CAPI_EXPORTED AttnDiagnosticSeverity
attnCompileResultGetDiagnosticSeverity(const AttnCompileResult *r, size_t i);
/// "file:line:col", or "" where the diagnostic has no source location.
MLIR_CAPI_EXPORTED const char *
attnCompileResultGetDiagnosticLocation(const AttnCompileResult *r, size_t i);
MLIR_CAPI_EXPORTED const char *
attnCompileResultGetDiagnosticMessage(const AttnCompileResult *r, size_t i);

/// GPU targets: the kernels (one per function holding an attn.attention),
/// each with the runtime's JSON description (format 2; it names the PTX and
/// cubin files attnCompileResultWriteArtifacts writes for `sourceName`'s
/// stem).
MLIR_CAPI_EXPORTED size_t attnCompileResultGetNumKernels(const AttnCompileResult *r);
MLIR_CAPI_EXPORTED const char *
attnCompileResultGetKernelName(const AttnCompileResult *r, size_t i);
MLIR_CAPI_EXPORTED const char *
attnCompileResultGetKernelJSON(const AttnCompileResult *r, size_t i);
/// GPU targets: the PTX of all kernels, and the cubin (NULL and length 0
/// unless asked for).
MLIR_CAPI_EXPORTED const char *attnCompileResultGetPTX(const AttnCompileResult *r,
                                                       size_t *length);
MLIR_CAPI_EXPORTED const char *
attnCompileResultGetCubin(const AttnCompileResult *r, size_t *length);
/// The CPU target: the lowered module (LLVM dialect) as text.
MLIR_CAPI_EXPORTED const char *
attnCompileResultGetCPUModule(const AttnCompileResult *r, size_t *length);

/// GPU targets: writes DIR/<stem>.<chip>.ptx (and .cubin) and
/// DIR/<kernel>.json, the files the runtime loads. On failure returns false
/// and appends an error diagnostic.
MLIR_CAPI_EXPORTED bool attnCompileResultWriteArtifacts(AttnCompileResult *r,
                                                        const char *dir,
                                                        const char *stem);

MLIR_CAPI_EXPORTED void attnCompileResultDestroy(AttnCompileResult *r);

#ifdef __cplusplus
}
#endif

#endif /* ATTN_C_COMPILER_H */
