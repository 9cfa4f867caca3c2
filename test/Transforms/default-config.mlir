// RUN: attn-opt %s --attn-default-config | FileCheck %s --check-prefixes=CHECK,CPU,NOT90
// RUN: attn-opt %s '--attn-default-config=chip=sm_90a' | FileCheck %s --check-prefixes=CHECK,SM90
// RUN: attn-opt %s '--attn-default-config=chip=sm_80' | FileCheck %s --check-prefixes=CHECK,SM80,NOT90

// The heuristic (measured on the H200, docs/perf-log.md): 4 warps; with
// Dmax = max(D, Dv): 128 x 64, 2 stages up to 64; up to 128, 2 stages and
// 128 x 64 blocks with lazy rescaling (and the K/V order and per-loop
// thread ids with which that kernel assembles without spills on the chip,
// sm_90a unless told otherwise) without a mask or with a causal one,
// 64 x 64 with a window or if D != Dv; 64 x 64, 1 stage above (64 x 32
// for 192 with a smaller head dim; per-loop thread ids on a GPU at D = 256 without a
// mask). An existing configuration is kept. sm_90a: the dots on wgmma
// for D = Dv in {64, 128, 256}: 8 warps, 128 x 128 up to D = 128 (128 x 64
// with a bias, or index tiles beside a softcap, at D = 128) without a window; one warpgroup and one
// stage for causal D = 128 (64 x 128) and D = 256 (64 x 64); with a window
// 64 x 64 on 4 warps (one stage at D = 128 and 256, one loop at D = 256). D = Dv = 192:
// 128 x 80 warp-specialized and overlapped (persistent when unmasked); 192 with a smaller
// Dv: 128 x 64 on 8 warps; D != Dv: 64 x 128 (both <= 128) or 64 x 64 (256 on a side), one
// warpgroup, one stage.

// CHECK-LABEL: func.func @fills_config
// CHECK: attn.attention
// NOT90-SAME: config = #attn.tile_config<block_m = 128, block_n = 64, warps = 4, stages = 2>
// SM90-SAME: config = #attn.tile_config<block_m = 128, block_n = 128, warps = 8, stages = 2>, gpu_config = #attn.gpu_config<wgmma = true>
// CHECK-SAME: mask = #attn.mask<causal, top_left>
func.func @fills_config(%q: memref<?x?x?x64xf16>, %o: memref<?x?x?x64xf16>) {
  attn.attention ins(%q, %q, %q : memref<?x?x?x64xf16>, memref<?x?x?x64xf16>, memref<?x?x?x64xf16>)
                 outs(%o : memref<?x?x?x64xf16>) {mask = #attn.mask<causal, top_left>}
  return
}

// Works on tensors as well: the config is attached before bufferization.
// CHECK-LABEL: func.func @fills_config_tensor
// (A static key length of 16: the short-key schedule, peel_last_block.)
// CHECK: attn.attention
// NOT90-SAME: config = #attn.tile_config<block_m = 128, block_n = 64, warps = 4, stages = 2>
// SM90-SAME: config = #attn.tile_config<block_m = 128, block_n = 128, warps = 8, stages = 2>, gpu_config = #attn.gpu_config<wgmma = true, overlap_softmax = true, warp_specialize = true, persistent = true, peel_last_block = true, stage_stores = true>
// SM80-SAME: gpu_config = #attn.gpu_config<lazy_rescale = true>
// Without a chip (the CPU) there are no GPU knobs to choose.
// CPU-NOT: gpu_config
func.func @fills_config_tensor(%q: tensor<1x2x16x128xbf16>) -> tensor<1x2x16x128xbf16> {
  %r = attn.attention ins(%q, %q, %q : tensor<1x2x16x128xbf16>, tensor<1x2x16x128xbf16>, tensor<1x2x16x128xbf16>)
                      outs(%q : tensor<1x2x16x128xbf16>) -> tensor<1x2x16x128xbf16>
  return %r : tensor<1x2x16x128xbf16>
}

// CHECK-LABEL: func.func @keeps_config
// CHECK: attn.attention
// CHECK-SAME: config = #attn.tile_config<block_m = 128, block_n = 16, warps = 8, stages = 3>
// CHECK-NOT: tile_config
func.func @keeps_config(%q: memref<?x?x?x64xf16>, %o: memref<?x?x?x64xf16>) {
  attn.attention ins(%q, %q, %q : memref<?x?x?x64xf16>, memref<?x?x?x64xf16>, memref<?x?x?x64xf16>)
                 outs(%o : memref<?x?x?x64xf16>)
                 {config = #attn.tile_config<block_m = 128, block_n = 16, warps = 8, stages = 3>}
  return
}

// CHECK-LABEL: func.func @large_head_dim
// CHECK: attn.attention
// NOT90-SAME: config = #attn.tile_config<block_m = 64, block_n = 64, warps = 4, stages = 1>
// SM90-SAME: config = #attn.tile_config<block_m = 128, block_n = 64, warps = 8, stages = 2>, gpu_config = #attn.gpu_config<wgmma = true, overlap_softmax = true, warp_specialize = true, persistent = true>
// SM80-SAME: gpu_config = #attn.gpu_config<loop_local_ids = true>
func.func @large_head_dim(%q: memref<?x?x?x256xf16>, %o: memref<?x?x?x256xf16>) {
  attn.attention ins(%q, %q, %q : memref<?x?x?x256xf16>, memref<?x?x?x256xf16>, memref<?x?x?x256xf16>)
                 outs(%o : memref<?x?x?x256xf16>)
  return
}

// The value head dim counts too (it sizes the accumulator): D = 128 with
// Dv = 256 takes the large-head-dim choice.
// CHECK-LABEL: func.func @head_dim_128
// CHECK: attn.attention
// CHECK-SAME: config = #attn.tile_config<block_m = 64, block_n = 64, warps = 4, stages = 1>
// SM90-SAME: gpu_config = #attn.gpu_config<wgmma = true>
func.func @head_dim_128(%q: memref<?x?x?x128xf32>, %v: memref<?x?x?x256xf32>) {
  attn.attention ins(%q, %q, %v : memref<?x?x?x128xf32>, memref<?x?x?x128xf32>, memref<?x?x?x256xf32>)
                 outs(%v : memref<?x?x?x256xf32>)
  return
}

// A dynamic head dim takes the small-D choice; attn-tile rejects it later.
// CHECK-LABEL: func.func @dynamic_head_dim
// CHECK: attn.attention
// CHECK-SAME: config = #attn.tile_config<block_m = 64, block_n = 64, warps = 4, stages = 2>
func.func @dynamic_head_dim(%q: memref<?x?x?x?xf32>) {
  attn.attention ins(%q, %q, %q : memref<?x?x?x?xf32>, memref<?x?x?x?xf32>, memref<?x?x?x?xf32>)
                 outs(%q : memref<?x?x?x?xf32>)
  return
}

// D = 128 with a window: 64 x 64 (the 128 x 64 kernel spills for some
// extents; 128 x 32 does not, but is 4-5% slower); on sm_90a one stage.
// CHECK-LABEL: func.func @head_dim_128_window
// CHECK: attn.attention
// NOT90-SAME: config = #attn.tile_config<block_m = 64, block_n = 64, warps = 4, stages = 2>
// SM90-SAME: config = #attn.tile_config<block_m = 64, block_n = 64, warps = 4, stages = 1>, gpu_config = #attn.gpu_config<wgmma = true>
// SM80-NOT: gpu_config = #attn.gpu_config<wgmma
func.func @head_dim_128_window(%q: memref<?x?x?x128xf16>) {
  attn.attention ins(%q, %q, %q : memref<?x?x?x128xf16>, memref<?x?x?x128xf16>, memref<?x?x?x128xf16>)
                 outs(%q : memref<?x?x?x128xf16>) {mask = #attn.mask<window, top_left, left = 8, right = 8>}
  return
}

// D = 128, bottom-right causal: last block first on sm_80; wgmma on sm_90a.
// CHECK-LABEL: func.func @head_dim_128_causal_bottom_right
// CHECK: attn.attention
// NOT90-SAME: config = #attn.tile_config<block_m = 128, block_n = 64, warps = 4, stages = 2>
// SM90-SAME: config = #attn.tile_config<block_m = 128, block_n = 128, warps = 8, stages = 2>, gpu_config = #attn.gpu_config<lazy_rescale = true, wgmma = true, overlap_softmax = true, warp_specialize = true, rescale_slack = 8, stage_stores = true>
// SM80-SAME: gpu_config = #attn.gpu_config<lazy_rescale = true, reverse_kv = true>
func.func @head_dim_128_causal_bottom_right(%q: memref<?x?x?x128xf16>) {
  attn.attention ins(%q, %q, %q : memref<?x?x?x128xf16>, memref<?x?x?x128xf16>, memref<?x?x?x128xf16>)
                 outs(%q : memref<?x?x?x128xf16>) {mask = #attn.mask<causal, bottom_right>}
  return
}

// D = 128, top-left causal: last block first on sm_80; wgmma on sm_90a.
// CHECK-LABEL: func.func @head_dim_128_causal_top_left
// CHECK: attn.attention
// NOT90-SAME: config = #attn.tile_config<block_m = 128, block_n = 64, warps = 4, stages = 2>
// SM90-SAME: config = #attn.tile_config<block_m = 128, block_n = 128, warps = 8, stages = 2>, gpu_config = #attn.gpu_config<lazy_rescale = true, wgmma = true, overlap_softmax = true, warp_specialize = true, rescale_slack = 8, stage_stores = true>
// SM80-SAME: gpu_config = #attn.gpu_config<lazy_rescale = true, reverse_kv = true>
func.func @head_dim_128_causal_top_left(%q: memref<?x?x?x128xf16>) {
  attn.attention ins(%q, %q, %q : memref<?x?x?x128xf16>, memref<?x?x?x128xf16>, memref<?x?x?x128xf16>)
                 outs(%q : memref<?x?x?x128xf16>) {mask = #attn.mask<causal, top_left>}
  return
}

// D = Dv = 128 without a mask and without LSE (on sm_90 the mma.sync kernel
// needs the reverse order and per-loop ids to stay free of spills).
// CHECK-LABEL: func.func @head_dim_128_no_lse
// CHECK: attn.attention
// NOT90-SAME: config = #attn.tile_config<block_m = 128, block_n = 64, warps = 4, stages = 2>
// SM90-SAME: config = #attn.tile_config<block_m = 128, block_n = 128, warps = 8, stages = 2>, gpu_config = #attn.gpu_config<lazy_rescale = true, wgmma = true, overlap_softmax = true, warp_specialize = true, persistent = true, rescale_slack = 8, stage_stores = true>
// SM80-SAME: gpu_config = #attn.gpu_config<lazy_rescale = true>
func.func @head_dim_128_no_lse(%q: memref<?x?x?x128xf16>) {
  attn.attention ins(%q, %q, %q : memref<?x?x?x128xf16>, memref<?x?x?x128xf16>, memref<?x?x?x128xf16>)
                 outs(%q : memref<?x?x?x128xf16>)
  return
}

// D != Dv up to 128: 64 x 64 on mma.sync (128-row tiles spill); on sm_90a
// 64 x 128 on one warpgroup with wgmma.
// CHECK-LABEL: func.func @mixed_head_dims
// CHECK: attn.attention
// NOT90-SAME: config = #attn.tile_config<block_m = 64, block_n = 64, warps = 4, stages = 2>
// SM90-SAME: config = #attn.tile_config<block_m = 64, block_n = 128, warps = 4, stages = 1>, gpu_config = #attn.gpu_config<wgmma = true>
func.func @mixed_head_dims(%q: memref<?x?x?x64xf16>, %v: memref<?x?x?x128xf16>) {
  attn.attention ins(%q, %q, %v : memref<?x?x?x64xf16>, memref<?x?x?x64xf16>, memref<?x?x?x128xf16>)
                 outs(%v : memref<?x?x?x128xf16>) {mask = #attn.mask<causal, top_left>}
  return
}

// D = 192 with Dv = 64: 64 x 32, 1 stage on mma.sync; on sm_90a 128 x 64
// on 8 warps with wgmma.
// CHECK-LABEL: func.func @head_dim_192_64
// CHECK: attn.attention
// NOT90-SAME: config = #attn.tile_config<block_m = 64, block_n = 32, warps = 4, stages = 1>
// SM90-SAME: config = #attn.tile_config<block_m = 128, block_n = 64, warps = 8, stages = 2>, gpu_config = #attn.gpu_config<wgmma = true>
func.func @head_dim_192_64(%q: memref<?x?x?x192xf16>, %v: memref<?x?x?x64xf16>) {
  attn.attention ins(%q, %q, %v : memref<?x?x?x192xf16>, memref<?x?x?x192xf16>, memref<?x?x?x64xf16>)
                 outs(%v : memref<?x?x?x64xf16>)
  return
}

// D = Dv = 192: on sm_90a the warp-specialized overlapped 128 x 80 kernel
// (the tuning database's choice from 1024 keys on), persistent when
// unmasked, not under a causal mask.
// CHECK-LABEL: func.func @head_dim_192
// CHECK: attn.attention
// NOT90-SAME: config = #attn.tile_config<block_m = 64, block_n = 64, warps = 4, stages = 1>
// SM90-SAME: config = #attn.tile_config<block_m = 128, block_n = 80, warps = 8, stages = 2>, gpu_config = #attn.gpu_config<wgmma = true, overlap_softmax = true, warp_specialize = true, persistent = true>
// CHECK: attn.attention
// SM90-SAME: config = #attn.tile_config<block_m = 128, block_n = 80, warps = 8, stages = 2>, gpu_config = #attn.gpu_config<wgmma = true, overlap_softmax = true, warp_specialize = true>
func.func @head_dim_192(%q: memref<?x?x?x192xbf16>) {
  attn.attention ins(%q, %q, %q : memref<?x?x?x192xbf16>, memref<?x?x?x192xbf16>, memref<?x?x?x192xbf16>)
                 outs(%q : memref<?x?x?x192xbf16>)
  attn.attention ins(%q, %q, %q : memref<?x?x?x192xbf16>, memref<?x?x?x192xbf16>, memref<?x?x?x192xbf16>)
                 outs(%q : memref<?x?x?x192xbf16>) {mask = #attn.mask<causal, bottom_right>}
  return
}

// D > 128 with a window: one masked K/V loop (split_kv = false), for
// compile time.
// CHECK-LABEL: func.func @head_dim_256_window
// CHECK: attn.attention
// CHECK-SAME: config = #attn.tile_config<block_m = 64, block_n = 64, warps = 4, stages = 1, split_kv = false>
// SM90-SAME: gpu_config = #attn.gpu_config<wgmma = true>
func.func @head_dim_256_window(%q: memref<?x?x?x256xf16>) {
  attn.attention ins(%q, %q, %q : memref<?x?x?x256xf16>, memref<?x?x?x256xf16>, memref<?x?x?x256xf16>)
                 outs(%q : memref<?x?x?x256xf16>) {mask = #attn.mask<window, bottom_right, left = 256, right = 0>}
  return
}

// A softcap keeps the warp-specialized D = 128 kernels (persistent when
// unmasked), measured so on the device; with f16 P, for any key length,
// the conditional rescale too (default-config-softcap-slack.mlir).
// CHECK-LABEL: func.func @head_dim_128_softcap
// CHECK: attn.attention
// SM90-SAME: gpu_config = #attn.gpu_config<lazy_rescale = true, wgmma = true, overlap_softmax = true, warp_specialize = true, persistent = true, rescale_slack = 8, stage_stores = true>
func.func @head_dim_128_softcap(%q: memref<?x?x?x128xf16>) {
  attn.attention ins(%q, %q, %q : memref<?x?x?x128xf16>, memref<?x?x?x128xf16>, memref<?x?x?x128xf16>)
                 outs(%q : memref<?x?x?x128xf16>) {softcap = 30.0 : f64}
  return
}

// A bias at D = 128 takes the warp-specialized 128 x 64 kernel (not
// persistent), measured so on the device, with the bias staged through
// shared memory by the TMA producer (withKeyLengthSchedule); ALiBi's index
// tiles do not.
// CHECK-LABEL: func.func @head_dim_128_bias
// CHECK: attn.attention
// SM90-SAME: config = #attn.tile_config<block_m = 128, block_n = 64, warps = 8, stages = 2>, gpu_config = #attn.gpu_config<wgmma = true, overlap_softmax = true, warp_specialize = true, stage_loads = true, stage_stores = true>
// SM80-SAME: config = #attn.tile_config<block_m = 64, block_n = 64, warps = 4, stages = 2>
func.func @head_dim_128_bias(%q: memref<?x?x?x128xf16>, %b: memref<?x?x?x?xf16>) {
  attn.attention ins(%q, %q, %q : memref<?x?x?x128xf16>, memref<?x?x?x128xf16>, memref<?x?x?x128xf16>) bias(%b : memref<?x?x?x?xf16>)
                 outs(%q : memref<?x?x?x128xf16>)
  return
}

// A mask_mod region (as ALiBi and score_mod regions, without a bias or a
// softcap; default-config-index-mods.mlir) takes the warp-specialized
// 128 x 128 kernel, persistent when unmasked. On sm_80 one that narrows
// the K/V range (three K/V loops) takes 64 x 64: 128 x 64 spills.
// CHECK-LABEL: func.func @head_dim_128_mask_mod
// CHECK: attn.attention
// SM90-SAME: config = #attn.tile_config<block_m = 128, block_n = 128, warps = 8, stages = 2>, gpu_config = #attn.gpu_config<wgmma = true, overlap_softmax = true, warp_specialize = true, persistent = true, stage_stores = true>
// SM80-SAME: config = #attn.tile_config<block_m = 64, block_n = 64, warps = 4, stages = 2>, gpu_config = #attn.gpu_config<lazy_rescale = true>
func.func @head_dim_128_mask_mod(%q: memref<?x?x?x128xf16>) {
  attn.attention ins(%q, %q, %q : memref<?x?x?x128xf16>, memref<?x?x?x128xf16>, memref<?x?x?x128xf16>)
                 outs(%q : memref<?x?x?x128xf16>)
                 mask_mod {
  ^bb0(%b: index, %h: index, %qi: index, %ki: index):
    %see = arith.cmpi sle, %ki, %qi : index
    attn.yield %see : i1
  }
  return
}

// So does a mask_mod region the interval evaluation cannot bound (a
// bitwise and of the indices).
// CHECK-LABEL: func.func @head_dim_128_opaque_mask_mod
// CHECK: attn.attention
// SM90-SAME: config = #attn.tile_config<block_m = 128, block_n = 128, warps = 8, stages = 2>, gpu_config = #attn.gpu_config<wgmma = true, overlap_softmax = true, warp_specialize = true, persistent = true, stage_stores = true>
// SM80-SAME: config = #attn.tile_config<block_m = 128, block_n = 64, warps = 4, stages = 2>, gpu_config = #attn.gpu_config<lazy_rescale = true>
func.func @head_dim_128_opaque_mask_mod(%q: memref<?x?x?x128xf16>) {
  attn.attention ins(%q, %q, %q : memref<?x?x?x128xf16>, memref<?x?x?x128xf16>, memref<?x?x?x128xf16>)
                 outs(%q : memref<?x?x?x128xf16>)
                 mask_mod {
  ^bb0(%b: index, %h: index, %qi: index, %ki: index):
    %z = arith.constant 0 : index
    %both = arith.andi %qi, %ki : index
    %see = arith.cmpi ne, %both, %z : index
    attn.yield %see : i1
  }
  return
}

// An unknown chip is refused.
// RUN: not attn-opt %s '--attn-default-config=chip=sm_86' 2>&1 | FileCheck %s --check-prefix=CHIP
// CHIP: error: attn-default-config: no defaults for chip 'sm_86' (known: sm_80, sm_90, sm_90a; empty for the CPU)
