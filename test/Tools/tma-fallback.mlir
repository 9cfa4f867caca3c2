// attn-compile and a bias copied by TMA (stage_loads, set by the
// configuration passes for a warp-specialized kernel with a 16-bit bias):
// every kernel that stages it gets a TMA fallback, the same attention
// compiled without the staging (`<kernel>__unstaged`, its tensor maps Q, K
// and V only), named in the kernel's JSON ("tma_fallback"), which the
// runtime launches where TMA cannot describe a launch's bias. A length
// variant has its own. A static key extent that is not a multiple of 8
// (rows TMA can never copy) is not staged and has no fallback.

// RUN: rm -rf %t && mkdir -p %t
// RUN: attn-compile %s --chip=sm_90a -o %t/d | FileCheck %s --check-prefix=OUT
// OUT: dynamic: {{.*}}/dynamic.json
// OUT-NEXT: where TMA cannot copy the bias: {{.*}}/dynamic__unstaged.json
// OUT-NEXT: key length <= 2048: {{.*}}/dynamic__n2048.json
// OUT-NEXT: unaligned: {{.*}}/unaligned.json
// OUT-NOT: where TMA

// RUN: FileCheck %s --check-prefix=MAIN < %t/d/dynamic.json
// MAIN: "block_n": 112,
// MAIN: "buffer": 5,
// MAIN-NEXT: "swizzle": 0
// MAIN: "tma_fallback": "dynamic__unstaged"
// RUN: FileCheck %s --check-prefix=FALLBACK < %t/d/dynamic__unstaged.json
// The fallback takes the heuristic's configuration (128 x 64 with the
// overlap), not the database's (128 x 112 async_pv persistent, which spills
// unstaged).
// FALLBACK: "block_n": 64,
// FALLBACK: "name": "dynamic__unstaged",
// FALLBACK: "ptx": "tma-fallback__unstaged.sm_90a.ptx",
// FALLBACK-NOT: "buffer": 5,
// FALLBACK-NOT: tma_fallback
// RUN: FileCheck %s --check-prefix=VARIANT < %t/d/dynamic__n2048.json
// VARIANT: "tma_fallback": "dynamic__n2048__unstaged"
// RUN: FileCheck %s --check-prefix=VFALLBACK < %t/d/dynamic__n2048__unstaged.json
// VFALLBACK: "name": "dynamic__n2048__unstaged",
// RUN: FileCheck %s --check-prefix=UNALIGNED < %t/d/unaligned.json
// UNALIGNED-NOT: tma_fallback
// RUN: not test -e %t/d/unaligned__unstaged.json

// The fallback's PTX has the bias loads in the consumers, the kernel's
// does not.
// RUN: FileCheck %s --check-prefix=PTX < %t/d/tma-fallback__unstaged.sm_90a.ptx
// PTX: .entry dynamic__unstaged
// PTX: ld.global

func.func @dynamic(%q: memref<?x?x?x128xf16>, %k: memref<?x?x?x128xf16>, %v: memref<?x?x?x128xf16>, %o: memref<?x?x?x128xf16>, %lse: memref<?x?x?xf32>, %bias: memref<?x?x?x?xf16>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x128xf16>, memref<?x?x?x128xf16>, memref<?x?x?x128xf16>) bias(%bias : memref<?x?x?x?xf16>) outs(%o, %lse : memref<?x?x?x128xf16>, memref<?x?x?xf32>)
  return
}

func.func @unaligned(%q: memref<?x?x?x128xf16>, %k: memref<?x?x1004x128xf16>, %v: memref<?x?x1004x128xf16>, %o: memref<?x?x?x128xf16>, %lse: memref<?x?x?xf32>, %bias: memref<?x?x?x1004xf16>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x128xf16>, memref<?x?x1004x128xf16>, memref<?x?x1004x128xf16>) bias(%bias : memref<?x?x?x1004xf16>) outs(%o, %lse : memref<?x?x?x128xf16>, memref<?x?x?xf32>)
  return
}
