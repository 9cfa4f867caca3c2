// The configuration passes stage a bias through shared memory
// (stage_loads, withKeyLengthSchedule) where TMA can always copy it: a
// warp-specialized kernel whose 16-bit bias has a static key extent that
// is a multiple of 8. A dynamic or unaligned key extent keeps the register
// loads (the runtime would refuse a bias TMA cannot describe, which the
// unstaged kernel runs), and so does a kernel without warp specialization.
// RUN: attn-opt %s --attn-default-config=chip=sm_90a | FileCheck %s
// RUN: attn-opt %s --attn-apply-tuning="db=%attn_tuning_dir/tuning-sm_90a.sqlite chip=sm_90a" \
// RUN:   --attn-default-config=chip=sm_90a | FileCheck %s
// RUN: attn-opt %s --attn-default-config=chip=sm_80 | FileCheck %s --check-prefix=SM80

// CHECK-LABEL: func.func @static_aligned
// CHECK: gpu_config = #attn.gpu_config<{{.*}}warp_specialize = true{{.*}}stage_loads = true>
// SM80-LABEL: func.func @static_aligned
// SM80-NOT: stage_loads
func.func @static_aligned(%q: memref<?x?x?x128xf16>, %k: memref<?x?x1024x128xf16>, %o: memref<?x?x?x128xf16>, %bias: memref<?x1x?x1024xf16>) {
  attn.attention ins(%q, %k, %k : memref<?x?x?x128xf16>, memref<?x?x1024x128xf16>, memref<?x?x1024x128xf16>) bias(%bias : memref<?x1x?x1024xf16>) outs(%o : memref<?x?x?x128xf16>)
  return
}

// CHECK-LABEL: func.func @static_unaligned
// CHECK-NOT: stage_loads
// CHECK: return
func.func @static_unaligned(%q: memref<?x?x?x128xf16>, %k: memref<?x?x1000x128xf16>, %o: memref<?x?x?x128xf16>, %bias: memref<?x?x?x1004xf16>) {
  attn.attention ins(%q, %q, %q : memref<?x?x?x128xf16>, memref<?x?x?x128xf16>, memref<?x?x?x128xf16>) bias(%bias : memref<?x?x?x1004xf16>) outs(%o : memref<?x?x?x128xf16>)
  return
}

// CHECK-LABEL: func.func @dynamic
// CHECK-NOT: stage_loads
// CHECK: return
func.func @dynamic(%q: memref<?x?x?x128xbf16>, %o: memref<?x?x?x128xbf16>, %bias: memref<?x?x?x?xbf16>) {
  attn.attention ins(%q, %q, %q : memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>) bias(%bias : memref<?x?x?x?xbf16>) outs(%o : memref<?x?x?x128xbf16>)
  return
}

// CHECK-LABEL: func.func @tensors
// CHECK: gpu_config = #attn.gpu_config<{{.*}}stage_loads = true>
func.func @tensors(%q: tensor<2x4x512x128xbf16>, %bias: tensor<1x1x512x512xbf16>) -> tensor<2x4x512x128xbf16> {
  %o = tensor.empty() : tensor<2x4x512x128xbf16>
  %r = attn.attention ins(%q, %q, %q : tensor<2x4x512x128xbf16>, tensor<2x4x512x128xbf16>, tensor<2x4x512x128xbf16>) bias(%bias : tensor<1x1x512x512xbf16>) outs(%o : tensor<2x4x512x128xbf16>) -> tensor<2x4x512x128xbf16>
  return %r : tensor<2x4x512x128xbf16>
}
