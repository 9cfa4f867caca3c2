// attn-apply-tuning adds the key-length schedule (withKeyLengthSchedule)
// to what the database holds, as attn-default-config does to the
// heuristic's choice: peel_last_block up to 1024 keys, lazy_rescale with
// rescale_slack = 8 beyond at D = Dv = 128, both for overlapped
// warp-specialized kernels only (an entry without the overlap keeps its
// eager rescale: the vote inside the softmax cost 1-8% there,
// results/h200/2026-12-03-session12-r8.md).
// RUN: rm -rf %t && mkdir -p %t
// RUN: attn-tuning-db import %S/Inputs/schedule-db.json %t/db.sqlite
// RUN: attn-opt %s --attn-apply-tuning="db=%t/db.sqlite chip=sm_90a" | FileCheck %s

// CHECK-LABEL: func.func @plain_long
// CHECK: attn.tuning = "db exact 4096", config = #attn.tile_config<block_m = 128, block_n = 176, warps = 8, stages = 2>, gpu_config = #attn.gpu_config<wgmma = true, warp_specialize = true, persistent = true, stage_stores = true>}
func.func @plain_long(%q: memref<1x16x4096x128xf16>) {
  attn.attention ins(%q, %q, %q : memref<1x16x4096x128xf16>, memref<1x16x4096x128xf16>, memref<1x16x4096x128xf16>)
                 outs(%q : memref<1x16x4096x128xf16>)
  return
}

// CHECK-LABEL: func.func @causal_long
// CHECK: attn.tuning = "db exact 4096", config = #attn.tile_config<block_m = 128, block_n = 144, warps = 8, stages = 2>, gpu_config = #attn.gpu_config<lazy_rescale = true, wgmma = true, overlap_softmax = true, warp_specialize = true, persistent = true, rescale_slack = 8, stage_stores = true>
func.func @causal_long(%q: memref<1x16x4096x128xf16>) {
  attn.attention ins(%q, %q, %q : memref<1x16x4096x128xf16>, memref<1x16x4096x128xf16>, memref<1x16x4096x128xf16>)
                 outs(%q : memref<1x16x4096x128xf16>) {mask = #attn.mask<causal, bottom_right>}
  return
}

// CHECK-LABEL: func.func @causal_short
// CHECK: attn.tuning = "db exact 1024", config = #attn.tile_config<block_m = 128, block_n = 144, warps = 8, stages = 2>, gpu_config = #attn.gpu_config<wgmma = true, overlap_softmax = true, warp_specialize = true, persistent = true, peel_last_block = true, stage_stores = true>
func.func @causal_short(%q: memref<1x16x1024x128xf16>) {
  attn.attention ins(%q, %q, %q : memref<1x16x1024x128xf16>, memref<1x16x1024x128xf16>, memref<1x16x1024x128xf16>)
                 outs(%q : memref<1x16x1024x128xf16>) {mask = #attn.mask<causal, bottom_right>}
  return
}

// An entry that chose guarded_rescale (an f16 softcap) keeps it and gets
// no slack: the two rules for moving the reference exclude each other.
// CHECK-LABEL: func.func @softcap_guarded
// CHECK: attn.tuning = "db exact 4096", config = #attn.tile_config<block_m = 192, block_n = 80, warps = 12, stages = 2>, gpu_config = #attn.gpu_config<lazy_rescale = true, wgmma = true, overlap_softmax = true, warp_specialize = true, async_pv = true, stage_stores = true, guarded_rescale = true>
func.func @softcap_guarded(%q: memref<1x16x4096x128xf16>) {
  attn.attention ins(%q, %q, %q : memref<1x16x4096x128xf16>, memref<1x16x4096x128xf16>, memref<1x16x4096x128xf16>)
                 outs(%q : memref<1x16x4096x128xf16>) {softcap = 30.0 : f64}
  return
}
