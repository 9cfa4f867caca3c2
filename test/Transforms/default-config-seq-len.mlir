// RUN: attn-opt %s '--attn-default-config=chip=sm_90a seq-len=2048' | FileCheck %s --check-prefixes=CHECK,SHORT,SHORT256
// RUN: attn-opt %s '--attn-default-config=chip=sm_90a seq-len=4096' | FileCheck %s --check-prefixes=CHECK,SHORT,SHORT256
// RUN: attn-opt %s '--attn-default-config=chip=sm_90a seq-len=8192' | FileCheck %s --check-prefixes=CHECK,SHORT,LONG256
// RUN: attn-opt %s '--attn-default-config=chip=sm_90a seq-len=16384' | FileCheck %s --check-prefixes=CHECK,LONG,LONG256
// RUN: attn-opt %s '--attn-default-config=chip=sm_90a' | FileCheck %s --check-prefixes=CHECK,LONG,LONG256

// The key length the kernel is compiled for (seq-len, or the op's static
// key length, which wins): causal D = 128 on sm_90a up to 8192 keys takes
// the persistent warp-specialized kernel (1.04-1.20x the one-CTA-per-tile
// one at N = 512 .. 8192 on the H200, 0.70-0.71x at 16384), longer or any
// length the one-CTA-per-tile kernel. Causal D = 256 likewise up to 4096
// keys (1.06x at N = 1024 and 4096, 0.64x at 16384). Unmasked D = 128
// does not depend on it.

// CHECK-LABEL: func.func @causal_dynamic
// SHORT: config = #attn.tile_config<block_m = 128, block_n = 128, warps = 8, stages = 2>, gpu_config = #attn.gpu_config<lazy_rescale = true, wgmma = true, overlap_softmax = true, warp_specialize = true, persistent = true, rescale_slack = 8, stage_stores = true>
// LONG: config = #attn.tile_config<block_m = 128, block_n = 128, warps = 8, stages = 2>, gpu_config = #attn.gpu_config<lazy_rescale = true, wgmma = true, overlap_softmax = true, warp_specialize = true, rescale_slack = 8, stage_stores = true>
func.func @causal_dynamic(%q: memref<?x?x?x128xf16>) {
  attn.attention ins(%q, %q, %q : memref<?x?x?x128xf16>, memref<?x?x?x128xf16>, memref<?x?x?x128xf16>)
                 outs(%q : memref<?x?x?x128xf16>) {mask = #attn.mask<causal, bottom_right>}
  return
}

// CHECK-LABEL: func.func @causal_d256_dynamic
// SHORT256: config = #attn.tile_config<block_m = 128, block_n = 64, warps = 8, stages = 2>, gpu_config = #attn.gpu_config<wgmma = true, overlap_softmax = true, warp_specialize = true, persistent = true>
// LONG256: config = #attn.tile_config<block_m = 128, block_n = 64, warps = 8, stages = 2>, gpu_config = #attn.gpu_config<wgmma = true, overlap_softmax = true, warp_specialize = true>, mask
func.func @causal_d256_dynamic(%q: memref<?x?x?x256xbf16>) {
  attn.attention ins(%q, %q, %q : memref<?x?x?x256xbf16>, memref<?x?x?x256xbf16>, memref<?x?x?x256xbf16>)
                 outs(%q : memref<?x?x?x256xbf16>) {mask = #attn.mask<causal, top_left>}
  return
}

// A static key length of 256 is short whatever seq-len says (and takes
// the short-key schedule, peel_last_block, default-config-short-keys.mlir).
// CHECK-LABEL: func.func @causal_static_short
// CHECK: config = #attn.tile_config<block_m = 128, block_n = 128, warps = 8, stages = 2>, gpu_config = #attn.gpu_config<wgmma = true, overlap_softmax = true, warp_specialize = true, persistent = true, peel_last_block = true, stage_stores = true>
func.func @causal_static_short(%q: memref<2x4x256x128xf16>) {
  attn.attention ins(%q, %q, %q : memref<2x4x256x128xf16>, memref<2x4x256x128xf16>, memref<2x4x256x128xf16>)
                 outs(%q : memref<2x4x256x128xf16>) {mask = #attn.mask<causal, bottom_right>}
  return
}

// And 16384 long.
// CHECK-LABEL: func.func @causal_static_long
// CHECK: config = #attn.tile_config<block_m = 128, block_n = 128, warps = 8, stages = 2>, gpu_config = #attn.gpu_config<lazy_rescale = true, wgmma = true, overlap_softmax = true, warp_specialize = true, rescale_slack = 8, stage_stores = true>
func.func @causal_static_long(%q: memref<1x4x16384x128xf16>) {
  attn.attention ins(%q, %q, %q : memref<1x4x16384x128xf16>, memref<1x4x16384x128xf16>, memref<1x4x16384x128xf16>)
                 outs(%q : memref<1x4x16384x128xf16>) {mask = #attn.mask<causal, top_left>}
  return
}

// Both alignments and both element types (each checked and timed on the
// device, results/h200/2026-12-02-persistent-causal.md).
// CHECK-LABEL: func.func @causal_short_top_left
// CHECK: config = #attn.tile_config<block_m = 128, block_n = 128, warps = 8, stages = 2>, gpu_config = #attn.gpu_config<wgmma = true, overlap_softmax = true, warp_specialize = true, persistent = true, peel_last_block = true, stage_stores = true>
func.func @causal_short_top_left(%q: memref<2x4x256x128xf16>) {
  attn.attention ins(%q, %q, %q : memref<2x4x256x128xf16>, memref<2x4x256x128xf16>, memref<2x4x256x128xf16>)
                 outs(%q : memref<2x4x256x128xf16>) {mask = #attn.mask<causal, top_left>}
  return
}
// CHECK-LABEL: func.func @causal_short_bf16
// CHECK: config = #attn.tile_config<block_m = 128, block_n = 128, warps = 8, stages = 2>, gpu_config = #attn.gpu_config<wgmma = true, overlap_softmax = true, warp_specialize = true, persistent = true, peel_last_block = true, stage_stores = true>
func.func @causal_short_bf16(%q: memref<2x4x256x128xbf16>) {
  attn.attention ins(%q, %q, %q : memref<2x4x256x128xbf16>, memref<2x4x256x128xbf16>, memref<2x4x256x128xbf16>)
                 outs(%q : memref<2x4x256x128xbf16>) {mask = #attn.mask<causal, bottom_right>}
  return
}

// Longer than 8192 keys, one CTA per tile.
// CHECK-LABEL: func.func @causal_bf16_top_left_long
// CHECK: gpu_config = #attn.gpu_config<lazy_rescale = true, wgmma = true, overlap_softmax = true, warp_specialize = true, rescale_slack = 8, stage_stores = true>, mask
func.func @causal_bf16_top_left_long(%q: memref<1x4x9000x128xbf16>) {
  attn.attention ins(%q, %q, %q : memref<1x4x9000x128xbf16>, memref<1x4x9000x128xbf16>, memref<1x4x9000x128xbf16>)
                 outs(%q : memref<1x4x9000x128xbf16>) {mask = #attn.mask<causal, top_left>}
  return
}

// CHECK-LABEL: func.func @unmasked
// CHECK: config = #attn.tile_config<block_m = 128, block_n = 128, warps = 8, stages = 2>, gpu_config = #attn.gpu_config<lazy_rescale = true, wgmma = true, overlap_softmax = true, warp_specialize = true, persistent = true, rescale_slack = 8, stage_stores = true>
func.func @unmasked(%q: memref<?x?x?x128xf16>) {
  attn.attention ins(%q, %q, %q : memref<?x?x?x128xf16>, memref<?x?x?x128xf16>, memref<?x?x?x128xf16>)
                 outs(%q : memref<?x?x?x128xf16>)
  return
}
