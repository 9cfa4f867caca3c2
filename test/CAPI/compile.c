/* attn-capi-test: the C API (attn-c/Compiler.h, attn-c/Dialects.h) from a
 * C program, as an embedding host would call it. Prints what it gets back;
 * compile.test checks the output with FileCheck.
 * usage: attn-capi-test OUTDIR */

#include "attn-c/Compiler.h"
#include "attn-c/Dialects.h"
#include "attn-c/Module.h"

#include "mlir-c/Dialect/Func.h"
#include "mlir-c/Dialect/MemRef.h"
#include "mlir-c/IR.h"

#include <stdio.h>
#include <string.h>

static const char *kAttention =
    "func.func @k(%q: memref<?x?x?x64xf16>, %k: memref<?x?x?x64xf16>,\n"
    "             %v: memref<?x?x?x64xf16>, %o: memref<?x?x?x64xf16>) {\n"
    "  attn.attention ins(%q, %k, %v : memref<?x?x?x64xf16>, "
    "memref<?x?x?x64xf16>, memref<?x?x?x64xf16>)\n"
    "                 outs(%o : memref<?x?x?x64xf16>) "
    "{mask = #attn.mask<causal, top_left>}\n"
    "  return\n"
    "}\n";

/* A dynamic head dimension: valid IR that attn-tile refuses, at the op. */
static const char *kDynamicHeadDim =
    "func.func @dyn(%q: memref<?x?x?x?xf16>, %o: memref<?x?x?x?xf16>) {\n"
    "  attn.attention ins(%q, %q, %q : memref<?x?x?x?xf16>, "
    "memref<?x?x?x?xf16>, memref<?x?x?x?xf16>)\n"
    "                 outs(%o : memref<?x?x?x?xf16>)\n"
    "  return\n"
    "}\n";

static void printString(MlirStringRef s, void *userData) {
  fwrite(s.data, 1, s.length, (FILE *)userData);
}

/* V's head count (3) does not divide Q's (4): a verifier error. */
static const char *kBadHeads =
    "func.func @bad(%q: memref<1x4x16x64xf32>, %k: memref<1x3x16x64xf32>,\n"
    "               %o: memref<1x4x16x64xf32>) {\n"
    "  attn.attention ins(%q, %k, %k : memref<1x4x16x64xf32>, "
    "memref<1x3x16x64xf32>, memref<1x3x16x64xf32>)\n"
    "                 outs(%o : memref<1x4x16x64xf32>)\n"
    "  return\n"
    "}\n";

static const char *kSyntax = "func.func @f() {\n  attn.attention ins(\n}\n";
/* A dense array of index elements: MLIR 22.1's parser crashes on it
   (attn/Support/ParseSource.h); the library refuses it with an error. */
static const char *kIndexArray =
    "func.func @f() attributes {a = array<index: 1>} {\n  return\n}\n";

static void printDiagnostics(const AttnCompileResult *r) {
  static const char *names[] = {"error", "warning", "note", "remark"};
  for (size_t i = 0; i < attnCompileResultGetNumDiagnostics(r); ++i)
    printf("  %s at '%s': %s\n",
           names[attnCompileResultGetDiagnosticSeverity(r, i)],
           attnCompileResultGetDiagnosticLocation(r, i),
           attnCompileResultGetDiagnosticMessage(r, i));
}

static AttnCompileResult *compile(const char *what, const char *source,
                                  const char *name, const char *target) {
  AttnCompileOptions *options = attnCompileOptionsCreate();
  attnCompileOptionsSetTarget(options, target);
  AttnCompileResult *r =
      attnCompileSource(source, strlen(source), name, options);
  attnCompileOptionsDestroy(options);
  printf("%s [%s]: %s, %zu diagnostics\n", what, target,
         attnCompileResultSucceeded(r) ? "ok" : "failed",
         attnCompileResultGetNumDiagnostics(r));
  printDiagnostics(r);
  return r;
}

static int contains(const char *text, size_t length, const char *needle) {
  size_t n = strlen(needle);
  for (size_t i = 0; text && i + n <= length; ++i)
    if (memcmp(text + i, needle, n) == 0)
      return 1;
  return 0;
}

int main(int argc, char **argv) {
  const char *outDir = argc > 1 ? argv[1] : ".";
  printf("api %d (header %d), %.10s\n", attnGetAPIVersion(), ATTN_C_API_VERSION,
         attnGetCompilerVersion());

  /* The dialect handle, through MLIR's own C API. */
  MlirDialectHandle handle = mlirGetDialectHandle__attn__();
  MlirStringRef ns = mlirDialectHandleGetNamespace(handle);
  MlirContext ctx = mlirContextCreate();
  mlirDialectHandleRegisterDialect(handle, ctx);
  MlirDialect dialect = mlirContextGetOrLoadDialect(ctx, ns);
  printf("dialect %.*s loaded: %d\n", (int)ns.length, ns.data,
         !mlirDialectIsNull(dialect));
  mlirContextDestroy(ctx);

  /* sm_90a: PTX in memory, one kernel and its JSON, files on disk. */
  AttnCompileResult *r = compile("attention", kAttention, "causal.mlir", "sm_90a");
  size_t ptxLength = 0, cubinLength = 7;
  const char *ptx = attnCompileResultGetPTX(r, &ptxLength);
  const char *cubin = attnCompileResultGetCubin(r, &cubinLength);
  printf("  kernels %zu: %s\n", attnCompileResultGetNumKernels(r),
         attnCompileResultGetKernelName(r, 0));
  printf("  json names its ptx: %d\n",
         contains(attnCompileResultGetKernelJSON(r, 0),
                  strlen(attnCompileResultGetKernelJSON(r, 0)),
                  "\"ptx\": \"causal.sm_90a.ptx\""));
  printf("  ptx has wgmma: %d, mma.sync: %d; cubin %s (%zu bytes)\n",
         contains(ptx, ptxLength, "wgmma.mma_async"),
         contains(ptx, ptxLength, "mma.sync.aligned"),
         cubin ? "present" : "none", cubinLength);
  printf("  written: %d\n", attnCompileResultWriteArtifacts(r, outDir, "causal"));
  {
    /* The file the runtime loads holds the JSON given in memory. */
    char path[4096], disk[1 << 16];
    snprintf(path, sizeof path, "%s/k.json", outDir);
    FILE *f = fopen(path, "rb");
    size_t n = f ? fread(disk, 1, sizeof disk - 1, f) : 0;
    if (f)
      fclose(f);
    disk[n] = 0;
    const char *json = attnCompileResultGetKernelJSON(r, 0);
    printf("  k.json on disk matches: %d\n", json && strcmp(disk, json) == 0);
  }
  attnCompileResultDestroy(r);

  r = compile("attention", kAttention, "causal.mlir", "sm_80");
  ptx = attnCompileResultGetPTX(r, &ptxLength);
  printf("  ptx has wgmma: %d, mma.sync: %d\n",
         contains(ptx, ptxLength, "wgmma.mma_async"),
         contains(ptx, ptxLength, "mma.sync.aligned"));
  attnCompileResultDestroy(r);

  r = compile("attention", kAttention, "causal.mlir", "cpu");
  size_t cpuLength = 0;
  const char *cpuModule = attnCompileResultGetCPUModule(r, &cpuLength);
  printf("  cpu module has llvm.func @k: %d, attn ops left: %d\n",
         contains(cpuModule, cpuLength, "llvm.func @k"),
         contains(cpuModule, cpuLength, "attn."));
  printf("  written: %d\n", attnCompileResultWriteArtifacts(r, outDir, "cpu"));
  printDiagnostics(r);
  attnCompileResultDestroy(r);

  attnCompileResultDestroy(compile("heads", kBadHeads, "heads.mlir", "sm_90a"));
  attnCompileResultDestroy(compile("syntax", kSyntax, "syntax.mlir", "cpu"));
  attnCompileResultDestroy(
      compile("index array", kIndexArray, "array.mlir", "sm_90a"));
  attnCompileResultDestroy(compile("target", kAttention, "causal.mlir", "sm_75"));

  {
    /* A tuning database that does not exist: a warning, and the heuristic. */
    AttnCompileOptions *options = attnCompileOptionsCreate();
    attnCompileOptionsSetTuningDB(options, "/nonexistent/tuning.sqlite");
    r = attnCompileSource(kAttention, strlen(kAttention), "causal.mlir", options);
    attnCompileOptionsDestroy(options);
    printf("tuning db: %s, %zu diagnostics\n",
           attnCompileResultSucceeded(r) ? "ok" : "failed",
           attnCompileResultGetNumDiagnostics(r));
    printDiagnostics(r);
    attnCompileResultDestroy(r);
  }

  {
    /* A module the host built through MLIR's C API, in its own context
     * (attn, func and memref registered, nothing else), compiled as a
     * module: the same kernel; the module is left as it was. */
    MlirContext host = mlirContextCreate();
    mlirDialectHandleRegisterDialect(mlirGetDialectHandle__attn__(), host);
    mlirDialectHandleRegisterDialect(mlirGetDialectHandle__func__(), host);
    mlirDialectHandleRegisterDialect(mlirGetDialectHandle__memref__(), host);
    MlirModule module =
        mlirModuleCreateParse(host, mlirStringRefCreateFromCString(kAttention));
    AttnCompileOptions *options = attnCompileOptionsCreate();
    attnCompileOptionsSetTarget(options, "sm_90a");
    r = attnCompileModule(module, "hosted", options);
    printf("module [sm_90a]: %s, %zu diagnostics, kernels %zu: %s\n",
           attnCompileResultSucceeded(r) ? "ok" : "failed",
           attnCompileResultGetNumDiagnostics(r),
           attnCompileResultGetNumKernels(r), attnCompileResultGetKernelName(r, 0));
    printf("  json names its ptx: %d\n",
           contains(attnCompileResultGetKernelJSON(r, 0),
                    strlen(attnCompileResultGetKernelJSON(r, 0)),
                    "\"ptx\": \"hosted.sm_90a.ptx\""));
    attnCompileResultDestroy(r);
    printf("  module after: ");
    mlirOperationPrint(mlirModuleGetOperation(module), printString, stdout);
    printf("\n");
    mlirModuleDestroy(module);
    /* Its diagnostics carry the module's own locations. */
    module = mlirModuleCreateParse(
        host, mlirStringRefCreateFromCString(kDynamicHeadDim));
    r = attnCompileModule(module, NULL, options);
    printf("dynamic head dim module: %s, %zu diagnostics\n",
           attnCompileResultSucceeded(r) ? "ok" : "failed",
           attnCompileResultGetNumDiagnostics(r));
    printDiagnostics(r);
    attnCompileResultDestroy(r);
    mlirModuleDestroy(module);
    r = attnCompileModule((MlirModule){NULL}, NULL, options);
    printf("null module: %s\n", attnCompileResultSucceeded(r) ? "ok" : "failed");
    printDiagnostics(r);
    attnCompileResultDestroy(r);
    attnCompileOptionsDestroy(options);
    mlirContextDestroy(host);
  }

  r = attnCompileSource(NULL, 0, NULL, NULL);
  printf("null source: %s\n", attnCompileResultSucceeded(r) ? "ok" : "failed");
  printDiagnostics(r);
  attnCompileResultDestroy(r);
  return 0;
}
