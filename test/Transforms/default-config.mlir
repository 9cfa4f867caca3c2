// RUN: attn-opt %s --attn-default-config | FileCheck %s --check-prefixes=CHECK,SM90
// RUN: attn-opt %s '--attn-default-config=chip=sm_90a' | FileCheck %s --check-prefixes=CHECK,SM90
// RUN: attn-opt %s '--attn-default-config=chip=sm_80' | FileCheck %s --check-prefixes=CHECK,SM80

// The heuristic (measured on the H200, docs/perf-log.md): 4 warps; with
// Dmax = max(D, Dv): 128 x 64, 2 stages up to 64; up to 128, 2 stages and
// 128 x 64 blocks with lazy rescaling, and under a mask the K/V order and
// per-loop thread ids with which that kernel assembles without spills on
// the chip (sm_90a unless told otherwise); 64 x 64, 1 stage above. An
// existing configuration is kept.

// CHECK-LABEL: func.func @fills_config
// CHECK: attn.attention
// CHECK-SAME: config = #attn.tile_config<block_m = 128, block_n = 64, warps = 4, stages = 2>
// CHECK-SAME: mask = #attn.mask<causal, top_left>
func.func @fills_config(%q: memref<?x?x?x64xf16>, %o: memref<?x?x?x64xf16>) {
  attn.attention ins(%q, %q, %q : memref<?x?x?x64xf16>, memref<?x?x?x64xf16>, memref<?x?x?x64xf16>)
                 outs(%o : memref<?x?x?x64xf16>) {mask = #attn.mask<causal, top_left>}
  return
}

// Works on tensors as well: the config is attached before bufferization.
// CHECK-LABEL: func.func @fills_config_tensor
// CHECK: attn.attention
// CHECK-SAME: {config = #attn.tile_config<block_m = 128, block_n = 64, warps = 4, stages = 2, lazy_rescale = true>}
func.func @fills_config_tensor(%q: tensor<1x2x16x128xbf16>) -> tensor<1x2x16x128xbf16> {
  %r = attn.attention ins(%q, %q, %q : tensor<1x2x16x128xbf16>, tensor<1x2x16x128xbf16>, tensor<1x2x16x128xbf16>)
                      outs(%q : tensor<1x2x16x128xbf16>) -> tensor<1x2x16x128xbf16>
  return %r : tensor<1x2x16x128xbf16>
}

// CHECK-LABEL: func.func @keeps_config
// CHECK: attn.attention
// CHECK-SAME: config = #attn.tile_config<block_m = 128, block_n = 16, warps = 8, stages = 3>
// CHECK-NOT: tile_config
func.func @keeps_config(%q: memref<?x?x?x64xf16>, %o: memref<?x?x?x64xf16>) {
  attn.attention ins(%q, %q, %q : memref<?x?x?x64xf16>, memref<?x?x?x64xf16>, memref<?x?x?x64xf16>)
                 outs(%o : memref<?x?x?x64xf16>)
                 {config = #attn.tile_config<block_m = 128, block_n = 16, warps = 8, stages = 3>}
  return
}

// CHECK-LABEL: func.func @large_head_dim
// CHECK: attn.attention
// CHECK-SAME: config = #attn.tile_config<block_m = 64, block_n = 64, warps = 4, stages = 1>
func.func @large_head_dim(%q: memref<?x?x?x256xf16>, %o: memref<?x?x?x256xf16>) {
  attn.attention ins(%q, %q, %q : memref<?x?x?x256xf16>, memref<?x?x?x256xf16>, memref<?x?x?x256xf16>)
                 outs(%o : memref<?x?x?x256xf16>)
  return
}

// The value head dim counts too (it sizes the accumulator): D = 128 with
// Dv = 256 takes the large-head-dim choice.
// CHECK-LABEL: func.func @head_dim_128
// CHECK: attn.attention
// CHECK-SAME: config = #attn.tile_config<block_m = 64, block_n = 64, warps = 4, stages = 1>
func.func @head_dim_128(%q: memref<?x?x?x128xf32>, %v: memref<?x?x?x256xf32>) {
  attn.attention ins(%q, %q, %v : memref<?x?x?x128xf32>, memref<?x?x?x128xf32>, memref<?x?x?x256xf32>)
                 outs(%v : memref<?x?x?x256xf32>)
  return
}

// A dynamic head dim takes the small-D choice; attn-tile rejects it later.
// CHECK-LABEL: func.func @dynamic_head_dim
// CHECK: attn.attention
// CHECK-SAME: config = #attn.tile_config<block_m = 64, block_n = 64, warps = 4, stages = 2>
func.func @dynamic_head_dim(%q: memref<?x?x?x?xf32>) {
  attn.attention ins(%q, %q, %q : memref<?x?x?x?xf32>, memref<?x?x?x?xf32>, memref<?x?x?x?xf32>)
                 outs(%q : memref<?x?x?x?xf32>)
  return
}

// D = 128 with a window: 128 x 64, last block first, per-loop thread ids
// (both chips).
// CHECK-LABEL: func.func @head_dim_128_window
// CHECK: attn.attention
// CHECK-SAME: config = #attn.tile_config<block_m = 128, block_n = 64, warps = 4, stages = 2, lazy_rescale = true, reverse_kv = true, loop_local_ids = true>
func.func @head_dim_128_window(%q: memref<?x?x?x128xf16>) {
  attn.attention ins(%q, %q, %q : memref<?x?x?x128xf16>, memref<?x?x?x128xf16>, memref<?x?x?x128xf16>)
                 outs(%q : memref<?x?x?x128xf16>) {mask = #attn.mask<window, top_left, left = 8, right = 8>}
  return
}

// D = 128, bottom-right causal: first block first with per-loop thread ids
// on sm_90a, last block first on sm_80.
// CHECK-LABEL: func.func @head_dim_128_causal_bottom_right
// CHECK: attn.attention
// SM90-SAME: config = #attn.tile_config<block_m = 128, block_n = 64, warps = 4, stages = 2, lazy_rescale = true, loop_local_ids = true>
// SM80-SAME: config = #attn.tile_config<block_m = 128, block_n = 64, warps = 4, stages = 2, lazy_rescale = true, reverse_kv = true>
func.func @head_dim_128_causal_bottom_right(%q: memref<?x?x?x128xf16>) {
  attn.attention ins(%q, %q, %q : memref<?x?x?x128xf16>, memref<?x?x?x128xf16>, memref<?x?x?x128xf16>)
                 outs(%q : memref<?x?x?x128xf16>) {mask = #attn.mask<causal, bottom_right>}
  return
}

// D = 128, top-left causal: last block first; per-loop thread ids on sm_90a.
// CHECK-LABEL: func.func @head_dim_128_causal_top_left
// CHECK: attn.attention
// SM90-SAME: config = #attn.tile_config<block_m = 128, block_n = 64, warps = 4, stages = 2, lazy_rescale = true, reverse_kv = true, loop_local_ids = true>
// SM80-SAME: config = #attn.tile_config<block_m = 128, block_n = 64, warps = 4, stages = 2, lazy_rescale = true, reverse_kv = true>
func.func @head_dim_128_causal_top_left(%q: memref<?x?x?x128xf16>) {
  attn.attention ins(%q, %q, %q : memref<?x?x?x128xf16>, memref<?x?x?x128xf16>, memref<?x?x?x128xf16>)
                 outs(%q : memref<?x?x?x128xf16>) {mask = #attn.mask<causal, top_left>}
  return
}
