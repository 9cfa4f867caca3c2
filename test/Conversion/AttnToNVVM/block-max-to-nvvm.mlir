// RUN: attn-opt %s --attn-tile --attn-split-kv-loop --attn-hoist-row-max --cse --attn-assign-layouts=chip=sm_90a \
// RUN:   --attn-overlap-softmax --attn-stage-shared --attn-warp-specialize --attn-allocate-shared \
// RUN:   --convert-attn-tile-to-nvvm=chip=sm_90a | FileCheck %s

// With a block_max (attn-hoist-row-max) the online softmax takes its row
// maximum from the program: the reduction of the product's scores and its
// quad shuffles come before the block's tanh, and nothing but the
// exponentials' operands lies between the tanh and the exponentials.
// Without it, the maximum of the tanh results and its shuffles do.

// The split leaves three K/V loops: masked blocks, unmasked blocks (the
// second, the only one with a block_max), masked blocks.
// CHECK-LABEL: gpu.func @hoisted
// CHECK: scf.for
// CHECK: scf.for
// CHECK: arith.maximumf
// CHECK: gpu.shuffle xor
// CHECK: llvm.intr.tanh
// CHECK-NOT: gpu.shuffle
// CHECK: llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f32"
// CHECK-LABEL: gpu.func @not_hoisted
// CHECK: scf.for
// CHECK: scf.for
// CHECK: llvm.intr.tanh
// CHECK: arith.maximumf
// CHECK: gpu.shuffle xor
// CHECK: llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f32"
func.func @hoisted(%q: memref<?x?x?x64xf16>, %k: memref<?x?x?x64xf16>, %v: memref<?x?x?x64xf16>,
                   %o: memref<?x?x?x64xf16>, %lse: memref<?x?x?xf32>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x64xf16>, memref<?x?x?x64xf16>, memref<?x?x?x64xf16>)
                 outs(%o, %lse : memref<?x?x?x64xf16>, memref<?x?x?xf32>)
                 {config = #attn.tile_config<block_m = 128, block_n = 64, warps = 8, stages = 2>,
                  gpu_config = #attn.gpu_config<wgmma = true, overlap_softmax = true, warp_specialize = true, hoist_row_max = true>,
                  softcap = 30.0 : f64}
  return
}
func.func @not_hoisted(%q: memref<?x?x?x64xf16>, %k: memref<?x?x?x64xf16>, %v: memref<?x?x?x64xf16>,
                       %o: memref<?x?x?x64xf16>, %lse: memref<?x?x?xf32>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x64xf16>, memref<?x?x?x64xf16>, memref<?x?x?x64xf16>)
                 outs(%o, %lse : memref<?x?x?x64xf16>, memref<?x?x?xf32>)
                 {config = #attn.tile_config<block_m = 128, block_n = 64, warps = 8, stages = 2>,
                  gpu_config = #attn.gpu_config<wgmma = true, overlap_softmax = true, warp_specialize = true>,
                  softcap = 30.0 : f64}
  return
}
