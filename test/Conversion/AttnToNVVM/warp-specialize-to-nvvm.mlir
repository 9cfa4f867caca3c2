// RUN: attn-opt %s --attn-tile --attn-split-kv-loop --cse --attn-assign-layouts=chip=sm_90a \
// RUN:   --attn-stage-shared --attn-warp-specialize --attn-allocate-shared \
// RUN:   --convert-attn-tile-to-nvvm=chip=sm_90a | FileCheck %s

// A warp-specialized program as a kernel: 384 threads (two consumer
// warpgroups and the producer's), the occupancy setmaxnreg needs as a cap
// at entry, one TMA descriptor per buffer after the buffers' parameters
// (format 3: their boxes in the launch metadata).

// CHECK-LABEL: gpu.func @causal
// CHECK-SAME: %[[TQ:arg36]]: !llvm.ptr, %[[TK:arg37]]: !llvm.ptr, %[[TV:arg38]]: !llvm.ptr) kernel
// CHECK-SAME: attn.launch = {
// CHECK-SAME: format_version = 3
// CHECK-SAME: tensor_maps = [{box = [64, 128, 1, 1], buffer = 0 : i64, swizzle = 128 : i64}, {box = [64, 128, 1, 1], buffer = 1 : i64, swizzle = 128 : i64}, {box = [64, 128, 1, 1], buffer = 2 : i64, swizzle = 128 : i64}]
// CHECK-SAME: threads = 384
// CHECK-SAME: attn.tensor_maps = 3
// CHECK-SAME: known_block_size = array<i32: 384, 1, 1>, nvvm.minctasm = 1 : i32
// Thread 0 initializes the barriers (Q's: one arrival), then the whole CTA
// meets once per barrier array, before the split.
// CHECK: %[[T0:[^ ]+]] = arith.cmpi eq, %{{.*}}, %c0_i32
// CHECK: scf.if %[[T0]] {
// CHECK: nvvm.mbarrier.init %{{.*}}, %c1_i32 : !llvm.ptr<3>, i32
// CHECK-NEXT: nvvm.fence.mbarrier.init
// CHECK: gpu.barrier
// The consumer threads (tid < 256) raise their budget and wait for Q.
// CHECK: %[[CONS:[^ ]+]] = arith.cmpi ult, %{{.*}}, %c256_i32
// CHECK: scf.if %[[CONS]] {
// CHECK-NEXT: nvvm.setmaxregister increase 240
// CHECK: nvvm.mbarrier.try_wait.parity %{{.*}}, %{{.*}}, %{{.*}} : !llvm.ptr<3>, i32, i32
// CHECK: nvvm.wgmma.mma_async
// CHECK: nvvm.mbarrier.arrive %{{.*}} : !llvm.ptr<3>
// The producer warpgroup lowers its budget; thread 256 issues every copy:
// one expect_tx of the tile's bytes, one box per 64-column block, 16384
// bytes (128 rows of 128 bytes) apart, coordinates innermost first.
// CHECK: } else {
// CHECK-NEXT: nvvm.setmaxregister decrease 24
// CHECK: %[[LEAD:[^ ]+]] = arith.cmpi eq, %{{.*}}, %c256_i32
// CHECK: scf.if %[[LEAD]] {
// CHECK: nvvm.mbarrier.arrive.expect_tx %[[BAR:[^ ]+]], %c32768_i32{{.*}} : !llvm.ptr<3>, i32
// CHECK: %[[D0:[^ ]+]] = llvm.addrspacecast %{{.*}} : !llvm.ptr<3> to !llvm.ptr<7>
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global %[[D0]], %[[TQ]], %[[BAR]], box[%[[COL:[^ ,]+]], %[[ROW:[^ ,]+]], %[[H:[^ ,]+]], %[[B:[^ ,]+]]]
// CHECK: %[[COL1:[^ ]+]] = arith.addi %{{.*}}, %c64_i32
// CHECK: arith.constant 16384 : i32
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[TQ]], %[[BAR]], box[%[[COL1]], %[[ROW]], %[[H]], %[[B]]]
// CHECK: scf.for
// CHECK: nvvm.mbarrier.try_wait.parity
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[TK]]
// CHECK: nvvm.mbarrier.try_wait.parity
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[TV]]
func.func @causal(%q: memref<?x?x?x128xf16>, %k: memref<?x?x?x128xf16>,
                  %v: memref<?x?x?x128xf16>, %o: memref<?x?x?x128xf16>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x128xf16>, memref<?x?x?x128xf16>, memref<?x?x?x128xf16>)
                 outs(%o : memref<?x?x?x128xf16>)
                 {mask = #attn.mask<causal, top_left>,
                  config = #attn.tile_config<block_m = 128, block_n = 128, warps = 8, stages = 2>,
                  gpu_config = #attn.gpu_config<wgmma = true, warp_specialize = true>}
  return
}
