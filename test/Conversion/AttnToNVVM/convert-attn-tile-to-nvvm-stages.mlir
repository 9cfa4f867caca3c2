// RUN: attn-opt %s --attn-tile --attn-split-kv-loop --cse \
// RUN:   --convert-attn-template-to-nvvm | FileCheck %s

// stages = 3: three K/V buffer pairs after Q (16 KiB + 3 x (8 + 8) KiB),
// blocks j + 1 and j + 2 in flight while block j is computed, one barrier
// per block. lazy_rescale: the accumulator is rescaled under a warp vote.

// CHECK-LABEL: gpu.func @staged
// CHECK-SAME: lazy_rescale = true
// CHECK-SAME: shared_bytes = 65536 : i64, split_kv = true, stages = 3 : i64
// The Q tile, then the first stages - 1 = 2 blocks, one commit group each
// (a block past the visible range copies nothing but still commits).
// CHECK: nvvm.cp.async.commit.group
// CHECK: scf.if
// CHECK: arith.remui %{{.*}}, %c3_i32
// CHECK-COUNT-8: nvvm.cp.async.shared.global
// CHECK: nvvm.cp.async.commit.group
// CHECK: scf.if
// CHECK: nvvm.cp.async.commit.group
// In the loop: block j is in buffer j % 3 and arrived two groups ago ...
// CHECK: scf.for %[[J:[a-z0-9]+]] = 
// CHECK: %[[JI:.+]] = arith.index_cast %[[J]] : index to i32
// CHECK: %[[STAGE:.+]] = arith.remui %[[JI]], %c3_i32
// CHECK: arith.muli %[[STAGE]], %c8192_i32
// CHECK: nvvm.cp.async.wait.group 1
// CHECK-NEXT: gpu.barrier
// ... and behind that one barrier block j + 2 goes to block j - 1's buffer.
// CHECK: %[[AHEAD:.+]] = arith.addi %[[J]], %c2
// CHECK-NEXT: %[[MORE:.+]] = arith.cmpi slt, %[[AHEAD]]
// CHECK-NEXT: scf.if %[[MORE]] {
// CHECK: nvvm.cp.async.shared.global
// CHECK: }
// CHECK-NEXT: nvvm.cp.async.commit.group
// No other wait or barrier before the scores, P x V or the next block.
// CHECK-NOT: nvvm.cp.async.wait.group
// CHECK-NOT: gpu.barrier
// CHECK: nvvm.ldmatrix
// CHECK: nvvm.mma.sync
// CHECK: %[[ANY:.+]] = nvvm.vote.sync  any %c-1_i32{{.*}}, %{{.*}} -> i1
// CHECK-NEXT: scf.if %[[ANY]] -> (f32
// CHECK: arith.mulf
// CHECK: } else {
// CHECK: nvvm.ldmatrix %{{.*}}layout = #nvvm.mma_layout<col>
// CHECK-NOT: gpu.barrier
// CHECK: scf.yield
func.func @staged(%q: memref<?x?x?x64xf16>, %k: memref<?x?x?x64xf16>,
                  %v: memref<?x?x?x64xf16>, %o: memref<?x?x?x64xf16>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x64xf16>, memref<?x?x?x64xf16>, memref<?x?x?x64xf16>)
                 outs(%o : memref<?x?x?x64xf16>)
                 {config = #attn.tile_config<block_m = 128, block_n = 64, warps = 4, stages = 3>,
                  gpu_config = #attn.gpu_config<lazy_rescale = true>}
  return
}
