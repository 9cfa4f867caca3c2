// RUN: attn-opt %s --convert-attn-tile-to-linalg | FileCheck %s
// RUN: attn-opt %s --convert-attn-tile-to-linalg | FileCheck %s --check-prefix=NO-ATTN

// Nothing of the attn dialect is left.
// NO-ATTN-NOT: attn.

// The CPU lowering of the tile level. The pass runs a greedy rewrite, so the
// index arithmetic below is checked after folding.

// The indexing maps of the linalg.generic ops (printed up front):
// CHECK-DAG: #[[$MAP_MK:.+]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[$MAP_NK:.+]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG: #[[$MAP_KN:.+]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-DAG: #[[$MAP_MN:.+]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG: #[[$MAP_ID:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[$MAP_ROW:.+]] = affine_map<(d0, d1) -> (d0)>

//===----------------------------------------------------------------------===//
// attn.kv_range: rows [r0, r1 - 1] with r1 = min(r0 + block_m, Nq) see the
// keys [lo(r0), hi(r1 - 1)]; all of them see [lo(r1 - 1), hi(r0)].
//===----------------------------------------------------------------------===//

// No mask: visible = [0, ceildiv(Nk, block_n)) (empty when Nk <= 0).
// CHECK-LABEL: func.func @kv_range_visible_none
// CHECK-SAME: %[[R0:[a-zA-Z0-9_]+]]: index, %[[NQ:[a-zA-Z0-9_]+]]: index, %[[NK:[a-zA-Z0-9_]+]]: index
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG: %[[C32:.+]] = arith.constant 32 : index
// CHECK-DAG: %[[EMPTY:.+]] = arith.cmpi sle, %[[NK]], %[[C0]] : index
// CHECK-DAG: %[[CEIL:.+]] = arith.ceildivsi %[[NK]], %[[C32]] : index
// CHECK: %[[HI:.+]] = arith.select %[[EMPTY]], %[[C0]], %[[CEIL]] : index
// CHECK: return %[[C0]], %[[HI]]
func.func @kv_range_visible_none(%r0: index, %nq: index, %nk: index) -> (index, index) {
  %lo, %hi = attn.kv_range visible %r0, %nq, %nk
      {block_m = 64 : i64, block_n = 32 : i64, mask = #attn.mask<none>}
  return %lo, %hi : index, index
}

// No mask: unmasked = the whole blocks, [0, floordiv(Nk, block_n)).
// CHECK-LABEL: func.func @kv_range_unmasked_none
// CHECK-SAME: %[[R0:[a-zA-Z0-9_]+]]: index, %[[NQ:[a-zA-Z0-9_]+]]: index, %[[NK:[a-zA-Z0-9_]+]]: index
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG: %[[C32:.+]] = arith.constant 32 : index
// CHECK: %[[HI:.+]] = arith.floordivsi %[[NK]], %[[C32]] : index
// CHECK: return %[[C0]], %[[HI]]
func.func @kv_range_unmasked_none(%r0: index, %nq: index, %nk: index) -> (index, index) {
  %lo, %hi = attn.kv_range unmasked %r0, %nq, %nk
      {block_m = 64 : i64, block_n = 32 : i64, mask = #attn.mask<none>}
  return %lo, %hi : index, index
}

// Causal, top-left: the last row r1 - 1 sees keys up to r1 - 1, so
// visible = [0, ceildiv(min(r1, Nk), block_n)).
// CHECK-LABEL: func.func @kv_range_visible_causal
// CHECK-SAME: %[[R0:[a-zA-Z0-9_]+]]: index, %[[NQ:[a-zA-Z0-9_]+]]: index, %[[NK:[a-zA-Z0-9_]+]]: index
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG: %[[C32:.+]] = arith.constant 32 : index
// CHECK-DAG: %[[C64:.+]] = arith.constant 64 : index
// CHECK: %[[END0:.+]] = arith.addi %[[R0]], %[[C64]] : index
// CHECK: %[[R1:.+]] = arith.minsi %[[END0]], %[[NQ]] : index
// CHECK: %[[END:.+]] = arith.minsi %[[R1]], %[[NK]] : index
// CHECK: %[[EMPTY:.+]] = arith.cmpi sle, %[[END]], %[[C0]] : index
// CHECK: %[[CEIL:.+]] = arith.ceildivsi %[[END]], %[[C32]] : index
// CHECK: %[[HI:.+]] = arith.select %[[EMPTY]], %[[C0]], %[[CEIL]] : index
// CHECK: return %[[C0]], %[[HI]]
func.func @kv_range_visible_causal(%r0: index, %nq: index, %nk: index) -> (index, index) {
  %lo, %hi = attn.kv_range visible %r0, %nq, %nk
      {block_m = 64 : i64, block_n = 32 : i64, mask = #attn.mask<causal, top_left>}
  return %lo, %hi : index, index
}

// Causal, bottom-right: the diagonal moves by Nk - Nq, and the unmasked
// blocks end where the first row's keys end: floordiv(min(r0 + Nk - Nq + 1, Nk), block_n).
// CHECK-LABEL: func.func @kv_range_unmasked_causal_bottom_right
// CHECK-SAME: %[[R0:[a-zA-Z0-9_]+]]: index, %[[NQ:[a-zA-Z0-9_]+]]: index, %[[NK:[a-zA-Z0-9_]+]]: index
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG: %[[C32:.+]] = arith.constant 32 : index
// CHECK: %[[SHIFT:.+]] = arith.subi %[[NK]], %[[NQ]] : index
// CHECK: %[[DIAG:.+]] = arith.addi %[[R0]], %[[SHIFT]] : index
// CHECK: %[[END0:.+]] = arith.addi %[[DIAG]], %[[C1]] : index
// CHECK: %[[END:.+]] = arith.minsi %[[END0]], %[[NK]] : index
// CHECK: %[[HI:.+]] = arith.floordivsi %[[END]], %[[C32]] : index
// CHECK: return %[[C0]], %[[HI]]
func.func @kv_range_unmasked_causal_bottom_right(%r0: index, %nq: index, %nk: index) -> (index, index) {
  %lo, %hi = attn.kv_range unmasked %r0, %nq, %nk
      {block_m = 64 : i64, block_n = 32 : i64, mask = #attn.mask<causal, bottom_right>}
  return %lo, %hi : index, index
}

// Window, bottom-right: the first visible key is max(r0 + Nk - Nq - left, 0)
// and the range is empty when it is not below the end.
// CHECK-LABEL: func.func @kv_range_visible_window_bottom_right
// CHECK-SAME: %[[R0:[a-zA-Z0-9_]+]]: index, %[[NQ:[a-zA-Z0-9_]+]]: index, %[[NK:[a-zA-Z0-9_]+]]: index
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG: %[[C6:.+]] = arith.constant 6 : index
// CHECK-DAG: %[[C32:.+]] = arith.constant 32 : index
// CHECK-DAG: %[[C64:.+]] = arith.constant 64 : index
// CHECK-DAG: %[[C100:.+]] = arith.constant 100 : index
// CHECK: %[[END0:.+]] = arith.addi %[[R0]], %[[C64]] : index
// CHECK: %[[R1:.+]] = arith.minsi %[[END0]], %[[NQ]] : index
// CHECK: %[[RLAST:.+]] = arith.subi %[[R1]], %[[C1]] : index
// CHECK: %[[SHIFT:.+]] = arith.subi %[[NK]], %[[NQ]] : index
// CHECK: %[[DIAG0:.+]] = arith.addi %[[R0]], %[[SHIFT]] : index
// CHECK: %[[FIRST0:.+]] = arith.subi %[[DIAG0]], %[[C100]] : index
// CHECK: %[[FIRST:.+]] = arith.maxsi %[[FIRST0]], %[[C0]] : index
// CHECK: %[[SHIFT2:.+]] = arith.subi %[[NK]], %[[NQ]] : index
// CHECK: %[[DIAG1:.+]] = arith.addi %[[RLAST]], %[[SHIFT2]] : index
// CHECK: %[[END1:.+]] = arith.addi %[[DIAG1]], %[[C6]] : index
// CHECK: %[[END:.+]] = arith.minsi %[[END1]], %[[NK]] : index
// CHECK: %[[LO:.+]] = arith.floordivsi %[[FIRST]], %[[C32]] : index
// CHECK: %[[EMPTY:.+]] = arith.cmpi sle, %[[END]], %[[FIRST]] : index
// CHECK: %[[CEIL:.+]] = arith.ceildivsi %[[END]], %[[C32]] : index
// CHECK: %[[HI:.+]] = arith.select %[[EMPTY]], %[[LO]], %[[CEIL]] : index
// CHECK: return %[[LO]], %[[HI]]
func.func @kv_range_visible_window_bottom_right(%r0: index, %nq: index, %nk: index) -> (index, index) {
  %lo, %hi = attn.kv_range visible %r0, %nq, %nk
      {block_m = 64 : i64, block_n = 32 : i64, mask = #attn.mask<window, bottom_right, left = 100, right = 5>}
  return %lo, %hi : index, index
}

// Window, top-left, unmasked: [ceildiv(max(r1 - 1 - left, 0)), floordiv(min(r0 + right + 1, Nk))).
// CHECK-LABEL: func.func @kv_range_unmasked_window
// CHECK-SAME: %[[R0:[a-zA-Z0-9_]+]]: index, %[[NQ:[a-zA-Z0-9_]+]]: index, %[[NK:[a-zA-Z0-9_]+]]: index
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG: %[[C6:.+]] = arith.constant 6 : index
// CHECK-DAG: %[[C32:.+]] = arith.constant 32 : index
// CHECK-DAG: %[[C64:.+]] = arith.constant 64 : index
// CHECK-DAG: %[[C100:.+]] = arith.constant 100 : index
// CHECK: %[[END0:.+]] = arith.addi %[[R0]], %[[C64]] : index
// CHECK: %[[R1:.+]] = arith.minsi %[[END0]], %[[NQ]] : index
// CHECK: %[[RLAST:.+]] = arith.subi %[[R1]], %[[C1]] : index
// CHECK: %[[FIRST0:.+]] = arith.subi %[[RLAST]], %[[C100]] : index
// CHECK: %[[FIRST:.+]] = arith.maxsi %[[FIRST0]], %[[C0]] : index
// CHECK: %[[END1:.+]] = arith.addi %[[R0]], %[[C6]] : index
// CHECK: %[[END:.+]] = arith.minsi %[[END1]], %[[NK]] : index
// CHECK: %[[LO:.+]] = arith.ceildivsi %[[FIRST]], %[[C32]] : index
// CHECK: %[[HI:.+]] = arith.floordivsi %[[END]], %[[C32]] : index
// CHECK: return %[[LO]], %[[HI]]
func.func @kv_range_unmasked_window(%r0: index, %nq: index, %nk: index) -> (index, index) {
  %lo, %hi = attn.kv_range unmasked %r0, %nq, %nk
      {block_m = 64 : i64, block_n = 32 : i64, mask = #attn.mask<window, top_left, left = 100, right = 5>}
  return %lo, %hi : index, index
}

//===----------------------------------------------------------------------===//
// attn.program, attn.load, attn.store
//===----------------------------------------------------------------------===//

// bh outer, m inner; the body takes the induction variables as program ids.
// CHECK-LABEL: func.func @program
// CHECK-SAME: %[[GM:[a-zA-Z0-9_]+]]: index, %[[GBH:[a-zA-Z0-9_]+]]: index, %[[BUF:[a-zA-Z0-9_]+]]: memref<?xindex>
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.+]] = arith.constant 1 : index
// CHECK: scf.for %[[BH:[a-zA-Z0-9_]+]] = %[[C0]] to %[[GBH]] step %[[C1]] {
// CHECK-NEXT: scf.for %[[M:[a-zA-Z0-9_]+]] = %[[C0]] to %[[GM]] step %[[C1]] {
// CHECK-NEXT: %[[X:.+]] = arith.subi %[[M]], %[[BH]] : index
// CHECK-NEXT: memref.store %[[X]], %[[BUF]][%[[M]]]
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NOT: attn.program
func.func @program(%gm: index, %gbh: index, %buf: memref<?xindex>) {
  attn.program (%m, %bh) in (%gm, %gbh) buffers(output = %buf : memref<?xindex>) {
    %x = arith.subi %m, %bh : index
    memref.store %x, %buf[%m] : memref<?xindex>
  }
  return
}

// A rank-2 tile of a rank-4 buffer: the leading indices pass through, the
// last two are offset by the tile indices and bounds-checked; out-of-bounds
// elements read as zero.
// CHECK-LABEL: func.func @load
// CHECK-SAME: %[[SRC:[a-zA-Z0-9_]+]]: memref<?x?x?x16xf16>, %[[B:[a-zA-Z0-9_]+]]: index, %[[H:[a-zA-Z0-9_]+]]: index, %[[R:[a-zA-Z0-9_]+]]: index, %[[C:[a-zA-Z0-9_]+]]: index
// CHECK-DAG: %[[C2:.+]] = arith.constant 2 : index
// CHECK-DAG: %[[C16:.+]] = arith.constant 16 : index
// CHECK-DAG: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f16
// CHECK: %[[T:.+]] = tensor.generate {
// CHECK-NEXT: ^bb0(%[[I:[a-zA-Z0-9_]+]]: index, %[[J:[a-zA-Z0-9_]+]]: index):
// CHECK: %[[ROW:.+]] = arith.addi %[[R]], %[[I]] : index
// CHECK: %[[NROWS:.+]] = memref.dim %[[SRC]], %[[C2]]
// CHECK: %[[ROWOK:.+]] = arith.cmpi slt, %[[ROW]], %[[NROWS]] : index
// CHECK: %[[COL:.+]] = arith.addi %[[C]], %[[J]] : index
// CHECK: %[[COLOK:.+]] = arith.cmpi slt, %[[COL]], %[[C16]] : index
// CHECK: %[[OK:.+]] = arith.andi %[[ROWOK]], %[[COLOK]] : i1
// CHECK: %[[V:.+]] = scf.if %[[OK]] -> (f16) {
// CHECK-NEXT: %[[LD:.+]] = memref.load %[[SRC]][%[[B]], %[[H]], %[[ROW]], %[[COL]]]
// CHECK-NEXT: scf.yield %[[LD]] : f16
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %[[ZERO]] : f16
// CHECK-NEXT: }
// CHECK-NEXT: tensor.yield %[[V]] : f16
// CHECK-NEXT: } : tensor<64x16xf16>
// CHECK: return %[[T]]
func.func @load(%src: memref<?x?x?x16xf16>, %b: index, %h: index, %r: index, %c: index) -> tensor<64x16xf16> {
  %t = attn.load %src[%b, %h, %r, %c] : memref<?x?x?x16xf16> -> tensor<64x16xf16>
  return %t : tensor<64x16xf16>
}

// A rank-1 tile: one loop; only in-bounds elements are written.
// CHECK-LABEL: func.func @store
// CHECK-SAME: %[[T:[a-zA-Z0-9_]+]]: tensor<64xf32>, %[[DST:[a-zA-Z0-9_]+]]: memref<?x?x?xf32>, %[[B:[a-zA-Z0-9_]+]]: index, %[[H:[a-zA-Z0-9_]+]]: index, %[[R:[a-zA-Z0-9_]+]]: index
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG: %[[C2:.+]] = arith.constant 2 : index
// CHECK-DAG: %[[C64:.+]] = arith.constant 64 : index
// CHECK: scf.for %[[I:[a-zA-Z0-9_]+]] = %[[C0]] to %[[C64]] step %[[C1]] {
// CHECK-NEXT: %[[ROW:.+]] = arith.addi %[[R]], %[[I]] : index
// CHECK-NEXT: %[[N:.+]] = memref.dim %[[DST]], %[[C2]]
// CHECK-NEXT: %[[OK:.+]] = arith.cmpi slt, %[[ROW]], %[[N]] : index
// CHECK-NEXT: scf.if %[[OK]] {
// CHECK-NEXT: %[[E:.+]] = tensor.extract %[[T]][%[[I]]] : tensor<64xf32>
// CHECK-NEXT: memref.store %[[E]], %[[DST]][%[[B]], %[[H]], %[[ROW]]]
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NOT: attn.store
func.func @store(%t: tensor<64xf32>, %dst: memref<?x?x?xf32>, %b: index, %h: index, %r: index) {
  attn.store %t, %dst[%b, %h, %r] : tensor<64xf32>, memref<?x?x?xf32>
  return
}

// A rank-2 tile: a two-deep loop nest with both trailing dims checked.
// CHECK-LABEL: func.func @store_2d
// CHECK-SAME: %[[T:[a-zA-Z0-9_]+]]: tensor<16x8xf32>, %[[DST:[a-zA-Z0-9_]+]]: memref<?x?xf32>, %[[R:[a-zA-Z0-9_]+]]: index, %[[C:[a-zA-Z0-9_]+]]: index
// CHECK: scf.for %[[I:[a-zA-Z0-9_]+]] =
// CHECK-NEXT: scf.for %[[J:[a-zA-Z0-9_]+]] =
// CHECK: %[[ROW:.+]] = arith.addi %[[R]], %[[I]] : index
// CHECK: %[[COL:.+]] = arith.addi %[[C]], %[[J]] : index
// CHECK: %[[OK:.+]] = arith.andi
// CHECK: scf.if %[[OK]] {
// CHECK-NEXT: %[[E:.+]] = tensor.extract %[[T]][%[[I]], %[[J]]] : tensor<16x8xf32>
// CHECK-NEXT: memref.store %[[E]], %[[DST]][%[[ROW]], %[[COL]]]
func.func @store_2d(%t: tensor<16x8xf32>, %dst: memref<?x?xf32>, %r: index, %c: index) {
  attn.store %t, %dst[%r, %c] : tensor<16x8xf32>, memref<?x?xf32>
  return
}

//===----------------------------------------------------------------------===//
// attn.dot, attn.mask, attn.reduce_rows, attn.broadcast_rows
//===----------------------------------------------------------------------===//

// f16 operands are extended to f32 before the multiply-add.
// CHECK-LABEL: func.func @dot_transpose_b_f16
// CHECK-SAME: %[[A:[a-zA-Z0-9_]+]]: tensor<64x16xf16>, %[[B:[a-zA-Z0-9_]+]]: tensor<32x16xf16>, %[[ACC:[a-zA-Z0-9_]+]]: tensor<64x32xf32>
// CHECK: %[[D:.+]] = linalg.generic
// CHECK-SAME: indexing_maps = [#[[$MAP_MK]], #[[$MAP_NK]], #[[$MAP_MN]]]
// CHECK-SAME: iterator_types = ["parallel", "parallel", "reduction"]
// CHECK-SAME: ins(%[[A]], %[[B]] : tensor<64x16xf16>, tensor<32x16xf16>) outs(%[[ACC]] : tensor<64x32xf32>)
// CHECK-NEXT: ^bb0(%[[X:[a-zA-Z0-9_]+]]: f16, %[[Y:[a-zA-Z0-9_]+]]: f16, %[[O:[a-zA-Z0-9_]+]]: f32):
// CHECK-NEXT: %[[XF:.+]] = arith.extf %[[X]] : f16 to f32
// CHECK-NEXT: %[[YF:.+]] = arith.extf %[[Y]] : f16 to f32
// CHECK-NEXT: %[[P:.+]] = arith.mulf %[[XF]], %[[YF]] : f32
// CHECK-NEXT: %[[S:.+]] = arith.addf %[[O]], %[[P]] : f32
// CHECK-NEXT: linalg.yield %[[S]] : f32
// CHECK: return %[[D]]
func.func @dot_transpose_b_f16(%a: tensor<64x16xf16>, %b: tensor<32x16xf16>, %acc: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %d = attn.dot %a, %b, %acc transpose_b : tensor<64x16xf16>, tensor<32x16xf16> -> tensor<64x32xf32>
  return %d : tensor<64x32xf32>
}

// CHECK-LABEL: func.func @dot_bf16
// CHECK: linalg.generic
// CHECK-SAME: indexing_maps = [#[[$MAP_MK]], #[[$MAP_KN]], #[[$MAP_MN]]]
// CHECK: arith.extf %{{.+}} : bf16 to f32
// CHECK: arith.extf %{{.+}} : bf16 to f32
func.func @dot_bf16(%a: tensor<64x32xbf16>, %b: tensor<32x16xbf16>, %acc: tensor<64x16xf32>) -> tensor<64x16xf32> {
  %d = attn.dot %a, %b, %acc : tensor<64x32xbf16>, tensor<32x16xbf16> -> tensor<64x16xf32>
  return %d : tensor<64x16xf32>
}

// A guarded product selects between the product and the accumulator.
// CHECK-LABEL: func.func @dot_guarded
// CHECK-SAME: %[[ACC:[a-zA-Z0-9_]+]]: tensor<64x16xf32>, %[[P:[a-zA-Z0-9_]+]]: i1
// CHECK: %[[D:.+]] = linalg.generic
// CHECK: %[[R:.+]] = arith.select %[[P]], %[[D]], %[[ACC]] : tensor<64x16xf32>
// CHECK: return %[[R]]
func.func @dot_guarded(%a: tensor<64x32xbf16>, %b: tensor<32x16xbf16>, %acc: tensor<64x16xf32>, %p: i1) -> tensor<64x16xf32> {
  %d = attn.dot %a, %b, %acc if %p : tensor<64x32xbf16>, tensor<32x16xbf16> -> tensor<64x16xf32>
  return %d : tensor<64x16xf32>
}

// b is [K, N] without transpose_b; f32 operands need no extension.
// CHECK-LABEL: func.func @dot_f32
// CHECK-SAME: %[[A:[a-zA-Z0-9_]+]]: tensor<64x32xf32>, %[[B:[a-zA-Z0-9_]+]]: tensor<32x16xf32>, %[[ACC:[a-zA-Z0-9_]+]]: tensor<64x16xf32>
// CHECK: linalg.generic
// CHECK-SAME: indexing_maps = [#[[$MAP_MK]], #[[$MAP_KN]], #[[$MAP_MN]]]
// CHECK-SAME: iterator_types = ["parallel", "parallel", "reduction"]
// CHECK-SAME: ins(%[[A]], %[[B]] : tensor<64x32xf32>, tensor<32x16xf32>) outs(%[[ACC]] : tensor<64x16xf32>)
// CHECK-NOT: arith.extf
// CHECK: arith.mulf
// CHECK-NEXT: arith.addf
func.func @dot_f32(%a: tensor<64x32xf32>, %b: tensor<32x16xf32>, %acc: tensor<64x16xf32>) -> tensor<64x16xf32> {
  %d = attn.dot %a, %b, %acc : tensor<64x32xf32>, tensor<32x16xf32> -> tensor<64x16xf32>
  return %d : tensor<64x16xf32>
}

// Element (r, c) is query row0 + r, key col0 + c. Window bottom-right:
// visible iff c' < Nk and diag - left <= c' <= diag + right, diag = r' + Nk - Nq.
// CHECK-LABEL: func.func @mask_window_bottom_right
// CHECK-SAME: %[[S:[a-zA-Z0-9_]+]]: tensor<64x32xf32>, %[[R0:[a-zA-Z0-9_]+]]: index, %[[NQ:[a-zA-Z0-9_]+]]: index, %[[C0:[a-zA-Z0-9_]+]]: index, %[[NK:[a-zA-Z0-9_]+]]: index
// CHECK-DAG: %[[NEGINF:.+]] = arith.constant 0xFF800000 : f32
// CHECK-DAG: %[[C2:.+]] = arith.constant 2 : index
// CHECK-DAG: %[[C8:.+]] = arith.constant 8 : index
// CHECK-DAG: %[[INIT:.+]] = tensor.empty() : tensor<64x32xf32>
// CHECK: %[[M:.+]] = linalg.generic
// CHECK-SAME: indexing_maps = [#[[$MAP_ID]], #[[$MAP_ID]]]
// CHECK-SAME: iterator_types = ["parallel", "parallel"]
// CHECK-SAME: ins(%[[S]] : tensor<64x32xf32>) outs(%[[INIT]] : tensor<64x32xf32>)
// CHECK-NEXT: ^bb0(%[[IN:[a-zA-Z0-9_]+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: %[[I:.+]] = linalg.index 0 : index
// CHECK-NEXT: %[[ROW:.+]] = arith.addi %[[R0]], %[[I]] : index
// CHECK-NEXT: %[[J:.+]] = linalg.index 1 : index
// CHECK-NEXT: %[[COL:.+]] = arith.addi %[[C0]], %[[J]] : index
// CHECK-NEXT: %[[INB:.+]] = arith.cmpi slt, %[[COL]], %[[NK]] : index
// CHECK-NEXT: %[[SHIFT:.+]] = arith.subi %[[NK]], %[[NQ]] : index
// CHECK-NEXT: %[[DIAG:.+]] = arith.addi %[[ROW]], %[[SHIFT]] : index
// CHECK-NEXT: %[[LOK:.+]] = arith.subi %[[DIAG]], %[[C8]] : index
// CHECK-NEXT: %[[GE:.+]] = arith.cmpi sge, %[[COL]], %[[LOK]] : index
// CHECK-NEXT: %[[V1:.+]] = arith.andi %[[INB]], %[[GE]] : i1
// CHECK-NEXT: %[[HIK:.+]] = arith.addi %[[DIAG]], %[[C2]] : index
// CHECK-NEXT: %[[LE:.+]] = arith.cmpi sle, %[[COL]], %[[HIK]] : index
// CHECK-NEXT: %[[V2:.+]] = arith.andi %[[V1]], %[[LE]] : i1
// CHECK-NEXT: %[[SEL:.+]] = arith.select %[[V2]], %[[IN]], %[[NEGINF]] : f32
// CHECK-NEXT: linalg.yield %[[SEL]] : f32
// CHECK: return %[[M]]
func.func @mask_window_bottom_right(%s: tensor<64x32xf32>, %r0: index, %nq: index, %c0: index, %nk: index) -> tensor<64x32xf32> {
  %m = attn.mask %s rows %r0 of %nq cols %c0 of %nk
      {mask = #attn.mask<window, bottom_right, left = 8, right = 2>} : tensor<64x32xf32>
  return %m : tensor<64x32xf32>
}

// Causal top-left: no shift and no left bound; keys up to the diagonal.
// CHECK-LABEL: func.func @mask_causal
// CHECK-SAME: %[[S:[a-zA-Z0-9_]+]]: tensor<64x32xf32>, %[[R0:[a-zA-Z0-9_]+]]: index, %[[NQ:[a-zA-Z0-9_]+]]: index, %[[C0:[a-zA-Z0-9_]+]]: index, %[[NK:[a-zA-Z0-9_]+]]: index
// CHECK: linalg.generic
// CHECK: %[[ROW:.+]] = arith.addi %[[R0]], %{{.+}} : index
// CHECK: %[[COL:.+]] = arith.addi %[[C0]], %{{.+}} : index
// CHECK-NEXT: %[[INB:.+]] = arith.cmpi slt, %[[COL]], %[[NK]] : index
// CHECK-NOT: arith.subi
// CHECK-NOT: sge
// CHECK-NEXT: %[[LE:.+]] = arith.cmpi sle, %[[COL]], %[[ROW]] : index
// CHECK-NEXT: %[[V:.+]] = arith.andi %[[INB]], %[[LE]] : i1
// CHECK-NEXT: arith.select %[[V]]
func.func @mask_causal(%s: tensor<64x32xf32>, %r0: index, %nq: index, %c0: index, %nk: index) -> tensor<64x32xf32> {
  %m = attn.mask %s rows %r0 of %nq cols %c0 of %nk {mask = #attn.mask<causal, top_left>} : tensor<64x32xf32>
  return %m : tensor<64x32xf32>
}

// No mask: only the key bound.
// CHECK-LABEL: func.func @mask_none
// CHECK-SAME: %[[NK:[a-zA-Z0-9_]+]]: index) -> tensor<64x32xf32>
// CHECK: linalg.generic
// CHECK: %[[INB:.+]] = arith.cmpi slt, %{{.+}}, %[[NK]] : index
// CHECK-NEXT: arith.select %[[INB]]
func.func @mask_none(%s: tensor<64x32xf32>, %r0: index, %nq: index, %c0: index, %nk: index) -> tensor<64x32xf32> {
  %m = attn.mask %s rows %r0 of %nq cols %c0 of %nk {mask = #attn.mask<none>} : tensor<64x32xf32>
  return %m : tensor<64x32xf32>
}

// Reductions start from their identity (-inf for max, 0 for sum).
// CHECK-LABEL: func.func @rows
// CHECK-SAME: %[[T:[a-zA-Z0-9_]+]]: tensor<64x32xf32>
// CHECK-DAG: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG: %[[NEGINF:.+]] = arith.constant 0xFF800000 : f32
// CHECK: %[[E0:.+]] = tensor.empty() : tensor<64xf32>
// CHECK: %[[F0:.+]] = linalg.fill ins(%[[NEGINF]] : f32) outs(%[[E0]] : tensor<64xf32>)
// CHECK: %[[MAX:.+]] = linalg.generic
// CHECK-SAME: indexing_maps = [#[[$MAP_ID]], #[[$MAP_ROW]]]
// CHECK-SAME: iterator_types = ["parallel", "reduction"]
// CHECK-SAME: ins(%[[T]] : tensor<64x32xf32>) outs(%[[F0]] : tensor<64xf32>)
// CHECK-NEXT: ^bb0(%[[A:[a-zA-Z0-9_]+]]: f32, %[[B:[a-zA-Z0-9_]+]]: f32):
// CHECK-NEXT: %[[R:.+]] = arith.maximumf %[[A]], %[[B]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : f32
// CHECK: %[[E1:.+]] = tensor.empty() : tensor<64xf32>
// CHECK: %[[F1:.+]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[E1]] : tensor<64xf32>)
// CHECK: %[[SUM:.+]] = linalg.generic
// CHECK-SAME: indexing_maps = [#[[$MAP_ID]], #[[$MAP_ROW]]]
// CHECK-SAME: iterator_types = ["parallel", "reduction"]
// CHECK-SAME: ins(%[[T]] : tensor<64x32xf32>) outs(%[[F1]] : tensor<64xf32>)
// CHECK-NEXT: ^bb0(%[[A:[a-zA-Z0-9_]+]]: f32, %[[B:[a-zA-Z0-9_]+]]: f32):
// CHECK-NEXT: %[[R:.+]] = arith.addf %[[A]], %[[B]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : f32
// CHECK: %[[E2:.+]] = tensor.empty() : tensor<64x16xf32>
// CHECK: %[[BC:.+]] = linalg.generic
// CHECK-SAME: indexing_maps = [#[[$MAP_ROW]], #[[$MAP_ID]]]
// CHECK-SAME: iterator_types = ["parallel", "parallel"]
// CHECK-SAME: ins(%[[MAX]] : tensor<64xf32>) outs(%[[E2]] : tensor<64x16xf32>)
// CHECK-NEXT: ^bb0(%[[A:[a-zA-Z0-9_]+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: linalg.yield %[[A]] : f32
// CHECK: return %[[MAX]], %[[SUM]], %[[BC]]
func.func @rows(%t: tensor<64x32xf32>) -> (tensor<64xf32>, tensor<64xf32>, tensor<64x16xf32>) {
  %mx = attn.reduce_rows max %t : tensor<64x32xf32> -> tensor<64xf32>
  %sm = attn.reduce_rows sum %t : tensor<64x32xf32> -> tensor<64xf32>
  %bc = attn.broadcast_rows %mx : tensor<64xf32> -> tensor<64x16xf32>
  return %mx, %sm, %bc : tensor<64xf32>, tensor<64xf32>, tensor<64x16xf32>
}
