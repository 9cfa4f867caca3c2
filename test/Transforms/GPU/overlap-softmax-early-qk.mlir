// RUN: attn-opt %s --attn-tile --attn-split-kv-loop --cse --attn-assign-layouts=chip=sm_90a \
// RUN:   --attn-overlap-softmax | FileCheck %s

// With early_qk (async_pv's rotation with block j + 1's product where the
// plain overlap issues it): block j + 1's Q K^T is issued async before
// block j's mask and softmax, so that it and P V of block j - 1 (the
// carried accumulator) both run under the softmax; then one wait completes
// both groups (pending = 0, with the probabilities: P V reads P's registers
// until it completes; and with the next scores, so that K's stage is
// released there), the accumulator is rescaled, block j's P V is issued
// async and stays in flight, yielded with the next scores as that wait
// returned them: no second wait in the body. After the chain, one wait
// for the last P V.
// CHECK-LABEL: func.func @early_qk
// CHECK: %[[S0:[^ ,:]+]] = attn.dot %{{.*}}, %{{.*}}, %{{.*}} transpose_b :
// CHECK: scf.for %[[J:[^ ,:]+]] = {{.*}} iter_args(%[[M:[^ ,:]+]] = %{{.*}}, %[[L:[^ ,:]+]] = %{{.*}}, %[[ACC:[^ ,:]+]] = %{{.*}}, %[[S:[^ ,:]+]] = %[[S0]])
// CHECK: %[[KN:[^ ,:]+]] = attn.load
// CHECK-NEXT: %[[SN:[^ ,:]+]] = attn.dot %{{.*}}, %[[KN]], %{{.*}} transpose_b async
// CHECK: %[[SM:[^ ,:]+]] = attn.mask %[[S]]
// CHECK-NOT: attn.dot
// CHECK: %[[P:[^ ,:]+]], %[[M1:[^ ,:]+]], %[[L1:[^ ,:]+]], %{{.*}} = attn.online_softmax %[[SM]], %[[M]], %[[L]]
// CHECK-NEXT: %[[W:[^ ,:]+]]:3 = attn.dot_wait %[[ACC]], %[[P]], %[[SN]] {pending = 0 : i64}
// CHECK: %[[ALPHA:[^ ,:]+]] = math.exp2
// CHECK: %[[AR:[^ ,:]+]] = attn.broadcast_rows %[[ALPHA]]
// CHECK: %[[ACC1:[^ ,:]+]] = arith.mulf %[[W]]#0, %[[AR]]
// CHECK: arith.truncf %[[W]]#1
// CHECK-NOT: attn.dot_wait
// CHECK: %[[O:[^ ,:]+]] = attn.dot %{{.*}}, %{{.*}}, %[[ACC1]] async
// CHECK-NEXT: scf.yield %[[M1]], %[[L1]], %[[O]], %[[W]]#2
// CHECK: scf.for
// CHECK: %[[LAST:[^ ,:]+]]:4 = scf.for
// CHECK-NOT: attn.finalize
// CHECK: %[[FIN:[^ ,:]+]] = attn.dot_wait %[[LAST]]#2 {pending = 0 : i64}
// CHECK: attn.finalize %[[FIN]]
func.func @early_qk(%q: memref<?x?x?x64xf16>, %k: memref<?x?x?x64xf16>,
                    %v: memref<?x?x?x64xf16>, %o: memref<?x?x?x64xf16>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x64xf16>, memref<?x?x?x64xf16>, memref<?x?x?x64xf16>)
                 outs(%o : memref<?x?x?x64xf16>)
                 {mask = #attn.mask<causal, bottom_right>,
                  config = #attn.tile_config<block_m = 128, block_n = 64, warps = 8, stages = 2>,
                  gpu_config = #attn.gpu_config<wgmma = true, overlap_softmax = true, warp_specialize = true, async_pv = true, early_qk = true>}
  return
}
