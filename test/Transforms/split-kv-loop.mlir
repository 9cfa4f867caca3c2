// RUN: attn-opt %s --attn-split-kv-loop | FileCheck %s
// The split loops are no longer bounded by one kv_range: a second run is a no-op.
// RUN: attn-opt %s --attn-split-kv-loop --attn-split-kv-loop | FileCheck %s

// A masked loop over the visible K/V blocks becomes three loops: masked
// blocks before the unmasked range, unmasked blocks without attn.mask, and
// masked blocks after it. The softmax state threads through all three.

// CHECK-LABEL: func.func @split
// CHECK-SAME: %[[Q:[a-zA-Z0-9_]+]]: tensor<64x16xf32>, %[[KB:[a-zA-Z0-9_]+]]: memref<?x16xf32>
// CHECK-SAME: %[[ROW0:[a-zA-Z0-9_]+]]: index, %[[NQ:[a-zA-Z0-9_]+]]: index, %[[NK:[a-zA-Z0-9_]+]]: index
// CHECK-SAME: %[[M0:[a-zA-Z0-9_]+]]: tensor<64xf32>, %[[L0:[a-zA-Z0-9_]+]]: tensor<64xf32>, %[[A0:[a-zA-Z0-9_]+]]: tensor<64x16xf32>
// CHECK: %[[C1:.+]] = arith.constant 1 : index
// CHECK: %[[LO:[a-zA-Z0-9_]+]], %[[HI:[a-zA-Z0-9_]+]] = attn.kv_range visible %[[ROW0]], %[[NQ]], %[[NK]]
// CHECK: %[[ULO:[a-zA-Z0-9_]+]], %[[UHI:[a-zA-Z0-9_]+]] = attn.kv_range unmasked %[[ROW0]], %[[NQ]], %[[NK]]
// CHECK-SAME: {block_m = 64 : i64, block_n = 32 : i64, mask = #attn.mask<window, bottom_right, left = 100, right = 3>}
// lo <= a <= b <= hi:
// CHECK: %[[T0:.+]] = arith.maxsi %[[ULO]], %[[LO]] : index
// CHECK: %[[A:.+]] = arith.minsi %[[T0]], %[[HI]] : index
// CHECK: %[[T1:.+]] = arith.maxsi %[[UHI]], %[[A]] : index
// CHECK: %[[B:.+]] = arith.minsi %[[T1]], %[[HI]] : index
//
// CHECK: %[[R0:.+]]:3 = scf.for %{{.+}} = %[[LO]] to %[[A]] step %[[C1]]
// CHECK-SAME: iter_args(%{{.+}} = %[[M0]], %{{.+}} = %[[L0]], %{{.+}} = %[[A0]])
// CHECK: %[[S0:.+]] = attn.dot
// CHECK: %[[SM0:.+]] = attn.mask %[[S0]]
// CHECK-SAME: {mask = #attn.mask<window, bottom_right, left = 100, right = 3>}
// CHECK: attn.online_softmax %[[SM0]],
// CHECK: scf.yield
//
// CHECK: %[[R1:.+]]:3 = scf.for %{{.+}} = %[[A]] to %[[B]] step %[[C1]]
// CHECK-SAME: iter_args(%{{.+}} = %[[R0]]#0, %{{.+}} = %[[R0]]#1, %{{.+}} = %[[R0]]#2)
// CHECK-NOT: attn.mask
// CHECK: %[[S1:.+]] = attn.dot
// CHECK-NOT: attn.mask
// CHECK: attn.online_softmax %[[S1]],
// CHECK-NOT: attn.mask
// CHECK: scf.yield
// CHECK-NOT: attn.mask
//
// CHECK: %[[R2:.+]]:3 = scf.for %{{.+}} = %[[B]] to %[[HI]] step %[[C1]]
// CHECK-SAME: iter_args(%{{.+}} = %[[R1]]#0, %{{.+}} = %[[R1]]#1, %{{.+}} = %[[R1]]#2)
// CHECK: %[[S2:.+]] = attn.dot
// CHECK: %[[SM2:.+]] = attn.mask %[[S2]]
// CHECK: attn.online_softmax %[[SM2]],
// CHECK: scf.yield
// CHECK-NOT: scf.for
// CHECK: return %[[R2]]#0, %[[R2]]#1, %[[R2]]#2
func.func @split(%q: tensor<64x16xf32>, %kbuf: memref<?x16xf32>, %row0: index, %nq: index, %nk: index,
                 %m0: tensor<64xf32>, %l0: tensor<64xf32>, %a0: tensor<64x16xf32>)
    -> (tensor<64xf32>, tensor<64xf32>, tensor<64x16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %z = arith.constant dense<0.0> : tensor<64x32xf32>
  %lo, %hi = attn.kv_range visible %row0, %nq, %nk
      {block_m = 64 : i64, block_n = 32 : i64, mask = #attn.mask<window, bottom_right, left = 100, right = 3>}
  %r:3 = scf.for %j = %lo to %hi step %c1 iter_args(%m = %m0, %l = %l0, %acc = %a0)
      -> (tensor<64xf32>, tensor<64xf32>, tensor<64x16xf32>) {
    %col0 = arith.muli %j, %c32 : index
    %k = attn.load %kbuf[%col0, %c0] : memref<?x16xf32> -> tensor<32x16xf32>
    %s = attn.dot %q, %k, %z transpose_b : tensor<64x16xf32>, tensor<32x16xf32> -> tensor<64x32xf32>
    %sm = attn.mask %s rows %row0 of %nq cols %col0 of %nk
        {mask = #attn.mask<window, bottom_right, left = 100, right = 3>} : tensor<64x32xf32>
    %p, %m1, %l1, %a1 = attn.online_softmax %sm, %m, %l, %acc {scale_log2e = 1.0 : f32}
        : tensor<64x32xf32>, tensor<64xf32>, tensor<64x16xf32>
    %a2 = attn.dot %p, %k, %a1 : tensor<64x32xf32>, tensor<32x16xf32> -> tensor<64x16xf32>
    scf.yield %m1, %l1, %a2 : tensor<64xf32>, tensor<64xf32>, tensor<64x16xf32>
  }
  return %r#0, %r#1, %r#2 : tensor<64xf32>, tensor<64xf32>, tensor<64x16xf32>
}

// Inside a tile program, as attn-tile leaves it (one loop per program).
// CHECK-LABEL: func.func @in_program
// CHECK: attn.program
// CHECK: attn.kv_range visible
// CHECK: attn.kv_range unmasked
// CHECK-SAME: mask = #attn.mask<causal, top_left>
// CHECK-COUNT-3: scf.for
// CHECK-NOT: scf.for
// CHECK: return
func.func @in_program(%kbuf: memref<?x16xf32>, %nq: index, %nk: index, %gm: index, %gbh: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %m0 = arith.constant dense<0.0> : tensor<64xf32>
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  attn.program (%m, %bh) in (%gm, %gbh) buffers(k = %kbuf : memref<?x16xf32>) {
    %row0 = arith.muli %m, %c64 : index
    %lo, %hi = attn.kv_range visible %row0, %nq, %nk
        {block_m = 64 : i64, block_n = 64 : i64, mask = #attn.mask<causal, top_left>}
    %r = scf.for %j = %lo to %hi step %c1 iter_args(%s = %m0) -> (tensor<64xf32>) {
      %col0 = arith.muli %j, %c64 : index
      %k = attn.load %kbuf[%col0, %c0] : memref<?x16xf32> -> tensor<64x16xf32>
      %sc = attn.dot %k, %k, %z transpose_b : tensor<64x16xf32>, tensor<64x16xf32> -> tensor<64x64xf32>
      %sm = attn.mask %sc rows %row0 of %nq cols %col0 of %nk
          {mask = #attn.mask<causal, top_left>} : tensor<64x64xf32>
      %mx = attn.reduce_rows max %sm : tensor<64x64xf32> -> tensor<64xf32>
      scf.yield %mx : tensor<64xf32>
    }
    attn.store %r, %kbuf[%row0, %c0] : tensor<64xf32>, memref<?x16xf32>
  }
  return
}

// Loops the pass must leave alone: bounds not (both) from one visible
// kv_range, or no attn.mask to remove.
// CHECK-LABEL: func.func @left_alone
// CHECK: attn.kv_range visible
// CHECK-NEXT: attn.kv_range unmasked
// CHECK-NEXT: scf.for
// CHECK-COUNT-4: scf.for
// CHECK-NOT: scf.for
// CHECK: return
func.func @left_alone(%s: tensor<64x32xf32>, %row0: index, %nq: index, %nk: index,
                      %n: index, %init: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %lo, %hi = attn.kv_range visible %row0, %nq, %nk
      {block_m = 64 : i64, block_n = 32 : i64, mask = #attn.mask<causal, top_left>}
  %ulo, %uhi = attn.kv_range unmasked %row0, %nq, %nk
      {block_m = 64 : i64, block_n = 32 : i64, mask = #attn.mask<causal, top_left>}
  // Constant bounds.
  %r0 = scf.for %j = %c0 to %n step %c1 iter_args(%t = %init) -> (tensor<64x32xf32>) {
    %m = attn.mask %t rows %row0 of %nq cols %j of %nk {mask = #attn.mask<causal, top_left>} : tensor<64x32xf32>
    scf.yield %m : tensor<64x32xf32>
  }
  // Bounded by the unmasked range.
  %r1 = scf.for %j = %ulo to %uhi step %c1 iter_args(%t = %r0) -> (tensor<64x32xf32>) {
    %m = attn.mask %t rows %row0 of %nq cols %j of %nk {mask = #attn.mask<causal, top_left>} : tensor<64x32xf32>
    scf.yield %m : tensor<64x32xf32>
  }
  // Only the lower bound comes from the visible range.
  %r2 = scf.for %j = %lo to %n step %c1 iter_args(%t = %r1) -> (tensor<64x32xf32>) {
    %m = attn.mask %t rows %row0 of %nq cols %j of %nk {mask = #attn.mask<causal, top_left>} : tensor<64x32xf32>
    scf.yield %m : tensor<64x32xf32>
  }
  // Bounds swapped.
  %r3 = scf.for %j = %hi to %lo step %c1 iter_args(%t = %r2) -> (tensor<64x32xf32>) {
    %m = attn.mask %t rows %row0 of %nq cols %j of %nk {mask = #attn.mask<causal, top_left>} : tensor<64x32xf32>
    scf.yield %m : tensor<64x32xf32>
  }
  // Visible range, but nothing to unmask.
  %r4 = scf.for %j = %lo to %hi step %c1 iter_args(%t = %r3) -> (tensor<64x32xf32>) {
    %e = math.exp2 %t : tensor<64x32xf32>
    scf.yield %e : tensor<64x32xf32>
  }
  return %r4 : tensor<64x32xf32>
}

// A step other than the constant 1 would make the peeled loops skip or
// repeat blocks at the split points: the loop is left alone.
// CHECK-LABEL: func.func @step_two
// CHECK-NOT: attn.kv_range unmasked
// CHECK: scf.for
// CHECK: attn.mask
// CHECK-NOT: scf.for
// CHECK: return
func.func @step_two(%s: tensor<64x32xf32>, %row0: index, %nq: index, %nk: index) -> tensor<64x32xf32> {
  %c32 = arith.constant 32 : index
  %c2 = arith.constant 2 : index
  %lo, %hi = attn.kv_range visible %row0, %nq, %nk
      {block_m = 64 : i64, block_n = 32 : i64, mask = #attn.mask<causal, top_left>}
  %r = scf.for %j = %lo to %hi step %c2 iter_args(%t = %s) -> (tensor<64x32xf32>) {
    %col0 = arith.muli %j, %c32 : index
    %m = attn.mask %t rows %row0 of %nq cols %col0 of %nk {mask = #attn.mask<causal, top_left>} : tensor<64x32xf32>
    scf.yield %m : tensor<64x32xf32>
  }
  return %r : tensor<64x32xf32>
}

// A step that is not a constant is not known to be 1.
// CHECK-LABEL: func.func @step_dynamic
// CHECK-NOT: attn.kv_range unmasked
// CHECK: scf.for
// CHECK: attn.mask
// CHECK-NOT: scf.for
// CHECK: return
func.func @step_dynamic(%s: tensor<64x32xf32>, %row0: index, %nq: index, %nk: index, %step: index) -> tensor<64x32xf32> {
  %c32 = arith.constant 32 : index
  %lo, %hi = attn.kv_range visible %row0, %nq, %nk
      {block_m = 64 : i64, block_n = 32 : i64, mask = #attn.mask<causal, top_left>}
  %r = scf.for %j = %lo to %hi step %step iter_args(%t = %s) -> (tensor<64x32xf32>) {
    %col0 = arith.muli %j, %c32 : index
    %m = attn.mask %t rows %row0 of %nq cols %col0 of %nk {mask = #attn.mask<causal, top_left>} : tensor<64x32xf32>
    scf.yield %m : tensor<64x32xf32>
  }
  return %r : tensor<64x32xf32>
}

// The unmasked range would be computed for the kv_range's mask, not for the
// one the attn.mask applies: the loop is left alone.
// CHECK-LABEL: func.func @mask_attr_mismatch
// CHECK-NOT: attn.kv_range unmasked
// CHECK: scf.for
// CHECK: attn.mask
// CHECK-SAME: #attn.mask<causal, bottom_right>
// CHECK-NOT: scf.for
// CHECK: return
func.func @mask_attr_mismatch(%s: tensor<64x32xf32>, %row0: index, %nq: index, %nk: index) -> tensor<64x32xf32> {
  %c32 = arith.constant 32 : index
  %c1 = arith.constant 1 : index
  %lo, %hi = attn.kv_range visible %row0, %nq, %nk
      {block_m = 64 : i64, block_n = 32 : i64, mask = #attn.mask<causal, top_left>}
  %r = scf.for %j = %lo to %hi step %c1 iter_args(%t = %s) -> (tensor<64x32xf32>) {
    %col0 = arith.muli %j, %c32 : index
    %m = attn.mask %t rows %row0 of %nq cols %col0 of %nk {mask = #attn.mask<causal, bottom_right>} : tensor<64x32xf32>
    scf.yield %m : tensor<64x32xf32>
  }
  return %r : tensor<64x32xf32>
}

// Every attn.mask in the body must match, not just the first one.
// CHECK-LABEL: func.func @second_mask_mismatch
// CHECK-NOT: attn.kv_range unmasked
// CHECK: scf.for
// CHECK-COUNT-2: attn.mask
// CHECK-NOT: scf.for
// CHECK: return
func.func @second_mask_mismatch(%s: tensor<64x32xf32>, %row0: index, %nq: index, %nk: index) -> tensor<64x32xf32> {
  %c32 = arith.constant 32 : index
  %c1 = arith.constant 1 : index
  %lo, %hi = attn.kv_range visible %row0, %nq, %nk
      {block_m = 64 : i64, block_n = 32 : i64, mask = #attn.mask<window, top_left, left = 8, right = 0>}
  %r = scf.for %j = %lo to %hi step %c1 iter_args(%t = %s) -> (tensor<64x32xf32>) {
    %col0 = arith.muli %j, %c32 : index
    %m0 = attn.mask %t rows %row0 of %nq cols %col0 of %nk {mask = #attn.mask<window, top_left, left = 8, right = 0>} : tensor<64x32xf32>
    %m1 = attn.mask %m0 rows %row0 of %nq cols %col0 of %nk {mask = #attn.mask<window, top_left, left = 8, right = 1>} : tensor<64x32xf32>
    scf.yield %m1 : tensor<64x32xf32>
  }
  return %r : tensor<64x32xf32>
}

// The mask must describe the same query block and sequence lengths as the
// kv_range: here its rows start elsewhere.
// CHECK-LABEL: func.func @mask_row_start_mismatch
// CHECK-NOT: attn.kv_range unmasked
// CHECK: scf.for
// CHECK: attn.mask
// CHECK-NOT: scf.for
// CHECK: return
func.func @mask_row_start_mismatch(%s: tensor<64x32xf32>, %row0: index, %row1: index, %nq: index, %nk: index) -> tensor<64x32xf32> {
  %c32 = arith.constant 32 : index
  %c1 = arith.constant 1 : index
  %lo, %hi = attn.kv_range visible %row0, %nq, %nk
      {block_m = 64 : i64, block_n = 32 : i64, mask = #attn.mask<causal, top_left>}
  %r = scf.for %j = %lo to %hi step %c1 iter_args(%t = %s) -> (tensor<64x32xf32>) {
    %col0 = arith.muli %j, %c32 : index
    %m = attn.mask %t rows %row1 of %nq cols %col0 of %nk {mask = #attn.mask<causal, top_left>} : tensor<64x32xf32>
    scf.yield %m : tensor<64x32xf32>
  }
  return %r : tensor<64x32xf32>
}

// Here the query and key counts are swapped.
// CHECK-LABEL: func.func @mask_lengths_swapped
// CHECK-NOT: attn.kv_range unmasked
// CHECK: scf.for
// CHECK: attn.mask
// CHECK-NOT: scf.for
// CHECK: return
func.func @mask_lengths_swapped(%s: tensor<64x32xf32>, %row0: index, %nq: index, %nk: index) -> tensor<64x32xf32> {
  %c32 = arith.constant 32 : index
  %c1 = arith.constant 1 : index
  %lo, %hi = attn.kv_range visible %row0, %nq, %nk
      {block_m = 64 : i64, block_n = 32 : i64, mask = #attn.mask<causal, bottom_right>}
  %r = scf.for %j = %lo to %hi step %c1 iter_args(%t = %s) -> (tensor<64x32xf32>) {
    %col0 = arith.muli %j, %c32 : index
    %m = attn.mask %t rows %row0 of %nk cols %col0 of %nq {mask = #attn.mask<causal, bottom_right>} : tensor<64x32xf32>
    scf.yield %m : tensor<64x32xf32>
  }
  return %r : tensor<64x32xf32>
}

// The mask's keys must start at j * block_n: here they start at j.
// CHECK-LABEL: func.func @mask_col_start_not_block_start
// CHECK-NOT: attn.kv_range unmasked
// CHECK: scf.for
// CHECK: attn.mask
// CHECK-NOT: scf.for
// CHECK: return
func.func @mask_col_start_not_block_start(%s: tensor<64x32xf32>, %row0: index, %nq: index, %nk: index) -> tensor<64x32xf32> {
  %c1 = arith.constant 1 : index
  %lo, %hi = attn.kv_range visible %row0, %nq, %nk
      {block_m = 64 : i64, block_n = 32 : i64, mask = #attn.mask<causal, top_left>}
  %r = scf.for %j = %lo to %hi step %c1 iter_args(%t = %s) -> (tensor<64x32xf32>) {
    %m = attn.mask %t rows %row0 of %nq cols %j of %nk {mask = #attn.mask<causal, top_left>} : tensor<64x32xf32>
    scf.yield %m : tensor<64x32xf32>
  }
  return %r : tensor<64x32xf32>
}

// The score tile must be block_m x block_n: a 64 x 64 tile under a range of
// 32-key blocks would overhang the block the range classified.
// CHECK-LABEL: func.func @mask_tile_wider_than_block
// CHECK-NOT: attn.kv_range unmasked
// CHECK: scf.for
// CHECK: attn.mask
// CHECK-NOT: scf.for
// CHECK: return
func.func @mask_tile_wider_than_block(%s: tensor<64x64xf32>, %row0: index, %nq: index, %nk: index) -> tensor<64x64xf32> {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %lo, %hi = attn.kv_range visible %row0, %nq, %nk
      {block_m = 64 : i64, block_n = 32 : i64, mask = #attn.mask<causal, top_left>}
  %r = scf.for %j = %lo to %hi step %c1 iter_args(%t = %s) -> (tensor<64x64xf32>) {
    %col0 = arith.muli %j, %c32 : index
    %m = attn.mask %t rows %row0 of %nq cols %col0 of %nk {mask = #attn.mask<causal, top_left>} : tensor<64x64xf32>
    scf.yield %m : tensor<64x64xf32>
  }
  return %r : tensor<64x64xf32>
}

// A program configured with split_kv = false keeps its one masked loop.
// CHECK-LABEL: func.func @not_split
// CHECK: attn.kv_range visible
// CHECK-NOT: attn.kv_range unmasked
// CHECK: scf.for
// CHECK: attn.mask
// CHECK-NOT: scf.for
// CHECK: return
func.func @not_split(%kbuf: memref<?x16xf32>, %nq: index, %nk: index, %gm: index, %gbh: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %m0 = arith.constant dense<0.0> : tensor<64xf32>
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  attn.program (%m, %bh) in (%gm, %gbh) buffers(k = %kbuf : memref<?x16xf32>)
      attributes {config = #attn.tile_config<block_m = 64, block_n = 64, warps = 4, stages = 1, split_kv = false>} {
    %row0 = arith.muli %m, %c64 : index
    %lo, %hi = attn.kv_range visible %row0, %nq, %nk
        {block_m = 64 : i64, block_n = 64 : i64, mask = #attn.mask<window, top_left, left = 8, right = 0>}
    %r = scf.for %j = %lo to %hi step %c1 iter_args(%s = %m0) -> (tensor<64xf32>) {
      %col0 = arith.muli %j, %c64 : index
      %k = attn.load %kbuf[%col0, %c0] : memref<?x16xf32> -> tensor<64x16xf32>
      %sc = attn.dot %k, %k, %z transpose_b : tensor<64x16xf32>, tensor<64x16xf32> -> tensor<64x64xf32>
      %sm = attn.mask %sc rows %row0 of %nq cols %col0 of %nk
          {mask = #attn.mask<window, top_left, left = 8, right = 0>} : tensor<64x64xf32>
      %mx = attn.reduce_rows max %sm : tensor<64x64xf32> -> tensor<64xf32>
      scf.yield %mx : tensor<64xf32>
    }
    attn.store %r, %kbuf[%row0, %c0] : tensor<64xf32>, memref<?x16xf32>
  }
  return
}

// A visible range that carries a mask_mod region, and masks that carry the
// same region for the same batch and head: the unmasked range carries it
// too, searching the visible blocks, and the middle loop drops
// the mask with its region. The head loop stays (a document may start
// inside a block).
// CHECK-LABEL: func.func @mask_mod_split
// CHECK-SAME: %{{[a-zA-Z0-9_]+}}: memref<?x16xf32>, %[[NQ:[a-zA-Z0-9_]+]]: index, %[[NK:[a-zA-Z0-9_]+]]: index, %[[B:[a-zA-Z0-9_]+]]: index, %[[H:[a-zA-Z0-9_]+]]: index
// CHECK: %[[LO:[a-zA-Z0-9_]+]], %[[HI:[a-zA-Z0-9_]+]] = attn.kv_range visible %[[ROW0:[a-zA-Z0-9_]+]], %[[NQ]], %[[NK]] {{.+}} mask_mod(%[[B]], %[[H]])
// CHECK: %[[ULO:[a-zA-Z0-9_]+]], %[[UHI:[a-zA-Z0-9_]+]] = attn.kv_range unmasked %[[ROW0]], %[[NQ]], %[[NK]] from %[[LO]] to %[[HI]]
// CHECK-SAME: {block_m = 64 : i64, block_n = 64 : i64, mask = #attn.mask<causal, top_left>} mask_mod(%[[B]], %[[H]]) {
// CHECK-NEXT: ^bb0(%{{.+}}: index, %{{.+}}: index, %[[QI:.+]]: index, %[[KI:.+]]: index):
// CHECK: arith.divui %[[QI]]
// CHECK: arith.divui %[[KI]]
// CHECK: attn.yield
// CHECK: %[[T0:.+]] = arith.maxsi %[[ULO]], %[[LO]] : index
// CHECK: %[[A:.+]] = arith.minsi %[[T0]], %[[HI]] : index
// CHECK: %[[T1:.+]] = arith.maxsi %[[UHI]], %[[A]] : index
// CHECK: %[[E:.+]] = arith.minsi %[[T1]], %[[HI]] : index
// CHECK: scf.for %{{.+}} = %[[LO]] to %[[A]]
// CHECK: attn.mask {{.+}} mask_mod(%[[B]], %[[H]])
// CHECK: scf.for %{{.+}} = %[[A]] to %[[E]]
// CHECK-NOT: attn.mask
// CHECK: scf.yield
// CHECK: scf.for %{{.+}} = %[[E]] to %[[HI]]
// CHECK: attn.mask {{.+}} mask_mod(%[[B]], %[[H]])
func.func @mask_mod_split(%kbuf: memref<?x16xf32>, %nq: index, %nk: index, %b: index, %h: index, %gm: index, %gbh: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %m0 = arith.constant dense<0.0> : tensor<64xf32>
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  attn.program (%m, %bh) in (%gm, %gbh) buffers(k = %kbuf : memref<?x16xf32>)
      attributes {config = #attn.tile_config<block_m = 64, block_n = 64, warps = 4, stages = 1>} {
    %row0 = arith.muli %m, %c64 : index
    %lo, %hi = attn.kv_range visible %row0, %nq, %nk
        {block_m = 64 : i64, block_n = 64 : i64, mask = #attn.mask<causal, top_left>} mask_mod(%b, %h) {
    ^bb0(%bi: index, %hi_: index, %qi: index, %ki: index):
      %c100 = arith.constant 100 : index
      %dq = arith.divui %qi, %c100 : index
      %dk = arith.divui %ki, %c100 : index
      %same = arith.cmpi eq, %dq, %dk : index
      attn.yield %same : i1
    }
    %r = scf.for %j = %lo to %hi step %c1 iter_args(%s = %m0) -> (tensor<64xf32>) {
      %col0 = arith.muli %j, %c64 : index
      %k = attn.load %kbuf[%col0, %c0] : memref<?x16xf32> -> tensor<64x16xf32>
      %sc = attn.dot %k, %k, %z transpose_b : tensor<64x16xf32>, tensor<64x16xf32> -> tensor<64x64xf32>
      %sm = attn.mask %sc rows %row0 of %nq cols %col0 of %nk
          {mask = #attn.mask<causal, top_left>} : tensor<64x64xf32> mask_mod(%b, %h) {
      ^bb0(%bi: index, %hi_: index, %qi: index, %ki: index):
        %c100 = arith.constant 100 : index
        %dq = arith.divui %qi, %c100 : index
        %dk = arith.divui %ki, %c100 : index
        %same = arith.cmpi eq, %dq, %dk : index
        attn.yield %same : i1
      }
      %mx = attn.reduce_rows max %sm : tensor<64x64xf32> -> tensor<64xf32>
      scf.yield %mx : tensor<64xf32>
    }
    attn.store %r, %kbuf[%row0, %c0] : tensor<64xf32>, memref<?x16xf32>
  }
  return
}

// A region that may hide blocks between visible ones (sinks or a window:
// an arith.ori): an `attn.kv_range hidden` finds the run of such blocks,
// the full-block search starts after it, and the three loops count
// positions up to hi - gap, each body mapping its position to a block past
// the run. The block index, not the position, reaches the load and the mask.
// CHECK-LABEL: func.func @mask_mod_skip_hidden
// CHECK: %[[LO:[a-zA-Z0-9_]+]], %[[HI:[a-zA-Z0-9_]+]] = attn.kv_range visible
// CHECK: %[[G0:[a-zA-Z0-9_]+]], %[[G1:[a-zA-Z0-9_]+]] = attn.kv_range hidden %{{.+}} from %[[LO]] to %[[HI]]
// CHECK: arith.ori
// CHECK: attn.yield
// CHECK: %[[GAP:[a-zA-Z0-9_]+]] = arith.subi %[[G1]], %[[G0]] : index
// CHECK: %[[ZERO:[a-zA-Z0-9_]+]] = arith.constant 0 : index
// CHECK: %[[ULO:[a-zA-Z0-9_]+]], %[[UHI:[a-zA-Z0-9_]+]] = attn.kv_range unmasked %{{.+}} from %[[G1]] to %[[HI]]
// CHECK: attn.yield
// CHECK: %[[T0:[a-zA-Z0-9_]+]] = arith.maxsi %[[ULO]], %[[G1]] : index
// CHECK: %[[A:[a-zA-Z0-9_]+]] = arith.minsi %[[T0]], %[[HI]] : index
// CHECK: %[[T1:[a-zA-Z0-9_]+]] = arith.maxsi %[[UHI]], %[[A]] : index
// CHECK: %[[C:[a-zA-Z0-9_]+]] = arith.minsi %[[T1]], %[[HI]] : index
// CHECK: %[[AP:[a-zA-Z0-9_]+]] = arith.subi %[[A]], %[[GAP]] : index
// CHECK: %[[CP:[a-zA-Z0-9_]+]] = arith.subi %[[C]], %[[GAP]] : index
// CHECK: %[[END:[a-zA-Z0-9_]+]] = arith.subi %[[HI]], %[[GAP]] : index
// CHECK: scf.for %[[P0:[a-zA-Z0-9_]+]] = %[[LO]] to %[[AP]]
// CHECK-NEXT: %[[S0:[a-zA-Z0-9_]+]] = arith.cmpi sge, %[[P0]], %[[G0]] : index
// CHECK-NEXT: %[[O0:[a-zA-Z0-9_]+]] = arith.select %[[S0]], %[[GAP]], %[[ZERO]] : index
// CHECK-NEXT: %[[J0:[a-zA-Z0-9_]+]] = arith.addi %[[P0]], %[[O0]] : index
// CHECK-NEXT: %[[COL0:[a-zA-Z0-9_]+]] = arith.muli %[[J0]], %{{.+}} : index
// CHECK-NEXT: attn.load %{{.+}}[%[[COL0]], %{{.+}}]
// CHECK: attn.mask {{.+}} cols %[[COL0]] of
// CHECK: scf.for %[[P1:[a-zA-Z0-9_]+]] = %[[AP]] to %[[CP]]
// CHECK-NEXT: arith.cmpi sge, %[[P1]], %[[G0]] : index
// CHECK-NOT: attn.mask
// CHECK: scf.yield
// CHECK: scf.for %[[P2:[a-zA-Z0-9_]+]] = %[[CP]] to %[[END]]
// CHECK-NEXT: arith.cmpi sge, %[[P2]], %[[G0]] : index
// CHECK: attn.mask
func.func @mask_mod_skip_hidden(%kbuf: memref<?x16xf32>, %nq: index, %nk: index, %b: index, %h: index, %gm: index, %gbh: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %m0 = arith.constant dense<0.0> : tensor<64xf32>
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  attn.program (%m, %bh) in (%gm, %gbh) buffers(k = %kbuf : memref<?x16xf32>)
      attributes {config = #attn.tile_config<block_m = 64, block_n = 64, warps = 4, stages = 1>} {
    %row0 = arith.muli %m, %c64 : index
    %lo, %hi = attn.kv_range visible %row0, %nq, %nk
        {block_m = 64 : i64, block_n = 64 : i64, mask = #attn.mask<causal, top_left>} mask_mod(%b, %h) {
    ^bb0(%bi: index, %hi_: index, %qi: index, %ki: index):
      %c20 = arith.constant 20 : index
      %c300 = arith.constant 300 : index
      %sink = arith.cmpi ult, %ki, %c20 : index
      %back = arith.subi %qi, %ki : index
      %near = arith.cmpi sle, %back, %c300 : index
      %see = arith.ori %sink, %near : i1
      attn.yield %see : i1
    }
    %r = scf.for %j = %lo to %hi step %c1 iter_args(%s = %m0) -> (tensor<64xf32>) {
      %col0 = arith.muli %j, %c64 : index
      %k = attn.load %kbuf[%col0, %c0] : memref<?x16xf32> -> tensor<64x16xf32>
      %sc = attn.dot %k, %k, %z transpose_b : tensor<64x16xf32>, tensor<64x16xf32> -> tensor<64x64xf32>
      %sm = attn.mask %sc rows %row0 of %nq cols %col0 of %nk
          {mask = #attn.mask<causal, top_left>} : tensor<64x64xf32> mask_mod(%b, %h) {
      ^bb0(%bi: index, %hi_: index, %qi: index, %ki: index):
        %c20 = arith.constant 20 : index
        %c300 = arith.constant 300 : index
        %sink = arith.cmpi ult, %ki, %c20 : index
        %back = arith.subi %qi, %ki : index
        %near = arith.cmpi sle, %back, %c300 : index
        %see = arith.ori %sink, %near : i1
        attn.yield %see : i1
      }
      %mx = attn.reduce_rows max %sm : tensor<64x64xf32> -> tensor<64xf32>
      scf.yield %mx : tensor<64xf32>
    }
    attn.store %r, %kbuf[%row0, %c0] : tensor<64xf32>, memref<?x16xf32>
  }
  return
}

// A mask whose region is not the range's (another document length), one
// evaluated for another head, and one under a range without a region are
// not proved full by the unmasked range: those loops stay whole.
// CHECK-LABEL: func.func @mask_mod_mismatch
// CHECK-NOT: attn.kv_range unmasked
// CHECK: return
func.func @mask_mod_mismatch(%kbuf: memref<?x16xf32>, %nq: index, %nk: index, %b: index, %h: index, %h2: index, %gm: index, %gbh: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %m0 = arith.constant dense<0.0> : tensor<64xf32>
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  attn.program (%m, %bh) in (%gm, %gbh) buffers(k = %kbuf : memref<?x16xf32>)
      attributes {config = #attn.tile_config<block_m = 64, block_n = 64, warps = 4, stages = 1>} {
    %row0 = arith.muli %m, %c64 : index
    %lo, %hi = attn.kv_range visible %row0, %nq, %nk
        {block_m = 64 : i64, block_n = 64 : i64, mask = #attn.mask<none>} mask_mod(%b, %h) {
    ^bb0(%bi: index, %hi_: index, %qi: index, %ki: index):
      %c100 = arith.constant 100 : index
      %dq = arith.divui %qi, %c100 : index
      %dk = arith.divui %ki, %c100 : index
      %same = arith.cmpi eq, %dq, %dk : index
      attn.yield %same : i1
    }
    %r = scf.for %j = %lo to %hi step %c1 iter_args(%s = %m0) -> (tensor<64xf32>) {
      %col0 = arith.muli %j, %c64 : index
      %k = attn.load %kbuf[%col0, %c0] : memref<?x16xf32> -> tensor<64x16xf32>
      %sc = attn.dot %k, %k, %z transpose_b : tensor<64x16xf32>, tensor<64x16xf32> -> tensor<64x64xf32>
      %sm = attn.mask %sc rows %row0 of %nq cols %col0 of %nk
          {mask = #attn.mask<none>} : tensor<64x64xf32> mask_mod(%b, %h) {
      ^bb0(%bi: index, %hi_: index, %qi: index, %ki: index):
        %c200 = arith.constant 200 : index
        %dq = arith.divui %qi, %c200 : index
        %dk = arith.divui %ki, %c200 : index
        %same = arith.cmpi eq, %dq, %dk : index
        attn.yield %same : i1
      }
      %mx = attn.reduce_rows max %sm : tensor<64x64xf32> -> tensor<64xf32>
      scf.yield %mx : tensor<64xf32>
    }
    %r2 = scf.for %j = %lo to %hi step %c1 iter_args(%s = %r) -> (tensor<64xf32>) {
      %col0 = arith.muli %j, %c64 : index
      %k = attn.load %kbuf[%col0, %c0] : memref<?x16xf32> -> tensor<64x16xf32>
      %sc = attn.dot %k, %k, %z transpose_b : tensor<64x16xf32>, tensor<64x16xf32> -> tensor<64x64xf32>
      %sm = attn.mask %sc rows %row0 of %nq cols %col0 of %nk
          {mask = #attn.mask<none>} : tensor<64x64xf32> mask_mod(%b, %h2) {
      ^bb0(%bi: index, %hi_: index, %qi: index, %ki: index):
        %c100 = arith.constant 100 : index
        %dq = arith.divui %qi, %c100 : index
        %dk = arith.divui %ki, %c100 : index
        %same = arith.cmpi eq, %dq, %dk : index
        attn.yield %same : i1
      }
      %mx = attn.reduce_rows max %sm : tensor<64x64xf32> -> tensor<64xf32>
      scf.yield %mx : tensor<64xf32>
    }
    %lo3, %hi3 = attn.kv_range visible %row0, %nq, %nk
        {block_m = 64 : i64, block_n = 64 : i64, mask = #attn.mask<none>}
    %r3 = scf.for %j = %lo3 to %hi3 step %c1 iter_args(%s = %r2) -> (tensor<64xf32>) {
      %col0 = arith.muli %j, %c64 : index
      %k = attn.load %kbuf[%col0, %c0] : memref<?x16xf32> -> tensor<64x16xf32>
      %sc = attn.dot %k, %k, %z transpose_b : tensor<64x16xf32>, tensor<64x16xf32> -> tensor<64x64xf32>
      %sm = attn.mask %sc rows %row0 of %nq cols %col0 of %nk
          {mask = #attn.mask<none>} : tensor<64x64xf32> mask_mod(%b, %h) {
      ^bb0(%bi: index, %hi_: index, %qi: index, %ki: index):
        %c100 = arith.constant 100 : index
        %dq = arith.divui %qi, %c100 : index
        %dk = arith.divui %ki, %c100 : index
        %same = arith.cmpi eq, %dq, %dk : index
        attn.yield %same : i1
      }
      %mx = attn.reduce_rows max %sm : tensor<64x64xf32> -> tensor<64xf32>
      scf.yield %mx : tensor<64xf32>
    }
    attn.store %r3, %kbuf[%row0, %c0] : tensor<64xf32>, memref<?x16xf32>
  }
  return
}
