// RUN: attn-opt %s --attn-default-config --attn-tile | FileCheck %s

// attn-tile bounds the online softmax (max_bound = c log2 e) where a
// softcap is the only score modification and P keeps f32's exponent range
// (f32, bf16) with 2 c log2 e <= 125, so that exp2 of the lowest row
// maximum against the bound stays a normal number of P's type; and it
// states the scores' range (score_bound = c log2 e) for every P type
// where 2 c log2 e <= 118, which guarded_rescale uses (f16 P).

// CHECK-LABEL: func.func @bf16_cap30
// CHECK: attn.online_softmax {{.*}} {max_bound = 43.2808495 : f32, scale_log2e = 43.2808495 : f32, score_bound = 43.2808495 : f32}
// CHECK-LABEL: func.func @f32_cap5
// CHECK: attn.online_softmax {{.*}} {max_bound = 7.21347522 : f32, scale_log2e = 7.21347522 : f32, score_bound = 7.21347522 : f32}
// f16 P: a row whose scores stay about 10 under the cap would have all its
// p below f16's smallest normal (2^-14). The range still holds.
// CHECK-LABEL: func.func @f16_cap30
// CHECK-NOT: max_bound
// CHECK: attn.online_softmax {{.*}} {scale_log2e = 43.2808495 : f32, score_bound = 43.2808495 : f32}
// 2 c log2 e = 120.3: within max_bound's 125, past score_bound's 118.
// CHECK-LABEL: func.func @bf16_cap41_7
// CHECK: attn.online_softmax {{.*}} {max_bound = 60.1603813 : f32, scale_log2e = 60.1603813 : f32}
// A cap of 50 would leave a row's largest p at e^-100, subnormal in f32.
// CHECK-LABEL: func.func @bf16_cap50
// CHECK-NOT: {{max_bound|score_bound}}
// CHECK: attn.online_softmax
// A bias after the cap unbounds the scores.
// CHECK-LABEL: func.func @bf16_cap30_bias
// CHECK-NOT: {{max_bound|score_bound}}
// CHECK: attn.online_softmax
// CHECK-NOT: {{max_bound|score_bound}}
// CHECK-LABEL: func.func @end
func.func @bf16_cap30(%q: memref<?x?x?x64xbf16>, %o: memref<?x?x?x64xbf16>) {
  attn.attention ins(%q, %q, %q : memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>)
                 outs(%o : memref<?x?x?x64xbf16>) {softcap = 30.0 : f64}
  return
}
func.func @f32_cap5(%q: memref<?x?x?x16xf32>, %o: memref<?x?x?x16xf32>) {
  attn.attention ins(%q, %q, %q : memref<?x?x?x16xf32>, memref<?x?x?x16xf32>, memref<?x?x?x16xf32>)
                 outs(%o : memref<?x?x?x16xf32>) {softcap = 5.0 : f64}
  return
}
func.func @f16_cap30(%q: memref<?x?x?x64xf16>, %o: memref<?x?x?x64xf16>) {
  attn.attention ins(%q, %q, %q : memref<?x?x?x64xf16>, memref<?x?x?x64xf16>, memref<?x?x?x64xf16>)
                 outs(%o : memref<?x?x?x64xf16>) {softcap = 30.0 : f64}
  return
}
func.func @bf16_cap41_7(%q: memref<?x?x?x64xbf16>, %o: memref<?x?x?x64xbf16>) {
  attn.attention ins(%q, %q, %q : memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>)
                 outs(%o : memref<?x?x?x64xbf16>) {softcap = 41.7 : f64}
  return
}
func.func @bf16_cap50(%q: memref<?x?x?x64xbf16>, %o: memref<?x?x?x64xbf16>) {
  attn.attention ins(%q, %q, %q : memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>)
                 outs(%o : memref<?x?x?x64xbf16>) {softcap = 50.0 : f64}
  return
}
func.func @bf16_cap30_bias(%q: memref<?x?x?x64xbf16>, %o: memref<?x?x?x64xbf16>, %b: memref<?x?x?x?xbf16>) {
  attn.attention ins(%q, %q, %q : memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>)
                 bias(%b : memref<?x?x?x?xbf16>) outs(%o : memref<?x?x?x64xbf16>) {softcap = 30.0 : f64}
  return
}
func.func @end() {
  return
}
