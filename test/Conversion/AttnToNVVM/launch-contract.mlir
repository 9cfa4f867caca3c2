// RUN: attn-opt %s --attn-tile --cse --attn-assign-layouts=chip=sm_90a --attn-stage-shared \
// RUN:   --attn-pipeline --attn-allocate-shared --convert-attn-tile-to-nvvm=chip=sm_90a | FileCheck %s

// Every kernel carries its launch contract: a constant global
// attn_contract_<kernel> of i64 in global memory, which the runtime reads
// with cuModuleGetGlobal and checks the metadata against at load (a JSON
// that does not describe the kernel is refused, naming the field). The
// fields: magic ("attn"), contract version 2, format 2, block_m, block_n,
// warps, stages, threads, shared bytes, D and Dv (0 when dynamic), element
// type (1 = bf16), LSE, mask kind (2 = window), alignment (1 =
// bottom_right), window left and right, number of buffers, persistent (0:
// the runtime must launch the whole grid).

// CHECK: gpu.func @win
// CHECK: llvm.mlir.global external constant @attn_contract_win(dense<[1853125729, 2, 2, 64, 64, 4, 2, 128, {{[0-9]+}}, 128, 64, 1, 1, 2, 1, 32, 0, 5, 0]> : tensor<19xi64>) {addr_space = 1 : i32, alignment = 8 : i64} : !llvm.array<19 x i64>
func.func @win(%q: memref<?x?x?x128xbf16>, %k: memref<?x?x?x128xbf16>,
               %v: memref<?x?x?x64xbf16>, %o: memref<?x?x?x64xbf16>,
               %lse: memref<?x?x?xf32>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>, memref<?x?x?x64xbf16>)
                 outs(%o, %lse : memref<?x?x?x64xbf16>, memref<?x?x?xf32>)
                 {mask = #attn.mask<window, bottom_right, left = 32, right = 0>,
                  config = #attn.tile_config<block_m = 64, block_n = 64, warps = 4, stages = 2>,
                  gpu_config = #attn.gpu_config<wgmma = true>}
  return
}
