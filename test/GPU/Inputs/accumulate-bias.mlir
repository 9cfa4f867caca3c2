// The f16 D = 128 [1, 1, N, N] bias kernel at its tuned N = 16384
// configuration, with accumulate_bias (accumulate-bias-ptxas.test).
func.func @bias_acc(%q: memref<?x?x?x128xf16>, %k: memref<?x?x?x128xf16>,
                    %v: memref<?x?x?x128xf16>, %o: memref<?x?x?x128xf16>,
                    %lse: memref<?x?x?xf32>, %bias: memref<1x1x?x?xf16>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x128xf16>, memref<?x?x?x128xf16>, memref<?x?x?x128xf16>)
                 bias(%bias : memref<1x1x?x?xf16>)
                 outs(%o, %lse : memref<?x?x?x128xf16>, memref<?x?x?xf32>)
                 {config = #attn.tile_config<block_m = 128, block_n = 112, warps = 8, stages = 2>,
                  gpu_config = #attn.gpu_config<lazy_rescale = true, wgmma = true, overlap_softmax = true, warp_specialize = true, persistent = true, rescale_slack = 8, async_pv = true, stage_loads = true, stage_stores = true, group_m = 16, accumulate_bias = true>}
  return
}
