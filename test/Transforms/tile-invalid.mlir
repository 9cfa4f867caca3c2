// RUN: attn-opt %s --attn-tile -split-input-file -verify-diagnostics

// What attn-tile cannot tile, diagnosed on the op.

func.func @on_tensors(%t: tensor<1x1x64x64xf16>) -> tensor<1x1x64x64xf16> {
  // expected-error @+1 {{on tensors must be bufferized before tiling (run one-shot-bufferize, or the attn-lower-to-cpu pipeline)}}
  %r = attn.attention ins(%t, %t, %t : tensor<1x1x64x64xf16>, tensor<1x1x64x64xf16>, tensor<1x1x64x64xf16>)
                      outs(%t : tensor<1x1x64x64xf16>)
                      {config = #attn.tile_config<block_m = 64, block_n = 64, warps = 4, stages = 2>}
                      -> tensor<1x1x64x64xf16>
  return %r : tensor<1x1x64x64xf16>
}

// -----

func.func @no_config(%m: memref<1x1x64x64xf16>) {
  // expected-error @+1 {{has no tile configuration (run attn-default-config first)}}
  attn.attention ins(%m, %m, %m : memref<1x1x64x64xf16>, memref<1x1x64x64xf16>, memref<1x1x64x64xf16>)
                 outs(%m : memref<1x1x64x64xf16>)
  return
}

// -----

func.func @dynamic_head_dim(%m: memref<1x1x64x?xf16>) {
  // expected-error @+1 {{head dims must be static to tile}}
  attn.attention ins(%m, %m, %m : memref<1x1x64x?xf16>, memref<1x1x64x?xf16>, memref<1x1x64x?xf16>)
                 outs(%m : memref<1x1x64x?xf16>)
                 {config = #attn.tile_config<block_m = 64, block_n = 64, warps = 4, stages = 2>}
  return
}

// -----

// A static D with a dynamic Dv is rejected too.
func.func @dynamic_value_head_dim(%qk: memref<1x1x64x64xf16>, %vo: memref<1x1x64x?xf16>) {
  // expected-error @+1 {{head dims must be static to tile}}
  attn.attention ins(%qk, %qk, %vo : memref<1x1x64x64xf16>, memref<1x1x64x64xf16>, memref<1x1x64x?xf16>)
                 outs(%vo : memref<1x1x64x?xf16>)
                 {config = #attn.tile_config<block_m = 64, block_n = 64, warps = 4, stages = 2>}
  return
}

// -----

// 4 warps own 16 rows each: block_m must be a multiple of 64.
func.func @block_m_vs_warps(%m: memref<1x1x64x64xf16>) {
  // expected-error @+1 {{cannot tile with #attn.tile_config<block_m = 32, block_n = 64, warps = 4, stages = 2>: block_m must be a multiple of 16 x warps (64)}}
  attn.attention ins(%m, %m, %m : memref<1x1x64x64xf16>, memref<1x1x64x64xf16>, memref<1x1x64x64xf16>)
                 outs(%m : memref<1x1x64x64xf16>)
                 {config = #attn.tile_config<block_m = 32, block_n = 64, warps = 4, stages = 2>}
  return
}

// -----

func.func @block_m_below_16(%m: memref<1x1x64x64xf16>) {
  // expected-error @+1 {{block_m must be a multiple of 16 x warps (16)}}
  attn.attention ins(%m, %m, %m : memref<1x1x64x64xf16>, memref<1x1x64x64xf16>, memref<1x1x64x64xf16>)
                 outs(%m : memref<1x1x64x64xf16>)
                 {config = #attn.tile_config<block_m = 8, block_n = 64, warps = 1, stages = 2>}
  return
}

// -----

func.func @block_n_below_16(%m: memref<1x1x64x64xf16>) {
  // expected-error @+1 {{cannot tile with #attn.tile_config<block_m = 64, block_n = 8, warps = 4, stages = 2>: block_n must be at least 16}}
  attn.attention ins(%m, %m, %m : memref<1x1x64x64xf16>, memref<1x1x64x64xf16>, memref<1x1x64x64xf16>)
                 outs(%m : memref<1x1x64x64xf16>)
                 {config = #attn.tile_config<block_m = 64, block_n = 8, warps = 4, stages = 2>}
  return
}

// -----

// Every op that cannot be tiled is diagnosed, not only the first.
func.func @several(%m: memref<1x1x64x64xf16>, %t: tensor<1x1x64x64xf16>) -> tensor<1x1x64x64xf16> {
  // expected-error @+1 {{has no tile configuration}}
  attn.attention ins(%m, %m, %m : memref<1x1x64x64xf16>, memref<1x1x64x64xf16>, memref<1x1x64x64xf16>)
                 outs(%m : memref<1x1x64x64xf16>)
  attn.attention ins(%m, %m, %m : memref<1x1x64x64xf16>, memref<1x1x64x64xf16>, memref<1x1x64x64xf16>)
                 outs(%m : memref<1x1x64x64xf16>)
                 {config = #attn.tile_config<block_m = 64, block_n = 64, warps = 4, stages = 2>}
  // expected-error @+1 {{must be bufferized before tiling}}
  %r = attn.attention ins(%t, %t, %t : tensor<1x1x64x64xf16>, tensor<1x1x64x64xf16>, tensor<1x1x64x64xf16>)
                      outs(%t : tensor<1x1x64x64xf16>) -> tensor<1x1x64x64xf16>
  return %r : tensor<1x1x64x64xf16>
}
