// The conditional rescale (lazy_rescale with rescale_slack = 8) for an
// unmasked f16 D = 128 bias alone on the database's async_pv kernels, from
// 1024 keys: 1.00-1.02x the same kernels without it on an H100
// (results/h100/2026-12-06-session33-{bias,slack}-pairs.json). Not for a
// bf16 bias (its default kernel with the slack ran 0.961 at 16384 keys,
// results/h100/2026-12-06-session33-bf16def-new-vs-old.json), nor for a
// masked one, a bias beside a softcap, shorter rows or the heuristic's
// kernels (no async_pv), where it was not measured.
// RUN: attn-opt %s --attn-apply-tuning="db=%attn_tuning_dir/tuning-sm_90a.sqlite chip=sm_90a seq-len=1024" \
// RUN:   '--attn-default-config=chip=sm_90a seq-len=1024' | FileCheck %s --check-prefixes=CHECK,SHORT
// RUN: attn-opt %s --attn-apply-tuning="db=%attn_tuning_dir/tuning-sm_90a.sqlite chip=sm_90a seq-len=16384" \
// RUN:   '--attn-default-config=chip=sm_90a seq-len=16384' | FileCheck %s --check-prefixes=CHECK,LONG
// RUN: attn-opt %s --attn-apply-tuning="db=%attn_tuning_dir/tuning-sm_90a.sqlite chip=sm_90a seq-len=512" \
// RUN:   '--attn-default-config=chip=sm_90a seq-len=512' | FileCheck %s --check-prefixes=CHECK,NONE
// RUN: attn-opt %s '--attn-default-config=chip=sm_90a seq-len=4096' | FileCheck %s --check-prefixes=CHECK,NONE

// CHECK-LABEL: func.func @broadcast_f16
// SHORT: gpu_config = #attn.gpu_config<lazy_rescale = true, {{.*}}rescale_slack = 8, async_pv = true
// LONG: gpu_config = #attn.gpu_config<lazy_rescale = true, {{.*}}rescale_slack = 8, async_pv = true
// NONE-NOT: rescale_slack
func.func @broadcast_f16(%q: memref<?x?x?x128xf16>, %bias: memref<1x1x?x?xf16>) {
  attn.attention ins(%q, %q, %q : memref<?x?x?x128xf16>, memref<?x?x?x128xf16>, memref<?x?x?x128xf16>) bias(%bias : memref<1x1x?x?xf16>) outs(%q : memref<?x?x?x128xf16>)
  return
}

// The database's full-bias kernel at 1024 keys has no async_pv.
// CHECK-LABEL: func.func @full_f16
// SHORT-NOT: rescale_slack
// LONG: gpu_config = #attn.gpu_config<lazy_rescale = true, {{.*}}rescale_slack = 8, async_pv = true
// NONE-NOT: rescale_slack
func.func @full_f16(%q: memref<?x?x?x128xf16>, %bias: memref<?x?x?x?xf16>) {
  attn.attention ins(%q, %q, %q : memref<?x?x?x128xf16>, memref<?x?x?x128xf16>, memref<?x?x?x128xf16>) bias(%bias : memref<?x?x?x?xf16>) outs(%q : memref<?x?x?x128xf16>)
  return
}

// CHECK-LABEL: func.func @full_bf16
// CHECK-NOT: rescale_slack
// CHECK: return
func.func @full_bf16(%q: memref<?x?x?x128xbf16>, %bias: memref<?x?x?x?xbf16>) {
  attn.attention ins(%q, %q, %q : memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>) bias(%bias : memref<?x?x?x?xbf16>) outs(%q : memref<?x?x?x128xbf16>)
  return
}

// CHECK-LABEL: func.func @full_f16_causal
// CHECK-NOT: rescale_slack
// CHECK: return
func.func @full_f16_causal(%q: memref<?x?x?x128xf16>, %bias: memref<?x?x?x?xf16>) {
  attn.attention ins(%q, %q, %q : memref<?x?x?x128xf16>, memref<?x?x?x128xf16>, memref<?x?x?x128xf16>) bias(%bias : memref<?x?x?x?xf16>) outs(%q : memref<?x?x?x128xf16>) {mask = #attn.mask<causal, bottom_right>}
  return
}

// CHECK-LABEL: func.func @softcap_bias_f16
// CHECK-NOT: rescale_slack
// CHECK: return
func.func @softcap_bias_f16(%q: memref<?x?x?x128xf16>, %bias: memref<?x?x?x?xf16>) {
  attn.attention ins(%q, %q, %q : memref<?x?x?x128xf16>, memref<?x?x?x128xf16>, memref<?x?x?x128xf16>) bias(%bias : memref<?x?x?x?xf16>) outs(%q : memref<?x?x?x128xf16>) {softcap = 30.0 : f64}
  return
}
