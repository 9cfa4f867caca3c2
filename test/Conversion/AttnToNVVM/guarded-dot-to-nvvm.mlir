// RUN: attn-opt %s --attn-assign-layouts --attn-stage-shared --attn-pipeline --attn-allocate-shared \
// RUN:   --convert-attn-tile-to-nvvm | FileCheck %s --check-prefix=SM80
// RUN: sed -e 's/warps = 4, stages = 1>}/warps = 4, stages = 1>, gpu_config = #attn.gpu_config<wgmma = true>}/' %s \
// RUN:   | attn-opt --attn-assign-layouts=chip=sm_90a --attn-stage-shared --attn-pipeline --attn-allocate-shared \
// RUN:   --convert-attn-tile-to-nvvm=chip=sm_90a | FileCheck %s --check-prefix=SM90

// Guarded products (`attn.dot ... if %g`): acc + a b when %g holds, acc
// otherwise. A hand-written tile program whose two products are guarded.
// - mma.sync (sm_80): the products are computed and each of the thread's
//   32 result registers selected against the accumulator's;
// - wgmma (sm_90a): one inline-PTX statement per product that branches
//   over its four wgmma when the guard is false, the guard in a predicate
//   register ("b"), the accumulator tied to the outputs; no select (a
//   select would write the product's registers, and ptxas then
//   serializes the kernel's wgmma).

// SM80-LABEL: gpu.func @guarded
// SM80: scf.for
// SM80: %[[G:.+]] = arith.cmpi ult
// SM80: nvvm.mma.sync
// SM80-COUNT-32: arith.select %[[G]], %{{.*}}, %{{.*}} : f32
// SM80: nvvm.mma.sync
// SM80-COUNT-32: arith.select %[[G]], %{{.*}}, %{{.*}} : f32

// SM90-LABEL: gpu.func @guarded
// SM90: scf.for
// SM90: %[[G:.+]] = arith.cmpi ult
// SM90: nvvm.wgmma.fence.aligned
// Q K^T, both operands in shared memory: a descriptor pair per k-step.
// SM90-NOT: nvvm.wgmma.mma_async
// SM90: llvm.inline_asm has_side_effects asm_dialect = att "{{.*}}@!$40 bra.uni SKIP;\0Awgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0, {{.*}}, $31}, $32, $33, p, 1, 1, 0, 0;{{.*}}wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0, {{.*}}, $31}, $38, $39, p, 1, 1, 0, 0;\0ASKIP:{{.*}}", "=f,{{.*}},=f,l,l,l,l,l,l,l,l,b,0,{{.*}},31" {{.*}}, %[[G]],
// SM90-NOT: arith.select %[[G]]
// P V, A from registers: four registers and a descriptor per k-step.
// SM90: nvvm.wgmma.fence.aligned
// SM90: llvm.inline_asm has_side_effects asm_dialect = att "{{.*}}@!$52 bra.uni SKIP;\0Awgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0, {{.*}}, $31}, {$32, $33, $34, $35}, $36, p, 1, 1, 1;{{.*}}wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0, {{.*}}, $31}, {$47, $48, $49, $50}, $51, p, 1, 1, 1;\0ASKIP:{{.*}}", "=f,{{.*}},=f,r,r,r,r,l,{{.*}},l,b,0,{{.*}},31" {{.*}}, %[[G]],
// SM90-NOT: arith.select %[[G]]
// SM90: attn_smem
!q = memref<?x?x?x64xf16>
func.func @guarded(%q: !q, %k: !q, %v: !q, %o: !q) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %b = memref.dim %q, %c0 : !q
  %h = memref.dim %q, %c1 : !q
  %nq = memref.dim %q, %c2 : !q
  %nk = memref.dim %k, %c2 : !q
  %gm = arith.ceildivui %nq, %c64 : index
  %gbh = arith.muli %b, %h : index
  %nb = arith.ceildivui %nk, %c64 : index
  attn.program (%pm, %pbh) in (%gm, %gbh)
      buffers(q = %q : !q, k = %k : !q, v = %v : !q, o = %o : !q)
      attributes {config = #attn.tile_config<block_m = 64, block_n = 64, warps = 4, stages = 1>} {
    %bi = arith.divui %pbh, %h : index
    %hi = arith.remui %pbh, %h : index
    %r0 = arith.muli %pm, %c64 : index
    %qt = attn.load %q[%bi, %hi, %r0, %c0] : !q -> tensor<64x64xf16>
    %m0 = arith.constant dense<0xFF800000> : tensor<64xf32>
    %l0 = arith.constant dense<0.0> : tensor<64xf32>
    %a0 = arith.constant dense<0.0> : tensor<64x64xf32>
    %r:3 = scf.for %j = %c0 to %nb step %c1 iter_args(%m = %m0, %l = %l0, %acc = %a0)
        -> (tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>) {
      %col = arith.muli %j, %c64 : index
      %g = arith.cmpi ult, %j, %c2 : index
      %kt = attn.load %k[%bi, %hi, %col, %c0] : !q -> tensor<64x64xf16>
      %s = attn.dot %qt, %kt, %a0 if %g transpose_b : tensor<64x64xf16>, tensor<64x64xf16> -> tensor<64x64xf32>
      %masked = attn.mask %s rows %r0 of %nq cols %col of %nk {mask = #attn.mask<none>} : tensor<64x64xf32>
      %p, %nm, %nl, %na = attn.online_softmax %masked, %m, %l, %acc {scale_log2e = 1.442695 : f32}
          : tensor<64x64xf32>, tensor<64xf32>, tensor<64x64xf32>
      %p16 = arith.truncf %p : tensor<64x64xf32> to tensor<64x64xf16>
      %vt = attn.load %v[%bi, %hi, %col, %c0] : !q -> tensor<64x64xf16>
      %acc2 = attn.dot %p16, %vt, %na if %g : tensor<64x64xf16>, tensor<64x64xf16> -> tensor<64x64xf32>
      scf.yield %nm, %nl, %acc2 : tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>
    }
    %out, %lse = attn.finalize %r#2, %r#0, %r#1 : tensor<64x64xf32>, tensor<64xf32>
    %o16 = arith.truncf %out : tensor<64x64xf32> to tensor<64x64xf16>
    attn.store %o16, %o[%bi, %hi, %r0, %c0] : tensor<64x64xf16>, !q
  }
  return
}
