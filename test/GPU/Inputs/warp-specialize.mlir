// The sm_90a defaults that are warp-specialized (DefaultConfig.cpp); the
// unmasked D = 128 one is persistent.
func.func @ws_none_d128(%q: memref<?x?x?x128xbf16>, %k: memref<?x?x?x128xbf16>,
                        %v: memref<?x?x?x128xbf16>, %o: memref<?x?x?x128xbf16>,
                        %lse: memref<?x?x?xf32>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>)
                 outs(%o, %lse : memref<?x?x?x128xbf16>, memref<?x?x?xf32>)
  return
}
func.func @ws_causal_d128(%q: memref<?x?x?x128xf16>, %k: memref<?x?x?x128xf16>,
                          %v: memref<?x?x?x128xf16>, %o: memref<?x?x?x128xf16>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x128xf16>, memref<?x?x?x128xf16>, memref<?x?x?x128xf16>)
                 outs(%o : memref<?x?x?x128xf16>) {mask = #attn.mask<causal, bottom_right>}
  return
}
func.func @ws_none_d256(%q: memref<?x?x?x256xf16>, %k: memref<?x?x?x256xf16>,
                        %v: memref<?x?x?x256xf16>, %o: memref<?x?x?x256xf16>,
                        %lse: memref<?x?x?xf32>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x256xf16>, memref<?x?x?x256xf16>, memref<?x?x?x256xf16>)
                 outs(%o, %lse : memref<?x?x?x256xf16>, memref<?x?x?xf32>)
  return
}
// Not a default: the next block's Q K^T under the softmax, warp-specialized.
func.func @ws_overlap_d128(%q: memref<?x?x?x128xf16>, %k: memref<?x?x?x128xf16>,
                           %v: memref<?x?x?x128xf16>, %o: memref<?x?x?x128xf16>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x128xf16>, memref<?x?x?x128xf16>, memref<?x?x?x128xf16>)
                 outs(%o : memref<?x?x?x128xf16>)
                 {mask = #attn.mask<causal, bottom_right>,
                  config = #attn.tile_config<block_m = 128, block_n = 128, warps = 8, stages = 2>,
                  gpu_config = #attn.gpu_config<wgmma = true, warp_specialize = true, overlap_softmax = true>}
  return
}
