// RUN: attn-opt %s --split-input-file --attn-lower-to-nvvm="chip=sm_90a format=isa" -verify-diagnostics
// RUN: not attn-opt %s --split-input-file --attn-lower-to-nvvm="chip=sm_90a format=isa" 2>/dev/null | FileCheck %s

// A wgmma keeps its accumulator in registers (N / 2 per thread), and ptxas
// compiles every instruction within the cap a CTA's thread count gives at
// entry (65536 / threads), whatever setmaxnreg raises later. 192-row
// tiles with warp_specialize are 512 threads, 128 registers: a product
// with N = 256 does not fit (ptxas stopped with C7602, "Insufficient
// registers (128)", found by bench/device/random_variants.py), so it is
// refused at the product, with the reason; N = 192 compiles (the second
// case; the file as a whole exits 1 for the first).

func.func @dv256(%q: memref<?x?x?x128xf16>, %k: memref<?x?x?x128xf16>,
                 %v: memref<?x?x?x256xf16>, %o: memref<?x?x?x256xf16>) {
  // expected-error @+1 {{'attn.dot' op has no sm_90a lowering: a wgmma with N = 256 keeps 128 accumulator registers per thread, and a CTA of 512 threads gives each 128 at entry, within which ptxas compiles every instruction; take a smaller block_n or head dim, or fewer warps}}
  attn.attention ins(%q, %k, %v : memref<?x?x?x128xf16>, memref<?x?x?x128xf16>, memref<?x?x?x256xf16>)
                 outs(%o : memref<?x?x?x256xf16>)
                 {config = #attn.tile_config<block_m = 192, block_n = 64, warps = 12, stages = 2>,
                  gpu_config = #attn.gpu_config<wgmma = true, warp_specialize = true>}
  return
}

// -----

// CHECK: .entry dv192(
func.func @dv192(%q: memref<?x?x?x192xf16>, %k: memref<?x?x?x192xf16>,
                 %v: memref<?x?x?x192xf16>, %o: memref<?x?x?x192xf16>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x192xf16>, memref<?x?x?x192xf16>, memref<?x?x?x192xf16>)
                 outs(%o : memref<?x?x?x192xf16>)
                 {config = #attn.tile_config<block_m = 192, block_n = 32, warps = 12, stages = 2>,
                  gpu_config = #attn.gpu_config<wgmma = true, warp_specialize = true>}
  return
}
