func.func @b_f16_d128_bias_f32(%q: memref<?x?x?x128xf16>, %k: memref<?x?x?x128xf16>, %v: memref<?x?x?x128xf16>, %o: memref<?x?x?x128xf16>, %lse: memref<?x?x?xf32>, %bias: memref<?x?x?x?xf32>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x128xf16>, memref<?x?x?x128xf16>, memref<?x?x?x128xf16>) bias(%bias : memref<?x?x?x?xf32>) outs(%o, %lse : memref<?x?x?x128xf16>, memref<?x?x?xf32>)
  return
}
