// A causal f16 D = 64 attention for the attn-tune tests.
func.func @attn(%q: memref<?x?x?x64xf16>, %k: memref<?x?x?x64xf16>,
                %v: memref<?x?x?x64xf16>, %o: memref<?x?x?x64xf16>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x64xf16>, memref<?x?x?x64xf16>, memref<?x?x?x64xf16>)
                 outs(%o : memref<?x?x?x64xf16>) {mask = #attn.mask<causal, top_left>}
  return
}
