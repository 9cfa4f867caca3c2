// ALiBi, score_mod and mask_mod regions at D = 128 without a bias or a
// softcap take the warp-specialized 128 x 128 kernel on sm_90a (with
// the TMA stores of O that withKeyLengthSchedule gives such kernels):
// persistent when unmasked; under a causal mask not persistent with index
// tiles (ALiBi, score_mod), and for a mask_mod alone the plain causal
// kernels' rule, persistent up to 8192 keys, or at every length where the
// mask_mod narrows the K/V range (MaskModRange.h): the tiles' work is then
// similar and per-program costs dominate. With index tiles, the thread
// ids per K/V loop (loop_local_ids), without which some spill. Against
// the 128 x 64 kernel without a producer that they had, on an H100
// (results/h100/2026-12-06-session34-idx2-*): 1.16-1.42x. With a softcap
// beside them (not measured that way) they keep that kernel.
// RUN: attn-opt %s '--attn-default-config=chip=sm_90a seq-len=4096' | FileCheck %s --check-prefixes=CHECK,MID
// RUN: attn-opt %s '--attn-default-config=chip=sm_90a seq-len=16384' | FileCheck %s --check-prefixes=CHECK,LONG
// RUN: attn-opt %s '--attn-default-config=chip=sm_80' | FileCheck %s --check-prefix=SM80

// CHECK-LABEL: func.func @relpos
// CHECK: tile_config<block_m = 128, block_n = 128, warps = 8, stages = 2>, gpu_config = #attn.gpu_config<loop_local_ids = true, wgmma = true, overlap_softmax = true, warp_specialize = true, persistent = true, stage_stores = true>
// SM80-LABEL: func.func @relpos
// SM80: tile_config<block_m = 64, block_n = 64, warps = 4, stages = 2>
func.func @relpos(%q: memref<?x?x?x128xf16>) {
  attn.attention ins(%q, %q, %q : memref<?x?x?x128xf16>, memref<?x?x?x128xf16>, memref<?x?x?x128xf16>)
                 outs(%q : memref<?x?x?x128xf16>) score_mod {
  ^bb0(%s: f32, %b: index, %h: index, %qi: index, %ki: index):
    %rel = arith.subi %ki, %qi : index
    %reli = arith.index_cast %rel : index to i32
    %relf = arith.sitofp %reli : i32 to f32
    %r = arith.addf %s, %relf : f32
    attn.yield %r : f32
  }
  return
}

// CHECK-LABEL: func.func @alibi_causal
// CHECK: tile_config<block_m = 128, block_n = 128, warps = 8, stages = 2>, gpu_config = #attn.gpu_config<loop_local_ids = true, wgmma = true, overlap_softmax = true, warp_specialize = true, stage_stores = true>, mask
func.func @alibi_causal(%q: memref<?x?x?x128xbf16>, %slopes: memref<?xf32>) {
  attn.attention ins(%q, %q, %q : memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>) alibi_slopes(%slopes : memref<?xf32>)
                 outs(%q : memref<?x?x?x128xbf16>) {mask = #attn.mask<causal, bottom_right>}
  return
}

// CHECK-LABEL: func.func @document_causal
// CHECK: gpu_config = #attn.gpu_config<wgmma = true, overlap_softmax = true, warp_specialize = true, persistent = true, stage_stores = true>, mask
func.func @document_causal(%q: memref<?x?x?x128xf16>) {
  attn.attention ins(%q, %q, %q : memref<?x?x?x128xf16>, memref<?x?x?x128xf16>, memref<?x?x?x128xf16>)
                 outs(%q : memref<?x?x?x128xf16>) {mask = #attn.mask<causal, top_left>} mask_mod {
  ^bb0(%b: index, %h: index, %qi: index, %ki: index):
    %c256 = arith.constant 256 : index
    %dq = arith.divui %qi, %c256 : index
    %dk = arith.divui %ki, %c256 : index
    %same = arith.cmpi eq, %dq, %dk : index
    attn.yield %same : i1
  }
  return
}

// A mask_mod the interval evaluation cannot bound (a remainder of a
// difference that may be negative) keeps the plain causal rule.
// CHECK-LABEL: func.func @striped_causal
// MID: gpu_config = #attn.gpu_config<wgmma = true, overlap_softmax = true, warp_specialize = true, persistent = true, stage_stores = true>
// LONG: gpu_config = #attn.gpu_config<wgmma = true, overlap_softmax = true, warp_specialize = true, stage_stores = true>, mask
func.func @striped_causal(%q: memref<?x?x?x128xf16>) {
  attn.attention ins(%q, %q, %q : memref<?x?x?x128xf16>, memref<?x?x?x128xf16>, memref<?x?x?x128xf16>)
                 outs(%q : memref<?x?x?x128xf16>) {mask = #attn.mask<causal, top_left>} mask_mod {
  ^bb0(%b: index, %h: index, %qi: index, %ki: index):
    %c4 = arith.constant 4 : index
    %c0 = arith.constant 0 : index
    %d = arith.subi %qi, %ki : index
    %r = arith.remsi %d, %c4 : index
    %see = arith.cmpi eq, %r, %c0 : index
    attn.yield %see : i1
  }
  return
}

// With a softcap beside the index tiles: the 128 x 64 kernel, no producer.
// CHECK-LABEL: func.func @alibi_softcap
// CHECK: tile_config<block_m = 128, block_n = 64, warps = 8, stages = 2>, gpu_config = #attn.gpu_config<wgmma = true>
func.func @alibi_softcap(%q: memref<?x?x?x128xf16>, %slopes: memref<?xf32>) {
  attn.attention ins(%q, %q, %q : memref<?x?x?x128xf16>, memref<?x?x?x128xf16>, memref<?x?x?x128xf16>) alibi_slopes(%slopes : memref<?xf32>)
                 outs(%q : memref<?x?x?x128xf16>) {softcap = 30.0 : f64}
  return
}
