// The configuration passes give a persistent kernel whose bias is
// broadcast over batches or heads (extent 1 where the query's is not) the
// grouped tile order (group_m = 16, withKeyLengthSchedule): the CTAs at
// work then share the bias's rows. The shipped database makes these bias
// kernels persistent; the heuristic does not (no group_m there).
// RUN: attn-opt %s --attn-apply-tuning="db=%attn_tuning_dir/tuning-sm_90a.sqlite chip=sm_90a" \
// RUN:   --attn-default-config=chip=sm_90a | FileCheck %s --check-prefixes=CHECK,DB
// RUN: attn-opt %s --attn-default-config=chip=sm_90a | FileCheck %s --check-prefixes=CHECK,HEUR

// A bias shared by every batch and head.
// CHECK-LABEL: func.func @all_shared
// DB: gpu_config = #attn.gpu_config<{{.*}}persistent = true{{.*}}, group_m = 16>
// HEUR-NOT: group_m
func.func @all_shared(%q: memref<?x?x?x128xf16>, %o: memref<?x?x?x128xf16>, %bias: memref<1x1x?x?xf16>) {
  attn.attention ins(%q, %q, %q : memref<?x?x?x128xf16>, memref<?x?x?x128xf16>, memref<?x?x?x128xf16>) bias(%bias : memref<1x1x?x?xf16>) outs(%o : memref<?x?x?x128xf16>)
  return
}

// Shared by the heads of a batch.
// CHECK-LABEL: func.func @heads_shared
// DB: group_m = 16
// HEUR-NOT: group_m
func.func @heads_shared(%q: tensor<2x16x1024x128xbf16>, %bias: tensor<2x1x1024x1024xbf16>) -> tensor<2x16x1024x128xbf16> {
  %o = tensor.empty() : tensor<2x16x1024x128xbf16>
  %r = attn.attention ins(%q, %q, %q : tensor<2x16x1024x128xbf16>, tensor<2x16x1024x128xbf16>, tensor<2x16x1024x128xbf16>) bias(%bias : tensor<2x1x1024x1024xbf16>) outs(%o : tensor<2x16x1024x128xbf16>) -> tensor<2x16x1024x128xbf16>
  return %r : tensor<2x16x1024x128xbf16>
}

// A bias of extent 1 where the query's extent is 1 too is not shared
// (one batch here), nor one of every batch and head, nor one whose
// extents are not known when compiling.
// CHECK-LABEL: func.func @one_batch
// CHECK-NOT: group_m
// CHECK: return
func.func @one_batch(%q: tensor<1x16x1024x128xf16>, %bias: tensor<1x16x1024x1024xf16>) -> tensor<1x16x1024x128xf16> {
  %o = tensor.empty() : tensor<1x16x1024x128xf16>
  %r = attn.attention ins(%q, %q, %q : tensor<1x16x1024x128xf16>, tensor<1x16x1024x128xf16>, tensor<1x16x1024x128xf16>) bias(%bias : tensor<1x16x1024x1024xf16>) outs(%o : tensor<1x16x1024x128xf16>) -> tensor<1x16x1024x128xf16>
  return %r : tensor<1x16x1024x128xf16>
}

// CHECK-LABEL: func.func @full
// CHECK-NOT: group_m
// CHECK: return
func.func @full(%q: tensor<2x16x1024x128xf16>, %bias: tensor<2x16x1024x1024xf16>) -> tensor<2x16x1024x128xf16> {
  %o = tensor.empty() : tensor<2x16x1024x128xf16>
  %r = attn.attention ins(%q, %q, %q : tensor<2x16x1024x128xf16>, tensor<2x16x1024x128xf16>, tensor<2x16x1024x128xf16>) bias(%bias : tensor<2x16x1024x1024xf16>) outs(%o : tensor<2x16x1024x128xf16>) -> tensor<2x16x1024x128xf16>
  return %r : tensor<2x16x1024x128xf16>
}

// CHECK-LABEL: func.func @dynamic
// CHECK-NOT: group_m
// CHECK: return
func.func @dynamic(%q: memref<?x?x?x128xf16>, %o: memref<?x?x?x128xf16>, %bias: memref<?x?x?x?xf16>) {
  attn.attention ins(%q, %q, %q : memref<?x?x?x128xf16>, memref<?x?x?x128xf16>, memref<?x?x?x128xf16>) bias(%bias : memref<?x?x?x?xf16>) outs(%o : memref<?x?x?x128xf16>)
  return
}

// An explicit group_m stays.
// CHECK-LABEL: func.func @explicit
// CHECK: group_m = 4>
func.func @explicit(%q: memref<?x?x?x128xf16>, %o: memref<?x?x?x128xf16>, %bias: memref<1x1x?x?xf16>) {
  attn.attention ins(%q, %q, %q : memref<?x?x?x128xf16>, memref<?x?x?x128xf16>, memref<?x?x?x128xf16>) bias(%bias : memref<1x1x?x?xf16>) outs(%o : memref<?x?x?x128xf16>)
                 {config = #attn.tile_config<block_m = 128, block_n = 112, warps = 8, stages = 2>,
                  gpu_config = #attn.gpu_config<wgmma = true, overlap_softmax = true, warp_specialize = true, persistent = true, async_pv = true, group_m = 4>}
  return
}
