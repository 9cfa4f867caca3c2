// RUN: attn-opt %s --attn-tile --cse --attn-assign-layouts=chip=sm_90a --attn-overlap-softmax \
// RUN:   -verify-diagnostics | FileCheck %s

// overlap_softmax needs wgmma products (async products exist only there):
// on mma.sync the chain is left as it is, with a warning at the loop.

// CHECK-LABEL: func.func @mma_sync
// CHECK-NOT: async
// CHECK-NOT: attn.dot_wait
// CHECK: attn.finalize
func.func @mma_sync(%q: memref<?x?x?x64xf16>, %k: memref<?x?x?x64xf16>,
                    %v: memref<?x?x?x64xf16>, %o: memref<?x?x?x64xf16>) {
  // expected-warning @+1 {{overlap_softmax: K/V loop not overlapped: the products are not wgmma (#attn.mma<version = 3>)}}
  attn.attention ins(%q, %k, %v : memref<?x?x?x64xf16>, memref<?x?x?x64xf16>, memref<?x?x?x64xf16>)
                 outs(%o : memref<?x?x?x64xf16>)
                 {config = #attn.tile_config<block_m = 64, block_n = 64, warps = 4, stages = 2, split_kv = false>,
                  gpu_config = #attn.gpu_config<overlap_softmax = true>}
  return
}
