// RUN: attn-opt %s --attn-tile --attn-split-kv-loop --attn-reverse-kv-loops --cse \
// RUN:   --convert-attn-template-to-nvvm | FileCheck %s

// reverse_kv: the K/V loops run over positions p with block last - p, and
// the copy pipeline runs ahead in positions across the loops: the block
// issued in iteration p is last - (p + 1). loop_local_ids: every loop ORs
// the thread index with (p >> 31), zero but opaque to LLVM, and derives its
// lane-dependent offsets from that, not from the kernel's thread index.

// CHECK-LABEL: gpu.func @reversed
// CHECK-SAME: loop_local_ids = true
// CHECK-SAME: reverse_kv = true
// CHECK: %[[TX:.+]] = gpu.thread_id x
// CHECK: %[[TID:.+]] = arith.index_cast %[[TX]] : index to i32
// The kernel's lane and lane % 4 (used by the epilogue's stores):
// CHECK: %[[LANE:.+]] = arith.remui %[[TID]], %c32
// CHECK: %[[QUAD:.+]] = arith.remui %[[LANE]], %c4
// Three loops (masked tail, unmasked, masked head), each with its own ids.
// CHECK: scf.for %[[P:[a-z0-9]+]] =
// CHECK: %[[PI:.+]] = arith.index_cast %[[P]] : index to i32
// CHECK-NEXT: %[[Z:.+]] = arith.shrui %[[PI]], %c31_i32 : i32
// CHECK-NEXT: %[[LTID:.+]] = arith.ori %[[TID]], %[[Z]] : i32
// Warp and lane of this loop come from it:
// CHECK-NEXT: arith.constant 32
// CHECK-NEXT: arith.divui %[[LTID]]
// CHECK-NEXT: arith.constant 32
// CHECK-NEXT: arith.remui %[[LTID]]
// CHECK: %[[AHEAD:.+]] = arith.addi %[[P]], %{{.+}} : index
// CHECK-NEXT: arith.cmpi slt, %[[AHEAD]]
// CHECK-NEXT: scf.if
// CHECK: %[[BLK:.+]] = arith.subi %[[LAST:.+]], %[[AHEAD]] : index
// CHECK-NEXT: arith.constant 64 : index
// CHECK-NEXT: arith.muli %[[BLK]]
// CHECK: nvvm.cp.async.shared.global
// This block's keys (for the mask): block last - p.
// CHECK: arith.subi %[[LAST]], %[[P]] : index
// CHECK: scf.for %{{[a-z0-9]+}} =
// CHECK: arith.shrui
// CHECK-NEXT: arith.ori %[[TID]]
// CHECK: scf.for %{{[a-z0-9]+}} =
// CHECK: arith.shrui
// CHECK-NEXT: arith.ori %[[TID]]
// CHECK-NOT: scf.for
// After the loops the stores use the kernel's ids again.
// CHECK: arith.muli %[[QUAD]], %c2
// CHECK: llvm.store
func.func @reversed(%q: memref<?x?x?x64xf16>, %k: memref<?x?x?x64xf16>,
                    %v: memref<?x?x?x64xf16>, %o: memref<?x?x?x64xf16>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x64xf16>, memref<?x?x?x64xf16>, memref<?x?x?x64xf16>)
                 outs(%o : memref<?x?x?x64xf16>)
                 {config = #attn.tile_config<block_m = 128, block_n = 64, warps = 4, stages = 2>,
                  gpu_config = #attn.gpu_config<reverse_kv = true, loop_local_ids = true>,
                  mask = #attn.mask<window, top_left, left = 200, right = 0>}
  return
}

// One stage: the K prefetch behind the scores fetches the next position's
// block, last - (p + 1), into the single K buffer.
// CHECK-LABEL: gpu.func @reversed_one_stage
// CHECK-SAME: reverse_kv = true
// CHECK: scf.for %[[P:[a-z0-9]+]] =
// CHECK-NEXT: %[[J:.+]] = arith.subi %[[LAST:.+]], %[[P]] : index
// CHECK: nvvm.cp.async.wait.group 1
// CHECK: %[[NEXT:.+]] = arith.addi %[[P]], %{{.+}} : index
// CHECK-NEXT: arith.cmpi slt, %[[NEXT]]
// CHECK-NEXT: scf.if
// CHECK: %[[BLK:.+]] = arith.subi %[[LAST]], %[[NEXT]] : index
// CHECK: nvvm.cp.async.shared.global
func.func @reversed_one_stage(%q: memref<?x?x?x64xf16>, %k: memref<?x?x?x64xf16>,
                              %v: memref<?x?x?x64xf16>, %o: memref<?x?x?x64xf16>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x64xf16>, memref<?x?x?x64xf16>, memref<?x?x?x64xf16>)
                 outs(%o : memref<?x?x?x64xf16>)
                 {config = #attn.tile_config<block_m = 128, block_n = 64, warps = 4, stages = 1>, gpu_config = #attn.gpu_config<reverse_kv = true>,
                  mask = #attn.mask<causal, top_left>}
  return
}
