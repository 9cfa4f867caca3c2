// RUN: attn-opt %s --attn-tile --attn-split-kv-loop --cse --attn-assign-layouts=chip=sm_90a \
// RUN:   --attn-overlap-softmax --attn-stage-shared --attn-warp-specialize --attn-allocate-shared \
// RUN:   --convert-attn-tile-to-nvvm=chip=sm_90a | FileCheck %s

// A softcap alone bounds the scores, so for bf16 (a 16-bit P with f32's
// exponent range) attn-tile gives attn.online_softmax a max_bound
// (c log2 e), and the lowering takes no row maximum and never rescales:
// no maximum, no alpha, no vote in the kernel; with f16 P the running
// maximum stays.

// CHECK-LABEL: gpu.func @bounded
// CHECK: scf.for
// CHECK: llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f32"
// CHECK-NOT: arith.maximumf
// CHECK-NOT: nvvm.vote.sync
// CHECK-LABEL: gpu.func @unbounded
// CHECK: scf.for
// CHECK: arith.maximumf
func.func @bounded(%q: memref<?x?x?x64xbf16>, %k: memref<?x?x?x64xbf16>, %v: memref<?x?x?x64xbf16>,
                   %o: memref<?x?x?x64xbf16>, %lse: memref<?x?x?xf32>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>)
                 outs(%o, %lse : memref<?x?x?x64xbf16>, memref<?x?x?xf32>)
                 {config = #attn.tile_config<block_m = 128, block_n = 64, warps = 8, stages = 2>,
                  gpu_config = #attn.gpu_config<wgmma = true, overlap_softmax = true, warp_specialize = true, lazy_rescale = true>,
                  softcap = 30.0 : f64}
  return
}
func.func @unbounded(%q: memref<?x?x?x64xf16>, %k: memref<?x?x?x64xf16>, %v: memref<?x?x?x64xf16>,
                     %o: memref<?x?x?x64xf16>, %lse: memref<?x?x?xf32>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x64xf16>, memref<?x?x?x64xf16>, memref<?x?x?x64xf16>)
                 outs(%o, %lse : memref<?x?x?x64xf16>, memref<?x?x?xf32>)
                 {config = #attn.tile_config<block_m = 128, block_n = 64, warps = 8, stages = 2>,
                  gpu_config = #attn.gpu_config<wgmma = true, overlap_softmax = true, warp_specialize = true, lazy_rescale = true>,
                  softcap = 30.0 : f64}
  return
}
