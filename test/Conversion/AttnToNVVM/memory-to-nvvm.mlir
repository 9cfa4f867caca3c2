// RUN: attn-opt %S/../../Transforms/GPU/Inputs/bias-kv-loop.mlir --attn-assign-layouts --attn-stage-shared \
// RUN:   --attn-pipeline --attn-allocate-shared --convert-attn-tile-to-nvvm | FileCheck %s --check-prefix=BIAS
// RUN: attn-opt %s --attn-tile --attn-split-kv-loop --cse --attn-assign-layouts --attn-stage-shared \
// RUN:   --attn-pipeline --attn-allocate-shared --convert-attn-tile-to-nvvm | FileCheck %s
// RUN: attn-opt %S/warp-specialize-to-nvvm.mlir --attn-tile --attn-split-kv-loop --cse \
// RUN:   --attn-assign-layouts=chip=sm_90a --attn-stage-shared --attn-warp-specialize \
// RUN:   --attn-allocate-shared --convert-attn-tile-to-nvvm=chip=sm_90a | FileCheck %s --check-prefix=WS

// MemoryToNVVM: loads, stores and copies.

// A tile loaded into registers (a bias, at the top of the K/V loop). One
// uniform branch per load: where the whole tile lies inside the buffer
// (its last row and column within the sizes) and the plane, the row stride
// and the first column make every row's first pair 4-byte aligned, each
// thread reads its 32 elements as 16 pairs, one 4-byte load per 8-column
// tile at constant offsets from the row's first pair, unpacked into two
// f16. Otherwise (the last, partial blocks; odd strides) element by element,
// each under a bounds check on its row and column; out of bounds, the
// address is the plane's first element (every launched buffer has one) and
// the value zero.
// BIAS-LABEL: gpu.func @biased
// BIAS: scf.for
// BIAS: %[[SHIFT:.+]] = arith.shli %{{.*}}, %c1_i64{{.*}} : i64
// BIAS-NEXT: %[[ADDR:.+]] = llvm.ptrtoint %{{.*}} : !llvm.ptr<1> to i64
// BIAS-NEXT: %[[BITS:.+]] = arith.ori %[[ADDR]], %[[SHIFT]] : i64
// BIAS: %[[LOW:.+]] = arith.andi %[[BITS]], %c3_i64{{.*}} : i64
// BIAS-NEXT: %[[ALIGNED:.+]] = arith.cmpi eq, %[[LOW]], %c0_i64{{.*}} : i64
// BIAS-NEXT: %[[COLS:.+]] = arith.cmpi sle, %{{.*}}, %{{.*}} : i64
// BIAS-NEXT: %[[ROWS:.+]] = arith.cmpi sle, %{{.*}}, %{{.*}} : i64
// BIAS-NEXT: %[[BOTH:.+]] = arith.andi %[[ROWS]], %[[COLS]] : i1
// BIAS-NEXT: %[[FAST:.+]] = arith.andi %[[BOTH]], %[[ALIGNED]] : i1
// BIAS-NEXT: scf.if %[[FAST]] -> (f16, f16, f16, f16, f16, f16, f16, f16, f16, f16, f16, f16, f16, f16, f16, f16, f16, f16, f16, f16, f16, f16, f16, f16, f16, f16, f16, f16, f16, f16, f16, f16) {
// BIAS: %[[ROW:.+]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f16
// BIAS-NEXT: %[[Z:.+]] = arith.constant 0 : i64
// BIAS-NEXT: %[[P0:.+]] = llvm.getelementptr %[[ROW]][%[[Z]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f16
// BIAS-NEXT: %[[W0:.+]] = llvm.load %[[P0]] {alignment = 4 : i64} : !llvm.ptr<1> -> i32
// BIAS-NEXT: %[[V0:.+]] = llvm.bitcast %[[W0]] : i32 to vector<2xf16>
// BIAS: llvm.extractelement %[[V0]][%{{.*}} : i32] : vector<2xf16>
// BIAS: llvm.extractelement %[[V0]][%{{.*}} : i32] : vector<2xf16>
// BIAS-NEXT: %[[EIGHT:.+]] = arith.constant 8 : i64
// BIAS-NEXT: llvm.getelementptr %[[ROW]][%[[EIGHT]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f16
// BIAS-COUNT-15: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<1> -> i32
// BIAS-NOT: llvm.load
// BIAS: scf.yield
// BIAS-NEXT: } else {
// BIAS: %[[IN:.+]] = arith.andi %{{.*}}, %{{.*}} : i1
// BIAS-NEXT: %[[OFF:.+]] = arith.muli %{{.*}}, %{{.*}} : i64
// BIAS-NEXT: %[[ELT:.+]] = arith.addi %[[OFF]], %{{.*}} : i64
// BIAS-NEXT: %[[Z0:.+]] = arith.constant 0 : i64
// BIAS-NEXT: %[[SAFE:.+]] = arith.select %[[IN]], %[[ELT]], %[[Z0]] : i64
// BIAS-NEXT: %[[P:.+]] = llvm.getelementptr %{{.*}}[%[[SAFE]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f16
// BIAS-NEXT: %[[V:.+]] = llvm.load %[[P]] : !llvm.ptr<1> -> f16
// BIAS-NEXT: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f16
// BIAS-NEXT: arith.select %[[IN]], %[[V]], %[[ZERO]] : f16
// BIAS-COUNT-31: llvm.load %{{.*}} : !llvm.ptr<1> -> f16
// BIAS-NOT: llvm.load %{{.*}} : !llvm.ptr<1> -> f16
// BIAS: scf.yield
// BIAS: nvvm.mma.sync
// The output: per row of the thread, one bounds check, pairs of f16 as one
// 4-byte store.
// BIAS: scf.if
// BIAS-COUNT-8: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : i32, !llvm.ptr<1>

// In a warp-specialized kernel (here the D = 128 one of
// warp-specialize-to-nvvm.mlir) the output differs: each lane holds pairs
// of f16 (one i32 each) at columns
// 8 n + 2 q of its rows, q its lane in the quad. For every 4 such 8-column
// groups the quad transposes them, lane q taking group q whole: a swap of
// the off-diagonal 2 x 2 blocks with lane q ^ 2, sending the two pairs the
// partner needs (which two: the lane's bit 1), then of the off-diagonal
// pairs with lane q ^ 1. Then per row of the thread one bounds check and
// 16-byte stores, none of 4 bytes. (Kernels without a producer keep
// the 4-byte stores above: the exchange's registers cost the 128 x 128
// D = 64 kernel its second CTA per SM.)
// WS: llvm.call_intrinsic "llvm.nvvm.lg2.approx.f"
// WS: %[[B2:.+]] = arith.andi %[[Q:.+]], %c2_i32{{.*}} : i32
// WS-NEXT: %[[HI:.+]] = arith.cmpi ne, %[[B2]], %c0_i32{{.*}} : i32
// WS-NEXT: %[[S0:.+]] = arith.select %[[HI]], %[[A0:.+]], %[[A2:.+]] : i32
// WS-NEXT: %[[S1:.+]] = arith.select %[[HI]], %[[A1:.+]], %[[A3:.+]] : i32
// WS: %[[G0:.+]], %{{.*}} = gpu.shuffle  xor %[[S0]], %c2_i32
// WS: %[[G1:.+]], %{{.*}} = gpu.shuffle  xor %[[S1]], %c2_i32
// WS-NEXT: %[[M0:.+]] = arith.select %[[HI]], %[[G0]], %[[A0]] : i32
// WS-NEXT: %[[M1:.+]] = arith.select %[[HI]], %[[G1]], %[[A1]] : i32
// WS-NEXT: %[[M2:.+]] = arith.select %[[HI]], %[[A2]], %[[G0]] : i32
// WS-NEXT: %[[M3:.+]] = arith.select %[[HI]], %[[A3]], %[[G1]] : i32
// WS: %[[B1:.+]] = arith.andi %[[Q]], %c1_i32{{.*}} : i32
// WS-NEXT: %[[LO:.+]] = arith.cmpi ne, %[[B1]], %c0_i32{{.*}} : i32
// WS-NEXT: %[[T0:.+]] = arith.select %[[LO]], %[[M0]], %[[M1]] : i32
// WS-NEXT: %[[T1:.+]] = arith.select %[[LO]], %[[M2]], %[[M3]] : i32
// WS: %[[H0:.+]], %{{.*}} = gpu.shuffle  xor %[[T0]], %c1_i32
// WS: %[[H1:.+]], %{{.*}} = gpu.shuffle  xor %[[T1]], %c1_i32
// WS-NEXT: %[[F0:.+]] = arith.select %[[LO]], %[[H0]], %[[M0]] : i32
// WS-NEXT: %[[F2:.+]] = arith.select %[[LO]], %[[H1]], %[[M2]] : i32
// WS-NEXT: %[[F1:.+]] = arith.select %[[LO]], %[[M1]], %[[H0]] : i32
// WS-NEXT: %[[F3:.+]] = arith.select %[[LO]], %[[M3]], %[[H1]] : i32
// WS: llvm.insertelement %[[F0]], %{{.*}}[%c0_i32{{.*}} : i32] : vector<4xi32>
// WS: llvm.insertelement %[[F1]], %{{.*}}[%c1_i32{{.*}} : i32] : vector<4xi32>
// WS: llvm.insertelement %[[F2]], %{{.*}}[%c2_i32{{.*}} : i32] : vector<4xi32>
// WS: llvm.insertelement %[[F3]], %{{.*}}[%c3_i32{{.*}} : i32] : vector<4xi32>
// WS: scf.if
// WS-COUNT-4: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<1>
// WS: scf.if
// WS-COUNT-4: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<1>
// WS-NOT: llvm.store %{{.*}} : i32, !llvm.ptr<1>

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
