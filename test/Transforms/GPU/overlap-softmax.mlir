// RUN: attn-opt %s --attn-tile --attn-split-kv-loop --cse --attn-assign-layouts=chip=sm_90a \
// RUN:   --attn-overlap-softmax | FileCheck %s
// RUN: attn-opt %s --attn-tile --attn-split-kv-loop --cse --attn-assign-layouts=chip=sm_90a \
// RUN:   --attn-overlap-softmax --attn-stage-shared --attn-pipeline | FileCheck %s --check-prefix=PIPE
// RUN: attn-opt %s --attn-tile --cse --attn-assign-layouts=chip=sm_90a --attn-overlap-softmax \
// RUN:   --attn-stage-shared --attn-pipeline --attn-allocate-shared \
// RUN:   --convert-attn-tile-to-nvvm=chip=sm_90a | FileCheck %s --check-prefix=NVVM

// attn-overlap-softmax on a causal program split into a chain of K/V loops
// (masked, unmasked, masked): block lo's scores before the chain, then in
// every loop the next block's product issued async before this block's
// mask and softmax, waited for before P V, with the accumulator rescaled
// after the wait.

// CHECK-LABEL: func.func @causal
// CHECK: %[[Q:[^ ,:]+]] = attn.load {{.*}} -> tensor<128x64xf16, #attn.swizzled<blocked>>
// CHECK: %[[ZS:[^ ,:]+]] = arith.constant dense<0.000000e+00> : tensor<128x64xf32, #attn.mma<warps = 8, version = 3>>
// CHECK: %[[LO:[^ ,:]+]], %[[HI:[^ ,:]+]] = attn.kv_range visible
// Block lo's K and its product, synchronous, before the chain.
// CHECK: %[[ROW0:[^ ,:]+]] = arith.muli %[[LO]], %c64
// CHECK: %[[K0:[^ ,:]+]] = attn.load %{{.*}}[%{{.*}}, %{{.*}}, %[[ROW0]], %c0]
// CHECK: %[[S0:[^ ,:]+]] = attn.dot %[[Q]], %[[K0]], %[[ZS]] transpose_b :
// CHECK: %[[ZA:[^ ,:]+]] = arith.constant dense<0.000000e+00> : tensor<128x64xf32, #attn.mma<warps = 8, version = 3>>
// The scores are a fourth iter_arg.
// CHECK: %[[L1:[^ ,:]+]]:4 = scf.for %[[J:[^ ,:]+]] = %[[LO]] to %{{.*}} step %c1 iter_args(%[[M:[^ ,:]+]] = %{{.*}}, %[[L:[^ ,:]+]] = %{{.*}}, %[[ACC:[^ ,:]+]] = %{{.*}}, %[[S:[^ ,:]+]] = %[[S0]])
// The next block, clamped to the chain's last one.
// CHECK: %[[NEXT:[^ ,:]+]] = arith.addi %[[J]], %c1
// CHECK: %[[LAST:[^ ,:]+]] = arith.subi %[[HI]], %c1
// CHECK: %[[POS:[^ ,:]+]] = arith.minsi %[[NEXT]], %[[LAST]]
// CHECK: %[[ROW:[^ ,:]+]] = arith.muli %[[POS]], %c64
// CHECK: %[[KN:[^ ,:]+]] = attn.load %{{.*}}[%{{.*}}, %{{.*}}, %[[ROW]], %c0]
// CHECK: %[[SN:[^ ,:]+]] = attn.dot %[[Q]], %[[KN]], %[[ZS]] transpose_b async
// This block's mask and softmax read the carried scores; the softmax gets
// a zero accumulator.
// CHECK: %[[SM:[^ ,:]+]] = attn.mask %[[S]]
// CHECK: %[[P:[^ ,:]+]], %[[M1:[^ ,:]+]], %[[L1S:[^ ,:]+]], %{{.*}} = attn.online_softmax %[[SM]], %[[M]], %[[L]], %[[ZA]]
// CHECK: %[[SW:[^ ,:]+]] = attn.dot_wait %[[SN]] {pending = 0 : i64}
// The rescale, after the wait: alpha = exp2(m - (m' == -inf ? 0 : m')).
// CHECK: %[[EMPTY:[^ ,:]+]] = arith.cmpf oeq, %[[M1]]
// CHECK: %[[REF:[^ ,:]+]] = arith.select %[[EMPTY]], %{{.*}}, %[[M1]]
// CHECK: %[[D:[^ ,:]+]] = arith.subf %[[M]], %[[REF]]
// CHECK: %[[ALPHA:[^ ,:]+]] = math.exp2 %[[D]] fastmath<afn>
// CHECK: %[[AR:[^ ,:]+]] = attn.broadcast_rows %[[ALPHA]]
// CHECK: %[[ACC1:[^ ,:]+]] = arith.mulf %[[ACC]], %[[AR]]
// CHECK: %[[O:[^ ,:]+]] = attn.dot %{{.*}}, %{{.*}}, %[[ACC1]] :
// CHECK: scf.yield %[[M1]], %[[L1S]], %[[O]], %[[SW]]
// The next loops of the chain take the scores on.
// CHECK: %[[L2:[^ ,:]+]]:4 = scf.for {{.*}} iter_args({{.*}} = %[[L1]]#0, {{.*}} = %[[L1]]#1, {{.*}} = %[[L1]]#2, {{.*}} = %[[L1]]#3)
// CHECK: attn.dot {{.*}} transpose_b async
// CHECK: attn.dot_wait
// CHECK: scf.for {{.*}} iter_args({{.*}} = %[[L2]]#0, {{.*}} = %[[L2]]#1, {{.*}} = %[[L2]]#2, {{.*}} = %[[L2]]#3)
// CHECK: attn.finalize

// The copy pipeline stages the next block's K like any copy of the
// position: block lo's K in a buffer of its own (next to Q's), then one
// ring for the chain (2 stages of K and V); the wait and barrier before the async product
// stay at the top of each body (none is left inside a conditional).
// PIPE-LABEL: func.func @causal
// PIPE: attn.local_alloc : !attn.shared<128x64xf16, #attn.swizzled<blocked>>
// PIPE: attn.local_alloc : !attn.shared<64x64xf16, #attn.swizzled<blocked>>
// PIPE: attn.dot {{.*}} transpose_b :
// PIPE-COUNT-2: attn.local_alloc : !attn.shared<2x64x64xf16, #attn.swizzled<blocked>>
// PIPE-NOT: attn.local_alloc
// PIPE: scf.for
// PIPE: attn.async_wait {pending = 0 : i64}
// PIPE-NEXT: gpu.barrier
// PIPE: attn.dot {{.*}} transpose_b async
// PIPE-NOT: gpu.barrier
// PIPE: attn.dot_wait
// PIPE-NOT: gpu.barrier
// PIPE: scf.yield

// The async product is committed and not waited for; attn.dot_wait is the
// wait, then the accumulator fence on its 32 registers.
// NVVM-LABEL: gpu.func @causal
// NVVM: nvvm.wgmma.wait.group.sync.aligned 0
// NVVM: scf.for
// NVVM: nvvm.wgmma.fence.aligned
// NVVM-COUNT-4: nvvm.wgmma.mma_async
// NVVM-NEXT: nvvm.wgmma.commit.group.sync.aligned
// NVVM-NOT: nvvm.wgmma.wait.group
// NVVM: nvvm.ex2
// NVVM: nvvm.wgmma.wait.group.sync.aligned 0
// NVVM-NEXT: llvm.mlir.undef : !llvm.struct<(f32,
// NVVM: llvm.inline_asm has_side_effects asm_dialect = att "", "=f,{{.*}},=f,0,1,{{.*}},31"
func.func @causal(%q: memref<?x?x?x64xf16>, %k: memref<?x?x?x64xf16>,
                  %v: memref<?x?x?x64xf16>, %o: memref<?x?x?x64xf16>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x64xf16>, memref<?x?x?x64xf16>, memref<?x?x?x64xf16>)
                 outs(%o : memref<?x?x?x64xf16>)
                 {mask = #attn.mask<causal, bottom_right>,
                  config = #attn.tile_config<block_m = 128, block_n = 64, warps = 8, stages = 2>,
                  gpu_config = #attn.gpu_config<wgmma = true, overlap_softmax = true>}
  return
}

// Without the knob the program keeps its synchronous products.
// CHECK-LABEL: func.func @plain
// CHECK-NOT: async
// CHECK-NOT: attn.dot_wait
// CHECK: attn.finalize
func.func @plain(%q: memref<?x?x?x64xf16>, %k: memref<?x?x?x64xf16>,
                 %v: memref<?x?x?x64xf16>, %o: memref<?x?x?x64xf16>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x64xf16>, memref<?x?x?x64xf16>, memref<?x?x?x64xf16>)
                 outs(%o : memref<?x?x?x64xf16>)
                 {config = #attn.tile_config<block_m = 128, block_n = 64, warps = 8, stages = 2>,
                  gpu_config = #attn.gpu_config<wgmma = true>}
  return
}

// With one stage, attn-pipeline does not prefetch K behind a barrier after
// its reader: the async product reads K until its wait. The copies keep
// attn-stage-shared's schedule (wait and barrier before each reader, a
// barrier at the end of the body, after the wait).
// PIPE-LABEL: func.func @one_stage
// PIPE: scf.for
// PIPE: attn.async_copy
// PIPE-NEXT: attn.async_commit
// PIPE-NEXT: attn.async_wait {pending = 0 : i64}
// PIPE-NEXT: gpu.barrier
// PIPE-NEXT: attn.dot {{.*}} transpose_b async
// PIPE-NOT: gpu.barrier
// PIPE: attn.dot_wait
// PIPE: attn.async_wait {pending = 0 : i64}
// PIPE-NEXT: gpu.barrier
// PIPE-NEXT: attn.dot
// PIPE-NEXT: gpu.barrier
// PIPE-NEXT: scf.yield
func.func @one_stage(%q: memref<?x?x?x64xf16>, %k: memref<?x?x?x64xf16>,
                     %v: memref<?x?x?x64xf16>, %o: memref<?x?x?x64xf16>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x64xf16>, memref<?x?x?x64xf16>, memref<?x?x?x64xf16>)
                 outs(%o : memref<?x?x?x64xf16>)
                 {config = #attn.tile_config<block_m = 64, block_n = 64, warps = 4, stages = 1, split_kv = false>,
                  gpu_config = #attn.gpu_config<wgmma = true, overlap_softmax = true>}
  return
}

