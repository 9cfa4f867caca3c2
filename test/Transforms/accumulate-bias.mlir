// RUN: attn-opt %s --attn-tile --attn-split-kv-loop --cse --attn-accumulate-bias -split-input-file | FileCheck %s

// attn-accumulate-bias: where a K/V loop's scores are the product times the
// scale plus a tile (a bias), the tile is the product's accumulator and Q is
// scaled once, in f32, in front of the loops; the multiply and the add go.
// Every loop of the split gets the same scaled Q.
// CHECK-LABEL: func.func @bias
// CHECK: %[[Q:.+]] = attn.load %arg0[{{.*}}] : memref<?x?x?x128xf16> -> tensor<128x128xf16>
// CHECK-NEXT: %[[QX:.+]] = arith.extf %[[Q]] : tensor<128x128xf16> to tensor<128x128xf32>
// CHECK-NEXT: %[[C:.+]] = arith.constant dense<0.0883883461> : tensor<128x128xf32>
// CHECK-NEXT: %[[QM:.+]] = arith.mulf %[[QX]], %[[C]] : tensor<128x128xf32>
// CHECK-NEXT: %[[QS:.+]] = arith.truncf %[[QM]] : tensor<128x128xf32> to tensor<128x128xf16>
// CHECK: scf.for
// CHECK: %[[K:.+]] = attn.load %arg1
// CHECK: %[[B:.+]] = attn.load %arg4
// CHECK-NEXT: %[[BX:.+]] = arith.extf %[[B]]
// CHECK-NEXT: %[[S:.+]] = attn.dot %[[QS]], %[[K]], %[[BX]] transpose_b
// CHECK-NEXT: attn.mask %[[S]]
// CHECK-NOT: arith.addf
// CHECK: scf.for
// CHECK: attn.dot %[[QS]], %{{[^ ]+}}, %{{[^ ]+}} transpose_b
// CHECK-NEXT: attn.online_softmax
// CHECK: scf.for
// CHECK: attn.dot %[[QS]], %{{[^ ]+}}, %{{[^ ]+}} transpose_b
// CHECK-NOT: arith.mulf
// CHECK: attn.finalize
func.func @bias(%q: memref<?x?x?x128xf16>, %k: memref<?x?x?x128xf16>,
                %v: memref<?x?x?x128xf16>, %o: memref<?x?x?x128xf16>,
                %bias: memref<1x1x?x?xf16>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x128xf16>, memref<?x?x?x128xf16>, memref<?x?x?x128xf16>)
                 bias(%bias : memref<1x1x?x?xf16>)
                 outs(%o : memref<?x?x?x128xf16>)
                 {config = #attn.tile_config<block_m = 128, block_n = 96, warps = 8, stages = 2>,
                  gpu_config = #attn.gpu_config<accumulate_bias = true>}
  return
}

// -----

// A softcap's scores are not the product times the scale plus a tile: left
// alone (the product keeps its zero accumulator and Q its values).
// CHECK-LABEL: func.func @softcap
// CHECK-NOT: arith.truncf
// CHECK: %[[S:.+]] = attn.dot %{{[^ ]+}}, %{{[^ ]+}}, %[[Z:[^ ]+]] transpose_b
// CHECK-NEXT: arith.constant
// CHECK-NEXT: arith.mulf %[[S]]
// CHECK-NEXT: math.tanh
func.func @softcap(%q: memref<?x?x?x128xf16>, %k: memref<?x?x?x128xf16>,
                   %v: memref<?x?x?x128xf16>, %o: memref<?x?x?x128xf16>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x128xf16>, memref<?x?x?x128xf16>, memref<?x?x?x128xf16>)
                 outs(%o : memref<?x?x?x128xf16>)
                 {softcap = 30.0 : f64,
                  config = #attn.tile_config<block_m = 128, block_n = 96, warps = 8, stages = 2>,
                  gpu_config = #attn.gpu_config<accumulate_bias = true>}
  return
}

// -----

// Without the knob the bias is added to the scaled scores.
// CHECK-LABEL: func.func @off
// CHECK-NOT: arith.truncf
// CHECK: %[[S:.+]] = attn.dot %{{[^ ]+}}, %{{[^ ]+}}, %{{[^ ]+}} transpose_b
// CHECK: %[[M:.+]] = arith.mulf %[[S]]
// CHECK: arith.addf %[[M]]
func.func @off(%q: memref<?x?x?x128xf16>, %k: memref<?x?x?x128xf16>,
               %v: memref<?x?x?x128xf16>, %o: memref<?x?x?x128xf16>,
               %bias: memref<1x1x?x?xf16>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x128xf16>, memref<?x?x?x128xf16>, memref<?x?x?x128xf16>)
                 bias(%bias : memref<1x1x?x?xf16>)
                 outs(%o : memref<?x?x?x128xf16>)
                 {config = #attn.tile_config<block_m = 128, block_n = 96, warps = 8, stages = 2>}
  return
}

// -----

// A scale above 1 could take the scaled Q past f16's largest value where
// the product times the scale is finite in f32: left alone.
// CHECK-LABEL: func.func @large_scale
// CHECK-NOT: arith.truncf
// CHECK: %[[S:.+]] = attn.dot %{{[^ ]+}}, %{{[^ ]+}}, %{{[^ ]+}} transpose_b
// CHECK: %[[M:.+]] = arith.mulf %[[S]]
// CHECK: arith.addf %[[M]]
func.func @large_scale(%q: memref<?x?x?x128xf16>, %k: memref<?x?x?x128xf16>,
                       %v: memref<?x?x?x128xf16>, %o: memref<?x?x?x128xf16>,
                       %bias: memref<1x1x?x?xf16>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x128xf16>, memref<?x?x?x128xf16>, memref<?x?x?x128xf16>)
                 bias(%bias : memref<1x1x?x?xf16>)
                 outs(%o : memref<?x?x?x128xf16>)
                 {scale = 2.0 : f64,
                  config = #attn.tile_config<block_m = 128, block_n = 96, warps = 8, stages = 2>,
                  gpu_config = #attn.gpu_config<accumulate_bias = true>}
  return
}
