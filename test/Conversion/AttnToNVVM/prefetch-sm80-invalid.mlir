// RUN: attn-opt %s --attn-lower-to-nvvm="chip=sm_80 format=isa" -verify-diagnostics
// RUN: attn-opt %s --attn-lower-to-nvvm="chip=sm_90a format=isa" | FileCheck %s --check-prefix=SM90

// prefetch_loads on sm_80: PTX has prefetch.global.L1 there, but LLVM's
// NVPTX backend selects its intrinsic only from sm_90, and stopped with
// "Cannot select" (a crash, found by utils/fuzz.py). Refused at the op
// instead, with the reason; sm_90a compiles it.
// SM90: prefetch.global.L1
func.func @bias_prefetch(%q: memref<?x?x?x128xf16>, %k: memref<?x?x?x128xf16>,
                         %v: memref<?x?x?x128xf16>, %o: memref<?x?x?x128xf16>,
                         %bias: memref<1x1x?x?xf16>) {
  // expected-error @+1 {{'attn.prefetch' op has no sm_80 lowering: prefetch_loads (an L1 prefetch) needs chip=sm_90 or sm_90a: LLVM's NVPTX backend selects prefetch.global.L1 only from sm_90}}
  attn.attention ins(%q, %k, %v : memref<?x?x?x128xf16>, memref<?x?x?x128xf16>, memref<?x?x?x128xf16>)
                 bias(%bias : memref<1x1x?x?xf16>) outs(%o : memref<?x?x?x128xf16>)
                 {config = #attn.tile_config<block_m = 128, block_n = 64, warps = 8, stages = 2>,
                  gpu_config = #attn.gpu_config<prefetch_loads = true>}
  return
}
