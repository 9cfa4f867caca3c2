// RUN: attn-opt %s --attn-tile --attn-split-kv-loop --cse --attn-assign-layouts=chip=sm_90a \
// RUN:   --attn-overlap-softmax -split-input-file | FileCheck %s
// RUN: attn-opt %s --attn-tile --attn-split-kv-loop --cse --attn-assign-layouts=chip=sm_90a \
// RUN:   --attn-overlap-softmax --attn-stage-loads --attn-stage-shared --attn-warp-specialize \
// RUN:   -split-input-file | FileCheck %s --check-prefix=WS
// RUN: sed 's/, loads_ahead = true//' %s | attn-opt --attn-tile --attn-split-kv-loop --cse \
// RUN:   --attn-assign-layouts=chip=sm_90a --attn-overlap-softmax -split-input-file \
// RUN:   | FileCheck %s --check-prefix=OFF

// loads_ahead with async_pv: the bias tile of block lo is loaded before the
// chain, beside block lo's scores; in each loop block j's tile comes from
// an iter_arg (in front of the scores, which stay last) and block
// min(j + 1, hi - 1)'s is loaded after P V's issue, right before the wait
// for block j + 1's scores, and yielded. The three loops of the split
// carry it from one to the next.
// CHECK-LABEL: func.func @async_pv
// CHECK: %[[B0:[^ ]+]] = attn.load %arg4[%c0, %c0, %[[ROW:[^ ]+]], %{{[^ ]+}}] : memref<1x1x?x?xf16> -> tensor<128x96xf16, #attn.mma<warps = 8, version = 3>>
// CHECK: %[[S0:[^ ]+]] = attn.dot %{{.*}} transpose_b :
// CHECK-NEXT: %{{[^ ]+}} = arith.constant
// CHECK-NEXT: %[[R1:[^ ]+]]:5 = scf.for %[[J:[^ ]+]] = {{.*}} iter_args(%{{[^ ]+}} = %{{[^ ]+}}, %{{[^ ]+}} = %{{[^ ]+}}, %{{[^ ]+}} = %{{[^ ]+}}, %[[B:[^ ]+]] = %[[B0]], %[[S:[^ ]+]] = %[[S0]])
// CHECK-NOT: attn.load %arg4
// CHECK: %[[NEXT:[^ ]+]] = arith.minsi
// CHECK-NOT: attn.load %arg4
// CHECK: arith.extf %[[B]]
// CHECK-NOT: attn.load %arg4
// CHECK: attn.online_softmax
// CHECK: %[[SN:[^ ]+]] = attn.dot %{{.*}} transpose_b async
// CHECK-NEXT: %[[PV:[^ ]+]] = attn.dot %{{.*}} async
// CHECK-NEXT: %[[COL:[^ ]+]] = arith.muli %[[NEXT]], %{{.*}} : index
// CHECK-NEXT: %[[BN:[^ ]+]] = attn.load %arg4[%c0, %c0, %[[ROW]], %[[COL]]]
// CHECK-NEXT: %[[SW:[^ ]+]] = attn.dot_wait %[[SN]] {pending = 1 : i64}
// CHECK-NEXT: scf.yield %{{[^ ]+}}, %{{[^ ]+}}, %[[PV]], %[[BN]], %[[SW]]
// CHECK: %[[R2:[^ ]+]]:5 = scf.for {{.*}} iter_args({{.*}}, %{{[^ ]+}} = %[[R1]]#3, %{{[^ ]+}} = %[[R1]]#4)
// CHECK: scf.for {{.*}} iter_args({{.*}}, %{{[^ ]+}} = %[[R2]]#3, %{{[^ ]+}} = %[[R2]]#4)

// Without the knob the tile is loaded in the body before the softmax.
// OFF-LABEL: func.func @async_pv
// OFF: scf.for
// OFF-NOT: attn.online_softmax
// OFF: attn.load %arg4
// OFF: attn.online_softmax

// Warp-specialized with stage_loads: the tile before the chain is staged as
// well and becomes the lead of the bias's ring (as block lo's K is of K's):
// the producer copies it in front of the chain's positions, the consumers
// wait for it, read it into registers and release its stage before the
// chain; in the loop the next block's tile is read from its stage (full
// wait, attn.local_load, empty arrival) between P V's issue and the wait
// for the next scores.
// WS-LABEL: func.func @async_pv
// WS: attn.local_alloc : !attn.shared<2x96x128xf16, #attn.swizzled<blocked>>
// WS: attn.local_alloc : !attn.shared<2x96x128xf16, #attn.swizzled<blocked>>
// WS-NEXT: %[[FULLB:[^ ]+]] = attn.mbarrier_alloc {arrivals = 1 : i64} : !attn.mbarriers<2>
// WS-NEXT: %[[EMPTYB:[^ ]+]] = attn.mbarrier_alloc {arrivals = 256 : i64} : !attn.mbarriers<2>
// WS-NEXT: %[[BBUF:[^ ]+]] = attn.local_alloc : !attn.shared<2x128x96xf16, #attn.unswizzled>
// WS: producer {
// WS: attn.mbarrier_wait %[[EMPTYB]][%[[LST:[^ ]+]]]
// WS: scf.if
// WS-NEXT: %[[LDEST:[^ ]+]] = attn.local_view %[[BBUF]][%[[LST]]]
// WS-NEXT: attn.tma_copy %arg4[{{.*}}] into %[[LDEST]], %[[FULLB]][%[[LST]]]
// WS: scf.for
// WS: attn.tma_copy %arg4
// WS: } consumers {
// WS: attn.mbarrier_wait %[[FULLB]][%[[CST:[^ ]+]]]
// WS-NEXT: %[[CVIEW:[^ ]+]] = attn.local_view %[[BBUF]][%[[CST]]]
// WS: %[[CB0:[^ ]+]] = attn.local_load %[[CVIEW]] : !attn.shared<128x96xf16, #attn.unswizzled> -> tensor<128x96xf16, #attn.mma<warps = 8, version = 3>>
// WS-NEXT: attn.mbarrier_arrive %[[EMPTYB]][%[[CST]]]
// WS-NEXT: attn.dot
// WS: scf.for {{.*}} iter_args({{.*}}, %{{[^ ]+}} = %[[CB0]], %{{[^ ]+}} = %{{[^ ]+}})
// WS: attn.dot %{{.*}} transpose_b async
// WS: attn.dot %{{.*}} async
// WS: attn.mbarrier_wait %[[FULLB]]
// WS-NEXT: %[[BN:[^ ]+]] = attn.local_load
// WS-NEXT: attn.mbarrier_arrive %[[EMPTYB]]
// WS-NEXT: attn.dot_wait %{{[^ ]+}} {pending = 1 : i64}
func.func @async_pv(%q: memref<?x?x?x128xf16>, %k: memref<?x?x?x128xf16>,
                    %v: memref<?x?x?x128xf16>, %o: memref<?x?x?x128xf16>,
                    %bias: memref<1x1x?x?xf16>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x128xf16>, memref<?x?x?x128xf16>, memref<?x?x?x128xf16>)
                 bias(%bias : memref<1x1x?x?xf16>)
                 outs(%o : memref<?x?x?x128xf16>)
                 {config = #attn.tile_config<block_m = 128, block_n = 96, warps = 8, stages = 2>,
                  gpu_config = #attn.gpu_config<wgmma = true, overlap_softmax = true, warp_specialize = true, async_pv = true, stage_loads = true, loads_ahead = true>}
  return
}

// -----

// Without async_pv the wait for block j + 1's scores comes after the
// softmax, before the rescale and P V; the next tile's load goes right
// before it.
// CHECK-LABEL: func.func @overlap
// CHECK: scf.for
// CHECK: attn.online_softmax
// CHECK-NOT: attn.dot_wait
// CHECK: %[[COL:[^ ]+]] = arith.muli
// CHECK-NEXT: attn.load %arg4[%c0, %c0, %{{[^ ]+}}, %[[COL]]]
// CHECK-NEXT: attn.dot_wait %{{[^ ]+}} {pending = 0 : i64}
// CHECK-NOT: attn.load %arg4
// CHECK: scf.yield
func.func @overlap(%q: memref<?x?x?x128xf16>, %k: memref<?x?x?x128xf16>,
                   %v: memref<?x?x?x128xf16>, %o: memref<?x?x?x128xf16>,
                   %bias: memref<1x1x?x?xf16>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x128xf16>, memref<?x?x?x128xf16>, memref<?x?x?x128xf16>)
                 bias(%bias : memref<1x1x?x?xf16>)
                 outs(%o : memref<?x?x?x128xf16>)
                 {config = #attn.tile_config<block_m = 128, block_n = 96, warps = 8, stages = 2>,
                  gpu_config = #attn.gpu_config<wgmma = true, overlap_softmax = true, warp_specialize = true, loads_ahead = true>}
  return
}

// -----

// With early_qk the accumulator's wait completes block j + 1's scores: the
// next tile is loaded right before it.
// CHECK-LABEL: func.func @early_qk
// CHECK: scf.for
// CHECK: attn.dot %{{.*}} transpose_b async
// CHECK: attn.online_softmax
// CHECK-NEXT: %[[COL:[^ ]+]] = arith.muli
// CHECK-NEXT: attn.load %arg4[%c0, %c0, %{{[^ ]+}}, %[[COL]]]
// CHECK-NEXT: attn.dot_wait %{{[^ ]+}}, %{{[^ ]+}}, %{{[^ ]+}} {pending = 0 : i64}
func.func @early_qk(%q: memref<?x?x?x128xf16>, %k: memref<?x?x?x128xf16>,
                    %v: memref<?x?x?x128xf16>, %o: memref<?x?x?x128xf16>,
                    %bias: memref<1x1x?x?xf16>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x128xf16>, memref<?x?x?x128xf16>, memref<?x?x?x128xf16>)
                 bias(%bias : memref<1x1x?x?xf16>)
                 outs(%o : memref<?x?x?x128xf16>)
                 {config = #attn.tile_config<block_m = 128, block_n = 96, warps = 8, stages = 2>,
                  gpu_config = #attn.gpu_config<wgmma = true, overlap_softmax = true, warp_specialize = true, async_pv = true, early_qk = true, loads_ahead = true>}
  return
}
