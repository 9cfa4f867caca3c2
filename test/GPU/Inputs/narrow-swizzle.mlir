// Staged biases whose tiles are no multiple of 64 columns, for
// narrow-swizzle-ptxas.test: the database's form for a broadcast f16 bias
// at D = 128 (128 x 112, async_pv, persistent) and a bf16 128 x 96 tile.
func.func @nsw_112(%q: memref<?x?x?x128xf16>, %k: memref<?x?x?x128xf16>,
                   %v: memref<?x?x?x128xf16>, %o: memref<?x?x?x128xf16>,
                   %lse: memref<?x?x?xf32>, %bias: memref<1x1x?x?xf16>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x128xf16>, memref<?x?x?x128xf16>, memref<?x?x?x128xf16>)
                 bias(%bias : memref<1x1x?x?xf16>)
                 outs(%o, %lse : memref<?x?x?x128xf16>, memref<?x?x?xf32>)
                 {config = #attn.tile_config<block_m = 128, block_n = 112, warps = 8, stages = 2>,
                  gpu_config = #attn.gpu_config<wgmma = true, overlap_softmax = true, warp_specialize = true, persistent = true, async_pv = true, stage_loads = true>}
  return
}

func.func @nsw_96(%q: memref<?x?x?x128xbf16>, %k: memref<?x?x?x128xbf16>,
                  %v: memref<?x?x?x128xbf16>, %o: memref<?x?x?x128xbf16>,
                  %lse: memref<?x?x?xf32>, %bias: memref<?x?x?x?xbf16>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>)
                 bias(%bias : memref<?x?x?x?xbf16>)
                 outs(%o, %lse : memref<?x?x?x128xbf16>, memref<?x?x?xf32>)
                 {config = #attn.tile_config<block_m = 128, block_n = 96, warps = 8, stages = 2>,
                  gpu_config = #attn.gpu_config<wgmma = true, overlap_softmax = true, warp_specialize = true, persistent = true, stage_loads = true>}
  return
}
