// RUN: attn-opt %s --attn-tile --attn-split-kv-loop --cse --attn-assign-layouts=chip=sm_90a --attn-overlap-softmax \
// RUN:   --attn-stage-loads --attn-stage-shared --attn-warp-specialize --attn-pipeline --attn-allocate-shared \
// RUN:   -split-input-file | FileCheck %s
// RUN: attn-opt %s --attn-tile --attn-split-kv-loop --cse --attn-assign-layouts=chip=sm_90a --attn-overlap-softmax \
// RUN:   --attn-stage-loads -split-input-file | FileCheck %s --check-prefix=STAGED
// RUN: sed 's/, stage_loads = true//' %s | attn-opt --attn-tile --attn-split-kv-loop --cse \
// RUN:   --attn-assign-layouts=chip=sm_90a --attn-stage-loads -split-input-file | FileCheck %s --check-prefix=OFF
// RUN: attn-opt %s --attn-tile --attn-split-kv-loop --cse --attn-assign-layouts=chip=sm_90a --attn-overlap-softmax \
// RUN:   --attn-stage-loads --attn-stage-shared --attn-warp-specialize --attn-pipeline --attn-allocate-shared \
// RUN:   --convert-attn-tile-to-nvvm=chip=sm_90a -split-input-file | FileCheck %s --check-prefix=NVVM
// RUN: attn-opt %s --attn-tile --attn-split-kv-loop --cse --attn-assign-layouts=chip=sm_90a --attn-overlap-softmax \
// RUN:   --attn-stage-loads=narrow-swizzles=true --attn-stage-shared --attn-warp-specialize --attn-pipeline \
// RUN:   --attn-allocate-shared --convert-attn-tile-to-nvvm=chip=sm_90a -split-input-file | FileCheck %s --check-prefix=NARROW
// RUN: attn-opt %s --attn-tile --attn-split-kv-loop --cse --attn-assign-layouts=chip=sm_90a --attn-overlap-softmax \
// RUN:   --attn-stage-loads=narrow-swizzles=true --attn-stage-shared --attn-warp-specialize --attn-pipeline \
// RUN:   --attn-allocate-shared "--convert-attn-tile-to-nvvm=chip=sm_90a ldmatrix-local-loads=true" -split-input-file \
// RUN:   | FileCheck %s --check-prefix=LDM

// stage_loads: the bias tile of each K/V block ([B, 1, Nq, Nk]: the
// batch index is 0 or the program's, chosen in every loop by attn-tile)
// becomes a tile in shared memory. attn-stage-loads loads it as
// #attn.unswizzled (80 columns: not a multiple of 64) and converts it back
// to the accumulator layout, with the broadcast's batch index computed
// once in front of the loops (so that all three loops of the split copy
// from one plane); attn-stage-shared makes that a copy and an
// attn.local_load; attn-warp-specialize a third ring of the producer
// between K and V (full: its arrival, empty: the 256 consumer threads),
// read after the stage's full barrier and released right after the read.
// The producer of three rings gets 32 registers, the consumers 232.

// STAGED-LABEL: func.func @bias_80
// STAGED: %[[B:[^ ]+]] = arith.select %{{.*}}, %c0, %{{.*}} : index
// STAGED-NEXT: scf.for
// STAGED-NOT: arith.select
// STAGED: %[[T:[^ ]+]] = attn.load %arg5[%[[B]], %c0, %{{.*}}, %{{.*}}] : memref<?x1x?x?xf16> -> tensor<128x80xf16, #attn.unswizzled>
// STAGED-NEXT: attn.convert_layout %[[T]] : tensor<128x80xf16, #attn.unswizzled> -> tensor<128x80xf16, #attn.mma<warps = 8, version = 3>>
// STAGED: scf.for
// STAGED: attn.load %arg5[%[[B]], %c0
// STAGED: scf.for
// STAGED: attn.load %arg5[%[[B]], %c0

// OFF-LABEL: func.func @bias_80
// OFF-NOT: attn.local_load
// OFF-NOT: #attn.unswizzled
// OFF: attn.load %arg5{{.*}} -> tensor<128x80xf16, #attn.mma<warps = 8, version = 3>>

// CHECK-LABEL: func.func @bias_80
// CHECK: %[[PLANE:[^ ]+]] = memref.subview %arg5[%{{.*}}, %c0, 0, 0]
// CHECK: attn.local_alloc {{.*}} : !attn.shared<2x80x128xf16, #attn.swizzled<blocked>>
// CHECK-NEXT: %[[FULLB:[^ ]+]] = attn.mbarrier_alloc {arrivals = 1 : i64, {{.*}}} : !attn.mbarriers<2>
// CHECK-NEXT: %[[EMPTYB:[^ ]+]] = attn.mbarrier_alloc {arrivals = 256 : i64, {{.*}}} : !attn.mbarriers<2>
// CHECK-NEXT: %[[BBUF:[^ ]+]] = attn.local_alloc {{.*}} : !attn.shared<2x128x80xf16, #attn.unswizzled>
// CHECK: attn.warp_specialize attributes {consumer_registers = 232 : i64, consumer_warpgroups = 2 : i64, producer_registers = 32 : i64} producer {
// CHECK: scf.for
// CHECK: attn.tma_copy %arg1
// CHECK: attn.mbarrier_wait %[[EMPTYB]][%[[ST:[a-z0-9_]+]]]
// CHECK-NEXT: %[[DEST:[^ ]+]] = attn.local_view %[[BBUF]][%[[ST]]]
// CHECK-NEXT: attn.tma_copy %arg5[%{{.*}}, %c0, %{{.*}}, %{{.*}}] into %[[DEST]], %[[FULLB]][%[[ST]]] : memref<?x1x?x?xf16>, !attn.shared<128x80xf16, #attn.unswizzled>
// CHECK: attn.tma_copy %arg2
// CHECK: } consumers {
// CHECK-COUNT-3: attn.mbarrier_wait %[[FULLB]][%[[S:[a-z0-9_]+]]], %{{.*}}
// CHECK-NEXT: attn.local_load %{{.*}} : !attn.shared<128x80xf16, #attn.unswizzled> -> tensor<128x80xf16, #attn.mma<warps = 8, version = 3>>
// CHECK-NEXT: attn.mbarrier_arrive %[[EMPTYB]][%[[S]]]
// CHECK-NOT: attn.async_copy

// The kernel: the bias's TMA descriptor is one box of 80 x 128 without a
// swizzle; each consumer thread reads its 20 pairs of the tile (rows of
// 160 bytes) with 4-byte loads from shared memory.
// NVVM-LABEL: gpu.func @bias_80
// NVVM-SAME: {box = [80, 128, 1, 1], buffer = 5 : i64, swizzle = 0 : i64}
// NVVM: nvvm.setmaxregister  increase 232
// NVVM: arith.constant 160 : i32
// NVVM-COUNT-20: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<3> -> i32
// NVVM: nvvm.setmaxregister  decrease 32
// NVVM: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %arg55, %{{.*}}, box[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}]
// narrow-swizzles: the 80 columns are five column blocks in TMA's 32-byte
// swizzle (one box of 16 x 128 each, 4096 bytes apart, under one
// arrive.expect_tx of the whole tile), in which the eight rows of a quad
// column fall in eight bank groups: each consumer thread's address of row
// r, column c is 4096 (c / 16) + 32 r + 16 ((c / 8) % 2 ^ (r / 4) % 2).
// NARROW-LABEL: gpu.func @bias_80
// NARROW-SAME: {box = [16, 128, 1, 1], buffer = 5 : i64, swizzle = 32 : i64}
// NARROW: nvvm.setmaxregister  increase 232
// NARROW: arith.divui %c0_i32{{[_0-9]*}}, %c8_i32{{[_0-9]*}} : i32
// NARROW-NEXT: %c2_i32{{[_0-9]*}} = arith.constant 2 : i32
// NARROW-NEXT: arith.divui %{{[0-9]+}}, %c2_i32{{[_0-9]*}} : i32
// NARROW-NEXT: %c4_i32{{[_0-9]*}} = arith.constant 4 : i32
// NARROW-NEXT: %[[R4:[0-9]+]] = arith.divui %[[ROW:[0-9]+]], %c4_i32{{[_0-9]*}} : i32
// NARROW-NEXT: %c2_i32{{[_0-9]*}} = arith.constant 2 : i32
// NARROW-NEXT: %[[RBIT:[0-9]+]] = arith.remui %[[R4]], %c2_i32{{[_0-9]*}} : i32
// NARROW-NEXT: %c2_i32{{[_0-9]*}} = arith.constant 2 : i32
// NARROW-NEXT: %[[CBIT:[0-9]+]] = arith.remui %{{[0-9]+}}, %c2_i32{{[_0-9]*}} : i32
// NARROW-NEXT: %[[X:[0-9]+]] = arith.xori %[[CBIT]], %[[RBIT]] : i32
// NARROW-NEXT: %c16_i32{{[_0-9]*}} = arith.constant 16 : i32
// NARROW-NEXT: arith.muli %[[X]], %c16_i32{{[_0-9]*}} : i32
// NARROW-NEXT: %c32_i32{{[_0-9]*}} = arith.constant 32 : i32
// NARROW-NEXT: arith.muli %[[ROW]], %c32_i32{{[_0-9]*}} : i32
// NARROW-NEXT: %c4096_i32{{[_0-9]*}} = arith.constant 4096 : i32
// NARROW: nvvm.setmaxregister  decrease 32
// NARROW: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c20480_i32
// NARROW-COUNT-5: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %arg55,
// NARROW-NOT: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %arg55,
// NARROW: gpu.return
// ldmatrix-local-loads: each thread's 20 pairs in five ldmatrix.x4 (two
// n-tiles of the warp's 16 rows each), lane l addressing row l % 8 of
// matrix l / 8: rows 8 ((l / 8) % 2) + l % 8 of the warp's, columns
// 8 ((l / 8) / 2) of the n-tile pair; no 4-byte shared loads left.
// LDM-LABEL: gpu.func @bias_80
// LDM: nvvm.setmaxregister  increase 232
// LDM: %[[MAT:[0-9]+]] = arith.divui %[[LANE:[0-9]+]], %c8_i32{{[_0-9]*}} : i32
// LDM-NEXT: %c8_i32{{[_0-9]*}} = arith.constant 8 : i32
// LDM-NEXT: %c2_i32{{[_0-9]*}} = arith.constant 2 : i32
// LDM-NEXT: %[[HALF:[0-9]+]] = arith.remui %[[MAT]], %c2_i32{{[_0-9]*}} : i32
// LDM-NEXT: %[[HROW:[0-9]+]] = arith.muli %[[HALF]], %c8_i32{{[_0-9]*}} : i32
// LDM-NEXT: %c8_i32{{[_0-9]*}} = arith.constant 8 : i32
// LDM-NEXT: %[[R8:[0-9]+]] = arith.remui %[[LANE]], %c8_i32{{[_0-9]*}} : i32
// LDM-NEXT: arith.addi %[[R8]], %[[HROW]] : i32
// LDM-NEXT: %c8_i32{{[_0-9]*}} = arith.constant 8 : i32
// LDM-NEXT: %c2_i32{{[_0-9]*}} = arith.constant 2 : i32
// LDM-NEXT: %[[NTP:[0-9]+]] = arith.divui %[[MAT]], %c2_i32{{[_0-9]*}} : i32
// LDM-NEXT: arith.muli %[[NTP]], %c8_i32{{[_0-9]*}} : i32
// LDM-NOT: llvm.load %{{.*}} : !llvm.ptr<3> -> i32
// LDM-COUNT-5: nvvm.ldmatrix %{{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, num = 4 : i32
// LDM-NOT: llvm.load %{{.*}} : !llvm.ptr<3> -> i32
// LDM: nvvm.setmaxregister  decrease 32
func.func @bias_80(%q: memref<?x?x?x128xf16>, %k: memref<?x?x?x128xf16>, %v: memref<?x?x?x128xf16>, %o: memref<?x?x?x128xf16>, %lse: memref<?x?x?xf32>, %bias: memref<?x1x?x?xf16>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x128xf16>, memref<?x?x?x128xf16>, memref<?x?x?x128xf16>) bias(%bias : memref<?x1x?x?xf16>) outs(%o, %lse : memref<?x?x?x128xf16>, memref<?x?x?xf32>) {config = #attn.tile_config<block_m = 128, block_n = 80, warps = 8, stages = 2>, gpu_config = #attn.gpu_config<wgmma = true, warp_specialize = true, stage_loads = true>}
  return
}

// -----

// 64 columns: the bias takes K's layout (the 128-byte swizzle in 64-column
// blocks, whose reads in the accumulator layout are free of bank
// conflicts), and its descriptor K's box and swizzle.

// STAGED-LABEL: func.func @bias_64
// STAGED: attn.load %arg5{{.*}} -> tensor<128x64xbf16, #attn.swizzled<blocked>>

// CHECK-LABEL: func.func @bias_64
// CHECK: attn.local_alloc {{.*}} : !attn.shared<2x128x64xbf16, #attn.swizzled<blocked>>
// CHECK: attn.local_load %{{.*}} : !attn.shared<128x64xbf16, #attn.swizzled<blocked>> -> tensor<128x64xbf16, #attn.mma<warps = 8, version = 3>>

// NVVM-LABEL: gpu.func @bias_64
// NVVM-SAME: {box = [64, 128, 1, 1], buffer = 5 : i64, swizzle = 128 : i64}
func.func @bias_64(%q: memref<?x?x?x128xbf16>, %k: memref<?x?x?x128xbf16>, %v: memref<?x?x?x128xbf16>, %o: memref<?x?x?x128xbf16>, %lse: memref<?x?x?xf32>, %bias: memref<?x?x?x?xbf16>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>) bias(%bias : memref<?x?x?x?xbf16>) outs(%o, %lse : memref<?x?x?x128xbf16>, memref<?x?x?xf32>) {config = #attn.tile_config<block_m = 128, block_n = 64, warps = 8, stages = 2>, gpu_config = #attn.gpu_config<wgmma = true, warp_specialize = true, stage_loads = true>}
  return
}

// -----

// 96 columns: unswizzled rows of 192 bytes, whose quad columns conflict
// 4-way; with narrow-swizzles three column blocks in TMA's 64-byte swizzle
// (boxes of 32 x 128, 8192 bytes apart; the buffer at a multiple of the
// swizzle's 512-byte atom).

// STAGED-LABEL: func.func @bias_96
// STAGED: attn.load %arg5{{.*}} -> tensor<128x96xf16, #attn.unswizzled>

// NARROW-LABEL: gpu.func @bias_96
// NARROW-SAME: {box = [32, 128, 1, 1], buffer = 5 : i64, swizzle = 64 : i64}
// NARROW: arith.divui %c0_i32{{[_0-9]*}}, %c8_i32{{[_0-9]*}} : i32
// NARROW-NEXT: %c4_i32{{[_0-9]*}} = arith.constant 4 : i32
// NARROW-NEXT: arith.divui %{{[0-9]+}}, %c4_i32{{[_0-9]*}} : i32
// NARROW-NEXT: %c2_i32{{[_0-9]*}} = arith.constant 2 : i32
// NARROW-NEXT: %[[R2:[0-9]+]] = arith.divui %{{[0-9]+}}, %c2_i32{{[_0-9]*}} : i32
// NARROW-NEXT: %c4_i32{{[_0-9]*}} = arith.constant 4 : i32
// NARROW-NEXT: %[[RBITS:[0-9]+]] = arith.remui %[[R2]], %c4_i32{{[_0-9]*}} : i32
// NARROW-NEXT: %c4_i32{{[_0-9]*}} = arith.constant 4 : i32
// NARROW-NEXT: %[[CBITS:[0-9]+]] = arith.remui %{{[0-9]+}}, %c4_i32{{[_0-9]*}} : i32
// NARROW-NEXT: arith.xori %[[CBITS]], %[[RBITS]] : i32
// NARROW: nvvm.setmaxregister  decrease
// NARROW-COUNT-3: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %arg55,
// NARROW-NOT: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %arg55,
// NARROW: gpu.return
func.func @bias_96(%q: memref<?x?x?x128xf16>, %k: memref<?x?x?x128xf16>, %v: memref<?x?x?x128xf16>, %o: memref<?x?x?x128xf16>, %lse: memref<?x?x?xf32>, %bias: memref<?x?x?x?xf16>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x128xf16>, memref<?x?x?x128xf16>, memref<?x?x?x128xf16>) bias(%bias : memref<?x?x?x?xf16>) outs(%o, %lse : memref<?x?x?x128xf16>, memref<?x?x?xf32>) {config = #attn.tile_config<block_m = 128, block_n = 96, warps = 8, stages = 2>, gpu_config = #attn.gpu_config<wgmma = true, warp_specialize = true, stage_loads = true>}
  return
}
