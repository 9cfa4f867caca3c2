// RUN: attn-opt %s --attn-tile | FileCheck %s

// With a bias, attn-tile scales the scores and adds the bias tile with
// `contract` on both, so that the GPU lowering fuses them into one FMA
// per score (LLVM contracts only ops that both allow it); the softmax then
// takes log2(e) alone as its scale.
// CHECK-LABEL: func.func @bias
// CHECK: scf.for
// CHECK: %[[S:.+]] = arith.mulf %{{.*}}, %{{.*}} fastmath<contract> : tensor<64x64xf32>
// CHECK: %[[B:.+]] = attn.load %{{.*}} : memref<?x?x?x?xf16> -> tensor<64x64xf16>
// CHECK: %[[BF:.+]] = arith.extf %[[B]]
// CHECK: arith.addf %[[S]], %[[BF]] fastmath<contract> : tensor<64x64xf32>
// CHECK: attn.online_softmax {{.*}}scale_log2e = 1.44269

func.func @bias(%q: memref<?x?x?x64xf16>, %k: memref<?x?x?x64xf16>,
                %v: memref<?x?x?x64xf16>, %o: memref<?x?x?x64xf16>,
                %b: memref<?x?x?x?xf16>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x64xf16>, memref<?x?x?x64xf16>, memref<?x?x?x64xf16>)
                 bias(%b : memref<?x?x?x?xf16>)
                 outs(%o : memref<?x?x?x64xf16>)
                 {config = #attn.tile_config<block_m = 64, block_n = 64, warps = 4, stages = 1>}
  return
}
