// RUN: attn-opt %s -split-input-file -verify-diagnostics

// One case per verifier and parser error of the tile-level ops.

//===----------------------------------------------------------------------===//
// attn.program and attn.kv_range
//===----------------------------------------------------------------------===//

func.func @program_one_id(%g: index) {
  // expected-error @+1 {{expected two program ids and two grid sizes}}
  attn.program (%m) in (%g, %g) {
  }
  return
}

// -----

// A persistent body loops over the tiles itself: there is no program
// instance whose ids it could use.
func.func @persistent_uses_ids(%g: index) {
  // expected-error @+1 {{is persistent (its body loops over the tiles itself) but uses its program ids}}
  attn.program (%m, %bh) in (%g, %g) attributes {persistent} {
    %0 = arith.addi %m, %bh : index
  }
  return
}

// -----

func.func @program_body_one_arg(%g: index) {
  // expected-error @+1 {{body must take two index program ids}}
  "attn.program"(%g, %g) <{roles = []}> ({
  ^bb0(%m: index):
  }) : (index, index) -> ()
  return
}

// -----

func.func @program_body_arg_type(%g: index) {
  // expected-error @+1 {{body must take two index program ids}}
  "attn.program"(%g, %g) <{roles = []}> ({
  ^bb0(%m: index, %bh: i32):
  }) : (index, index) -> ()
  return
}

// -----

func.func @program_no_block(%g: index) {
  // expected-error @+1 {{region #0 ('body') failed to verify constraint: region with 1 blocks}}
  "attn.program"(%g, %g) <{roles = []}> ({
  }) : (index, index) -> ()
  return
}

// -----

func.func @program_unknown_role(%g: index, %b: memref<?xf32>) {
  // expected-error @+1 {{unknown buffer role 'x' (expected q, k, v, o, lse, bias, alibi_slopes, input or output)}}
  attn.program (%m, %bh) in (%g, %g) buffers(x = %b : memref<?xf32>) {
  }
  return
}

// -----

func.func @program_role_twice(%g: index, %b: memref<?xf32>) {
  // expected-error @+1 {{lists two buffers with role 'q'}}
  attn.program (%m, %bh) in (%g, %g) buffers(q = %b : memref<?xf32>, q = %b : memref<?xf32>) {
  }
  return
}

// -----

func.func @program_unlisted_buffer(%g: index, %b: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  attn.program (%m, %bh) in (%g, %g) {
    // expected-error @+1 {{'memref.load' op uses a memref from outside the enclosing attn.program that is not one of its buffers}}
    %x = memref.load %b[%c0] : memref<?xf32>
  }
  return
}

// -----

func.func @program_roles_count(%g: index, %b: memref<?xf32>) {
  // expected-error @+1 {{has 1 buffers but 0 roles}}
  "attn.program"(%g, %g, %b) <{roles = []}> ({
  ^bb0(%m: index, %bh: index):
  }) : (index, index, memref<?xf32>) -> ()
  return
}

// -----

func.func @kv_range_block_m(%r: index) {
  // expected-error @+1 {{attribute 'block_m' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive}}
  %lo, %hi = attn.kv_range visible %r, %r, %r {block_m = 0 : i64, block_n = 64 : i64, mask = #attn.mask<none>}
  return
}

// -----

func.func @kv_range_kind(%r: index) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'kind' [visible, unmasked, hidden]}}
  %lo, %hi = attn.kv_range everything %r, %r, %r {block_m = 64 : i64, block_n = 64 : i64, mask = #attn.mask<none>}
  return
}

// -----

func.func @kv_range_no_mask(%r: index) {
  // expected-error @+1 {{requires attribute 'mask'}}
  %lo, %hi = attn.kv_range visible %r, %r, %r {block_m = 64 : i64, block_n = 64 : i64}
  return
}

// -----

func.func @kv_range_from_visible(%r: index) {
  // expected-error @+1 {{takes 'from' and 'to' only as an 'unmasked' or 'hidden' range with a mask_mod region}}
  %lo, %hi = attn.kv_range visible %r, %r, %r from %r to %r {block_m = 64 : i64, block_n = 64 : i64, mask = #attn.mask<none>} mask_mod(%r, %r) {
  ^bb0(%b: index, %h: index, %qi: index, %ki: index):
    %see = arith.cmpi sle, %ki, %qi : index
    attn.yield %see : i1
  }
  return
}

// -----

func.func @kv_range_mask_mod_one_index(%r: index) {
  // expected-error @+1 {{with a mask_mod region takes (batch, head), got 1 values}}
  %lo, %hi = attn.kv_range visible %r, %r, %r {block_m = 64 : i64, block_n = 64 : i64, mask = #attn.mask<none>} mask_mod(%r) {
  ^bb0(%b: index, %h: index, %qi: index, %ki: index):
    %see = arith.cmpi sle, %ki, %qi : index
    attn.yield %see : i1
  }
  return
}

// -----

func.func @kv_range_mask_mod_result(%r: index) {
  // expected-error @+1 {{'mask_mod' must end in attn.yield of one 'i1'}}
  %lo, %hi = attn.kv_range visible %r, %r, %r {block_m = 64 : i64, block_n = 64 : i64, mask = #attn.mask<none>} mask_mod(%r, %r) {
  ^bb0(%b: index, %h: index, %qi: index, %ki: index):
    attn.yield %qi : index
  }
  return
}

// -----

func.func @kv_range_mask_mod_load(%r: index, %m: memref<?xi1>) {
  %lo, %hi = attn.kv_range visible %r, %r, %r {block_m = 64 : i64, block_n = 64 : i64, mask = #attn.mask<none>} mask_mod(%r, %r) {
  ^bb0(%b: index, %h: index, %qi: index, %ki: index):
    // expected-error @+2 {{using value defined outside the region}}
    // expected-note @-3 {{required by region isolation constraints}}
    %see = memref.load %m[%ki] : memref<?xi1>
    attn.yield %see : i1
  }
  return
}

// -----

//===----------------------------------------------------------------------===//
// attn.load and attn.store
//===----------------------------------------------------------------------===//

func.func @load_index_count(%m: memref<?x?x?x64xf16>, %i: index) -> tensor<64x64xf16> {
  // expected-error @+1 {{expected 4 indices for 'memref<?x?x?x64xf16>', got 3}}
  %t = attn.load %m[%i, %i, %i] : memref<?x?x?x64xf16> -> tensor<64x64xf16>
  return %t : tensor<64x64xf16>
}

// -----

func.func @load_tile_rank(%m: memref<?x64xf16>, %i: index) -> tensor<4x64x64xf16> {
  // expected-error @+1 {{tile rank 3 must be in [1, 2] (the buffer's rank)}}
  %t = attn.load %m[%i, %i] : memref<?x64xf16> -> tensor<4x64x64xf16>
  return %t : tensor<4x64x64xf16>
}

// -----

func.func @load_tile_rank0(%m: memref<?x64xf16>, %i: index) -> tensor<f16> {
  // expected-error @+1 {{tile rank 0 must be in [1, 2] (the buffer's rank)}}
  %t = attn.load %m[%i, %i] : memref<?x64xf16> -> tensor<f16>
  return %t : tensor<f16>
}

// -----

func.func @load_element_type(%m: memref<?x64xf16>, %i: index) -> tensor<64x64xf32> {
  // expected-error @+1 {{tile element type 'f32' differs from the buffer's 'f16'}}
  %t = attn.load %m[%i, %i] : memref<?x64xf16> -> tensor<64x64xf32>
  return %t : tensor<64x64xf32>
}

// -----

func.func @load_dynamic_tile(%m: memref<?x64xf16>, %i: index) -> tensor<?x64xf16> {
  // expected-error @+1 {{result #0 must be tile of floating-point values, but got 'tensor<?x64xf16>'}}
  %t = attn.load %m[%i, %i] : memref<?x64xf16> -> tensor<?x64xf16>
  return %t : tensor<?x64xf16>
}

// -----

func.func @load_integer_tile(%m: memref<?x64xi8>, %i: index) -> tensor<64x64xi8> {
  // expected-error @+1 {{result #0 must be tile of floating-point values, but got 'tensor<64x64xi8>'}}
  %t = attn.load %m[%i, %i] : memref<?x64xi8> -> tensor<64x64xi8>
  return %t : tensor<64x64xi8>
}

// -----

func.func @store_index_count(%m: memref<?x64xf16>, %i: index, %t: tensor<64x64xf16>) {
  // expected-error @+1 {{expected 2 indices for 'memref<?x64xf16>', got 3}}
  attn.store %t, %m[%i, %i, %i] : tensor<64x64xf16>, memref<?x64xf16>
  return
}

// -----

func.func @store_tile_rank(%m: memref<?xf16>, %i: index, %t: tensor<64x64xf16>) {
  // expected-error @+1 {{tile rank 2 must be in [1, 1] (the buffer's rank)}}
  attn.store %t, %m[%i] : tensor<64x64xf16>, memref<?xf16>
  return
}

// -----

func.func @store_element_type(%m: memref<?x64xbf16>, %i: index, %t: tensor<64x64xf16>) {
  // expected-error @+1 {{tile element type 'f16' differs from the buffer's 'bf16'}}
  attn.store %t, %m[%i, %i] : tensor<64x64xf16>, memref<?x64xbf16>
  return
}

// -----

//===----------------------------------------------------------------------===//
// attn.dot and attn.mask
//===----------------------------------------------------------------------===//

func.func @dot_element_types(%a: tensor<64x16xf16>, %b: tensor<32x16xbf16>, %c: tensor<64x32xf32>) -> tensor<64x32xf32> {
  // expected-error @+1 {{operand element types differ: 'f16' vs 'bf16'}}
  %d = attn.dot %a, %b, %c transpose_b : tensor<64x16xf16>, tensor<32x16xbf16> -> tensor<64x32xf32>
  return %d : tensor<64x32xf32>
}

// -----

// Products and sums are f32: wider or narrower inputs have no lowering.
func.func @dot_f64(%a: tensor<64x16xf64>, %b: tensor<32x16xf64>, %c: tensor<64x32xf32>) -> tensor<64x32xf32> {
  // expected-error @+1 {{operand #0 must be static 2-D f16, bf16 or f32 tile or shared-memory buffer, but got 'tensor<64x16xf64>'}}
  %d = attn.dot %a, %b, %c transpose_b : tensor<64x16xf64>, tensor<32x16xf64> -> tensor<64x32xf32>
  return %d : tensor<64x32xf32>
}

// -----

func.func @dot_f8(%a: tensor<64x16xf16>, %b: tensor<32x16xf8E4M3FN>, %c: tensor<64x32xf32>) -> tensor<64x32xf32> {
  // expected-error @+1 {{operand #1 must be static 2-D f16, bf16 or f32 tile or shared-memory buffer, but got 'tensor<32x16xf8E4M3FN>'}}
  %d = attn.dot %a, %b, %c transpose_b : tensor<64x16xf16>, tensor<32x16xf8E4M3FN> -> tensor<64x32xf32>
  return %d : tensor<64x32xf32>
}

// -----

// Without transpose_b, b is [K, N]: its 32 rows do not match a's K = 16.
func.func @dot_contraction(%a: tensor<64x16xf16>, %b: tensor<32x16xf16>, %c: tensor<64x32xf32>) -> tensor<64x32xf32> {
  // expected-error @+1 {{contraction sizes differ: a has K = 16, b has K = 32}}
  %d = attn.dot %a, %b, %c : tensor<64x16xf16>, tensor<32x16xf16> -> tensor<64x32xf32>
  return %d : tensor<64x32xf32>
}

// -----

func.func @dot_acc_columns(%a: tensor<64x16xf16>, %b: tensor<32x16xf16>, %c: tensor<64x16xf32>) -> tensor<64x16xf32> {
  // expected-error @+1 {{accumulator must be 64x32, got 'tensor<64x16xf32>'}}
  %d = attn.dot %a, %b, %c transpose_b : tensor<64x16xf16>, tensor<32x16xf16> -> tensor<64x16xf32>
  return %d : tensor<64x16xf32>
}

// -----

func.func @dot_acc_rows(%a: tensor<64x16xf16>, %b: tensor<32x16xf16>, %c: tensor<32x32xf32>) -> tensor<32x32xf32> {
  // expected-error @+1 {{accumulator must be 64x32, got 'tensor<32x32xf32>'}}
  %d = attn.dot %a, %b, %c transpose_b : tensor<64x16xf16>, tensor<32x16xf16> -> tensor<32x32xf32>
  return %d : tensor<32x32xf32>
}

// -----

func.func @dot_rank(%a: tensor<4x64x16xf16>, %b: tensor<32x16xf16>, %c: tensor<64x32xf32>) -> tensor<64x32xf32> {
  // expected-error @+1 {{operand #0 must be static 2-D f16, bf16 or f32 tile or shared-memory buffer, but got 'tensor<4x64x16xf16>'}}
  %d = attn.dot %a, %b, %c transpose_b : tensor<4x64x16xf16>, tensor<32x16xf16> -> tensor<64x32xf32>
  return %d : tensor<64x32xf32>
}

// -----

func.func @dot_acc_f16(%a: tensor<64x16xf16>, %b: tensor<32x16xf16>, %c: tensor<64x32xf16>) -> tensor<64x32xf16> {
  // expected-error @+1 {{operand #2 must be static 2-D f32 tile, but got 'tensor<64x32xf16>'}}
  %d = attn.dot %a, %b, %c transpose_b : tensor<64x16xf16>, tensor<32x16xf16> -> tensor<64x32xf16>
  return %d : tensor<64x32xf16>
}

// -----

func.func @dot_acc_dynamic(%a: tensor<64x16xf16>, %b: tensor<32x16xf16>, %c: tensor<?x32xf32>) -> tensor<?x32xf32> {
  // expected-error @+1 {{operand #2 must be static 2-D f32 tile, but got 'tensor<?x32xf32>'}}
  %d = attn.dot %a, %b, %c transpose_b : tensor<64x16xf16>, tensor<32x16xf16> -> tensor<?x32xf32>
  return %d : tensor<?x32xf32>
}

// -----

func.func @mask_dynamic_scores(%s: tensor<64x?xf32>, %r: index) -> tensor<64x?xf32> {
  // expected-error @+1 {{operand #0 must be static 2-D f32 tile, but got 'tensor<64x?xf32>'}}
  %m = attn.mask %s rows %r of %r cols %r of %r {mask = #attn.mask<none>} : tensor<64x?xf32>
  return %m : tensor<64x?xf32>
}

// -----

func.func @mask_no_attr(%s: tensor<64x32xf32>, %r: index) -> tensor<64x32xf32> {
  // expected-error @+1 {{requires attribute 'mask'}}
  %m = attn.mask %s rows %r of %r cols %r of %r : tensor<64x32xf32>
  return %m : tensor<64x32xf32>
}

// -----

func.func @mask_f16_scores(%s: tensor<64x32xf16>, %r: index) -> tensor<64x32xf16> {
  // expected-error @+1 {{operand #0 must be static 2-D f32 tile, but got 'tensor<64x32xf16>'}}
  %m = attn.mask %s rows %r of %r cols %r of %r {mask = #attn.mask<none>} : tensor<64x32xf16>
  return %m : tensor<64x32xf16>
}

// -----

//===----------------------------------------------------------------------===//
// Row ops, attn.online_softmax and attn.finalize
//===----------------------------------------------------------------------===//

func.func @reduce_rows_rows(%t: tensor<64x32xf32>) -> tensor<32xf32> {
  // expected-error @+1 {{result has 32 rows but the tile has 64}}
  %r = attn.reduce_rows sum %t : tensor<64x32xf32> -> tensor<32xf32>
  return %r : tensor<32xf32>
}

// -----

// Tiles have static shapes: a dynamic dimension is rejected by the type
// constraint before any row count is compared.
func.func @reduce_rows_dynamic_input(%t: tensor<?x32xf32>) -> tensor<64xf32> {
  // expected-error @+1 {{operand #0 must be static 2-D f32 tile, but got 'tensor<?x32xf32>'}}
  %r = attn.reduce_rows sum %t : tensor<?x32xf32> -> tensor<64xf32>
  return %r : tensor<64xf32>
}

// -----

func.func @reduce_rows_all_dynamic(%t: tensor<?x?xf32>) -> tensor<?xf32> {
  // expected-error @+1 {{operand #0 must be static 2-D f32 tile, but got 'tensor<?x?xf32>'}}
  %r = attn.reduce_rows max %t : tensor<?x?xf32> -> tensor<?xf32>
  return %r : tensor<?xf32>
}

// -----

func.func @reduce_rows_dynamic_result(%t: tensor<64x32xf32>) -> tensor<?xf32> {
  // expected-error @+1 {{result #0 must be static 1-D f32 tile, but got 'tensor<?xf32>'}}
  %r = attn.reduce_rows sum %t : tensor<64x32xf32> -> tensor<?xf32>
  return %r : tensor<?xf32>
}

// -----

func.func @broadcast_rows_dynamic(%t: tensor<?xf32>) -> tensor<64x32xf32> {
  // expected-error @+1 {{operand #0 must be static 1-D f32 tile, but got 'tensor<?xf32>'}}
  %r = attn.broadcast_rows %t : tensor<?xf32> -> tensor<64x32xf32>
  return %r : tensor<64x32xf32>
}

// -----

func.func @reduce_rows_kind(%t: tensor<64x32xf32>) -> tensor<64xf32> {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'kind' [max, sum]}}
  %r = attn.reduce_rows min %t : tensor<64x32xf32> -> tensor<64xf32>
  return %r : tensor<64xf32>
}

// -----

func.func @broadcast_rows_rows(%t: tensor<32xf32>) -> tensor<64x32xf32> {
  // expected-error @+1 {{input has 32 rows but the tile has 64}}
  %r = attn.broadcast_rows %t : tensor<32xf32> -> tensor<64x32xf32>
  return %r : tensor<64x32xf32>
}

// -----

func.func @online_softmax_scores_rows(%s: tensor<64x32xf32>, %m: tensor<32xf32>, %acc: tensor<64x16xf32>) {
  // expected-error @+1 {{running max has 32 rows but the tile has 64}}
  %p, %m1, %l1, %a1 = attn.online_softmax %s, %m, %m, %acc {scale_log2e = 1.0 : f32}
      : tensor<64x32xf32>, tensor<32xf32>, tensor<64x16xf32>
  return
}

// -----

func.func @online_softmax_acc_rows(%s: tensor<64x32xf32>, %m: tensor<64xf32>, %acc: tensor<32x16xf32>) {
  // expected-error @+1 {{accumulator has 32 rows but the running max has 64}}
  %p, %m1, %l1, %a1 = attn.online_softmax %s, %m, %m, %acc {scale_log2e = 1.0 : f32}
      : tensor<64x32xf32>, tensor<64xf32>, tensor<32x16xf32>
  return
}

// -----

func.func @online_softmax_sum_type(%s: tensor<64x32xf32>, %m: tensor<64xf32>, %l: tensor<32xf32>, %acc: tensor<64x16xf32>) {
  // expected-error @+1 {{failed to verify that all of {max, sum, new_max, new_sum} have same type}}
  %p, %m1, %l1, %a1 = "attn.online_softmax"(%s, %m, %l, %acc) {scale_log2e = 1.0 : f32}
      : (tensor<64x32xf32>, tensor<64xf32>, tensor<32xf32>, tensor<64x16xf32>)
      -> (tensor<64x32xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64x16xf32>)
  return
}

// -----

func.func @online_softmax_scale(%s: tensor<64x32xf32>, %m: tensor<64xf32>, %acc: tensor<64x16xf32>) {
  // expected-error @+1 {{scale_log2e must be finite, got inf}}
  %p, %m1, %l1, %a1 = attn.online_softmax %s, %m, %m, %acc {scale_log2e = 0x7F800000 : f32}
      : tensor<64x32xf32>, tensor<64xf32>, tensor<64x16xf32>
  return
}

// -----

func.func @online_softmax_scale_nan(%s: tensor<64x32xf32>, %m: tensor<64xf32>, %acc: tensor<64x16xf32>) {
  // expected-error @+1 {{scale_log2e must be finite, got nan}}
  %p, %m1, %l1, %a1 = attn.online_softmax %s, %m, %m, %acc {scale_log2e = 0x7FC00000 : f32}
      : tensor<64x32xf32>, tensor<64xf32>, tensor<64x16xf32>
  return
}

// -----

func.func @online_softmax_bound_inf(%s: tensor<64x32xf32>, %m: tensor<64xf32>, %acc: tensor<64x16xf32>) {
  // expected-error @+1 {{max_bound must be finite, got inf}}
  %p, %m1, %l1, %a1 = attn.online_softmax %s, %m, %m, %acc {max_bound = 0x7F800000 : f32, scale_log2e = 1.0 : f32}
      : tensor<64x32xf32>, tensor<64xf32>, tensor<64x16xf32>
  return
}

// -----

func.func @online_softmax_score_bound_zero(%s: tensor<64x32xf32>, %m: tensor<64xf32>, %acc: tensor<64x16xf32>) {
  // expected-error @+1 {{score_bound must be positive and finite, got 0}}
  %p, %m1, %l1, %a1 = attn.online_softmax %s, %m, %m, %acc {scale_log2e = 1.0 : f32, score_bound = 0.0 : f32}
      : tensor<64x32xf32>, tensor<64xf32>, tensor<64x16xf32>
  return
}

// -----

func.func @finalize_rows(%m: tensor<32xf32>, %acc: tensor<64x16xf32>) {
  // expected-error @+1 {{running max has 32 rows but the tile has 64}}
  %o, %l = attn.finalize %acc, %m, %m : tensor<64x16xf32>, tensor<32xf32>
  return
}

// -----

func.func @finalize_sum_type(%m: tensor<64xf32>, %l: tensor<32xf32>, %acc: tensor<64x16xf32>) {
  // expected-error @+1 {{failed to verify that all of {max, sum, lse} have same type}}
  %o, %lse = "attn.finalize"(%acc, %m, %l)
      : (tensor<64x16xf32>, tensor<64xf32>, tensor<32xf32>) -> (tensor<64x16xf32>, tensor<64xf32>)
  return
}

// -----

func.func @online_softmax_block_max_negative_scale(%s: tensor<64x32xf32>, %m: tensor<64xf32>, %acc: tensor<64x16xf32>) {
  // expected-error @+1 {{block_max needs a positive scale_log2e, got -1}}
  %p, %m1, %l1, %a1 = attn.online_softmax %s, %m, %m, %acc block_max %m {scale_log2e = -1.0 : f32}
      : tensor<64x32xf32>, tensor<64xf32>, tensor<64x16xf32>
  return
}

// -----

func.func @online_softmax_block_max_and_bound(%s: tensor<64x32xf32>, %m: tensor<64xf32>, %acc: tensor<64x16xf32>) {
  // expected-error @+1 {{block_max and max_bound both give the row maximum}}
  %p, %m1, %l1, %a1 = attn.online_softmax %s, %m, %m, %acc block_max %m {max_bound = 4.0 : f32, scale_log2e = 1.0 : f32}
      : tensor<64x32xf32>, tensor<64xf32>, tensor<64x16xf32>
  return
}

// -----

func.func @online_softmax_block_max_type(%s: tensor<64x32xf32>, %m: tensor<64xf32>, %bm: tensor<32xf32>, %acc: tensor<64x16xf32>) {
  // expected-error @+1 {{failed to verify that block_max has the running max's type}}
  %p, %m1, %l1, %a1 = "attn.online_softmax"(%s, %m, %m, %acc, %bm) {scale_log2e = 1.0 : f32}
      : (tensor<64x32xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64x16xf32>, tensor<32xf32>)
      -> (tensor<64x32xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64x16xf32>)
  return
}

// -----

func.func @kv_range_from_no_region(%r: index) {
  // expected-error @+1 {{takes 'from' and 'to' only as an 'unmasked' or 'hidden' range with a mask_mod region}}
  %lo, %hi = attn.kv_range unmasked %r, %r, %r from %r to %r {block_m = 64 : i64, block_n = 64 : i64, mask = #attn.mask<none>}
  return
}

// -----

func.func @kv_range_hidden_no_region(%r: index) {
  // expected-error @+1 {{takes 'from' and 'to' only as an 'unmasked' or 'hidden' range with a mask_mod region}}
  %lo, %hi = attn.kv_range hidden %r, %r, %r from %r to %r {block_m = 64 : i64, block_n = 64 : i64, mask = #attn.mask<none>}
  return
}

// -----

func.func @kv_range_hidden_no_from(%r: index) {
  // expected-error @+1 {{a 'hidden' range needs a mask_mod region and 'from' and 'to'}}
  %lo, %hi = attn.kv_range hidden %r, %r, %r {block_m = 64 : i64, block_n = 64 : i64, mask = #attn.mask<none>} mask_mod(%r, %r) {
  ^bb0(%b: index, %h: index, %qi: index, %ki: index):
    %see = arith.cmpi sle, %ki, %qi : index
    attn.yield %see : i1
  }
  return
}

// -----

func.func @kv_range_from_alone(%r: index) {
  // expected-error @+1 {{takes 'from' and 'to' together}}
  %lo, %hi = "attn.kv_range"(%r, %r, %r, %r, %r, %r) <{kind = 1 : i32, block_m = 64 : i64, block_n = 64 : i64, mask = #attn.mask<none>, operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 2>}> ({
  ^bb0(%b: index, %h: index, %qi: index, %ki: index):
    %see = arith.cmpi sle, %ki, %qi : index
    attn.yield %see : i1
  }) : (index, index, index, index, index, index) -> (index, index)
  return
}

// -----

func.func @mask_mod_one_index(%s: tensor<64x64xf32>, %r: index) -> tensor<64x64xf32> {
  // expected-error @+1 {{with a mask_mod region takes (batch, head), got 3 values}}
  %m = attn.mask %s rows %r of %r cols %r of %r {mask = #attn.mask<none>} : tensor<64x64xf32> mask_mod(%r, %r, %r) {
  ^bb0(%b: index, %h: index, %qi: index, %ki: index):
    %see = arith.cmpi sle, %ki, %qi : index
    attn.yield %see : i1
  }
  return %m : tensor<64x64xf32>
}

// -----

func.func @mask_mod_result(%s: tensor<64x64xf32>, %r: index) -> tensor<64x64xf32> {
  // expected-error @+1 {{'mask_mod' must end in attn.yield of one 'i1'}}
  %m = attn.mask %s rows %r of %r cols %r of %r {mask = #attn.mask<none>} : tensor<64x64xf32> mask_mod(%r, %r) {
  ^bb0(%b: index, %h: index, %qi: index, %ki: index):
    attn.yield %qi : index
  }
  return %m : tensor<64x64xf32>
}

// -----

func.func @mask_mod_captures(%s: tensor<64x64xf32>, %r: index) -> tensor<64x64xf32> {
  // expected-note @+1 {{required by region isolation constraints}}
  %m = attn.mask %s rows %r of %r cols %r of %r {mask = #attn.mask<none>} : tensor<64x64xf32> mask_mod(%r, %r) {
  ^bb0(%b: index, %h: index, %qi: index, %ki: index):
    // expected-error @+1 {{using value defined outside the region}}
    %see = arith.cmpi sle, %ki, %r : index
    attn.yield %see : i1
  }
  return %m : tensor<64x64xf32>
}
