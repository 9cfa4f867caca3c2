// RUN: attn-opt %s '--attn-default-config=chip=sm_90a seq-len=512' | FileCheck %s --check-prefixes=CHECK,P128,P256
// RUN: attn-opt %s '--attn-default-config=chip=sm_90a seq-len=1024' | FileCheck %s --check-prefixes=CHECK,P128,N256
// RUN: attn-opt %s '--attn-default-config=chip=sm_90a seq-len=2048' | FileCheck %s --check-prefixes=CHECK,N128,N256
// RUN: attn-opt %s '--attn-default-config=chip=sm_90a' | FileCheck %s --check-prefixes=CHECK,N128,N256

// The key-length schedule (withKeyLengthSchedule). Short keys: overlapped
// warp-specialized kernels compiled for at most 1024 keys (512 at D = 256)
// peel the last K/V block off the loops (peel_last_block), measured 1.04-1.15x
// at N = 512 and 1.01-1.04x at 1024 but 0.93-1.00x at 4096 in persistent
// kernels (D = 256 0.975x at 1024). Kernels that are not overlapped and
// warp-specialized do not take it.
// Long keys (more than 1024, or any length): the D = Dv = 128 kernels
// without score modifications rescale lazily with a slack of 8
// (rescale_slack: 1.02-1.06x at N >= 4096, 0.98-0.99x at 1024), the
// D = 256 ones do not (ptxas spills with it there).

// CHECK-LABEL: func.func @d128
// P128: gpu_config = #attn.gpu_config<wgmma = true, overlap_softmax = true, warp_specialize = true, persistent = true, peel_last_block = true, stage_stores = true>
// N128: gpu_config = #attn.gpu_config<lazy_rescale = true, wgmma = true, overlap_softmax = true, warp_specialize = true, persistent = true, rescale_slack = 8, stage_stores = true>}
func.func @d128(%q: memref<?x?x?x128xbf16>) {
  attn.attention ins(%q, %q, %q : memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>)
                 outs(%q : memref<?x?x?x128xbf16>)
  return
}

// CHECK-LABEL: func.func @d256
// P256: gpu_config = #attn.gpu_config<wgmma = true, overlap_softmax = true, warp_specialize = true, persistent = true, peel_last_block = true>
// N256: gpu_config = #attn.gpu_config<wgmma = true, overlap_softmax = true, warp_specialize = true, persistent = true>}
func.func @d256(%q: memref<?x?x?x256xf16>) {
  attn.attention ins(%q, %q, %q : memref<?x?x?x256xf16>, memref<?x?x?x256xf16>, memref<?x?x?x256xf16>)
                 outs(%q : memref<?x?x?x256xf16>)
  return
}

// A bf16 softcap: no slack at any length (its softmax has no running
// maximum to move); an f16 one takes it beyond 1024 keys
// (default-config-softcap-slack.mlir).
// CHECK-LABEL: func.func @d128_softcap
// CHECK-NOT: rescale_slack
// CHECK: return
func.func @d128_softcap(%q: memref<?x?x?x128xbf16>) {
  attn.attention ins(%q, %q, %q : memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>)
                 outs(%q : memref<?x?x?x128xbf16>) {softcap = 30.0 : f64}
  return
}

// A window (one-warpgroup kernel, not warp-specialized): never.
// CHECK-LABEL: func.func @window
// CHECK-NOT: peel_last_block
// CHECK: return
func.func @window(%q: memref<?x?x?x128xf16>) {
  attn.attention ins(%q, %q, %q : memref<?x?x?x128xf16>, memref<?x?x?x128xf16>, memref<?x?x?x128xf16>)
                 outs(%q : memref<?x?x?x128xf16>) {mask = #attn.mask<window, bottom_right, left = 256, right = 0>}
  return
}

// A configuration given with the op is left as it is.
// CHECK-LABEL: func.func @given
// CHECK: gpu_config = #attn.gpu_config<wgmma = true, overlap_softmax = true, warp_specialize = true>}
func.func @given(%q: memref<?x?x?x128xf16>) {
  attn.attention ins(%q, %q, %q : memref<?x?x?x128xf16>, memref<?x?x?x128xf16>, memref<?x?x?x128xf16>)
                 outs(%q : memref<?x?x?x128xf16>)
                 {config = #attn.tile_config<block_m = 128, block_n = 128, warps = 8, stages = 2>,
                  gpu_config = #attn.gpu_config<wgmma = true, overlap_softmax = true, warp_specialize = true>}
  return
}
