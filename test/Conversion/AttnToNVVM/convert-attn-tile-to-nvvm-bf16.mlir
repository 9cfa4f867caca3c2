// RUN: attn-opt %s --attn-default-config --attn-tile --attn-split-kv-loop --cse \
// RUN:   --convert-attn-template-to-nvvm | FileCheck %s

// bf16 pairs travel as i32 and the mma names its PTX types (NVVM cannot
// tell them from s32 by type); D = 256 takes 64 x 64 blocks with one K/V
// stage (Q, K, V: 3 x 32 KiB) and no mask means no kv loop needs element
// masks.

// CHECK-LABEL: gpu.func @plain
// CHECK-SAME: element_type = bf16
// CHECK-SAME: head_dim = 256 : i64
// CHECK-SAME: mask = #attn.mask<none>
// CHECK-SAME: shared_bytes = 98304 : i64
// CHECK: nvvm.mma.sync A[{{.*}}] B[{{.*}}] C[{{.*}}] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// P is rounded to bf16 and packed two to a register.
// CHECK: arith.truncf %{{.*}} : f32 to bf16
// CHECK: llvm.bitcast %{{.*}} : vector<2xbf16> to i32
func.func @plain(%q: memref<2x8x300x256xbf16>, %k: memref<2x8x300x256xbf16>,
                 %v: memref<2x8x300x256xbf16>, %o: memref<2x8x300x256xbf16>) {
  attn.attention ins(%q, %k, %v : memref<2x8x300x256xbf16>, memref<2x8x300x256xbf16>, memref<2x8x300x256xbf16>)
                 outs(%o : memref<2x8x300x256xbf16>)
  return
}
