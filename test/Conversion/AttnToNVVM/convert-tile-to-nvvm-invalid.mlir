// RUN: attn-opt %s -split-input-file --attn-assign-layouts --attn-stage-shared --attn-pipeline \
// RUN:   --attn-allocate-shared --convert-attn-tile-to-nvvm -verify-diagnostics
// RUN: not attn-opt %s -split-input-file --convert-attn-tile-to-nvvm 2>&1 | FileCheck %s --check-prefix=NOLAYOUT

// What convert-attn-tile-to-nvvm cannot lower is refused at the op, with
// the reason. Without attn-assign-layouts, every tile lacks its layout:
// NOLAYOUT: error: 'attn.load' op has no sm_90a lowering: its tile has no layout (run attn-assign-layouts)

// The runtime launches (ceildiv(Nq, block_m), B * Hq) programs: a kernel
// over another grid would silently run a different program.
!q = memref<?x?x?x64xf16>
func.func @grid(%q: !q, %k: !q, %v: !q, %o: !q) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %b = memref.dim %q, %c0 : !q
  %h = memref.dim %q, %c1 : !q
  %nq = memref.dim %q, %c2 : !q
  %gm = arith.ceildivui %nq, %c64 : index
  %gbh = arith.muli %b, %h : index
  // expected-error @+1 {{has a grid the runtime cannot launch: kernels run over (ceildiv(dim(q, 2), block_m), dim(q, 0) * dim(q, 1)) = (ceildiv(Nq, 64), B * Hq) programs}}
  attn.program (%pm, %pbh) in (%gm, %c1) buffers(q = %q : !q, k = %k : !q, v = %v : !q, o = %o : !q)
      attributes {config = #attn.tile_config<block_m = 64, block_n = 64, warps = 4, stages = 1>} {
    %r0 = arith.muli %pm, %c64 : index
    %qt = attn.load %q[%c0, %c0, %r0, %c0] : !q -> tensor<64x64xf16>
    attn.store %qt, %o[%c0, %c0, %r0, %c0] : tensor<64x64xf16>, !q
  }
  return
}

// -----

// The kernel replaces the whole host function, so that function may hold
// nothing else with effects.
!q = memref<?x?x?x64xf16>
func.func @side_effect(%q: !q, %k: !q, %v: !q, %o: !q) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %cst = arith.constant 0.0 : f16
  %b = memref.dim %q, %c0 : !q
  %h = memref.dim %q, %c1 : !q
  %nq = memref.dim %q, %c2 : !q
  %gm = arith.ceildivui %nq, %c64 : index
  %gbh = arith.muli %b, %h : index
  // expected-error @+1 {{'memref.store' op is in a function that the GPU pipeline turns into a kernel}}
  memref.store %cst, %o[%c0, %c0, %c0, %c0] : !q
  attn.program (%pm, %pbh) in (%gm, %gbh) buffers(q = %q : !q, k = %k : !q, v = %v : !q, o = %o : !q)
      attributes {config = #attn.tile_config<block_m = 64, block_n = 64, warps = 4, stages = 1>} {
    %r0 = arith.muli %pm, %c64 : index
    %qt = attn.load %q[%c0, %c0, %r0, %c0] : !q -> tensor<64x64xf16>
    attn.store %qt, %o[%c0, %c0, %r0, %c0] : tensor<64x64xf16>, !q
  }
  return
}

// -----

// A thread holds some elements of a tile: a constant tile must be a splat.
!q = memref<?x?x?x64xf16>
func.func @constant(%q: !q, %k: !q, %v: !q, %o: !q) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %b = memref.dim %q, %c0 : !q
  %h = memref.dim %q, %c1 : !q
  %nq = memref.dim %q, %c2 : !q
  %gm = arith.ceildivui %nq, %c64 : index
  %gbh = arith.muli %b, %h : index
  attn.program (%pm, %pbh) in (%gm, %gbh) buffers(q = %q : !q, k = %k : !q, v = %v : !q, o = %o : !q)
      attributes {config = #attn.tile_config<block_m = 64, block_n = 64, warps = 4, stages = 1>} {
    %r0 = arith.muli %pm, %c64 : index
    %qt = attn.load %q[%c0, %c0, %r0, %c0] : !q -> tensor<64x64xf16>
    // expected-error @+1 {{'arith.constant' op has no sm_90a lowering: a tile constant must have one value for every element (a splat)}}
    %ramp = arith.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0, 24.0, 25.0, 26.0, 27.0, 28.0, 29.0, 30.0, 31.0, 32.0, 33.0, 34.0, 35.0, 36.0, 37.0, 38.0, 39.0, 40.0, 41.0, 42.0, 43.0, 44.0, 45.0, 46.0, 47.0, 48.0, 49.0, 50.0, 51.0, 52.0, 53.0, 54.0, 55.0, 56.0, 57.0, 58.0, 59.0, 60.0, 61.0, 62.0, 63.0]> : tensor<64xf32>
    %qf = arith.extf %qt : tensor<64x64xf16> to tensor<64x64xf32>
    %mx = attn.reduce_rows max %qf : tensor<64x64xf32> -> tensor<64xf32>
    %t = arith.addf %mx, %ramp : tensor<64xf32>
    %b2 = attn.broadcast_rows %t : tensor<64xf32> -> tensor<64x64xf32>
    %o16 = arith.truncf %b2 : tensor<64x64xf32> to tensor<64x64xf16>
    attn.store %o16, %o[%c0, %c0, %r0, %c0] : tensor<64x64xf16>, !q
  }
  return
}

// -----

// Tiles are lowered in attn, arith, math and scf ops.
!q = memref<?x?x?x64xf16>
func.func @slice(%q: !q, %k: !q, %v: !q, %o: !q) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %b = memref.dim %q, %c0 : !q
  %h = memref.dim %q, %c1 : !q
  %nq = memref.dim %q, %c2 : !q
  %gm = arith.ceildivui %nq, %c64 : index
  %gbh = arith.muli %b, %h : index
  attn.program (%pm, %pbh) in (%gm, %gbh) buffers(q = %q : !q, k = %k : !q, v = %v : !q, o = %o : !q)
      attributes {config = #attn.tile_config<block_m = 64, block_n = 64, warps = 4, stages = 1>} {
    %r0 = arith.muli %pm, %c64 : index
    %qt = attn.load %q[%c0, %c0, %r0, %c0] : !q -> tensor<64x64xf16>
    // expected-error @+1 {{'tensor.extract_slice' op has no sm_90a lowering: tiles are lowered in attn, arith, math and scf ops (and tensor.splat) only}}
    %sl = tensor.extract_slice %qt[0, 0] [64, 32] [1, 1] : tensor<64x64xf16> to tensor<64x32xf16>
    %s = tensor.insert_slice %sl into %qt[0, 32] [64, 32] [1, 1] : tensor<64x32xf16> into tensor<64x64xf16>
    attn.store %s, %o[%c0, %c0, %r0, %c0] : tensor<64x64xf16>, !q
  }
  return
}

