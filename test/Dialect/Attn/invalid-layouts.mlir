// RUN: attn-opt %s -split-input-file -verify-diagnostics

// One case per verifier error of the layouts, the shared-buffer type and the
// ops of laid-out programs.

// expected-error @+1 {{#attn.mma with 4 warps needs a row count that is a multiple of 64 (16 rows per warp and m-tile), got 32}}
func.func @mma_rows(%t: tensor<32x64xf32, #attn.mma<warps = 4>>)

// -----

// expected-error @+1 {{#attn.mma needs a column count that is a multiple of 8 (one n-tile), got 12}}
func.func @mma_cols(%t: tensor<64x12xf32, #attn.mma<warps = 4>>)

// -----

// expected-error @+1 {{#attn.mma lays out 2-D tiles, got rank 1}}
func.func @mma_rank(%t: tensor<64xf32, #attn.mma<warps = 4>>)

// -----

// expected-error @+1 {{#attn.mma needs 1 to 32 warps, got 0}}
func.func @mma_warps(%t: tensor<64x8xf32, #attn.mma<warps = 0>>)

// -----

// expected-error @+1 {{#attn.dot_operand needs a column count that is a multiple of 16 (one k-step), got 8}}
func.func @dot_operand_cols(%t: tensor<64x8xf16, #attn.dot_operand<a, #attn.mma<warps = 4>>>)

// -----

// expected-error @+1 {{#attn.rows lays out 1-D tiles, got rank 2}}
func.func @rows_rank(%t: tensor<64x8xf32, #attn.rows<#attn.mma<warps = 4>>>)

// -----

// expected-error @+1 {{#attn.swizzled needs a column count that is a multiple of 64 (8 chunks of 16 bytes), got 32}}
func.func @swizzled_cols(%t: tensor<64x32xf16, #attn.swizzled>)

// -----

// expected-error @+1 {{#attn.swizzled holds 2-byte elements, got 'f32'}}
func.func @swizzled_f32(%t: tensor<64x64xf32, #attn.swizzled>)

// -----

// expected-error @+1 {{#attn.swizzled's span is a TMA swizzle width: 32, 64 or 128 bytes, got 48}}
func.func @swizzled_span(%t: tensor<64x64xf16, #attn.swizzled<blocked, span = 48>>)

// -----

// The narrower spans exist for TMA boxes, one per column block.
// expected-error @+1 {{#attn.swizzled with a span of 32 bytes must be blocked}}
func.func @swizzled_span_unblocked(%t: !attn.shared<64x64xf16, #attn.swizzled<span = 32>>)

// -----

// expected-error @+1 {{#attn.swizzled needs a column count that is a multiple of 32 (4 chunks of 16 bytes), got 80}}
func.func @swizzled_span_cols(%t: tensor<128x80xf16, #attn.swizzled<blocked, span = 64>>)

// -----

// wgmma's descriptors read the 128-byte swizzle only.
func.func @dot_b_narrow_span(%a: !attn.shared<64x64xf16, #attn.swizzled<blocked>>, %b: !attn.shared<64x64xf16, #attn.swizzled<blocked, span = 64>>, %acc: tensor<64x64xf32, #attn.mma<warps = 4, version = 3>>) {
  // expected-error @+1 {{operand B must be in shared memory (#attn.swizzled, 128-byte span), got #attn.swizzled<blocked, span = 64>}}
  %s = attn.dot %a, %b, %acc transpose_b : !attn.shared<64x64xf16, #attn.swizzled<blocked>>, !attn.shared<64x64xf16, #attn.swizzled<blocked, span = 64>> -> tensor<64x64xf32, #attn.mma<warps = 4, version = 3>>
  return
}

// -----

// expected-error @+1 {{!attn.shared holds a 2-D tile or stages of one (rank 2 or 3), got rank 1}}
func.func @shared_rank(%b: !attn.shared<64xf16, #attn.swizzled>)

// -----

// expected-error @+1 {{!attn.shared needs a shared-memory layout (#attn.swizzled or #attn.unswizzled), got #attn.mma<warps = 4>}}
func.func @shared_layout(%b: !attn.shared<64x64xf16, #attn.mma<warps = 4>>)

// -----

func.func @view_rank(%b: !attn.shared<64x64xf16, #attn.swizzled>, %i: index) {
  // expected-error @+1 {{takes a stage of a 3-D buffer, got '!attn.shared<64x64xf16, #attn.swizzled>'}}
  %v = attn.local_view %b[%i] : !attn.shared<64x64xf16, #attn.swizzled> -> !attn.shared<64x64xf16, #attn.swizzled>
  return
}

// -----

func.func @view_type(%b: !attn.shared<2x64x64xf16, #attn.swizzled>, %i: index) {
  // expected-error @+1 {{result must be '!attn.shared<64x64xf16, #attn.swizzled>', got '!attn.shared<128x64xf16, #attn.swizzled>'}}
  %v = attn.local_view %b[%i] : !attn.shared<2x64x64xf16, #attn.swizzled> -> !attn.shared<128x64xf16, #attn.swizzled>
  return
}

// -----

func.func @copy_indices(%src: memref<?x64xf16>, %b: !attn.shared<64x64xf16, #attn.swizzled>, %i: index) {
  // expected-error @+1 {{expected 2 indices for 'memref<?x64xf16>', got 1}}
  attn.async_copy %src[%i] into %b : memref<?x64xf16>, !attn.shared<64x64xf16, #attn.swizzled>
  return
}

// -----

func.func @copy_elt(%src: memref<?x64xbf16>, %b: !attn.shared<64x64xf16, #attn.swizzled>, %i: index) {
  // expected-error @+1 {{element types differ: 'bf16' vs 'f16'}}
  attn.async_copy %src[%i, %i] into %b : memref<?x64xbf16>, !attn.shared<64x64xf16, #attn.swizzled>
  return
}

// -----

func.func @copy_stages(%src: memref<?x64xf16>, %b: !attn.shared<2x64x64xf16, #attn.swizzled>, %i: index) {
  // expected-error @+1 {{copies into one 2-D stage, got '!attn.shared<2x64x64xf16, #attn.swizzled>'}}
  attn.async_copy %src[%i, %i] into %b : memref<?x64xf16>, !attn.shared<2x64x64xf16, #attn.swizzled>
  return
}

// -----

func.func @store_layout(%v: tensor<64x64xf16>, %b: !attn.shared<64x64xf16, #attn.swizzled>) {
  // expected-error @+1 {{stores a tile held in registers: its type needs a register layout}}
  attn.local_store %v, %b : tensor<64x64xf16>, !attn.shared<64x64xf16, #attn.swizzled>
  return
}

// -----

func.func @store_shape(%v: tensor<64x64xf16, #attn.mma<warps = 4>>, %b: !attn.shared<128x64xf16, #attn.swizzled>) {
  // expected-error @+1 {{stores a 'tensor<64x64xf16, #attn.mma<warps = 4>>' into '!attn.shared<128x64xf16, #attn.swizzled>': shapes and element types must match}}
  attn.local_store %v, %b : tensor<64x64xf16, #attn.mma<warps = 4>>, !attn.shared<128x64xf16, #attn.swizzled>
  return
}

// -----

func.func @convert_plain(%v: tensor<64x64xf16>) {
  // expected-error @+1 {{converts between layouts: both types need one}}
  %c = attn.convert_layout %v : tensor<64x64xf16> -> tensor<64x64xf16, #attn.mma<warps = 4>>
  return
}

// -----

func.func @dot_mixed(%a: tensor<64x64xf16, #attn.swizzled>, %b: tensor<64x64xf16, #attn.swizzled>, %acc: tensor<64x64xf32>) {
  // expected-error @+1 {{operands have layouts but the result has none}}
  %s = attn.dot %a, %b, %acc transpose_b : tensor<64x64xf16, #attn.swizzled>, tensor<64x64xf16, #attn.swizzled> -> tensor<64x64xf32>
  return
}

// -----

func.func @dot_a_parent(%a: tensor<64x64xf16, #attn.dot_operand<a, #attn.mma<warps = 2>>>, %b: tensor<64x64xf16, #attn.swizzled>, %acc: tensor<64x64xf32, #attn.mma<warps = 4>>) {
  // expected-error @+1 {{operand A must be in shared memory (#attn.swizzled, 128-byte span) or in the dot-operand layout of the result's #attn.mma<warps = 4>, got #attn.dot_operand<a, #attn.mma<warps = 2>>}}
  %s = attn.dot %a, %b, %acc : tensor<64x64xf16, #attn.dot_operand<a, #attn.mma<warps = 2>>>, tensor<64x64xf16, #attn.swizzled> -> tensor<64x64xf32, #attn.mma<warps = 4>>
  return
}

// -----

func.func @dot_b_registers(%a: tensor<64x64xf16, #attn.swizzled>, %b: tensor<64x64xf16, #attn.mma<warps = 4>>, %acc: tensor<64x64xf32, #attn.mma<warps = 4>>) {
  // expected-error @+1 {{operand B must be in shared memory (#attn.swizzled, 128-byte span), got #attn.mma<warps = 4>}}
  %s = attn.dot %a, %b, %acc : tensor<64x64xf16, #attn.swizzled>, tensor<64x64xf16, #attn.mma<warps = 4>> -> tensor<64x64xf32, #attn.mma<warps = 4>>
  return
}

// -----

func.func @iota_dim(%r: index) {
  // expected-error @+1 {{dim 1 is not a dim of a rank-1 tile}}
  %q = attn.iota 1, %r : tensor<64xindex>
  return
}

// -----

// expected-error @+1 {{#attn.mma version is 2 (mma.sync) or 3 (wgmma), got 4}}
func.func @mma_version(%t: tensor<64x8xf32, #attn.mma<warps = 4, version = 4>>)

// -----

// expected-error @+1 {{#attn.mma version 3 (wgmma) needs whole warpgroups (a multiple of 4 warps), got 2}}
func.func @wgmma_warps(%t: tensor<32x8xf32, #attn.mma<warps = 2, version = 3>>)

// -----

// Two m-tiles per warp are an mma.sync layout only.
// expected-error @+1 {{#attn.mma version 3 (wgmma) holds 64 rows per warpgroup: 4 warps need 64 rows, got 128}}
func.func @wgmma_rows(%t: tensor<128x64xf32, #attn.mma<warps = 4, version = 3>>)

// -----

// expected-error @+1 {{#attn.swizzled<blocked> needs a row count that is a multiple of 8 (one swizzle atom), got 12}}
func.func @blocked_rows(%t: !attn.shared<12x64xf16, #attn.swizzled<blocked>>)

// -----

// expected-error @+1 {{expected 'blocked' or 'span'}}
func.func @swizzled_param(%t: tensor<64x64xf16, #attn.swizzled<wide>>)

// -----

func.func @async_mma_sync(%q: !attn.shared<64x64xf16, #attn.swizzled>, %k: !attn.shared<64x64xf16, #attn.swizzled>,
                          %acc: tensor<64x64xf32, #attn.mma<warps = 4>>) {
  // expected-error @+1 {{is async, which only wgmma products are: the result needs a #attn.mma<version = 3> layout}}
  %s = attn.dot %q, %k, %acc transpose_b async : !attn.shared<64x64xf16, #attn.swizzled>, !attn.shared<64x64xf16, #attn.swizzled> -> tensor<64x64xf32, #attn.mma<warps = 4>>
  return
}

// -----

func.func @async_read_early(%q: !attn.shared<64x64xf16, #attn.swizzled<blocked>>,
                            %k: !attn.shared<64x64xf16, #attn.swizzled<blocked>>,
                            %acc: tensor<64x64xf32, #attn.mma<warps = 4, version = 3>>) {
  // expected-error @+1 {{is async: its result may only be waited for (attn.dot_wait) or yielded, but 'arith.addf' uses it}}
  %s = attn.dot %q, %k, %acc transpose_b async : !attn.shared<64x64xf16, #attn.swizzled<blocked>>, !attn.shared<64x64xf16, #attn.swizzled<blocked>> -> tensor<64x64xf32, #attn.mma<warps = 4, version = 3>>
  %t = arith.addf %s, %acc : tensor<64x64xf32, #attn.mma<warps = 4, version = 3>>
  return
}

// -----

func.func @dot_wait_mma_sync(%s: tensor<64x64xf32, #attn.mma<warps = 4>>) {
  // expected-error @+1 {{waits for wgmma products: each operand needs a #attn.mma<version = 3> layout, got 'tensor<64x64xf32, #attn.mma<warps = 4>>'}}
  %w = attn.dot_wait %s {pending = 0 : i64} : tensor<64x64xf32, #attn.mma<warps = 4>>
  return
}

// -----

func.func @prefetch_layout(%src: memref<?x?xf16>, %i: index) {
  // expected-error @+1 {{needs a tile in an accumulator layout (#attn.mma), got 'tensor<64x64xf16>'}}
  attn.prefetch %src[%i, %i] : memref<?x?xf16>, tensor<64x64xf16>
  return
}

// -----

func.func @prefetch_indices(%src: memref<?x?x?xf16>, %i: index) {
  // expected-error @+1 {{expected 3 indices for 'memref<?x?x?xf16>', got 2}}
  attn.prefetch %src[%i, %i] : memref<?x?x?xf16>, tensor<64x64xf16, #attn.mma<warps = 4>>
  return
}

// -----

func.func @prefetch_elt(%src: memref<?x?xbf16>, %i: index) {
  // expected-error @+1 {{element types differ: 'bf16' vs 'f16'}}
  attn.prefetch %src[%i, %i] : memref<?x?xbf16>, tensor<64x64xf16, #attn.mma<warps = 4>>
  return
}

// -----

// expected-error @+1 {{#attn.unswizzled needs a column count in [8, 256] that is a multiple of 8 (whole 16-byte units of one TMA box), got 12}}
func.func @unswizzled_cols(%t: tensor<64x12xf16, #attn.unswizzled>)

// -----

// expected-error @+1 {{#attn.unswizzled needs a static row count in [1, 256] (one TMA box), got 512}}
func.func @unswizzled_rows(%b: !attn.shared<512x64xf16, #attn.unswizzled>)

// -----

// expected-error @+1 {{#attn.unswizzled holds 2-byte elements, got 'f32'}}
func.func @unswizzled_f32(%t: tensor<64x80xf32, #attn.unswizzled>)

// -----

func.func @local_load_shape(%b: !attn.shared<64x80xf16, #attn.unswizzled>) {
  // expected-error @+1 {{reads a 'tensor<64x64xf16, #attn.mma<warps = 4>>' from '!attn.shared<64x80xf16, #attn.unswizzled>': shapes and element types must match}}
  %t = attn.local_load %b : !attn.shared<64x80xf16, #attn.unswizzled> -> tensor<64x64xf16, #attn.mma<warps = 4>>
  return
}

// -----

func.func @local_load_layout(%b: !attn.shared<64x64xf16, #attn.swizzled>) {
  // expected-error @+1 {{reads 16-bit elements into an accumulator layout (#attn.mma), got 'tensor<64x64xf16, #attn.dot_operand<a, #attn.mma<warps = 4>>>'}}
  %t = attn.local_load %b : !attn.shared<64x64xf16, #attn.swizzled> -> tensor<64x64xf16, #attn.dot_operand<a, #attn.mma<warps = 4>>>
  return
}
