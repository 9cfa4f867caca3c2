// RUN: attn-opt %s --attn-tile --attn-split-kv-loop --cse --attn-assign-layouts=chip=sm_90a \
// RUN:   --attn-overlap-softmax | FileCheck %s

// With async_pv (FlashAttention-3's rotation): the softmax of block j reads
// the carried scores first; then P V of block j - 1 (the carried
// accumulator) is waited for, with the probabilities (P V reads P's
// registers until it completes, and the next P is written to the same
// ones: its conversion follows the wait), and rescaled; block j + 1's product and block
// j's P V are issued async, in that order, and only the first is waited
// for (pending = 1): P V stays in flight across the iteration and the loop
// yields it. After the chain, one wait for the last P V, which the
// finalize reads.
// CHECK-LABEL: func.func @async_pv
// CHECK: %[[S0:[^ ,:]+]] = attn.dot %{{.*}}, %{{.*}}, %{{.*}} transpose_b :
// CHECK: scf.for %[[J:[^ ,:]+]] = {{.*}} iter_args(%[[M:[^ ,:]+]] = %{{.*}}, %[[L:[^ ,:]+]] = %{{.*}}, %[[ACC:[^ ,:]+]] = %{{.*}}, %[[S:[^ ,:]+]] = %[[S0]])
// CHECK: %[[KN:[^ ,:]+]] = attn.load
// CHECK-NOT: attn.dot
// CHECK: %[[SM:[^ ,:]+]] = attn.mask %[[S]]
// CHECK-NOT: attn.dot
// CHECK: %[[P:[^ ,:]+]], %[[M1:[^ ,:]+]], %[[L1:[^ ,:]+]], %{{.*}} = attn.online_softmax %[[SM]], %[[M]], %[[L]]
// CHECK-NEXT: %[[W:[^ ,:]+]]:2 = attn.dot_wait %[[ACC]], %[[P]] {pending = 0 : i64}
// CHECK: %[[ALPHA:[^ ,:]+]] = math.exp2
// CHECK: %[[AR:[^ ,:]+]] = attn.broadcast_rows %[[ALPHA]]
// CHECK: %[[ACC1:[^ ,:]+]] = arith.mulf %[[W]]#0, %[[AR]]
// CHECK: arith.truncf %[[W]]#1
// CHECK-NOT: attn.dot_wait
// CHECK: %[[SN:[^ ,:]+]] = attn.dot %{{.*}}, %[[KN]], %{{.*}} transpose_b async
// CHECK-NEXT: %[[O:[^ ,:]+]] = attn.dot %{{.*}}, %{{.*}}, %[[ACC1]] async
// CHECK-NEXT: %[[SW:[^ ,:]+]] = attn.dot_wait %[[SN]] {pending = 1 : i64}
// CHECK-NEXT: scf.yield %[[M1]], %[[L1]], %[[O]], %[[SW]]
// CHECK: scf.for
// CHECK: %[[LAST:[^ ,:]+]]:4 = scf.for
// CHECK-NOT: attn.finalize
// CHECK: %[[FIN:[^ ,:]+]] = attn.dot_wait %[[LAST]]#2 {pending = 0 : i64}
// CHECK: attn.finalize %[[FIN]]
func.func @async_pv(%q: memref<?x?x?x64xf16>, %k: memref<?x?x?x64xf16>,
                    %v: memref<?x?x?x64xf16>, %o: memref<?x?x?x64xf16>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x64xf16>, memref<?x?x?x64xf16>, memref<?x?x?x64xf16>)
                 outs(%o : memref<?x?x?x64xf16>)
                 {mask = #attn.mask<causal, bottom_right>,
                  config = #attn.tile_config<block_m = 128, block_n = 64, warps = 8, stages = 2>,
                  gpu_config = #attn.gpu_config<wgmma = true, overlap_softmax = true, warp_specialize = true, async_pv = true>}
  return
}
