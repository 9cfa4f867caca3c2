// RUN: attn-opt %s --attn-tile --attn-split-kv-loop --attn-hoist-row-max | FileCheck %s

// attn-hoist-row-max gives a softmax whose scores are a monotone function
// of the product (the softcap: a multiply by a positive constant and a
// tanh) the function of the product's row maximum as its block_max, in the
// K/V loops without a mask; where the chain ends at attn.mask, at a bias,
// or where max_bound already fixes the maximum (bf16), or without the
// knob, nothing changes.

// CHECK-LABEL: func.func @f16_softcap
// The masked blocks before the diagonal's start (bottom-right alignment):
// CHECK: scf.for
// CHECK: %[[M0:.+]] = attn.mask
// CHECK-NEXT: attn.online_softmax %[[M0]], %{{[^ ]+}}, %{{[^ ]+}}, %{{[^ ]+}} {scale_log2e
// The unmasked blocks:
// CHECK: scf.for
// CHECK: %[[S:.+]] = attn.dot
// CHECK: %[[R:.+]] = attn.reduce_rows max %[[S]] : tensor<64x64xf32> -> tensor<64xf32>
// CHECK-NEXT: %[[C:.+]] = arith.constant dense<0.00416666688> : tensor<64xf32>
// CHECK-NEXT: %[[RU:.+]] = arith.mulf %[[R]], %[[C]] : tensor<64xf32>
// CHECK-NEXT: %[[RT:.+]] = math.tanh %[[RU]] fastmath<afn> : tensor<64xf32>
// CHECK-NEXT: %[[U:.+]] = arith.mulf %[[S]], %{{.+}} : tensor<64x64xf32>
// CHECK-NEXT: %[[T:.+]] = math.tanh %[[U]] fastmath<afn> : tensor<64x64xf32>
// CHECK-NEXT: attn.online_softmax %[[T]], %{{[^ ]+}}, %{{[^ ]+}}, %{{[^ ]+}} block_max %[[RT]] {scale_log2e
// The masked blocks at the diagonal:
// CHECK: scf.for
// CHECK: %[[M1:.+]] = attn.mask
// CHECK-NEXT: attn.online_softmax %[[M1]], %{{[^ ]+}}, %{{[^ ]+}}, %{{[^ ]+}} {scale_log2e
// CHECK: attn.finalize
func.func @f16_softcap(%q: memref<?x?x?x64xf16>, %o: memref<?x?x?x64xf16>) {
  attn.attention ins(%q, %q, %q : memref<?x?x?x64xf16>, memref<?x?x?x64xf16>, memref<?x?x?x64xf16>)
                 outs(%o : memref<?x?x?x64xf16>)
                 {config = #attn.tile_config<block_m = 64, block_n = 64, warps = 4, stages = 2>,
                  gpu_config = #attn.gpu_config<hoist_row_max = true>,
                  mask = #attn.mask<causal, bottom_right>, softcap = 30.0 : f64}
  return
}

// CHECK-LABEL: func.func @no_knob
// CHECK-NOT: block_max
// CHECK-NOT: attn.reduce_rows
// CHECK-LABEL: func.func @bf16_bounded
func.func @no_knob(%q: memref<?x?x?x64xf16>, %o: memref<?x?x?x64xf16>) {
  attn.attention ins(%q, %q, %q : memref<?x?x?x64xf16>, memref<?x?x?x64xf16>, memref<?x?x?x64xf16>)
                 outs(%o : memref<?x?x?x64xf16>)
                 {config = #attn.tile_config<block_m = 64, block_n = 64, warps = 4, stages = 2>,
                  softcap = 30.0 : f64}
  return
}

// CHECK-NOT: block_max
// CHECK-NOT: attn.reduce_rows
// CHECK: max_bound
// CHECK-LABEL: func.func @f16_bias
func.func @bf16_bounded(%q: memref<?x?x?x64xbf16>, %o: memref<?x?x?x64xbf16>) {
  attn.attention ins(%q, %q, %q : memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>)
                 outs(%o : memref<?x?x?x64xbf16>)
                 {config = #attn.tile_config<block_m = 64, block_n = 64, warps = 4, stages = 2>,
                  gpu_config = #attn.gpu_config<hoist_row_max = true>, softcap = 30.0 : f64}
  return
}

// A bias added after the cap: the scores are no function of the product.
// CHECK-NOT: block_max
// CHECK-NOT: attn.reduce_rows
// CHECK: return
func.func @f16_bias(%q: memref<?x?x?x64xf16>, %o: memref<?x?x?x64xf16>, %b: memref<?x?x?x?xf16>) {
  attn.attention ins(%q, %q, %q : memref<?x?x?x64xf16>, memref<?x?x?x64xf16>, memref<?x?x?x64xf16>)
                 bias(%b : memref<?x?x?x?xf16>) outs(%o : memref<?x?x?x64xf16>)
                 {config = #attn.tile_config<block_m = 64, block_n = 64, warps = 4, stages = 2>,
                  gpu_config = #attn.gpu_config<hoist_row_max = true>, softcap = 30.0 : f64}
  return
}
