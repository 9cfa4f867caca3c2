// A causal attention whose K/V loops run last block first (reverse_kv).
func.func @reversed(%q: memref<?x?x?x64xf16>, %k: memref<?x?x?x64xf16>,
                    %v: memref<?x?x?x64xf16>, %o: memref<?x?x?x64xf16>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x64xf16>, memref<?x?x?x64xf16>, memref<?x?x?x64xf16>)
                 outs(%o : memref<?x?x?x64xf16>)
                 {config = #attn.tile_config<block_m = 64, block_n = 64, warps = 4, stages = 2>,
                  gpu_config = #attn.gpu_config<reverse_kv = true>,
                  mask = #attn.mask<causal, top_left>}
  return
}
