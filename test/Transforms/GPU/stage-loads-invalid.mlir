// RUN: attn-opt %s --attn-tile --attn-split-kv-loop --cse --attn-assign-layouts=chip=sm_90a --attn-stage-loads \
// RUN:   --attn-stage-shared --attn-warp-specialize --attn-pipeline --attn-allocate-shared \
// RUN:   --convert-attn-tile-to-nvvm=chip=sm_90a -verify-diagnostics

// A staged tile needs the TMA producer: where attn-warp-specialize does not
// apply (here ping_pong with one consumer warpgroup), its copy is refused
// at the conversion, not lowered as cp.async of whole rows.
func.func @unspecialized(%q: memref<?x?x?x128xf16>, %k: memref<?x?x?x128xf16>, %v: memref<?x?x?x128xf16>, %o: memref<?x?x?x128xf16>, %lse: memref<?x?x?xf32>, %bias: memref<?x?x?x?xf16>) {
  // expected-warning @+2 {{warp_specialize: not applied, the copies keep the cp.async schedule of attn-pipeline: ping_pong needs two or more consumer warpgroups (warps >= 8)}}
  // expected-error @+1 {{'attn.async_copy' op has no sm_90a lowering: an asynchronous copy writes swizzled rows; a tile staged by stage_loads is copied by the TMA producer of warp_specialize, which this program did not get (see attn-warp-specialize's warning)}}
  attn.attention ins(%q, %k, %v : memref<?x?x?x128xf16>, memref<?x?x?x128xf16>, memref<?x?x?x128xf16>) bias(%bias : memref<?x?x?x?xf16>) outs(%o, %lse : memref<?x?x?x128xf16>, memref<?x?x?xf32>) {config = #attn.tile_config<block_m = 64, block_n = 80, warps = 4, stages = 2>, gpu_config = #attn.gpu_config<wgmma = true, warp_specialize = true, ping_pong = true, stage_loads = true>}
  return
}
