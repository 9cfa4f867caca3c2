// An mma.sync candidate that spills is compiled again in the forms the
// register knobs give it (reverse_kv, loop_local_ids, both: the sm_80
// lowering's options), and the first that assembles without spills takes
// its place, named with its knobs and with what the enumerated form got.
// Causal f16 D = 128 on sm_80: 128 x 64 on four warps with lazy rescaling
// spills a few bytes and fits run last block first (the heuristic's
// configuration for this key); 128 x 128 on four warps spills about a KB
// in every form and stays rejected. Needs ptxas.
// REQUIRES: ptxas
// RUN: attn-tune %s --chip=sm_80 --n=4096 --top=4 --cache-dir=none \
// RUN:   --only='^mma.sync 128x(64 w4 s2 lazy|128 w4 s1)$' | FileCheck %s

// CHECK: "candidates": 2,
// CHECK: "candidate": "mma.sync 128x64 w4 s2 lazy reverse",
// CHECK: "fitted_from": "spills {{[1-9][0-9]*}} bytes, stack {{[0-9]+}}",
// CHECK: "gpu_config": "#attn.gpu_config<lazy_rescale = true, reverse_kv = true>",
// CHECK: "loop_local_ids": false,
// CHECK: "rank": 1,
// CHECK: "reverse_kv": true,
// CHECK: "candidate": "mma.sync 128x128 w4 s1",
// CHECK-NOT: "fitted_from"
// CHECK: "rejected": "spills {{[0-9]+}} bytes, stack {{[0-9]+}} (with reverse_kv, loop_local_ids or both too)",

func.func @attn(%q: memref<?x?x?x128xf16>, %k: memref<?x?x?x128xf16>,
                %v: memref<?x?x?x128xf16>, %o: memref<?x?x?x128xf16>,
                %lse: memref<?x?x?xf32>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x128xf16>, memref<?x?x?x128xf16>, memref<?x?x?x128xf16>)
                 outs(%o, %lse : memref<?x?x?x128xf16>, memref<?x?x?xf32>)
                 {mask = #attn.mask<causal, bottom_right>}
  return
}
