// RUN: attn-opt %s --attn-tile --attn-split-kv-loop --attn-hoist-row-max --cse --attn-assign-layouts=chip=sm_80 \
// RUN:   --attn-stage-shared --attn-pipeline --attn-allocate-shared --convert-attn-tile-to-nvvm=chip=sm_80 | FileCheck %s

// block_max on mma.sync (sm_80): as on wgmma (block-max-to-nvvm.mlir), the
// unmasked loop (the second of three) reduces the product's rows and
// shuffles across the quad before the block's tanh, and no shuffle lies
// between the tanh and the first exponential.

// CHECK-LABEL: gpu.func @hoisted
// CHECK: scf.for
// CHECK: scf.for
// CHECK: arith.maximumf
// CHECK: gpu.shuffle xor
// CHECK: llvm.intr.tanh
// CHECK-NOT: gpu.shuffle
// CHECK: llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f32"
func.func @hoisted(%q: memref<?x?x?x64xf16>, %k: memref<?x?x?x64xf16>, %v: memref<?x?x?x64xf16>,
                   %o: memref<?x?x?x64xf16>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x64xf16>, memref<?x?x?x64xf16>, memref<?x?x?x64xf16>)
                 outs(%o : memref<?x?x?x64xf16>)
                 {config = #attn.tile_config<block_m = 128, block_n = 64, warps = 4, stages = 2>,
                  gpu_config = #attn.gpu_config<hoist_row_max = true>, softcap = 30.0 : f64}
  return
}
