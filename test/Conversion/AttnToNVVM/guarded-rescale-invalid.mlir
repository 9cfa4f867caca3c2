// RUN: attn-opt %s -split-input-file --attn-tile --attn-split-kv-loop --cse \
// RUN:   --attn-assign-layouts=chip=sm_90a --attn-overlap-softmax --attn-stage-shared \
// RUN:   --attn-warp-specialize --attn-allocate-shared --convert-attn-tile-to-nvvm=chip=sm_90a \
// RUN:   -verify-diagnostics

// guarded_rescale starts the reference at the scores' lower bound: without
// a score_bound on the online softmax (here no softcap) there is none, and
// the knob is refused at the softmax rather than ignored.
func.func @unbounded(%q: memref<?x?x?x64xf16>, %k: memref<?x?x?x64xf16>, %v: memref<?x?x?x64xf16>, %o: memref<?x?x?x64xf16>) {
  // expected-error @+1 {{'attn.online_softmax' op has no sm_90a lowering: guarded_rescale needs the softmax's score_bound (a softcap as the only score modification)}}
  attn.attention ins(%q, %k, %v : memref<?x?x?x64xf16>, memref<?x?x?x64xf16>, memref<?x?x?x64xf16>)
                 outs(%o : memref<?x?x?x64xf16>)
                 {config = #attn.tile_config<block_m = 128, block_n = 64, warps = 8, stages = 2>,
                  gpu_config = #attn.gpu_config<lazy_rescale = true, wgmma = true, overlap_softmax = true, warp_specialize = true, guarded_rescale = true>}
  return
}

// -----

// A softcap of 50: 2 c log2 e = 144 > 118, so 2^(t - ref) could leave f32.
func.func @cap50(%q: memref<?x?x?x64xf16>, %k: memref<?x?x?x64xf16>, %v: memref<?x?x?x64xf16>, %o: memref<?x?x?x64xf16>) {
  // expected-error @+1 {{guarded_rescale needs the softmax's score_bound}}
  attn.attention ins(%q, %k, %v : memref<?x?x?x64xf16>, memref<?x?x?x64xf16>, memref<?x?x?x64xf16>)
                 outs(%o : memref<?x?x?x64xf16>)
                 {softcap = 50.0 : f64, config = #attn.tile_config<block_m = 128, block_n = 64, warps = 8, stages = 2>,
                  gpu_config = #attn.gpu_config<lazy_rescale = true, wgmma = true, overlap_softmax = true, warp_specialize = true, guarded_rescale = true>}
  return
}
