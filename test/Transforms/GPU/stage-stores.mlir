// RUN: attn-opt %s --attn-tile --attn-split-kv-loop --cse --attn-assign-layouts=chip=sm_90a --attn-overlap-softmax \
// RUN:   --attn-stage-shared --attn-warp-specialize --attn-stage-stores --attn-allocate-shared \
// RUN:   -split-input-file | FileCheck %s
// RUN: attn-opt %s --attn-tile --attn-split-kv-loop --cse --attn-assign-layouts=chip=sm_90a --attn-overlap-softmax \
// RUN:   --attn-stage-shared --attn-warp-specialize --attn-stage-stores=max-shared-bytes=180000 \
// RUN:   -split-input-file | FileCheck %s --check-prefix=FULL
// RUN: attn-opt %s --attn-tile --attn-split-kv-loop --cse --attn-assign-layouts=chip=sm_90a --attn-overlap-softmax \
// RUN:   --attn-stage-shared --attn-warp-specialize --attn-stage-stores=staging=false \
// RUN:   -split-input-file | FileCheck %s --check-prefix=OFF
// RUN: attn-opt %s --attn-tile --attn-split-kv-loop --cse --attn-assign-layouts=chip=sm_90a --attn-overlap-softmax \
// RUN:   --attn-stage-shared --attn-warp-specialize --attn-stage-stores --attn-allocate-shared \
// RUN:   --convert-attn-tile-to-nvvm=chip=sm_90a -split-input-file | FileCheck %s --check-prefix=NVVM

// stage_stores: the consumers' store of the output tile (16-bit, the
// warpgroup accumulator layout, whole rows of 64-column multiples) goes
// through a new shared buffer in the 128-byte swizzle, placed in front of
// attn.warp_specialize: the warpgroup's last TMA store must have read the
// buffer (attn.tma_store_wait), its threads write their rows
// (attn.local_store) and the warpgroups store them (attn.tma_store); one
// more wait ends the consumers region, so that the CTA's shared memory
// outlives the last read. In a persistent kernel all of it is per tile,
// inside the tile loop. Where the buffer would not fit beside the others
// (a limit of 180000 bytes with 165888 in use, prefix FULL) the register store stays;
// with staging=false (a TMA fallback's compilation) nothing changes.

// CHECK-LABEL: func.func @persistent
// CHECK: shared_bytes = 198656 : i64
// CHECK: %[[OBUF:[^ ]+]] = attn.local_alloc {offset = 165888 : i64} : !attn.shared<128x128xf16, #attn.swizzled<blocked>>
// CHECK-NEXT: attn.warp_specialize
// CHECK: } consumers {
// CHECK: scf.for
// CHECK: %[[O:[^ ]+]] = arith.truncf %output : tensor<128x128xf32, #attn.mma<warps = 8, version = 3>> to tensor<128x128xf16, #attn.mma<warps = 8, version = 3>>
// CHECK-NEXT: attn.tma_store_wait
// CHECK-NEXT: attn.local_store %[[O]], %[[OBUF]] : tensor<128x128xf16, #attn.mma<warps = 8, version = 3>>, !attn.shared<128x128xf16, #attn.swizzled<blocked>>
// CHECK-NEXT: attn.tma_store %[[OBUF]] into %arg3[%{{.*}}, %{{.*}}, %{{.*}}, %c0] : !attn.shared<128x128xf16, #attn.swizzled<blocked>>, memref<?x?x?x128xf16>
// CHECK-NOT: attn.store
// CHECK: scf.yield
// CHECK: } {llvm.loop_annotation
// CHECK-NEXT: attn.tma_store_wait
// CHECK-NEXT: }

// FULL-LABEL: func.func @persistent
// FULL-NOT: attn.tma_store
// FULL: attn.store %{{.*}}, %arg3
// FULL-NOT: attn.tma_store
// FULL-LABEL: func.func @lse

// OFF-NOT: attn.tma_store
// OFF-NOT: stage_stores = false

// The kernel gets a fourth TMA descriptor, for the output (a warpgroup's
// 64 rows of 64 columns); each warpgroup's wait and store meet at its own
// named barrier (8 + warpgroup, 128 threads), its first thread waits
// (wait_group.read) and issues the stores (one box per 64-column block,
// coordinates innermost first: the block's column, the warpgroup's first
// row, the head, the batch) and commits them.
// NVVM-LABEL: gpu.func @persistent
// NVVM-SAME: %[[TO:arg39]]: !llvm.ptr) kernel
// NVVM-SAME: tensor_maps = [{{.*}}, {box = [64, 64, 1, 1], buffer = 3 : i64, swizzle = 128 : i64}]
// NVVM-SAME: attn.tensor_maps = 4
// NVVM: nvvm.cp.async.bulk.wait_group 0 {read}
// NVVM-NEXT: }
// NVVM: %[[BAR:[^ ]+]] = arith.addi %{{.*}}, %c8_i32{{.*}} : i32
// NVVM-NEXT: nvvm.barrier id = %[[BAR]] number_of_threads = %c128_i32
// NVVM: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// NVVM: nvvm.barrier id = %{{.*}} number_of_threads = %c128_i32
// NVVM: scf.if
// NVVM: nvvm.cp.async.bulk.tensor.global.shared.cta %[[TO]], %{{.*}}, box[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] : !llvm.ptr, <3>
// NVVM: nvvm.cp.async.bulk.tensor.global.shared.cta %[[TO]], %{{.*}}, box[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] : !llvm.ptr, <3>
// NVVM-NEXT: nvvm.cp.async.bulk.commit.group
// NVVM-LABEL: gpu.func @lse

func.func @persistent(%q: memref<?x?x?x128xf16>, %k: memref<?x?x?x128xf16>,
                      %v: memref<?x?x?x128xf16>, %o: memref<?x?x?x128xf16>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x128xf16>, memref<?x?x?x128xf16>, memref<?x?x?x128xf16>)
                 outs(%o : memref<?x?x?x128xf16>)
                 {config = #attn.tile_config<block_m = 128, block_n = 128, warps = 8, stages = 2>,
                  gpu_config = #attn.gpu_config<wgmma = true, overlap_softmax = true, warp_specialize = true, persistent = true, stage_stores = true>}
  return
}

// -----

// With an LSE output: the output's store is staged, the LSE's (a row
// slice) stays a register store; without persistence the consumers region
// ends with the final wait after both.
// CHECK-LABEL: func.func @lse
// CHECK: attn.local_alloc {offset = 0 : i64} : !attn.shared<128x64xbf16, #attn.swizzled<blocked>>
// CHECK: %[[OBUF:[^ ]+]] = attn.local_alloc {offset = 50176 : i64} : !attn.shared<128x64xbf16, #attn.swizzled<blocked>>
// CHECK-NEXT: attn.warp_specialize
// CHECK: attn.tma_store_wait
// CHECK-NEXT: attn.local_store %{{.*}}, %[[OBUF]]
// CHECK-NEXT: attn.tma_store %[[OBUF]] into %arg1
// CHECK-NEXT: attn.store %{{.*}}, %arg2[
// CHECK-NEXT: attn.tma_store_wait
// CHECK-NEXT: }

func.func @lse(%q: memref<?x?x?x64xbf16>, %o: memref<?x?x?x64xbf16>, %lse: memref<?x?x?xf32>) {
  attn.attention ins(%q, %q, %q : memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>)
                 outs(%o, %lse : memref<?x?x?x64xbf16>, memref<?x?x?xf32>)
                 {mask = #attn.mask<causal, bottom_right>,
                  config = #attn.tile_config<block_m = 128, block_n = 128, warps = 8, stages = 2>,
                  gpu_config = #attn.gpu_config<wgmma = true, warp_specialize = true, stage_stores = true>}
  return
}
