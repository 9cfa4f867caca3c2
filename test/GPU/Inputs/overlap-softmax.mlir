// Kernels with #attn.gpu_config<overlap_softmax>, for overlap-softmax-ptxas.test.

func.func @d64_none(%q: memref<?x?x?x64xf16>, %k: memref<?x?x?x64xf16>, %v: memref<?x?x?x64xf16>, %o: memref<?x?x?x64xf16>, %lse: memref<?x?x?xf32>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x64xf16>, memref<?x?x?x64xf16>, memref<?x?x?x64xf16>)
                 outs(%o, %lse : memref<?x?x?x64xf16>, memref<?x?x?xf32>)
                 {config = #attn.tile_config<block_m = 128, block_n = 128, warps = 8, stages = 2>,
                  gpu_config = #attn.gpu_config<wgmma = true, overlap_softmax = true>}
  return
}

func.func @d128_causal(%q: memref<?x?x?x128xbf16>, %k: memref<?x?x?x128xbf16>, %v: memref<?x?x?x128xbf16>, %o: memref<?x?x?x128xbf16>, %lse: memref<?x?x?xf32>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>)
                 outs(%o, %lse : memref<?x?x?x128xbf16>, memref<?x?x?xf32>)
                 {mask = #attn.mask<causal, bottom_right>, config = #attn.tile_config<block_m = 128, block_n = 128, warps = 8, stages = 2>,
                  gpu_config = #attn.gpu_config<wgmma = true, overlap_softmax = true, loop_local_ids = true>}
  return
}

func.func @d128_none(%q: memref<?x?x?x128xf16>, %k: memref<?x?x?x128xf16>, %v: memref<?x?x?x128xf16>, %o: memref<?x?x?x128xf16>, %lse: memref<?x?x?xf32>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x128xf16>, memref<?x?x?x128xf16>, memref<?x?x?x128xf16>)
                 outs(%o, %lse : memref<?x?x?x128xf16>, memref<?x?x?xf32>)
                 {config = #attn.tile_config<block_m = 128, block_n = 64, warps = 8, stages = 2>,
                  gpu_config = #attn.gpu_config<wgmma = true, overlap_softmax = true>}
  return
}

func.func @d256_none(%q: memref<?x?x?x256xf16>, %k: memref<?x?x?x256xf16>, %v: memref<?x?x?x256xf16>, %o: memref<?x?x?x256xf16>, %lse: memref<?x?x?xf32>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x256xf16>, memref<?x?x?x256xf16>, memref<?x?x?x256xf16>)
                 outs(%o, %lse : memref<?x?x?x256xf16>, memref<?x?x?xf32>)
                 {config = #attn.tile_config<block_m = 64, block_n = 64, warps = 4, stages = 2>,
                  gpu_config = #attn.gpu_config<wgmma = true, overlap_softmax = true>}
  return
}

// early_qk: both products in flight under the softmax (a softcap's, whose
// MUFU work equals the products' at D = 128); f16 with the rescale, bf16
// with the bounded softmax, causal.
func.func @d128_softcap_early_qk(%q: memref<?x?x?x128xf16>, %k: memref<?x?x?x128xf16>, %v: memref<?x?x?x128xf16>, %o: memref<?x?x?x128xf16>, %lse: memref<?x?x?xf32>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x128xf16>, memref<?x?x?x128xf16>, memref<?x?x?x128xf16>)
                 outs(%o, %lse : memref<?x?x?x128xf16>, memref<?x?x?xf32>)
                 {softcap = 30.0 : f64, config = #attn.tile_config<block_m = 128, block_n = 96, warps = 8, stages = 2>,
                  gpu_config = #attn.gpu_config<wgmma = true, overlap_softmax = true, warp_specialize = true, persistent = true, async_pv = true, early_qk = true>}
  return
}

func.func @d128_softcap_causal_early_qk(%q: memref<?x?x?x128xbf16>, %k: memref<?x?x?x128xbf16>, %v: memref<?x?x?x128xbf16>, %o: memref<?x?x?x128xbf16>, %lse: memref<?x?x?xf32>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>)
                 outs(%o, %lse : memref<?x?x?x128xbf16>, memref<?x?x?xf32>)
                 {mask = #attn.mask<causal, bottom_right>, softcap = 30.0 : f64,
                  config = #attn.tile_config<block_m = 128, block_n = 112, warps = 8, stages = 2>,
                  gpu_config = #attn.gpu_config<wgmma = true, overlap_softmax = true, warp_specialize = true, async_pv = true, early_qk = true>}
  return
}

// Three consumer warpgroups (192 rows on 12 warps, 160 registers each)
// with async_pv.
func.func @d128_softcap_three_warpgroups(%q: memref<?x?x?x128xf16>, %k: memref<?x?x?x128xf16>, %v: memref<?x?x?x128xf16>, %o: memref<?x?x?x128xf16>, %lse: memref<?x?x?xf32>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x128xf16>, memref<?x?x?x128xf16>, memref<?x?x?x128xf16>)
                 outs(%o, %lse : memref<?x?x?x128xf16>, memref<?x?x?xf32>)
                 {softcap = 30.0 : f64, config = #attn.tile_config<block_m = 192, block_n = 80, warps = 12, stages = 2>,
                  gpu_config = #attn.gpu_config<wgmma = true, overlap_softmax = true, warp_specialize = true, persistent = true, async_pv = true>}
  return
}

// loads_ahead: the next block's staged bias tile read under its Q K^T,
// before the wait for its scores, and carried in registers across the
// iteration (the first block's is the bias ring's lead).
func.func @d128_bias_loads_ahead(%q: memref<?x?x?x128xf16>, %k: memref<?x?x?x128xf16>, %v: memref<?x?x?x128xf16>, %o: memref<?x?x?x128xf16>, %bias: memref<1x1x?x?xf16>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x128xf16>, memref<?x?x?x128xf16>, memref<?x?x?x128xf16>)
                 bias(%bias : memref<1x1x?x?xf16>)
                 outs(%o : memref<?x?x?x128xf16>)
                 {config = #attn.tile_config<block_m = 128, block_n = 96, warps = 8, stages = 2>,
                  gpu_config = #attn.gpu_config<wgmma = true, overlap_softmax = true, warp_specialize = true, persistent = true, async_pv = true, stage_loads = true, group_m = 16, loads_ahead = true>}
  return
}
