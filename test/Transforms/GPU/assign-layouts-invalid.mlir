// RUN: attn-opt %s --attn-assign-layouts -split-input-file -verify-diagnostics

// What has no GPU layout is refused at the op, with the reason.

!q = memref<?x?x?x64xf32>
func.func @f32_dot(%q: !q, %o: !q) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  attn.program (%pm, %pbh) in (%c1, %c1) buffers(q = %q : !q, o = %o : !q)
      attributes {config = #attn.tile_config<block_m = 64, block_n = 64, warps = 4, stages = 1>} {
    %qt = attn.load %q[%c0, %c0, %c0, %c0] : !q -> tensor<64x64xf32>
    %z = arith.constant dense<0.0> : tensor<64x64xf32>
    // expected-error @+1 {{'attn.dot' op has 'f32' operands; the tensor cores take f16 or bf16 (f32 attention runs on the CPU lowering)}}
    %s = attn.dot %qt, %qt, %z transpose_b : tensor<64x64xf32>, tensor<64x64xf32> -> tensor<64x64xf32>
    attn.store %s, %o[%c0, %c0, %c0, %c0] : tensor<64x64xf32>, !q
  }
  return
}

// -----

// 32 rows cannot be split over 4 warps of 16-row m-tiles.
!q = memref<?x?x?x64xf16>
func.func @rows_per_warp(%q: !q, %o: !q) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  attn.program (%pm, %pbh) in (%c1, %c1) buffers(q = %q : !q, o = %o : !q)
      attributes {config = #attn.tile_config<block_m = 32, block_n = 64, warps = 4, stages = 1>} {
    // expected-error @+1 {{tile 'tensor<32x64xf16>' has no register layout here: #attn.mma}}
    %qt = attn.load %q[%c0, %c0, %c0, %c0] : !q -> tensor<32x64xf16>
    attn.store %qt, %o[%c0, %c0, %c0, %c0] : tensor<32x64xf16>, !q
  }
  return
}

// -----

// A column count that is not a whole number of 8-column n-tiles.
!q = memref<?x?x?x64xf16>
func.func @columns(%q: !q, %o: !q) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  attn.program (%pm, %pbh) in (%c1, %c1) buffers(q = %q : !q, o = %o : !q)
      attributes {config = #attn.tile_config<block_m = 64, block_n = 64, warps = 4, stages = 1>} {
    // expected-error @+1 {{tile 'tensor<64x12xf16>' has no register layout here: #attn.mma needs a column count that is a multiple of 8 (one n-tile), got 12}}
    %qt = attn.load %q[%c0, %c0, %c0, %c0] : !q -> tensor<64x12xf16>
    attn.store %qt, %o[%c0, %c0, %c0, %c0] : tensor<64x12xf16>, !q
  }
  return
}

// -----

// The layouts come from the configuration's warps.
!q = memref<?x?x?x64xf16>
func.func @no_config(%q: !q, %o: !q) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'attn.program' op has no tile configuration; the GPU layouts need its warps (run attn-default-config before attn-tile)}}
  attn.program (%pm, %pbh) in (%c1, %c1) buffers(q = %q : !q, o = %o : !q) {
    %qt = attn.load %q[%c0, %c0, %c0, %c0] : !q -> tensor<64x64xf16>
    attn.store %qt, %o[%c0, %c0, %c0, %c0] : tensor<64x64xf16>, !q
  }
  return
}
