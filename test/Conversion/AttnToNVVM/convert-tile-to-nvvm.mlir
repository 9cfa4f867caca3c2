// RUN: attn-opt %s --attn-default-config=chip=sm_90a --attn-tile --attn-split-kv-loop --cse \
// RUN:   --attn-assign-layouts --attn-stage-shared --attn-pipeline --attn-allocate-shared \
// RUN:   --convert-attn-tile-to-nvvm | FileCheck %s

// A causal f16 attention with one K/V stage, from attn.attention down to one
// kernel: the host function is gone (the runtime launches the kernel from
// its attn.launch metadata), each buffer is a pointer and its sizes and
// strides, the launch contract lists attn-tile's shape checks. The pattern
// files have their own tests (elementwise-, memory-, dot-, mask-, reduce-
// and softmax-to-nvvm.mlir).

// CHECK-NOT: func.func
// CHECK-LABEL: gpu.module @attn_kernels
// CHECK: llvm.mlir.global external @attn_smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
// q: pointer, 4 sizes, 4 strides; then k, v, o; lse has rank 3.
// CHECK: gpu.func @causal(%arg0: !llvm.ptr<1>, %arg1: i64, %arg2: i64, %arg3: i64, %arg4: i64, %arg5: i64, %arg6: i64, %arg7: i64, %arg8: i64, %arg9: !llvm.ptr<1>,
// CHECK-SAME: %arg36: !llvm.ptr<1>, %arg37: i64, %arg38: i64, %arg39: i64, %arg40: i64, %arg41: i64, %arg42: i64) kernel
// CHECK-SAME: attn.launch = {block_m = 128 : i64, block_n = 64 : i64, broadcast_sizes = [],
// CHECK-SAME: buffers = [{access = "read", align = 16 : i64, element_type = f16, rank = 4 : i64, roles = ["q"], static_shape = [-1, -1, -1, 64]},
// CHECK-SAME: {access = "write", align = 4 : i64, element_type = f32, rank = 3 : i64, roles = ["lse"], static_shape = [-1, -1, -1]}],
// CHECK-SAME: divisible_sizes = {{\[}}["k.size1", "q.size1"]], equal_sizes = {{\[}}["q.size0", "k.size0"],
// CHECK-SAME: format_version = 2 : i64, lazy_rescale = false, loop_local_ids = false, mask = #attn.mask<causal, top_left>, reverse_kv = false, scale = 1.250000e-01 : f64,
// CHECK-SAME: shared_bytes = 32768 : i64, split_kv = true, stages = 1 : i64, threads = 128 : i64, warps = 4 : i64}
// CHECK-SAME: known_block_size = array<i32: 128, 1, 1>
// CHECK: llvm.mlir.addressof @attn_smem : !llvm.ptr<3>
// The Q block: cp.async of 16-byte chunks, zero-filled past Nq.
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache =  cg, %{{.*}} : !llvm.ptr<3>, !llvm.ptr<1>, i32
// CHECK: nvvm.cp.async.commit.group
// Prologue of the K prefetch: the first visible block's K, if any.
// CHECK: scf.if
// CHECK: nvvm.cp.async.shared.global
// CHECK: nvvm.cp.async.commit.group
// Three K/V loops: masked, unmasked, masked. V of this block is issued
// first; S waits for K (all but the newest group).
// CHECK: scf.for
// CHECK: nvvm.cp.async.commit.group
// CHECK-NEXT: nvvm.cp.async.wait.group 1
// CHECK-NEXT: gpu.barrier
// CHECK: nvvm.ldmatrix %{{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, num = 4 : i32, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>}
// CHECK: nvvm.mma.sync A[{{.*}}] B[{{.*}}] C[{{.*}}] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (vector<2xf16>, vector<2xf16>, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// Once every warp is done with K, the next block's K (one commit group per
// iteration, copy or not).
// CHECK: gpu.barrier
// CHECK: scf.if
// CHECK: nvvm.cp.async.shared.global
// CHECK: }
// CHECK-NEXT: nvvm.cp.async.commit.group
// Row max across the quad that shares a row; 2^(s * scale - max) in one FMA.
// CHECK: gpu.shuffle  xor %{{.*}}, %{{.*}}, %{{.*}} : f32
// CHECK: llvm.intr.fma
// CHECK: llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f32"
// P x V: V through ldmatrix.trans, while the next K may still be in flight.
// CHECK: nvvm.cp.async.wait.group 1
// CHECK-NEXT: gpu.barrier
// CHECK: nvvm.ldmatrix %{{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<col>
// CHECK: nvvm.mma.sync
// CHECK: gpu.barrier
// CHECK-NEXT: scf.yield
// CHECK: scf.for
// CHECK: scf.for
// Normalise and store: O as packed pairs, LSE (log2 of the sum plus the
// maximum) from one lane of each quad.
// CHECK: llvm.call_intrinsic "llvm.nvvm.lg2.approx.f"
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : i32, !llvm.ptr<1>
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : f32, !llvm.ptr<1>
// CHECK: gpu.return
func.func @causal(%q: memref<?x?x?x64xf16>, %k: memref<?x?x?x64xf16>,
                  %v: memref<?x?x?x64xf16>, %o: memref<?x?x?x64xf16>,
                  %lse: memref<?x?x?xf32>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x64xf16>, memref<?x?x?x64xf16>, memref<?x?x?x64xf16>)
                 outs(%o, %lse : memref<?x?x?x64xf16>, memref<?x?x?xf32>)
                 {config = #attn.tile_config<block_m = 128, block_n = 64, warps = 4, stages = 1>,
                  mask = #attn.mask<causal, top_left>}
  return
}
