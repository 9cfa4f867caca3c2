// RUN: attn-opt %s -split-input-file -verify-diagnostics

// One case per verifier and parser error of attn.attention and of the
// attributes. The tile-level ops are in invalid-tile-ops.mlir.

//===----------------------------------------------------------------------===//
// attn.attention: operand kinds, ranks and element types
//===----------------------------------------------------------------------===//

func.func @mixed_output(%t: tensor<1x1x8x16xf32>, %m: memref<1x1x8x16xf32>) {
  // expected-error @+1 {{operands must be all tensors or all memrefs, but 'output' is a memref while 'query' is a tensor}}
  attn.attention ins(%t, %t, %t : tensor<1x1x8x16xf32>, tensor<1x1x8x16xf32>, tensor<1x1x8x16xf32>)
                 outs(%m : memref<1x1x8x16xf32>)
  return
}

// -----

func.func @mixed_value(%t: tensor<1x1x8x16xf32>, %m: memref<1x1x8x16xf32>) {
  // expected-error @+1 {{operands must be all tensors or all memrefs, but 'output' is a tensor while 'value' is a memref}}
  %r = attn.attention ins(%t, %t, %m : tensor<1x1x8x16xf32>, tensor<1x1x8x16xf32>, memref<1x1x8x16xf32>)
                      outs(%t : tensor<1x1x8x16xf32>) -> tensor<1x1x8x16xf32>
  return
}

// -----

func.func @mixed_key(%m: memref<1x1x8x16xf32>, %t: tensor<1x1x8x16xf32>) {
  // expected-error @+1 {{operands must be all tensors or all memrefs, but 'output' is a memref while 'key' is a tensor}}
  attn.attention ins(%m, %t, %m : memref<1x1x8x16xf32>, tensor<1x1x8x16xf32>, memref<1x1x8x16xf32>)
                 outs(%m : memref<1x1x8x16xf32>)
  return
}

// -----

func.func @mixed_lse(%m: memref<1x1x8x16xf32>, %l: tensor<1x1x8xf32>) {
  // expected-error @+1 {{operands must be all tensors or all memrefs, but 'output' is a memref while 'lse' is a tensor}}
  attn.attention ins(%m, %m, %m : memref<1x1x8x16xf32>, memref<1x1x8x16xf32>, memref<1x1x8x16xf32>)
                 outs(%m, %l : memref<1x1x8x16xf32>, tensor<1x1x8xf32>)
  return
}

// -----

func.func @unranked(%u: tensor<*xf32>, %t: tensor<1x1x8x16xf32>) {
  // expected-error @+1 {{operand #0 must be ranked tensor or memref, but got 'tensor<*xf32>'}}
  %r = attn.attention ins(%u, %t, %t : tensor<*xf32>, tensor<1x1x8x16xf32>, tensor<1x1x8x16xf32>)
                      outs(%t : tensor<1x1x8x16xf32>) -> tensor<1x1x8x16xf32>
  return
}

// -----

func.func @rank_query(%q: memref<1x8x16xf32>, %m: memref<1x1x8x16xf32>) {
  // expected-error @+1 {{'query' must have rank 4 ([B, H, N, D]), got 'memref<1x8x16xf32>'}}
  attn.attention ins(%q, %m, %m : memref<1x8x16xf32>, memref<1x1x8x16xf32>, memref<1x1x8x16xf32>)
                 outs(%m : memref<1x1x8x16xf32>)
  return
}

// -----

func.func @rank_key(%k: memref<1x8x16xf32>, %m: memref<1x1x8x16xf32>) {
  // expected-error @+1 {{'key' must have rank 4 ([B, H, N, D]), got 'memref<1x8x16xf32>'}}
  attn.attention ins(%m, %k, %m : memref<1x1x8x16xf32>, memref<1x8x16xf32>, memref<1x1x8x16xf32>)
                 outs(%m : memref<1x1x8x16xf32>)
  return
}

// -----

func.func @rank_value(%v: memref<1x1x1x8x16xf32>, %m: memref<1x1x8x16xf32>) {
  // expected-error @+1 {{'value' must have rank 4 ([B, H, N, D]), got 'memref<1x1x1x8x16xf32>'}}
  attn.attention ins(%m, %m, %v : memref<1x1x8x16xf32>, memref<1x1x8x16xf32>, memref<1x1x1x8x16xf32>)
                 outs(%m : memref<1x1x8x16xf32>)
  return
}

// -----

func.func @rank_output(%o: memref<8x16xf32>, %m: memref<1x1x8x16xf32>) {
  // expected-error @+1 {{'output' must have rank 4 ([B, H, N, D]), got 'memref<8x16xf32>'}}
  attn.attention ins(%m, %m, %m : memref<1x1x8x16xf32>, memref<1x1x8x16xf32>, memref<1x1x8x16xf32>)
                 outs(%o : memref<8x16xf32>)
  return
}

// -----

func.func @rank_lse(%l: memref<1x1x8x1xf32>, %m: memref<1x1x8x16xf32>) {
  // expected-error @+1 {{'lse' must have rank 3 ([B, H, N]), got 'memref<1x1x8x1xf32>'}}
  attn.attention ins(%m, %m, %m : memref<1x1x8x16xf32>, memref<1x1x8x16xf32>, memref<1x1x8x16xf32>)
                 outs(%m, %l : memref<1x1x8x16xf32>, memref<1x1x8x1xf32>)
  return
}

// -----

func.func @element_type_f64(%m: memref<1x1x8x16xf64>) {
  // expected-error @+1 {{element type must be f16, bf16 or f32, got 'f64'}}
  attn.attention ins(%m, %m, %m : memref<1x1x8x16xf64>, memref<1x1x8x16xf64>, memref<1x1x8x16xf64>)
                 outs(%m : memref<1x1x8x16xf64>)
  return
}

// -----

func.func @element_type_int(%m: memref<1x1x8x16xi8>) {
  // expected-error @+1 {{element type must be f16, bf16 or f32, got 'i8'}}
  attn.attention ins(%m, %m, %m : memref<1x1x8x16xi8>, memref<1x1x8x16xi8>, memref<1x1x8x16xi8>)
                 outs(%m : memref<1x1x8x16xi8>)
  return
}

// -----

func.func @element_type_key(%m: memref<1x1x8x16xf16>, %k: memref<1x1x8x16xf32>) {
  // expected-error @+1 {{'key' has element type 'f32' but 'query' has 'f16'}}
  attn.attention ins(%m, %k, %m : memref<1x1x8x16xf16>, memref<1x1x8x16xf32>, memref<1x1x8x16xf16>)
                 outs(%m : memref<1x1x8x16xf16>)
  return
}

// -----

func.func @element_type_value(%m: memref<1x1x8x16xf16>, %v: memref<1x1x8x16xbf16>) {
  // expected-error @+1 {{'value' has element type 'bf16' but 'query' has 'f16'}}
  attn.attention ins(%m, %m, %v : memref<1x1x8x16xf16>, memref<1x1x8x16xf16>, memref<1x1x8x16xbf16>)
                 outs(%m : memref<1x1x8x16xf16>)
  return
}

// -----

func.func @element_type_output(%m: memref<1x1x8x16xf16>, %o: memref<1x1x8x16xf32>) {
  // expected-error @+1 {{'output' has element type 'f32' but 'query' has 'f16'}}
  attn.attention ins(%m, %m, %m : memref<1x1x8x16xf16>, memref<1x1x8x16xf16>, memref<1x1x8x16xf16>)
                 outs(%o : memref<1x1x8x16xf32>)
  return
}

// -----

func.func @lse_not_f32(%m: memref<1x1x8x16xf16>, %l: memref<1x1x8xf16>) {
  // expected-error @+1 {{'lse' must have element type f32, got 'f16'}}
  attn.attention ins(%m, %m, %m : memref<1x1x8x16xf16>, memref<1x1x8x16xf16>, memref<1x1x8x16xf16>)
                 outs(%m, %l : memref<1x1x8x16xf16>, memref<1x1x8xf16>)
  return
}

// -----

//===----------------------------------------------------------------------===//
// attn.attention: shapes
//===----------------------------------------------------------------------===//

func.func @batch(%q: memref<2x1x8x16xf32>, %m: memref<1x1x8x16xf32>) {
  // expected-error @+1 {{batch size mismatch: query has 2 but key has 1}}
  attn.attention ins(%q, %m, %m : memref<2x1x8x16xf32>, memref<1x1x8x16xf32>, memref<1x1x8x16xf32>)
                 outs(%q : memref<2x1x8x16xf32>)
  return
}

// -----

func.func @batch_lse(%m: memref<2x1x8x16xf32>, %l: memref<3x1x8xf32>) {
  // expected-error @+1 {{batch size mismatch: query has 2 but lse has 3}}
  attn.attention ins(%m, %m, %m : memref<2x1x8x16xf32>, memref<2x1x8x16xf32>, memref<2x1x8x16xf32>)
                 outs(%m, %l : memref<2x1x8x16xf32>, memref<3x1x8xf32>)
  return
}

// -----

func.func @query_heads(%q: memref<1x4x8x16xf32>, %kv: memref<1x1x8x16xf32>, %o: memref<1x2x8x16xf32>) {
  // expected-error @+1 {{query head count mismatch: query has 4 but output has 2}}
  attn.attention ins(%q, %kv, %kv : memref<1x4x8x16xf32>, memref<1x1x8x16xf32>, memref<1x1x8x16xf32>)
                 outs(%o : memref<1x2x8x16xf32>)
  return
}

// -----

func.func @query_heads_lse(%q: memref<1x4x8x16xf32>, %kv: memref<1x1x8x16xf32>, %l: memref<1x2x8xf32>) {
  // expected-error @+1 {{query head count mismatch: query has 4 but lse has 2}}
  attn.attention ins(%q, %kv, %kv : memref<1x4x8x16xf32>, memref<1x1x8x16xf32>, memref<1x1x8x16xf32>)
                 outs(%q, %l : memref<1x4x8x16xf32>, memref<1x2x8xf32>)
  return
}

// -----

func.func @kv_heads(%q: memref<1x4x8x16xf32>, %k: memref<1x2x8x16xf32>, %v: memref<1x1x8x16xf32>) {
  // expected-error @+1 {{key/value head count mismatch: key has 2 but value has 1}}
  attn.attention ins(%q, %k, %v : memref<1x4x8x16xf32>, memref<1x2x8x16xf32>, memref<1x1x8x16xf32>)
                 outs(%q : memref<1x4x8x16xf32>)
  return
}

// -----

func.func @query_length(%m: memref<1x1x8x16xf32>, %o: memref<1x1x9x16xf32>) {
  // expected-error @+1 {{query length mismatch: query has 8 but output has 9}}
  attn.attention ins(%m, %m, %m : memref<1x1x8x16xf32>, memref<1x1x8x16xf32>, memref<1x1x8x16xf32>)
                 outs(%o : memref<1x1x9x16xf32>)
  return
}

// -----

func.func @query_length_lse(%m: memref<1x1x8x16xf32>, %l: memref<1x1x7xf32>) {
  // expected-error @+1 {{query length mismatch: query has 8 but lse has 7}}
  attn.attention ins(%m, %m, %m : memref<1x1x8x16xf32>, memref<1x1x8x16xf32>, memref<1x1x8x16xf32>)
                 outs(%m, %l : memref<1x1x8x16xf32>, memref<1x1x7xf32>)
  return
}

// -----

func.func @kv_length(%m: memref<1x1x8x16xf32>, %v: memref<1x1x12x16xf32>) {
  // expected-error @+1 {{key/value length mismatch: key has 8 but value has 12}}
  attn.attention ins(%m, %m, %v : memref<1x1x8x16xf32>, memref<1x1x8x16xf32>, memref<1x1x12x16xf32>)
                 outs(%m : memref<1x1x8x16xf32>)
  return
}

// -----

func.func @head_dim(%m: memref<1x1x8x16xf32>, %k: memref<1x1x8x32xf32>) {
  // expected-error @+1 {{head dim (D) mismatch: query has 16 but key has 32}}
  attn.attention ins(%m, %k, %m : memref<1x1x8x16xf32>, memref<1x1x8x32xf32>, memref<1x1x8x16xf32>)
                 outs(%m : memref<1x1x8x16xf32>)
  return
}

// -----

func.func @value_head_dim(%m: memref<1x1x8x16xf32>, %o: memref<1x1x8x32xf32>) {
  // expected-error @+1 {{value head dim (Dv) mismatch: value has 16 but output has 32}}
  attn.attention ins(%m, %m, %m : memref<1x1x8x16xf32>, memref<1x1x8x16xf32>, memref<1x1x8x16xf32>)
                 outs(%o : memref<1x1x8x32xf32>)
  return
}

// -----

// Dynamic sizes do not take part in the comparison: the first static size
// is the reference (here the key's 8, not the query's dynamic length).
func.func @kv_length_dynamic(%q: memref<1x1x?x16xf32>, %k: memref<1x1x?x16xf32>,
                             %v: memref<1x1x12x16xf32>, %o: memref<1x1x?x16xf32>,
                             %k8: memref<1x1x8x16xf32>) {
  attn.attention ins(%q, %k, %v : memref<1x1x?x16xf32>, memref<1x1x?x16xf32>, memref<1x1x12x16xf32>)
                 outs(%o : memref<1x1x?x16xf32>)
  // expected-error @+1 {{key/value length mismatch: key has 8 but value has 12}}
  attn.attention ins(%q, %k8, %v : memref<1x1x?x16xf32>, memref<1x1x8x16xf32>, memref<1x1x12x16xf32>)
                 outs(%o : memref<1x1x?x16xf32>)
  return
}

// -----

func.func @gqa_not_multiple(%q: memref<1x6x8x16xf32>, %kv: memref<1x4x8x16xf32>) {
  // expected-error @+1 {{query head count (6) must be a multiple of the key/value head count (4)}}
  attn.attention ins(%q, %kv, %kv : memref<1x6x8x16xf32>, memref<1x4x8x16xf32>, memref<1x4x8x16xf32>)
                 outs(%q : memref<1x6x8x16xf32>)
  return
}

// -----

func.func @gqa_zero_kv_heads(%q: memref<1x6x8x16xf32>, %kv: memref<1x0x8x16xf32>) {
  // expected-error @+1 {{query head count (6) must be a multiple of the key/value head count (0)}}
  attn.attention ins(%q, %kv, %kv : memref<1x6x8x16xf32>, memref<1x0x8x16xf32>, memref<1x0x8x16xf32>)
                 outs(%q : memref<1x6x8x16xf32>)
  return
}

// -----

//===----------------------------------------------------------------------===//
// attn.attention: results and scale
//===----------------------------------------------------------------------===//

func.func @tensor_no_result(%t: tensor<1x1x8x16xf32>) {
  // expected-error @+1 {{on tensors the op returns one result per destination (1), got 0}}
  attn.attention ins(%t, %t, %t : tensor<1x1x8x16xf32>, tensor<1x1x8x16xf32>, tensor<1x1x8x16xf32>)
                 outs(%t : tensor<1x1x8x16xf32>)
  return
}

// -----

func.func @tensor_missing_lse_result(%t: tensor<1x1x8x16xf32>, %l: tensor<1x1x8xf32>) {
  // expected-error @+1 {{on tensors the op returns one result per destination (2), got 1}}
  %r = attn.attention ins(%t, %t, %t : tensor<1x1x8x16xf32>, tensor<1x1x8x16xf32>, tensor<1x1x8x16xf32>)
                      outs(%t, %l : tensor<1x1x8x16xf32>, tensor<1x1x8xf32>) -> tensor<1x1x8x16xf32>
  return
}

// -----

func.func @tensor_result_type(%t: tensor<1x1x8x16xf32>) {
  // expected-error @+1 {{result types must match the destinations}}
  %r = attn.attention ins(%t, %t, %t : tensor<1x1x8x16xf32>, tensor<1x1x8x16xf32>, tensor<1x1x8x16xf32>)
                      outs(%t : tensor<1x1x8x16xf32>) -> tensor<1x1x8x8xf32>
  return
}

// -----

func.func @tensor_lse_result_type(%t: tensor<1x1x8x16xf32>, %l: tensor<1x1x8xf32>) {
  // expected-error @+1 {{result types must match the destinations}}
  %r:2 = attn.attention ins(%t, %t, %t : tensor<1x1x8x16xf32>, tensor<1x1x8x16xf32>, tensor<1x1x8x16xf32>)
                        outs(%t, %l : tensor<1x1x8x16xf32>, tensor<1x1x8xf32>)
                        -> tensor<1x1x8x16xf32>, tensor<1x1x?xf32>
  return
}

// -----

func.func @memref_with_result(%m: memref<1x1x8x16xf32>) {
  // expected-error @+1 {{on memrefs the op has no results}}
  %r = attn.attention ins(%m, %m, %m : memref<1x1x8x16xf32>, memref<1x1x8x16xf32>, memref<1x1x8x16xf32>)
                      outs(%m : memref<1x1x8x16xf32>) -> tensor<1x1x8x16xf32>
  return
}

// -----

func.func @scale_zero(%m: memref<1x1x8x16xf32>) {
  // expected-error @+1 {{scale must be finite and non-zero, got 0.000000e+00}}
  attn.attention ins(%m, %m, %m : memref<1x1x8x16xf32>, memref<1x1x8x16xf32>, memref<1x1x8x16xf32>)
                 outs(%m : memref<1x1x8x16xf32>) {scale = 0.0 : f64}
  return
}

// -----

func.func @scale_inf(%m: memref<1x1x8x16xf32>) {
  // expected-error @+1 {{scale must be finite and non-zero, got inf}}
  attn.attention ins(%m, %m, %m : memref<1x1x8x16xf32>, memref<1x1x8x16xf32>, memref<1x1x8x16xf32>)
                 outs(%m : memref<1x1x8x16xf32>) {scale = 0x7FF0000000000000 : f64}
  return
}

// -----

func.func @scale_nan(%m: memref<1x1x8x16xf32>) {
  // expected-error @+1 {{scale must be finite and non-zero, got nan}}
  attn.attention ins(%m, %m, %m : memref<1x1x8x16xf32>, memref<1x1x8x16xf32>, memref<1x1x8x16xf32>)
                 outs(%m : memref<1x1x8x16xf32>) {scale = 0x7FF8000000000000 : f64}
  return
}

// -----

// Finite in f64, but scale * log2(e) underflows f32, where every lowering
// computes it: refused at the attribute, not at an internal op.
func.func @scale_underflows_f32(%m: memref<1x1x8x16xf32>) {
  // expected-error @+1 {{scale 1.000000e-60 is out of the f32 range the kernels compute in (scale * log2(e) must be a normal f32)}}
  attn.attention ins(%m, %m, %m : memref<1x1x8x16xf32>, memref<1x1x8x16xf32>, memref<1x1x8x16xf32>)
                 outs(%m : memref<1x1x8x16xf32>) {scale = 1.0e-60 : f64}
  return
}

// -----

func.func @scale_overflows_f32(%m: memref<1x1x8x16xf32>) {
  // expected-error @+1 {{scale 1.000000e+39 is out of the f32 range}}
  attn.attention ins(%m, %m, %m : memref<1x1x8x16xf32>, memref<1x1x8x16xf32>, memref<1x1x8x16xf32>)
                 outs(%m : memref<1x1x8x16xf32>) {scale = 1.0e39 : f64}
  return
}

// -----

// A static head dim of 0 (it used to reach the lowerings, which divided by
// it).
func.func @head_dim_zero(%m: memref<?x?x?x0xf16>) {
  // expected-error @+1 {{head dim (D) must be positive, got 0}}
  attn.attention ins(%m, %m, %m : memref<?x?x?x0xf16>, memref<?x?x?x0xf16>, memref<?x?x?x0xf16>)
                 outs(%m : memref<?x?x?x0xf16>)
  return
}

// -----

func.func @value_head_dim_zero(%q: memref<?x?x?x16xf16>, %v: memref<?x?x?x0xf16>) {
  // expected-error @+1 {{value head dim (Dv) must be positive, got 0}}
  attn.attention ins(%q, %q, %v : memref<?x?x?x16xf16>, memref<?x?x?x16xf16>, memref<?x?x?x0xf16>)
                 outs(%v : memref<?x?x?x0xf16>)
  return
}

// -----

func.func @scale_negative_inf(%m: memref<1x1x8x16xf32>) {
  // expected-error @+1 {{scale must be finite and non-zero, got -inf}}
  attn.attention ins(%m, %m, %m : memref<1x1x8x16xf32>, memref<1x1x8x16xf32>, memref<1x1x8x16xf32>)
                 outs(%m : memref<1x1x8x16xf32>) {scale = 0xFFF0000000000000 : f64}
  return
}

// -----

func.func @scale_f32(%m: memref<1x1x8x16xf32>) {
  // expected-error @+2 {{attribute 'scale' failed to satisfy constraint: 64-bit float attribute}}
  attn.attention ins(%m, %m, %m : memref<1x1x8x16xf32>, memref<1x1x8x16xf32>, memref<1x1x8x16xf32>)
                 outs(%m : memref<1x1x8x16xf32>) {scale = 0.5 : f32}
  return
}

// -----

func.func @missing_outs(%t: tensor<1x1x8x16xf32>) {
  // expected-error @+1 {{expected 'outs'}}
  %r = attn.attention ins(%t, %t, %t : tensor<1x1x8x16xf32>, tensor<1x1x8x16xf32>, tensor<1x1x8x16xf32>) -> tensor<1x1x8x16xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// #attn.mask
//===----------------------------------------------------------------------===//

// expected-error @+1 {{unknown mask kind 'diagonal' (expected none, causal or window)}}
func.func private @mask_kind() attributes {m = #attn.mask<diagonal>}

// -----

// expected-error @+1 {{unknown mask alignment 'center' (expected top_left or bottom_right)}}
func.func private @mask_alignment() attributes {m = #attn.mask<causal, center>}

// -----

// Causal masks must spell their alignment out.
// expected-error @+1 {{expected ','}}
func.func private @mask_causal_no_alignment() attributes {m = #attn.mask<causal>}

// -----

// expected-error @+1 {{expected '>'}}
func.func private @mask_none_alignment() attributes {m = #attn.mask<none, top_left>}

// -----

// expected-error @+1 {{expected ','}}
func.func private @mask_window_no_extents() attributes {m = #attn.mask<window, top_left>}

// -----

// expected-error @+1 {{window extents must be in [0, 2147483647], got left = -1, right = 0}}
func.func private @mask_window_left() attributes {m = #attn.mask<window, top_left, left = -1, right = 0>}

// -----

// expected-error @+1 {{window extents must be in [0, 2147483647], got left = 3, right = -2}}
func.func private @mask_window_right() attributes {m = #attn.mask<window, bottom_right, left = 3, right = -2>}

// -----

// Extents are bounded so that the K/V range arithmetic (diagonal + right + 1)
// cannot overflow.
// expected-error @+1 {{window extents must be in [0, 2147483647], got left = 0, right = 9223372036854775807}}
func.func private @mask_window_right_huge() attributes {m = #attn.mask<window, top_left, left = 0, right = 9223372036854775807>}

// -----

// expected-error @+1 {{window extents must be in [0, 2147483647], got left = 2147483648, right = 0}}
func.func private @mask_window_left_huge() attributes {m = #attn.mask<window, bottom_right, left = 2147483648, right = 0>}

// -----

func.func @mask_not_a_mask(%m: memref<1x1x8x16xf32>) {
  // expected-error @+2 {{attribute 'mask' failed to satisfy constraint: Which keys each query may attend to}}
  attn.attention ins(%m, %m, %m : memref<1x1x8x16xf32>, memref<1x1x8x16xf32>, memref<1x1x8x16xf32>)
                 outs(%m : memref<1x1x8x16xf32>) {mask = 3 : i64}
  return
}

// -----

//===----------------------------------------------------------------------===//
// #attn.tile_config
//===----------------------------------------------------------------------===//

// expected-error @+1 {{block_m must be a power of two in [1, 256] or 192, got 48}}
func.func private @block_m_pow2() attributes {c = #attn.tile_config<block_m = 48, block_n = 64, warps = 4, stages = 2>}

// -----

// expected-error @+1 {{block_m must be a power of two in [1, 256] or 192, got 0}}
func.func private @block_m_zero() attributes {c = #attn.tile_config<block_m = 0, block_n = 64, warps = 4, stages = 2>}

// -----

// expected-error @+1 {{block_n must be a power of two or a multiple of 16 in [1, 256], got 512}}
func.func private @block_n_large() attributes {c = #attn.tile_config<block_m = 64, block_n = 512, warps = 4, stages = 2>}

// -----

// expected-error @+1 {{block_n must be a power of two or a multiple of 16 in [1, 256], got -64}}
func.func private @block_n_negative() attributes {c = #attn.tile_config<block_m = 64, block_n = -64, warps = 4, stages = 2>}

// -----

// expected-error @+1 {{block_n must be a power of two or a multiple of 16 in [1, 256], got 40}}
func.func private @block_n_not_k16() attributes {c = #attn.tile_config<block_m = 64, block_n = 40, warps = 4, stages = 2>}

// -----

// expected-error @+1 {{warps must be a power of two in [1, 16] or 12, got 3}}
func.func private @warps_pow2() attributes {c = #attn.tile_config<block_m = 64, block_n = 64, warps = 3, stages = 2>}

// -----

// expected-error @+1 {{warps must be a power of two in [1, 16] or 12, got 32}}
func.func private @warps_large() attributes {c = #attn.tile_config<block_m = 64, block_n = 64, warps = 32, stages = 2>}

// -----

// expected-error @+1 {{stages must be in [1, 8], got 0}}
func.func private @stages_zero() attributes {c = #attn.tile_config<block_m = 64, block_n = 64, warps = 4, stages = 0>}

// -----

// expected-error @+1 {{stages must be in [1, 8], got 9}}
func.func private @stages_large() attributes {c = #attn.tile_config<block_m = 64, block_n = 64, warps = 4, stages = 9>}

// -----

//===----------------------------------------------------------------------===//
// #attn.gpu_config
//===----------------------------------------------------------------------===//

// expected-error @+1 {{fma_exp2 counts exponentials of every 8, so it must be in [0, 8], got 9}}
func.func private @fma_exp2_large() attributes {c = #attn.gpu_config<fma_exp2 = 9>}

// -----

// expected-error @+1 {{rescale_slack bounds the probabilities by 2^rescale_slack, which a 16-bit float holds up to 15, got 16}}
func.func private @rescale_slack_large() attributes {c = #attn.gpu_config<lazy_rescale = true, rescale_slack = 16>}

// -----

// expected-error @+1 {{guarded_rescale moves the reference when the probabilities grow, rescale_slack when the maximum does: set one of them}}
func.func private @guarded_and_slack() attributes {c = #attn.gpu_config<lazy_rescale = true, rescale_slack = 8, guarded_rescale = true>}

// -----

// expected-error @+1 {{async_pv rotates the overlap of the softmax and needs overlap_softmax and warp_specialize}}
func.func private @async_pv_alone() attributes {c = #attn.gpu_config<wgmma = true, overlap_softmax = true, async_pv = true>}

// -----

// expected-error @+1 {{async_pv is not built with peel_last_block}}
func.func private @async_pv_peel() attributes {c = #attn.gpu_config<wgmma = true, overlap_softmax = true, warp_specialize = true, peel_last_block = true, async_pv = true>}

// -----

// expected-error @+1 {{early_qk issues the next scores before the softmax in async_pv's rotation and needs async_pv}}
func.func private @early_qk_alone() attributes {c = #attn.gpu_config<wgmma = true, overlap_softmax = true, warp_specialize = true, early_qk = true>}

// -----

// expected-error @+1 {{loads_ahead loads the next block's tiles beside its scores and needs overlap_softmax and warp_specialize}}
func.func private @loads_ahead_alone() attributes {c = #attn.gpu_config<wgmma = true, warp_specialize = true, loads_ahead = true>}

// -----

// expected-error @+1 {{loads_ahead loads the next block's tiles beside its scores and needs overlap_softmax and warp_specialize}}
func.func private @loads_ahead_cp_async() attributes {c = #attn.gpu_config<wgmma = true, overlap_softmax = true, loads_ahead = true>}

// -----

// expected-error @+1 {{group_m orders the tiles of a persistent kernel and needs persistent}}
func.func private @group_m_alone() attributes {c = #attn.gpu_config<wgmma = true, warp_specialize = true, group_m = 16>}

// -----

// expected-error @+1 {{stage_loads copies tiles with the TMA producer and needs warp_specialize}}
func.func private @stage_loads_alone() attributes {c = #attn.gpu_config<wgmma = true, stage_loads = true>}

// -----

// expected-error @+1 {{stage_stores stores the output with TMA per consumer warpgroup and needs warp_specialize}}
func.func private @stage_stores_alone() attributes {c = #attn.gpu_config<wgmma = true, stage_stores = true>}
