// The configuration passes stage a 16-bit bias through shared memory
// (stage_loads, withKeyLengthSchedule) for warp-specialized kernels: the
// TMA producer copies it (the runtime runs the kernel's TMA fallback where
// TMA cannot describe a launch's bias). Not where the key extent is
// static and no multiple of 8 (TMA could never copy its rows), and not
// without warp specialization (sm_80).
// RUN: attn-opt %s --attn-default-config=chip=sm_90a | FileCheck %s
// RUN: attn-opt %s --attn-apply-tuning="db=%attn_tuning_dir/tuning-sm_90a.sqlite chip=sm_90a" \
// RUN:   --attn-default-config=chip=sm_90a | FileCheck %s
// RUN: attn-opt %s --attn-default-config=chip=sm_80 | FileCheck %s --check-prefix=SM80

// CHECK-LABEL: func.func @static_aligned
// CHECK: gpu_config = #attn.gpu_config<{{.*}}warp_specialize = true{{.*}}stage_loads = true, stage_stores = true{{(, group_m = 16)?}}>
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
// CHECK: gpu_config = #attn.gpu_config<{{.*}}warp_specialize = true{{.*}}stage_loads = true, stage_stores = true{{(, group_m = 16)?}}>
func.func @dynamic(%q: memref<?x?x?x128xbf16>, %o: memref<?x?x?x128xbf16>, %bias: memref<?x?x?x?xbf16>) {
  attn.attention ins(%q, %q, %q : memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>) bias(%bias : memref<?x?x?x?xbf16>) outs(%o : memref<?x?x?x128xbf16>)
  return
}

// CHECK-LABEL: func.func @tensors
// CHECK: gpu_config = #attn.gpu_config<{{.*}}stage_loads = true, stage_stores = true{{(, group_m = 16)?}}>
func.func @tensors(%q: tensor<2x4x512x128xbf16>, %bias: tensor<1x1x512x512xbf16>) -> tensor<2x4x512x128xbf16> {
  %o = tensor.empty() : tensor<2x4x512x128xbf16>
  %r = attn.attention ins(%q, %q, %q : tensor<2x4x512x128xbf16>, tensor<2x4x512x128xbf16>, tensor<2x4x512x128xbf16>) bias(%bias : tensor<1x1x512x512xbf16>) outs(%o : tensor<2x4x512x128xbf16>) -> tensor<2x4x512x128xbf16>
  return %r : tensor<2x4x512x128xbf16>
}
