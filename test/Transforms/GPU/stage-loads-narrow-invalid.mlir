// RUN: attn-opt %s --attn-tile --attn-split-kv-loop --cse --attn-assign-layouts=chip=sm_90a \
// RUN:   --attn-stage-loads=narrow-swizzles=true --attn-stage-shared --attn-warp-specialize --attn-pipeline \
// RUN:   --attn-allocate-shared --convert-attn-tile-to-nvvm=chip=sm_90a -verify-diagnostics

// As in stage-loads-invalid.mlir, without the TMA producer: a tile staged
// in a narrow swizzle span (80 columns, 32-byte blocks) is refused at the
// conversion with the reason, not copied by cp.async in the 128-byte
// swizzle that its readers would not expect.
func.func @unspecialized_narrow(%q: memref<?x?x?x128xf16>, %k: memref<?x?x?x128xf16>, %v: memref<?x?x?x128xf16>, %o: memref<?x?x?x128xf16>, %lse: memref<?x?x?xf32>, %bias: memref<?x?x?x?xf16>) {
  // expected-warning @+2 {{warp_specialize: not applied}}
  // expected-error @+1 {{'attn.async_copy' op has no sm_90a lowering: an asynchronous copy (cp.async) writes the 128-byte swizzle; narrower spans are written by TMA boxes of warp_specialize's producer}}
  attn.attention ins(%q, %k, %v : memref<?x?x?x128xf16>, memref<?x?x?x128xf16>, memref<?x?x?x128xf16>) bias(%bias : memref<?x?x?x?xf16>) outs(%o, %lse : memref<?x?x?x128xf16>, memref<?x?x?xf32>) {config = #attn.tile_config<block_m = 64, block_n = 80, warps = 4, stages = 2>, gpu_config = #attn.gpu_config<wgmma = true, warp_specialize = true, ping_pong = true, stage_loads = true>}
  return
}
