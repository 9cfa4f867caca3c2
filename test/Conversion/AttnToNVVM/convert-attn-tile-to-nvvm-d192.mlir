// RUN: attn-opt %s --attn-tile --attn-split-kv-loop --cse \
// RUN:   --convert-attn-template-to-nvvm | FileCheck %s

// D = 192: 24 16-byte chunks per row, so 128 threads copy 5 rows per pass
// (threads 120..127 repeat row 5's first chunks) and a 64-row tile takes
// 12 full passes and a last one of 4 rows. In that pass the threads past
// the tile issue no cp.async: any copy writes its 16 bytes (zeros when
// src-size is 0), so none may be pointed into the tile.

// CHECK-LABEL: gpu.func @d192
// Q tile: 12 unconditional copies, then the partial pass under a guard.
// CHECK-COUNT-12: nvvm.cp.async.shared.global
// CHECK: %[[IN:.+]] = arith.cmpi ult, %[[ROW:.+]], %c4_i32{{.*}} : i32
// CHECK-NEXT: scf.if %[[IN]] {
// CHECK-NEXT: nvvm.cp.async.shared.global
// CHECK-NEXT: }
// CHECK-NEXT: nvvm.cp.async.commit.group
func.func @d192(%q: memref<?x?x?x192xf16>, %k: memref<?x?x?x192xf16>,
                %v: memref<?x?x?x192xf16>, %o: memref<?x?x?x192xf16>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x192xf16>, memref<?x?x?x192xf16>, memref<?x?x?x192xf16>)
                 outs(%o : memref<?x?x?x192xf16>)
                 {config = #attn.tile_config<block_m = 64, block_n = 64, warps = 4, stages = 1>}
  return
}
