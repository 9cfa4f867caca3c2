// RUN: attn-opt %s --attn-tile --cse --attn-accumulate-bias --attn-assign-layouts=chip=sm_90a \
// RUN:   --attn-overlap-softmax | FileCheck %s
// RUN: attn-opt %s --attn-tile --cse --attn-accumulate-bias --attn-assign-layouts=chip=sm_90a \
// RUN:   --attn-overlap-softmax --attn-stage-loads --attn-stage-shared --attn-warp-specialize \
// RUN:   | FileCheck %s --check-prefix=WS

// accumulate_bias on wgmma. The scaled Q is computed once in front of the
// loop and read by the products from shared memory (#attn.swizzled, not
// held in registers as P is); Q itself is staged too and read back for the
// scaling (attn-stage-shared then stores the scaled Q over it). attn-overlap-softmax clones the
// accumulator's tile with K: block lo's bias is loaded before the loop and
// given to block lo's product; in the loop block min(j + 1, hi - 1)'s is
// loaded (from the clamped position, as K) right before the product that
// it starts, after the softmax with async_pv.
// CHECK-LABEL: func.func @async_pv
// CHECK: %[[Q:.+]] = attn.load %arg0[{{.*}}] : memref<?x?x?x128xf16> -> tensor<128x128xf16, #attn.swizzled<blocked>>
// CHECK-NEXT: %[[QR:.+]] = attn.convert_layout %[[Q]] : tensor<128x128xf16, #attn.swizzled<blocked>> -> tensor<128x128xf16, #attn.mma<warps = 8, version = 3>>
// CHECK-NEXT: arith.extf %[[QR]]
// CHECK: %[[QS:.+]] = arith.truncf %{{.+}} : tensor<128x128xf32, #attn.mma<warps = 8, version = 3>> to tensor<128x128xf16, #attn.mma<warps = 8, version = 3>>
// CHECK-NEXT: %[[QSH:.+]] = attn.convert_layout %[[QS]] : tensor<128x128xf16, #attn.mma<warps = 8, version = 3>> -> tensor<128x128xf16, #attn.swizzled<blocked>>
// CHECK: %[[B0:.+]] = attn.load %arg4[%c0, %c0, %[[ROW:[^ ]+]], %{{[^ ]+}}]
// CHECK-NEXT: %[[BX0:.+]] = arith.extf %[[B0]]
// CHECK: %[[S0:.+]] = attn.dot %[[QSH]], %{{[^ ]+}}, %[[BX0]] transpose_b :
// CHECK: scf.for %{{[^ ]+}} = {{.*}} iter_args(%{{[^ ]+}} = %{{[^ ]+}}, %{{[^ ]+}} = %{{[^ ]+}}, %{{[^ ]+}} = %{{[^ ]+}}, %[[S:[^ ]+]] = %[[S0]])
// CHECK: %[[NEXT:.+]] = arith.minsi
// CHECK-NOT: attn.load %arg4
// CHECK: %[[M:.+]] = attn.mask %[[S]]
// CHECK-NEXT: attn.online_softmax %[[M]]
// CHECK-NOT: attn.load %arg4
// CHECK: %[[COL:.+]] = arith.muli %[[NEXT]], %{{.+}} : index
// CHECK-NEXT: %[[BN:.+]] = attn.load %arg4[%c0, %c0, %[[ROW]], %[[COL]]]
// CHECK-NEXT: %[[BXN:.+]] = arith.extf %[[BN]]
// CHECK-NEXT: %[[SN:.+]] = attn.dot %[[QSH]], %{{[^ ]+}}, %[[BXN]] transpose_b async
// CHECK-NEXT: attn.dot %{{.*}} async
// CHECK-NEXT: attn.dot_wait %[[SN]] {pending = 1 : i64}

// Warp-specialized: the producer copies Q, K, V and the bias (block lo's
// as the bias ring's lead, as K's); the consumers read Q back from its
// buffer once it has landed, scale it and store it over itself (each
// thread its own elements; a barrier among the consumers before any
// product reads it), read block lo's bias from its lead stage into block
// lo's product, and in the loop block j + 1's from its stage right before
// its product.
// WS-LABEL: func.func @async_pv
// WS: producer {
// WS: attn.tma_copy %arg0[{{.*}}] into %[[QBUF:[^ ]+]], %[[PRE:[^ ]+]][
// WS: attn.tma_copy %arg4
// WS: } consumers {
// WS: attn.mbarrier_wait %[[PRE]]
// WS: %[[QR:.+]] = attn.local_load %[[QBUF]]
// WS-NEXT: arith.extf %[[QR]]
// WS-NEXT: arith.mulf
// WS-NEXT: %[[QS:.+]] = arith.truncf
// WS-NEXT: attn.local_store %[[QS]], %[[QBUF]] :
// WS-NEXT: gpu.barrier
// WS-NEXT: %[[B0:.+]] = attn.local_load
// WS-NEXT: attn.mbarrier_arrive
// WS-NEXT: %[[BX0:.+]] = arith.extf %[[B0]]
// WS-NEXT: attn.dot %[[QBUF]], %{{[^ ]+}}, %[[BX0]] transpose_b :
// WS: scf.for
// WS: attn.online_softmax
// WS: attn.mbarrier_wait %[[FULLB:[^ ]+]][%[[ST:[^ ]+]]]
// WS-NEXT: %[[BN:.+]] = attn.local_load
// WS-NEXT: attn.mbarrier_arrive %{{[^ ]+}}[%[[ST]]]
// WS-NEXT: %[[BXN:.+]] = arith.extf %[[BN]]
// WS-NEXT: attn.mbarrier_wait
// WS-NEXT: attn.dot %[[QBUF]], %{{[^ ]+}}, %[[BXN]] transpose_b async
func.func @async_pv(%q: memref<?x?x?x128xf16>, %k: memref<?x?x?x128xf16>,
                    %v: memref<?x?x?x128xf16>, %o: memref<?x?x?x128xf16>,
                    %bias: memref<1x1x?x?xf16>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x128xf16>, memref<?x?x?x128xf16>, memref<?x?x?x128xf16>)
                 bias(%bias : memref<1x1x?x?xf16>)
                 outs(%o : memref<?x?x?x128xf16>)
                 {config = #attn.tile_config<block_m = 128, block_n = 96, warps = 8, stages = 2, split_kv = false>,
                  gpu_config = #attn.gpu_config<wgmma = true, overlap_softmax = true, warp_specialize = true, async_pv = true, stage_loads = true, accumulate_bias = true>}
  return
}
