// attn-assign-layouts on a program it has laid out already changes nothing:
// shared-memory operands of attn.dot (after attn-stage-shared) and a P
// already converted to the dot-operand layout are left as they are (the
// fuzzer found the pass asserting on such a program: it took every dot
// operand for a tensor).
// RUN: attn-opt %s -split-input-file --attn-tile --cse --attn-assign-layouts=chip=sm_90a \
// RUN:   --attn-overlap-softmax --attn-stage-shared > %t.mlir
// RUN: attn-opt %t.mlir -split-input-file --attn-assign-layouts=chip=sm_90a > %t2.mlir
// RUN: diff %t.mlir %t2.mlir
// RUN: FileCheck %s < %t2.mlir

// CHECK-LABEL: func.func @wgmma
// CHECK: attn.dot {{.*}} : !attn.shared<128x128xf16, #attn.swizzled<blocked>>, !attn.shared<96x128xf16, #attn.swizzled<blocked>>
// CHECK: attn.dot {{.*}} : tensor<128x96xf16, #attn.dot_operand<a, #attn.mma<warps = 8, version = 3>>>, !attn.shared<96x128xf16, #attn.swizzled<blocked>>
func.func @wgmma(%q: memref<?x?x?x128xf16>, %k: memref<?x?x?x128xf16>, %v: memref<?x?x?x128xf16>,
                 %o: memref<?x?x?x128xf16>, %b: memref<1x1x?x?xf16>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x128xf16>, memref<?x?x?x128xf16>, memref<?x?x?x128xf16>)
                 bias(%b : memref<1x1x?x?xf16>)
                 outs(%o : memref<?x?x?x128xf16>)
                 {config = #attn.tile_config<block_m = 128, block_n = 96, warps = 8, stages = 2>,
                  gpu_config = #attn.gpu_config<wgmma = true, overlap_softmax = true, warp_specialize = true, async_pv = true>}
  return
}

// -----

// CHECK-LABEL: func.func @mma
// CHECK: attn.dot {{.*}} : !attn.shared<128x64xf16, #attn.swizzled>, !attn.shared<64x64xf16, #attn.swizzled>
// CHECK: attn.dot {{.*}} : tensor<128x64xf16, #attn.dot_operand<a, #attn.mma<warps = 4>>>, !attn.shared<64x64xf16, #attn.swizzled>
func.func @mma(%q: memref<?x?x?x64xf16>, %k: memref<?x?x?x64xf16>, %v: memref<?x?x?x64xf16>, %o: memref<?x?x?x64xf16>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x64xf16>, memref<?x?x?x64xf16>, memref<?x?x?x64xf16>)
                 outs(%o : memref<?x?x?x64xf16>)
                 {config = #attn.tile_config<block_m = 128, block_n = 64, warps = 4, stages = 2>}
  return
}
