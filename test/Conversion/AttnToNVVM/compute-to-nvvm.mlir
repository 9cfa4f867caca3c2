// RUN: attn-opt %s --attn-tile --attn-split-kv-loop --cse --attn-assign-layouts --attn-stage-shared \
// RUN:   --attn-pipeline --attn-allocate-shared --convert-attn-tile-to-nvvm | FileCheck %s

// DotToNVVM, MaskToNVVM, ReduceToNVVM and SoftmaxToNVVM on one bf16 causal
// attention with ALiBi, 64 x 64 tiles and lazy rescaling (4 warps: each
// owns one 16-row m-tile of a 64-row block).

// CHECK-LABEL: gpu.func @causal_alibi_bf16
// CHECK: scf.for
// Q K^T, 64 x 64 x 64 per block: each warp issues 8 n-tiles x 4 k-steps of
// m16n8k16; bf16 pairs travel as i32 and the mma names its PTX types.
// CHECK: nvvm.ldmatrix %{{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, num = 4 : i32, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>}
// CHECK-COUNT-32: nvvm.mma.sync A[{{.*}}] B[{{.*}}] C[{{.*}}] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// ALiBi: the index tiles (attn.iota) are each thread's row and column
// numbers, as integers, then -slope * |j - i| in f32. Each register's
// index is the thread's first one plus a constant, and a difference of two
// such folds the constants: one per-thread difference (the same subi for
// every register, merged later) plus an immediate per register, not a
// column and a row of its own.
// CHECK: %[[CM8:.+]] = arith.constant -8 : index
// CHECK-NEXT: arith.addi %[[D:.+]], %[[CM8]] : index
// CHECK-NEXT: %[[D2:.+]] = arith.subi %[[J0:.+]], %[[I0:.+]] : index
// CHECK-NEXT: %[[CM7:.+]] = arith.constant -7 : index
// CHECK-NEXT: arith.addi %[[D2]], %[[CM7]] : index
// CHECK-NEXT: arith.subi %[[J0]], %[[I0]] : index
// CHECK: arith.sitofp %{{.*}} : i32 to f32
// The causal mask of a diagonal block: per element, a compare of the
// column with the row's last visible key, then -inf where hidden.
// CHECK: %[[NEGINF:.+]] = arith.constant 0xFF800000 : f32
// CHECK: %[[VIS:.+]] = arith.cmpi slt, %{{.*}}, %{{.*}} : i32
// CHECK-NEXT: arith.select %[[VIS]], %{{.*}}, %[[NEGINF]] : f32
// Row maximum: the thread's 16 values per row, then the quad that shares
// the row (lanes 4g..4g+3) with two xor shuffles.
// CHECK: gpu.shuffle  xor %{{.*}}, %c1_i32{{.*}}, %c32_i32{{.*}} : f32
// CHECK: gpu.shuffle  xor %{{.*}}, %c2_i32{{.*}}, %c32_i32{{.*}} : f32
// 2^(s * scale - m) with ex2.approx.
// CHECK: llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f32"
// Lazy rescaling: the accumulator is rescaled only when some lane of the
// warp has a new maximum (a vote), otherwise its registers pass through.
// CHECK: %[[ANY:.+]] = nvvm.vote.sync  any %{{.*}}, %{{.*}} -> i1
// CHECK-NEXT: scf.if %[[ANY]] -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32) {
// CHECK-NEXT: arith.mulf
// P is rounded to bf16 two at a time, the A operand of P V.
// CHECK: arith.truncf %{{.*}} : f32 to bf16
// CHECK: nvvm.mma.sync
// Finalize: 1 / l where l > 0 (or NaN: ugt), and the LSE.
// CHECK: arith.cmpf ugt, %{{.*}}, %{{.*}} : f32
func.func @causal_alibi_bf16(%q: memref<?x?x?x64xbf16>, %k: memref<?x?x?x64xbf16>,
                             %v: memref<?x?x?x64xbf16>, %o: memref<?x?x?x64xbf16>,
                             %slopes: memref<?xf32>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>)
                 alibi_slopes(%slopes : memref<?xf32>)
                 outs(%o : memref<?x?x?x64xbf16>)
                 {config = #attn.tile_config<block_m = 64, block_n = 64, warps = 4, stages = 2>,
                  gpu_config = #attn.gpu_config<lazy_rescale = true>,
                  mask = #attn.mask<causal, top_left>}
  return
}
