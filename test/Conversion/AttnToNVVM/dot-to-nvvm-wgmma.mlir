// RUN: attn-opt %s --attn-tile --cse --attn-assign-layouts=chip=sm_90a --attn-stage-shared \
// RUN:   --attn-pipeline --attn-allocate-shared --convert-attn-tile-to-nvvm=chip=sm_90a | FileCheck %s

// The wgmma lowering of attn.dot (#attn.mma<version = 3>): f16, D = 128,
// 128 x 64 tiles on 8 warps (two warpgroups of 64 rows), one masked K/V
// loop.

// CHECK-LABEL: gpu.func @wgmma_f16
// cp.async writes are made visible to the async proxy wgmma reads through.
// CHECK: nvvm.cp.async.wait.group
// CHECK-NEXT: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// Descriptors of K-major operands: LBO 16 (unused), SBO 1024 (one 8-row
// atom), 128-byte swizzle: (1 << 16) | (64 << 32) | (1 << 62).
// CHECK: arith.constant 4611686293305360384 : i64
// S = Q K^T: eight k-steps of m64n64k16, both operands from shared memory,
// B K-major (col), after a fence, then committed and waited for. Its
// accumulator is the zero tile: not materialized, the first k-step
// overwrites an undefined one (scale-d 0), the others accumulate.
// CHECK: %[[UNDEF:[^ ]+]] = llvm.mlir.undef : !llvm.struct<(f32,
// CHECK-NEXT: nvvm.wgmma.fence.aligned
// CHECK-NEXT: nvvm.wgmma.mma_async %{{.*}}, %{{.*}}, %[[UNDEF]], <m = 64, n = 64, k = 16>, D[<f32>, <zero>], A[<f16>, <one>, <row>], B[<f16>, <one>, <col>]
// CHECK-COUNT-7: nvvm.wgmma.mma_async %{{.*}}, %{{.*}}, %{{.*}}, <m = 64, n = 64, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <col>]
// CHECK-NEXT: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// No read of the accumulator may be scheduled above the wait: the 32
// registers go through an empty asm statement with side effects.
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "", "=f,{{.*}},=f,0,1,{{.*}},31"
// V [64 keys, 128 columns] MN-major: LBO = the 64-column block stride
// (64 rows x 128 bytes = 8192), SBO 1024: (512 << 16) | (64 << 32) | (1 << 62).
// CHECK: arith.constant 4611686293338849280 : i64
// O += P V: P from registers (the RS form, inline PTX), V transposed
// (imm-trans-b = 1), four k-steps of m64n128k16: 64 accumulator outputs
// tied to their inputs, four A registers and the descriptor.
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-COUNT-4: llvm.inline_asm has_side_effects asm_dialect = att "{\0A.reg .pred p;\0Asetp.ne.b32 p, 1, 0;\0Awgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {$0, {{.*}}, $63}, {$64, $65, $66, $67}, $68, p, 1, 1, 1;\0A}\0A", "=f,{{.*}},=f,r,r,r,r,l,0,1,{{.*}},63"
// CHECK-NEXT: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "", "=f,{{.*}},=f,0,1,{{.*}},63"
func.func @wgmma_f16(%q: memref<?x?x?x128xf16>, %k: memref<?x?x?x128xf16>,
                     %v: memref<?x?x?x128xf16>, %o: memref<?x?x?x128xf16>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x128xf16>, memref<?x?x?x128xf16>, memref<?x?x?x128xf16>)
                 outs(%o : memref<?x?x?x128xf16>)
                 {config = #attn.tile_config<block_m = 128, block_n = 64, warps = 8, stages = 2, split_kv = false>,
                  gpu_config = #attn.gpu_config<wgmma = true>}
  return
}
