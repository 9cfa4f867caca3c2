// RUN: attn-opt %s --split-input-file --attn-lower-to-nvvm="chip=sm_90a format=isa" | FileCheck %s
// RUN: attn-opt %s --split-input-file --attn-lower-to-nvvm="chip=sm_80 format=isa" | FileCheck %s

// Static extents of 1 among a buffer's last two dimensions (one query row,
// one key): the planes attn-stage-shared makes of such a buffer keep more
// unit dimensions than they drop, so only their strides say which were
// dropped. In the kernel the buffers have the launch's strides, and each
// plane's type is inferred again from them (OutlineKernel); the planes kept
// the host memref's static strides before, a type the kernel's buffers do
// not have, and the lowering of the view crashed on it (found by
// utils/fuzz.py's random configurations). Each case compiles to its kernel's
// PTX.

// CHECK: gpu.binary @attn_kernels {{.*}}.entry one_row(
func.func @one_row(%q: memref<1x8x1x128xf16>, %k: memref<1x8x1000x128xf16>,
                   %v: memref<1x8x1000x128xf16>, %o: memref<1x8x1x128xf16>) {
  attn.attention ins(%q, %k, %v : memref<1x8x1x128xf16>, memref<1x8x1000x128xf16>, memref<1x8x1000x128xf16>)
                 outs(%o : memref<1x8x1x128xf16>) {scale = 0.1}
  return
}

// -----

// CHECK: gpu.binary @attn_kernels {{.*}}.entry one_key(
func.func @one_key(%q: memref<2x4x?x128xbf16>, %k: memref<2x4x1x128xbf16>,
                   %v: memref<2x4x1x128xbf16>, %o: memref<2x4x?x128xbf16>,
                   %lse: memref<2x4x?xf32>) {
  attn.attention ins(%q, %k, %v : memref<2x4x?x128xbf16>, memref<2x4x1x128xbf16>, memref<2x4x1x128xbf16>)
                 outs(%o, %lse : memref<2x4x?x128xbf16>, memref<2x4x?xf32>)
                 {mask = #attn.mask<causal, bottom_right>}
  return
}

// -----

// CHECK: gpu.binary @attn_kernels {{.*}}.entry one_of_each(
func.func @one_of_each(%q: memref<1x1x1x64xf16>, %k: memref<1x1x1x64xf16>,
                       %v: memref<1x1x1x64xf16>, %o: memref<1x1x1x64xf16>) {
  attn.attention ins(%q, %k, %v : memref<1x1x1x64xf16>, memref<1x1x1x64xf16>, memref<1x1x1x64xf16>)
                 outs(%o : memref<1x1x1x64xf16>) {softcap = 30.0 : f64}
  return
}
