// RUN: attn-opt %s --attn-tile --attn-split-kv-loop --cse --attn-assign-layouts=chip=sm_90a --attn-overlap-softmax \
// RUN:   --attn-stage-shared --attn-warp-specialize --attn-pipeline --attn-allocate-shared \
// RUN:   -split-input-file -verify-diagnostics | FileCheck %s

// attn-warp-specialize on a causal program split into three K/V loops, two
// consumer warpgroups, two stages: barriers for Q (one arrival), and per K
// and V a "full" (the producer's arrival) and an "empty" ring (256
// consumer threads) of two; the K and V buffers get two stages; the
// program from the first K/V loop on is the consumers' region.

// CHECK-LABEL: func.func @causal
// CHECK: %[[QBUF:[^ ]+]] = attn.local_alloc {{.*}} : !attn.shared<128x128xf16, #attn.swizzled<blocked>>
// CHECK: %[[LO:[^ ,]+]], %[[HI:[^ ,]+]] = attn.kv_range visible
// CHECK: %[[PRE:[^ ]+]] = attn.mbarrier_alloc {arrivals = 1 : i64, {{.*}}} : !attn.mbarriers<1>
// CHECK: %[[FULLK:[^ ]+]] = attn.mbarrier_alloc {arrivals = 1 : i64, {{.*}}} : !attn.mbarriers<2>
// CHECK: %[[EMPTYK:[^ ]+]] = attn.mbarrier_alloc {arrivals = 256 : i64, {{.*}}} : !attn.mbarriers<2>
// CHECK: %[[KBUF:[^ ]+]] = attn.local_alloc {{.*}} : !attn.shared<2x128x128xf16, #attn.swizzled<blocked>>
// CHECK: %[[FULLV:[^ ]+]] = attn.mbarrier_alloc {arrivals = 1 : i64, {{.*}}} : !attn.mbarriers<2>
// CHECK: %[[EMPTYV:[^ ]+]] = attn.mbarrier_alloc {arrivals = 256 : i64, {{.*}}} : !attn.mbarriers<2>
// CHECK: %[[VBUF:[^ ]+]] = attn.local_alloc {{.*}} : !attn.shared<2x128x128xf16, #attn.swizzled<blocked>>
// CHECK: attn.warp_specialize attributes {consumer_registers = 240 : i64, consumer_warpgroups = 2 : i64, producer_registers = 24 : i64} producer {
// Q from the 4-D buffer itself (the subview's batch and head are indices).
// CHECK: attn.tma_copy %arg0[%{{.*}}, %{{.*}}, %{{.*}}, %c0] into %[[QBUF]], %[[PRE]][%{{.*}}]
// One producer loop over the whole chain: stage (t - lo) % 2; the empty
// barrier of the phase before.
// CHECK: scf.for %[[T:[^ ]+]] = %[[LO]] to %[[HI]]
// CHECK: %[[REL:[^ ]+]] = arith.subi %[[T]], %[[LO]]
// CHECK: %[[ST:[^ ]+]] = arith.remui %[[REL]], %[[C2:[^ ]+]]
// CHECK: %[[PH:[^ ]+]] = arith.divui %[[REL]], %[[C2]]
// CHECK: %[[BEFORE:[^ ]+]] = arith.addi %[[PH]], %c1
// CHECK: attn.mbarrier_wait %[[EMPTYK]][%[[ST]]], %[[BEFORE]]
// CHECK: %[[KST:[^ ]+]] = attn.local_view %[[KBUF]][%[[ST]]]
// CHECK: attn.tma_copy %arg1[{{.*}}] into %[[KST]], %[[FULLK]][%[[ST]]]
// CHECK: attn.mbarrier_wait %[[EMPTYV]][%[[ST]]], %[[BEFORE]]
// CHECK: attn.tma_copy %arg2[{{.*}}] into %{{.*}}, %[[FULLV]][%[[ST]]]
// CHECK: } consumers {
// CHECK: attn.mbarrier_wait %[[PRE]]
// Each of the three K/V loops waits for "full" before the product that
// reads a stage and arrives at "empty" after it; no CTA barrier is left.
// CHECK-COUNT-3: scf.for
// CHECK-NOT: gpu.barrier
// CHECK-NOT: attn.async_
// CHECK: attn.store
// CHECK-NEXT: }
func.func @causal(%q: memref<?x?x?x128xf16>, %k: memref<?x?x?x128xf16>,
                  %v: memref<?x?x?x128xf16>, %o: memref<?x?x?x128xf16>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x128xf16>, memref<?x?x?x128xf16>, memref<?x?x?x128xf16>)
                 outs(%o : memref<?x?x?x128xf16>)
                 {mask = #attn.mask<causal, top_left>,
                  config = #attn.tile_config<block_m = 128, block_n = 128, warps = 8, stages = 2>,
                  gpu_config = #attn.gpu_config<wgmma = true, warp_specialize = true>}
  return
}

// -----

// The body of one K/V loop: wait, product, arrival, for K and for V.
// CHECK-LABEL: func.func @loop_body
// CHECK: } consumers {
// CHECK: scf.for %[[J:[^ ]+]] = %[[LO:[^ ]+]] to
// CHECK: %[[REL:[^ ]+]] = arith.subi %[[J]], %[[LO]]
// CHECK: %[[ST:[^ ]+]] = arith.remui %[[REL]], %[[C3:[^ ]+]]
// CHECK: %[[PH:[^ ]+]] = arith.divui %[[REL]], %[[C3]]
// CHECK: %[[KV:[^ ]+]] = attn.local_view %{{.*}}[%[[ST]]] : !attn.shared<3x64x64xf16, #attn.swizzled<blocked>>
// CHECK: %[[VV:[^ ]+]] = attn.local_view %{{.*}}[%[[ST]]] : !attn.shared<3x64x64xf16, #attn.swizzled<blocked>>
// CHECK: attn.mbarrier_wait %[[FK:[^ ]+]][%[[ST]]], %[[PH]]
// CHECK-NEXT: attn.dot %{{.*}}, %[[KV]], %{{.*}} transpose_b
// CHECK-NEXT: attn.mbarrier_arrive %[[EK:[^ ]+]][%[[ST]]]
// CHECK: attn.mbarrier_wait %[[FV:[^ ]+]][%[[ST]]], %[[PH]]
// CHECK-NEXT: attn.dot %{{.*}}, %[[VV]], %{{.*}} :
// CHECK-NEXT: attn.mbarrier_arrive %[[EV:[^ ]+]][%[[ST]]]
// CHECK-NEXT: scf.yield
// One consumer warpgroup: 232 registers (two CTAs' worth of 256 threads).
// CHECK-LABEL: func.func @one_warpgroup
// CHECK: attn.warp_specialize attributes {consumer_registers = 232 : i64, consumer_warpgroups = 1 : i64, producer_registers = 24 : i64}
// Three consumer warpgroups (192 rows on 12 warps): one CTA of 512 threads,
// an entry cap of 128 registers, the consumers (4 x 128 - 24) / 3 rounded
// down to 8 = 160; "empty" counts 384 consumer arrivals.
// CHECK-LABEL: func.func @three_warpgroups
// CHECK: attn.local_alloc {{.*}} : !attn.shared<192x64xf16, #attn.swizzled<blocked>>
// CHECK: attn.mbarrier_alloc {arrivals = 384 : i64, {{.*}}} : !attn.mbarriers<2>
// CHECK: attn.warp_specialize attributes {consumer_registers = 160 : i64, consumer_warpgroups = 3 : i64, producer_registers = 24 : i64}
func.func @loop_body(%q: memref<?x?x?x64xf16>, %k: memref<?x?x?x64xf16>,
                     %v: memref<?x?x?x64xf16>, %o: memref<?x?x?x64xf16>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x64xf16>, memref<?x?x?x64xf16>, memref<?x?x?x64xf16>)
                 outs(%o : memref<?x?x?x64xf16>)
                 {config = #attn.tile_config<block_m = 128, block_n = 64, warps = 8, stages = 3>,
                  gpu_config = #attn.gpu_config<wgmma = true, warp_specialize = true>}
  return
}
func.func @one_warpgroup(%q: memref<?x?x?x64xf16>, %k: memref<?x?x?x64xf16>,
                         %v: memref<?x?x?x64xf16>, %o: memref<?x?x?x64xf16>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x64xf16>, memref<?x?x?x64xf16>, memref<?x?x?x64xf16>)
                 outs(%o : memref<?x?x?x64xf16>)
                 {config = #attn.tile_config<block_m = 64, block_n = 64, warps = 4, stages = 2>,
                  gpu_config = #attn.gpu_config<wgmma = true, warp_specialize = true>}
  return
}
func.func @three_warpgroups(%q: memref<?x?x?x64xf16>, %k: memref<?x?x?x64xf16>,
                            %v: memref<?x?x?x64xf16>, %o: memref<?x?x?x64xf16>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x64xf16>, memref<?x?x?x64xf16>, memref<?x?x?x64xf16>)
                 outs(%o : memref<?x?x?x64xf16>)
                 {config = #attn.tile_config<block_m = 192, block_n = 64, warps = 12, stages = 2>,
                  gpu_config = #attn.gpu_config<wgmma = true, warp_specialize = true>}
  return
}

// -----

// One buffer for Q, K and V with equal tile heights: one descriptor; the
// K/V stage is read by both products, so the arrival at its "empty"
// barrier comes after the last.
// CHECK-LABEL: func.func @shared_qkv
// CHECK: } consumers {
// CHECK: scf.for
// CHECK: attn.mbarrier_wait
// CHECK-NEXT: = attn.dot {{.*}} transpose_b
// CHECK-NOT: attn.mbarrier_arrive
// CHECK: = attn.dot %
// CHECK-NEXT: attn.mbarrier_arrive
func.func @shared_qkv(%q: memref<?x?x?x64xf16>, %o: memref<?x?x?x64xf16>) {
  attn.attention ins(%q, %q, %q : memref<?x?x?x64xf16>, memref<?x?x?x64xf16>, memref<?x?x?x64xf16>)
                 outs(%o : memref<?x?x?x64xf16>)
                 {config = #attn.tile_config<block_m = 128, block_n = 128, warps = 8, stages = 2>,
                  gpu_config = #attn.gpu_config<wgmma = true, warp_specialize = true>}
  return
}

// -----

// Where it does not apply, a warning says why and attn-pipeline's cp.async
// ring stays: one buffer copied with tiles of two heights (Q 128 rows, K
// 64) would need two descriptors.
// CHECK-LABEL: func.func @two_heights
// CHECK-NOT: attn.warp_specialize
// CHECK: attn.async_copy
func.func @two_heights(%q: memref<?x?x?x64xf16>, %o: memref<?x?x?x64xf16>) {
  // expected-warning @+1 {{warp_specialize: not applied, the copies keep the cp.async schedule of attn-pipeline: one buffer is copied with tiles of 128 and 64 rows}}
  attn.attention ins(%q, %q, %q : memref<?x?x?x64xf16>, memref<?x?x?x64xf16>, memref<?x?x?x64xf16>)
                 outs(%o : memref<?x?x?x64xf16>)
                 {config = #attn.tile_config<block_m = 128, block_n = 64, warps = 8, stages = 2>,
                  gpu_config = #attn.gpu_config<wgmma = true, warp_specialize = true>}
  return
}

// -----

// With overlap_softmax: the first block's K (before the chain, from the
// buffer the chain copies K from) takes the K ring's position in front of
// the chain's (stage 0 of the first tile, no buffer of its own: `pre`
// counts Q alone); it is copied only when the chain has blocks (K may be
// empty, and an empty tensor has no TMA descriptor), else the stage's
// "full" barrier gets a plain arrival; the first block's product is the
// consumers', between the stage's wait and its release; a K stage read by
// an async product is released after the attn.dot_wait that completes it.
// CHECK-LABEL: func.func @with_overlap
// CHECK: %[[PRE:[^ ]+]] = attn.mbarrier_alloc {arrivals = 1 : i64, {{.*}}} : !attn.mbarriers<1>
// CHECK-NEXT: %[[KFULL:[^ ]+]] = attn.mbarrier_alloc {arrivals = 1 : i64, {{.*}}} : !attn.mbarriers<2>
// CHECK-NEXT: %[[KEMPTY:[^ ]+]] = attn.mbarrier_alloc {arrivals = 256 : i64, {{.*}}} : !attn.mbarriers<2>
// CHECK-NEXT: %[[KRING:[^ ]+]] = attn.local_alloc {{.*}} : !attn.shared<2x64x64xf16
// CHECK-NOT: attn.local_alloc {{.*}} : !attn.shared<64x64xf16
// CHECK: producer {
// CHECK: attn.tma_copy %arg0{{.*}}, %[[PRE]][
// CHECK: %[[BEFORE:[^ ]+]] = arith.subi %[[LO:[^ ,]+]], %{{.*}} : index
// CHECK-NEXT: %[[REL:[^ ]+]] = arith.subi %[[BEFORE]], %[[LO]] : index
// CHECK: %[[LEAD:[^ ]+]] = arith.addi %[[REL]], %c1{{.*}} : index
// CHECK: %[[KSTAGE:[^ ]+]] = arith.remui %[[LEAD]], %c2
// CHECK: attn.mbarrier_wait %[[KEMPTY]][%[[KSTAGE]]]
// CHECK: %[[ANY:[^ ]+]] = arith.cmpi slt, %[[LO]], %[[HI:[^ ,]+]] : index
// CHECK-NEXT: scf.if %[[ANY]] {
// CHECK-NEXT: %[[VIEW:[^ ]+]] = attn.local_view %[[KRING]][%[[KSTAGE]]]
// CHECK-NEXT: attn.tma_copy %arg1{{.*}} into %[[VIEW]], %[[KFULL]][%[[KSTAGE]]]
// CHECK-NEXT: } else {
// CHECK-NEXT: attn.mbarrier_arrive %[[KFULL]][%[[KSTAGE]]]
// CHECK: } consumers {
// CHECK: attn.mbarrier_wait %[[PRE]]
// CHECK: %[[CSTAGE:[^ ]+]] = arith.remui
// CHECK: attn.mbarrier_wait %[[KFULL]][%[[CSTAGE]]]
// CHECK-NEXT: %[[CVIEW:[^ ]+]] = attn.local_view %[[KRING]][%[[CSTAGE]]]
// CHECK-NEXT: = attn.dot %{{.*}}, %[[CVIEW]], {{.*}} transpose_b :
// CHECK-NEXT: attn.mbarrier_arrive %[[KEMPTY]][%[[CSTAGE]]]
// CHECK: scf.for
// CHECK: attn.mbarrier_wait
// CHECK-NEXT: %[[S:[^ ]+]] = attn.dot {{.*}} transpose_b async
// CHECK-NOT: attn.mbarrier_arrive
// CHECK: attn.dot_wait %[[S]]
// CHECK-NEXT: attn.mbarrier_arrive
// The loops stop before the last block (min(bound, upper - 1)), which runs
// once after them, under lower < upper, without the spare product of a
// next block and its wait, its ring's waits and arrivals kept.
// CHECK: %[[LASTB:[^ ]+]] = arith.minsi %upper, %[[UM1:[^ ]+]] : index
// CHECK-NEXT: scf.for %{{.*}} = %{{.*}} to %[[LASTB]]
// CHECK: %[[ANY2:[^ ]+]] = arith.cmpi slt, %lower, %upper : index
// CHECK-NEXT: scf.if %[[ANY2]]
// CHECK-NOT: attn.dot_wait
// CHECK: arith.muli %[[UM1]]
// CHECK-NOT: transpose_b
// CHECK: attn.mbarrier_wait
// CHECK-NOT: transpose_b
// CHECK: attn.online_softmax
// CHECK: attn.mbarrier_arrive
// CHECK: attn.mbarrier_wait
// CHECK-NEXT: attn.dot
// CHECK-NEXT: attn.mbarrier_arrive
// CHECK-NEXT: scf.yield
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield
// CHECK: attn.finalize
func.func @with_overlap(%q: memref<?x?x?x64xf16>, %k: memref<?x?x?x64xf16>,
                        %v: memref<?x?x?x64xf16>, %o: memref<?x?x?x64xf16>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x64xf16>, memref<?x?x?x64xf16>, memref<?x?x?x64xf16>)
                 outs(%o : memref<?x?x?x64xf16>)
                 {config = #attn.tile_config<block_m = 128, block_n = 64, warps = 8, stages = 2>,
                  gpu_config = #attn.gpu_config<wgmma = true, warp_specialize = true, overlap_softmax = true, peel_last_block = true>}
  return
}

// -----

// peel_last_block without overlap_softmax: nothing to peel, said so.
// CHECK-LABEL: func.func @peel_without_overlap
// CHECK-NOT: scf.if
// CHECK: attn.finalize
func.func @peel_without_overlap(%q: memref<?x?x?x64xf16>, %k: memref<?x?x?x64xf16>,
                                %v: memref<?x?x?x64xf16>, %o: memref<?x?x?x64xf16>) {
  // expected-warning @+1 {{peel_last_block: not applied: it needs overlap_softmax and not ping_pong}}
  attn.attention ins(%q, %k, %v : memref<?x?x?x64xf16>, memref<?x?x?x64xf16>, memref<?x?x?x64xf16>)
                 outs(%o : memref<?x?x?x64xf16>)
                 {config = #attn.tile_config<block_m = 128, block_n = 64, warps = 8, stages = 2>,
                  gpu_config = #attn.gpu_config<wgmma = true, warp_specialize = true, peel_last_block = true>}
  return
}

// -----

// ping_pong: each product of a K/V loop is one warpgroup's turn, taken
// after the stage's full wait.
// CHECK-LABEL: func.func @ping_pong
// CHECK: } consumers {
// CHECK: scf.for
// CHECK: attn.mbarrier_wait
// CHECK-NEXT: attn.turn_wait
// CHECK-NEXT: = attn.dot {{.*}} transpose_b
// CHECK-NEXT: attn.turn_signal
// CHECK-NEXT: attn.mbarrier_arrive
// CHECK: attn.mbarrier_wait
// CHECK-NEXT: attn.turn_wait
// CHECK-NEXT: = attn.dot %
// CHECK-NEXT: attn.turn_signal
// CHECK-NEXT: attn.mbarrier_arrive
func.func @ping_pong(%q: memref<?x?x?x64xf16>, %k: memref<?x?x?x64xf16>,
                     %v: memref<?x?x?x64xf16>, %o: memref<?x?x?x64xf16>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x64xf16>, memref<?x?x?x64xf16>, memref<?x?x?x64xf16>)
                 outs(%o : memref<?x?x?x64xf16>)
                 {config = #attn.tile_config<block_m = 128, block_n = 64, warps = 8, stages = 2>,
                  gpu_config = #attn.gpu_config<wgmma = true, warp_specialize = true, ping_pong = true>}
  return
}

// -----

// CHECK-LABEL: func.func @ping_pong_one_warpgroup
// CHECK-NOT: attn.warp_specialize
func.func @ping_pong_one_warpgroup(%q: memref<?x?x?x64xf16>, %k: memref<?x?x?x64xf16>,
                                   %v: memref<?x?x?x64xf16>, %o: memref<?x?x?x64xf16>) {
  // expected-warning @+1 {{ping_pong needs two or more consumer warpgroups (warps >= 8)}}
  attn.attention ins(%q, %k, %v : memref<?x?x?x64xf16>, memref<?x?x?x64xf16>, memref<?x?x?x64xf16>)
                 outs(%o : memref<?x?x?x64xf16>)
                 {config = #attn.tile_config<block_m = 64, block_n = 64, warps = 4, stages = 2>,
                  gpu_config = #attn.gpu_config<wgmma = true, warp_specialize = true, ping_pong = true>}
  return
}

// -----

// With async_pv, P V is in flight across the iteration: V's stage is
// released after the next iteration's wait for the carried accumulator
// (block j - 1's stage, when j > lower), and the last block's after the
// wait that follows the chain; K's after the wait (pending = 1) for the
// next block's scores, as with the plain overlap.
// CHECK-LABEL: func.func @async_pv
// CHECK: } consumers {
// CHECK: scf.for %[[J:[^ ]+]] = %[[LO:[^ ]+]] to %{{[^ ]+}} step %{{[^ ]+}} iter_args({{.*}}, %[[ACC:[^ ]+]] = %{{[^ ]+}}, %{{[^ ]+}} = %{{[^ ]+}})
// CHECK: attn.dot_wait %[[ACC]], %{{[^ ]+}} {pending = 0 : i64}
// CHECK-NEXT: %[[AFTER:[^ ]+]] = arith.cmpi sgt, %[[J]], %[[LO]] : index
// CHECK-NEXT: %[[ONE:[^ ]+]] = arith.constant 1 : index
// CHECK-NEXT: %[[PREV:[^ ]+]] = arith.subi %[[J]], %[[ONE]] : index
// CHECK-NEXT: scf.if %[[AFTER]] {
// CHECK-NEXT: %[[REL:[^ ]+]] = arith.subi %[[PREV]], %[[LO]] : index
// CHECK: %[[ST:[^ ]+]] = arith.remui %[[REL]]
// CHECK: attn.mbarrier_arrive %[[EMPTYV:[^ ]+]][%[[ST]]]
// CHECK-NEXT: }
// CHECK: attn.mbarrier_wait %{{.*}}
// CHECK-NEXT: %[[SN:[^ ]+]] = attn.dot {{.*}} transpose_b async
// CHECK: attn.mbarrier_wait %{{.*}}
// CHECK-NEXT: %[[PV:[^ ]+]] = attn.dot {{.*}} async
// CHECK-NOT: attn.mbarrier_arrive %[[EMPTYV]]
// CHECK-NEXT: attn.dot_wait %[[SN]] {pending = 1 : i64}
// CHECK-NEXT: attn.mbarrier_arrive
// CHECK-NEXT: scf.yield
// CHECK: %[[FIN:[^ ]+]] = attn.dot_wait %{{.*}}#2 {pending = 0 : i64}
// CHECK-NEXT: %[[ANY:[^ ]+]] = arith.cmpi slt, %[[LO]], %[[HI:[^ ]+]] : index
// CHECK-NEXT: %[[ONE2:[^ ]+]] = arith.constant 1 : index
// CHECK-NEXT: %[[LASTB:[^ ]+]] = arith.subi %[[HI]], %[[ONE2]] : index
// CHECK-NEXT: scf.if %[[ANY]] {
// CHECK: attn.mbarrier_arrive %[[EMPTYV]]
// CHECK: attn.finalize %[[FIN]]
func.func @async_pv(%q: memref<?x?x?x64xf16>, %k: memref<?x?x?x64xf16>,
                    %v: memref<?x?x?x64xf16>, %o: memref<?x?x?x64xf16>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x64xf16>, memref<?x?x?x64xf16>, memref<?x?x?x64xf16>)
                 outs(%o : memref<?x?x?x64xf16>)
                 {config = #attn.tile_config<block_m = 128, block_n = 64, warps = 8, stages = 2>,
                  gpu_config = #attn.gpu_config<wgmma = true, warp_specialize = true, overlap_softmax = true, async_pv = true>}
  return
}

// -----

// async_pv where warp specialization does not apply: the cp.async ring
// cannot keep P V in flight across iterations, so attn-pipeline refuses.
// (Q and K from one buffer with tiles of two heights: no TMA descriptor.)
func.func @async_pv_cp_async(%q: memref<?x?x?x64xf16>, %v: memref<?x?x?x64xf16>,
                             %o: memref<?x?x?x64xf16>) {
  // expected-warning @+2 {{warp_specialize: not applied}}
  // expected-error @+1 {{an asynchronous product in flight across K/V iterations (async_pv) reads shared buffers that only attn-warp-specialize's mbarrier ring releases after its wait}}
  attn.attention ins(%q, %q, %v : memref<?x?x?x64xf16>, memref<?x?x?x64xf16>, memref<?x?x?x64xf16>)
                 outs(%o : memref<?x?x?x64xf16>)
                 {config = #attn.tile_config<block_m = 128, block_n = 64, warps = 8, stages = 2>,
                  gpu_config = #attn.gpu_config<wgmma = true, warp_specialize = true, overlap_softmax = true, async_pv = true>}
  return
}

// -----

// async_pv with ping_pong: the body's two products (the next block's
// Q K^T and this block's P V, issued back to back) are one turn, passed
// right after the second issue, before the wait for the first.
// CHECK-LABEL: func.func @async_pv_ping_pong
// CHECK: } consumers {
// CHECK: scf.for
// CHECK: attn.turn_wait
// CHECK-NEXT: attn.dot {{.*}} transpose_b async
// CHECK-NOT: attn.turn_
// CHECK: attn.dot {{.*}} async
// CHECK-NEXT: attn.turn_signal
// CHECK-NEXT: attn.dot_wait {{.*}} {pending = 1 : i64}
// CHECK-NOT: attn.turn_
// CHECK: scf.yield
func.func @async_pv_ping_pong(%q: memref<?x?x?x64xf16>, %k: memref<?x?x?x64xf16>,
                              %v: memref<?x?x?x64xf16>, %o: memref<?x?x?x64xf16>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x64xf16>, memref<?x?x?x64xf16>, memref<?x?x?x64xf16>)
                 outs(%o : memref<?x?x?x64xf16>)
                 {config = #attn.tile_config<block_m = 128, block_n = 64, warps = 8, stages = 2>,
                  gpu_config = #attn.gpu_config<wgmma = true, warp_specialize = true, overlap_softmax = true, ping_pong = true, async_pv = true>}
  return
}

// -----

// ALiBi's slope is a scalar `memref.load` before the K/V loops: a read,
// which the producer's threads may run too, so the program is specialized
// (before, "warp_specialize: not applied").
// CHECK-LABEL: func.func @alibi
// CHECK: %[[SLOPE:[^ ]+]] = memref.load %arg4
// CHECK: attn.warp_specialize attributes {{.*}} producer {
// CHECK-NOT: memref.load
// CHECK: } consumers {
func.func @alibi(%q: memref<?x?x?x128xf16>, %k: memref<?x?x?x128xf16>,
                 %v: memref<?x?x?x128xf16>, %o: memref<?x?x?x128xf16>, %slopes: memref<?xf32>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x128xf16>, memref<?x?x?x128xf16>, memref<?x?x?x128xf16>) alibi_slopes(%slopes : memref<?xf32>)
                 outs(%o : memref<?x?x?x128xf16>)
                 {mask = #attn.mask<causal, bottom_right>,
                  config = #attn.tile_config<block_m = 128, block_n = 128, warps = 8, stages = 2>,
                  gpu_config = #attn.gpu_config<wgmma = true, warp_specialize = true, overlap_softmax = true>}
  return
}

// -----

// A K/V range narrowed by a mask_mod region (a document mask) in a
// persistent program: the producer runs the range's search beside the tile
// loop and gets 32 registers (at 24 it spilled 4 bytes); the consumers 232.
// Not persistent, it keeps 24 and the consumers 240 (@document_mask_once).
// CHECK-LABEL: func.func @document_mask_persistent
// CHECK: attn.warp_specialize attributes {consumer_registers = 232 : i64, consumer_warpgroups = 2 : i64, producer_registers = 32 : i64} producer {
// CHECK: attn.kv_range visible {{.*}} mask_mod(
func.func @document_mask_persistent(%q: memref<?x?x?x128xf16>, %k: memref<?x?x?x128xf16>,
                                    %v: memref<?x?x?x128xf16>, %o: memref<?x?x?x128xf16>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x128xf16>, memref<?x?x?x128xf16>, memref<?x?x?x128xf16>)
                 outs(%o : memref<?x?x?x128xf16>)
                 {mask = #attn.mask<causal, top_left>,
                  config = #attn.tile_config<block_m = 128, block_n = 128, warps = 8, stages = 2>,
                  gpu_config = #attn.gpu_config<wgmma = true, warp_specialize = true, overlap_softmax = true, persistent = true>}
                 mask_mod {
  ^bb0(%b: index, %h: index, %qi: index, %ki: index):
    %c256 = arith.constant 256 : index
    %dq = arith.divui %qi, %c256 : index
    %dk = arith.divui %ki, %c256 : index
    %same = arith.cmpi eq, %dq, %dk : index
    attn.yield %same : i1
  }
  return
}

// -----

// CHECK-LABEL: func.func @document_mask_once
// CHECK: attn.warp_specialize attributes {consumer_registers = 240 : i64, consumer_warpgroups = 2 : i64, producer_registers = 24 : i64}
func.func @document_mask_once(%q: memref<?x?x?x128xf16>, %k: memref<?x?x?x128xf16>,
                              %v: memref<?x?x?x128xf16>, %o: memref<?x?x?x128xf16>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x128xf16>, memref<?x?x?x128xf16>, memref<?x?x?x128xf16>)
                 outs(%o : memref<?x?x?x128xf16>)
                 {mask = #attn.mask<causal, top_left>,
                  config = #attn.tile_config<block_m = 128, block_n = 128, warps = 8, stages = 2>,
                  gpu_config = #attn.gpu_config<wgmma = true, warp_specialize = true, overlap_softmax = true>}
                 mask_mod {
  ^bb0(%b: index, %h: index, %qi: index, %ki: index):
    %c256 = arith.constant 256 : index
    %dq = arith.divui %qi, %c256 : index
    %dk = arith.divui %ki, %c256 : index
    %same = arith.cmpi eq, %dq, %dk : index
    attn.yield %same : i1
  }
  return
}
