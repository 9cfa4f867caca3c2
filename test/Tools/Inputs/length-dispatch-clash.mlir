func.func @causal(%q: memref<?x?x?x128xf16>) {
  attn.attention ins(%q, %q, %q : memref<?x?x?x128xf16>, memref<?x?x?x128xf16>, memref<?x?x?x128xf16>)
                 outs(%q : memref<?x?x?x128xf16>) {mask = #attn.mask<causal, bottom_right>}
  return
}
func.func @causal__n8192() {
  return
}
