// RUN: attn-opt %S/../../Transforms/GPU/Inputs/bias-kv-loop.mlir --attn-assign-layouts --attn-stage-shared \
// RUN:   --attn-pipeline --attn-allocate-shared --convert-attn-tile-to-nvvm | FileCheck %s --check-prefix=BIAS
// RUN: attn-opt %s --attn-tile --attn-split-kv-loop --cse --attn-assign-layouts --attn-stage-shared \
// RUN:   --attn-pipeline --attn-allocate-shared --convert-attn-tile-to-nvvm | FileCheck %s

// MemoryToNVVM: loads, stores and copies.

// A tile loaded into registers (a bias, at the top of the K/V loop): each
// thread reads its 32 elements one by one, each under a bounds check on its
// row and column; out of bounds, the address is the plane's first element
// (every launched buffer has one) and the value zero.
// BIAS-LABEL: gpu.func @biased
// BIAS: scf.for
// BIAS: %[[IN:.+]] = arith.andi %{{.*}}, %{{.*}} : i1
// BIAS-NEXT: %[[OFF:.+]] = arith.muli %{{.*}}, %{{.*}} : i64
// BIAS-NEXT: %[[ELT:.+]] = arith.addi %[[OFF]], %{{.*}} : i64
// BIAS-NEXT: %[[Z:.+]] = arith.constant 0 : i64
// BIAS-NEXT: %[[SAFE:.+]] = arith.select %[[IN]], %[[ELT]], %[[Z]] : i64
// BIAS-NEXT: %[[P:.+]] = llvm.getelementptr %{{.*}}[%[[SAFE]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f16
// BIAS-NEXT: %[[V:.+]] = llvm.load %[[P]] : !llvm.ptr<1> -> f16
// BIAS-NEXT: arith.select %[[IN]], %[[V]], %{{.*}} : f16
// BIAS-COUNT-31: llvm.load %{{.*}} : !llvm.ptr<1> -> f16
// BIAS-NOT: llvm.load %{{.*}} : !llvm.ptr<1> -> f16
// BIAS: nvvm.mma.sync
// The output: per row of the thread, one bounds check, pairs of f16 as one
// 4-byte store.
// BIAS: scf.if
// BIAS-COUNT-8: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : i32, !llvm.ptr<1>

// A 192-wide Q tile: 24 16-byte chunks per row, so 128 threads copy 5 rows
// per pass and a 64-row tile takes 12 passes and a last one of 4 rows.
// Threads 120..127 would copy the first chunks of the next pass's first
// row, which threads 0..7 copy in that pass: they issue no copy (a write-
// write race otherwise, found by compute-sanitizer racecheck); in the last
// pass, the threads past the tile issue none either.
// CHECK-LABEL: gpu.func @d192
// CHECK-COUNT-12: arith.cmpi ult, %{{.*}}, %c5_i32{{.*}} : i32
// CHECK: %[[LAST:.+]] = arith.cmpi ult, %{{.*}}, %c4_i32{{.*}} : i32
// CHECK-NEXT: scf.if %[[LAST]] {
// CHECK-NEXT: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache =  cg, %{{.*}} : !llvm.ptr<3>, !llvm.ptr<1>, i32
// CHECK-NEXT: }
// CHECK-NEXT: nvvm.cp.async.commit.group
func.func @d192(%q: memref<?x?x?x192xf16>, %k: memref<?x?x?x192xf16>,
                %v: memref<?x?x?x192xf16>, %o: memref<?x?x?x192xf16>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x192xf16>, memref<?x?x?x192xf16>, memref<?x?x?x192xf16>)
                 outs(%o : memref<?x?x?x192xf16>)
                 {config = #attn.tile_config<block_m = 64, block_n = 64, warps = 4, stages = 1>}
  return
}
