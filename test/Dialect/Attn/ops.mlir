// RUN: attn-opt %s | attn-opt | FileCheck %s
// RUN: attn-opt %s --mlir-print-op-generic | attn-opt | FileCheck %s

// Round trip of every attn op and attribute form, through the custom and the
// generic syntax.

//===----------------------------------------------------------------------===//
// attn.attention
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @attention_tensor
// CHECK-SAME: %[[Q:[a-zA-Z0-9_]+]]: tensor<2x8x128x64xf16>
// CHECK-SAME: %[[K:[a-zA-Z0-9_]+]]: tensor<2x2x128x64xf16>
// CHECK-SAME: %[[V:[a-zA-Z0-9_]+]]: tensor<2x2x128x64xf16>
// CHECK-SAME: %[[O:[a-zA-Z0-9_]+]]: tensor<2x8x128x64xf16>
// CHECK: %[[R:.+]] = attn.attention
// CHECK-SAME: ins(%[[Q]], %[[K]], %[[V]] : tensor<2x8x128x64xf16>, tensor<2x2x128x64xf16>, tensor<2x2x128x64xf16>)
// CHECK-SAME: outs(%[[O]] : tensor<2x8x128x64xf16>)
// CHECK-SAME: -> tensor<2x8x128x64xf16>
// CHECK: return %[[R]]
func.func @attention_tensor(%q: tensor<2x8x128x64xf16>, %k: tensor<2x2x128x64xf16>,
                            %v: tensor<2x2x128x64xf16>, %o: tensor<2x8x128x64xf16>)
    -> tensor<2x8x128x64xf16> {
  %r = attn.attention ins(%q, %k, %v : tensor<2x8x128x64xf16>, tensor<2x2x128x64xf16>, tensor<2x2x128x64xf16>)
                      outs(%o : tensor<2x8x128x64xf16>) -> tensor<2x8x128x64xf16>
  return %r : tensor<2x8x128x64xf16>
}

// CHECK-LABEL: func.func @attention_tensor_lse
// CHECK-SAME: %[[Q:[a-zA-Z0-9_]+]]: tensor<1x4x?x32xbf16>
// CHECK-SAME: %[[K:[a-zA-Z0-9_]+]]: tensor<1x4x?x32xbf16>
// CHECK-SAME: %[[V:[a-zA-Z0-9_]+]]: tensor<1x4x?x16xbf16>
// CHECK-SAME: %[[O:[a-zA-Z0-9_]+]]: tensor<1x4x?x16xbf16>
// CHECK-SAME: %[[L:[a-zA-Z0-9_]+]]: tensor<1x4x?xf32>
// CHECK: %[[R:.+]]:2 = attn.attention
// CHECK-SAME: ins(%[[Q]], %[[K]], %[[V]] : tensor<1x4x?x32xbf16>, tensor<1x4x?x32xbf16>, tensor<1x4x?x16xbf16>)
// CHECK-SAME: outs(%[[O]], %[[L]] : tensor<1x4x?x16xbf16>, tensor<1x4x?xf32>)
// CHECK-SAME: {mask = #attn.mask<causal, top_left>}
// CHECK-SAME: -> tensor<1x4x?x16xbf16>, tensor<1x4x?xf32>
// CHECK: return %[[R]]#0, %[[R]]#1
func.func @attention_tensor_lse(%q: tensor<1x4x?x32xbf16>, %k: tensor<1x4x?x32xbf16>,
                                %v: tensor<1x4x?x16xbf16>, %o: tensor<1x4x?x16xbf16>,
                                %lse: tensor<1x4x?xf32>)
    -> (tensor<1x4x?x16xbf16>, tensor<1x4x?xf32>) {
  %r:2 = attn.attention ins(%q, %k, %v : tensor<1x4x?x32xbf16>, tensor<1x4x?x32xbf16>, tensor<1x4x?x16xbf16>)
                        outs(%o, %lse : tensor<1x4x?x16xbf16>, tensor<1x4x?xf32>)
                        {mask = #attn.mask<causal, top_left>}
                        -> tensor<1x4x?x16xbf16>, tensor<1x4x?xf32>
  return %r#0, %r#1 : tensor<1x4x?x16xbf16>, tensor<1x4x?xf32>
}

// On memrefs the op has no results; scale, mask and config all present.
// CHECK-LABEL: func.func @attention_memref
// CHECK-SAME: %[[Q:[a-zA-Z0-9_]+]]: memref<?x?x?x64xf32>
// CHECK-SAME: %[[K:[a-zA-Z0-9_]+]]: memref<?x?x?x64xf32>
// CHECK-SAME: %[[V:[a-zA-Z0-9_]+]]: memref<?x?x?x64xf32>
// CHECK-SAME: %[[O:[a-zA-Z0-9_]+]]: memref<?x?x?x64xf32>
// CHECK-SAME: %[[L:[a-zA-Z0-9_]+]]: memref<?x?x?xf32>
// CHECK: {{^ *}}attn.attention ins(%[[Q]], %[[K]], %[[V]] : memref<?x?x?x64xf32>, memref<?x?x?x64xf32>, memref<?x?x?x64xf32>)
// CHECK-SAME: outs(%[[O]], %[[L]] : memref<?x?x?x64xf32>, memref<?x?x?xf32>)
// CHECK-SAME: config = #attn.tile_config<block_m = 128, block_n = 32, warps = 8, stages = 3>
// CHECK-SAME: mask = #attn.mask<window, bottom_right, left = 128, right = 0>
// CHECK-SAME: scale = 1.250000e-01 : f64
// CHECK-NOT: ->
// CHECK: return
func.func @attention_memref(%q: memref<?x?x?x64xf32>, %k: memref<?x?x?x64xf32>,
                            %v: memref<?x?x?x64xf32>, %o: memref<?x?x?x64xf32>,
                            %lse: memref<?x?x?xf32>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x64xf32>, memref<?x?x?x64xf32>, memref<?x?x?x64xf32>)
                 outs(%o, %lse : memref<?x?x?x64xf32>, memref<?x?x?xf32>)
                 {scale = 0.125 : f64,
                  mask = #attn.mask<window, bottom_right, left = 128, right = 0>,
                  config = #attn.tile_config<block_m = 128, block_n = 32, warps = 8, stages = 3>}
  return
}

//===----------------------------------------------------------------------===//
// #attn.mask and #attn.tile_config
//===----------------------------------------------------------------------===//

// Every mask kind and both alignments print back in canonical form; `none`
// takes no alignment and only `window` carries extents.
// CHECK-LABEL: func.func @mask_forms
// CHECK: mask = #attn.mask<none>
// CHECK: mask = #attn.mask<causal, top_left>
// CHECK: mask = #attn.mask<causal, bottom_right>
// CHECK: mask = #attn.mask<window, top_left, left = 0, right = 0>
// CHECK: mask = #attn.mask<window, bottom_right, left = 4, right = 7>
// CHECK: mask = #attn.mask<window, top_left, left = 2147483647, right = 2147483647>
func.func @mask_forms(%q: memref<1x1x8x16xf32>, %o: memref<1x1x8x16xf32>) {
  attn.attention ins(%q, %q, %q : memref<1x1x8x16xf32>, memref<1x1x8x16xf32>, memref<1x1x8x16xf32>)
                 outs(%o : memref<1x1x8x16xf32>) {mask = #attn.mask<none>}
  attn.attention ins(%q, %q, %q : memref<1x1x8x16xf32>, memref<1x1x8x16xf32>, memref<1x1x8x16xf32>)
                 outs(%o : memref<1x1x8x16xf32>) {mask = #attn.mask<causal, top_left>}
  attn.attention ins(%q, %q, %q : memref<1x1x8x16xf32>, memref<1x1x8x16xf32>, memref<1x1x8x16xf32>)
                 outs(%o : memref<1x1x8x16xf32>) {mask = #attn.mask<causal, bottom_right>}
  attn.attention ins(%q, %q, %q : memref<1x1x8x16xf32>, memref<1x1x8x16xf32>, memref<1x1x8x16xf32>)
                 outs(%o : memref<1x1x8x16xf32>) {mask = #attn.mask<window, top_left, left = 0, right = 0>}
  attn.attention ins(%q, %q, %q : memref<1x1x8x16xf32>, memref<1x1x8x16xf32>, memref<1x1x8x16xf32>)
                 outs(%o : memref<1x1x8x16xf32>) {mask = #attn.mask<window, bottom_right, left = 4, right = 7>}
  // The largest window extents.
  attn.attention ins(%q, %q, %q : memref<1x1x8x16xf32>, memref<1x1x8x16xf32>, memref<1x1x8x16xf32>)
                 outs(%o : memref<1x1x8x16xf32>) {mask = #attn.mask<window, top_left, left = 2147483647, right = 2147483647>}
  return
}

// The extremes of the tile configuration ranges.
// CHECK-LABEL: func.func @tile_config_forms
// CHECK: config = #attn.tile_config<block_m = 1, block_n = 256, warps = 1, stages = 8>
// CHECK: config = #attn.tile_config<block_m = 256, block_n = 1, warps = 16, stages = 1>
func.func @tile_config_forms(%q: memref<1x1x8x16xf32>, %o: memref<1x1x8x16xf32>) {
  attn.attention ins(%q, %q, %q : memref<1x1x8x16xf32>, memref<1x1x8x16xf32>, memref<1x1x8x16xf32>)
                 outs(%o : memref<1x1x8x16xf32>)
                 {config = #attn.tile_config<block_m = 1, block_n = 256, warps = 1, stages = 8>}
  attn.attention ins(%q, %q, %q : memref<1x1x8x16xf32>, memref<1x1x8x16xf32>, memref<1x1x8x16xf32>)
                 outs(%o : memref<1x1x8x16xf32>)
                 {config = #attn.tile_config<block_m = 256, block_n = 1, warps = 16, stages = 1>}
  return
}

//===----------------------------------------------------------------------===//
// Tile level
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @program
// CHECK-SAME: %[[GM:[a-zA-Z0-9_]+]]: index, %[[GBH:[a-zA-Z0-9_]+]]: index
// CHECK-SAME: %[[Q:[a-zA-Z0-9_]+]]: memref<?x?x?x64xf16>, %[[KV:[a-zA-Z0-9_]+]]: memref<?x?x?x64xf16>
// CHECK: attn.program (%[[M:.+]], %[[BH:.+]]) in (%[[GM]], %[[GBH]])
// CHECK-NEXT: buffers(q = %[[Q]] : memref<?x?x?x64xf16>, k = %[[KV]] : memref<?x?x?x64xf16>, v = %[[KV]] : memref<?x?x?x64xf16>, o = %[[Q]] : memref<?x?x?x64xf16>)
// CHECK-SAME: attributes {config = #attn.tile_config<block_m = 64, block_n = 64, warps = 4, stages = 2>, gpu_config = #attn.gpu_config<reverse_kv = true>} {
// CHECK-NEXT: arith.addi %[[M]], %[[BH]] : index
// CHECK-NEXT: }
// CHECK: attn.program (%{{.+}}, %{{.+}}) in (%[[GBH]], %[[GM]]) {
// CHECK-NEXT: }
func.func @program(%gm: index, %gbh: index, %q: memref<?x?x?x64xf16>, %kv: memref<?x?x?x64xf16>) {
  // One memref may take two roles (K and V in one buffer).
  attn.program (%m, %bh) in (%gm, %gbh)
      buffers(q = %q : memref<?x?x?x64xf16>, k = %kv : memref<?x?x?x64xf16>,
              v = %kv : memref<?x?x?x64xf16>, o = %q : memref<?x?x?x64xf16>)
      attributes {config = #attn.tile_config<block_m = 64, block_n = 64, warps = 4, stages = 2>,
                  gpu_config = #attn.gpu_config<reverse_kv = true>} {
    %x = arith.addi %m, %bh : index
  }
  attn.program (%m, %bh) in (%gbh, %gm) {
  }
  return
}

// CHECK-LABEL: func.func @kv_range
// CHECK-SAME: %[[R0:[a-zA-Z0-9_]+]]: index, %[[NQ:[a-zA-Z0-9_]+]]: index, %[[NK:[a-zA-Z0-9_]+]]: index
// CHECK: %[[VLO:.+]], %[[VHI:.+]] = attn.kv_range visible %[[R0]], %[[NQ]], %[[NK]]
// CHECK-SAME: {block_m = 64 : i64, block_n = 32 : i64, mask = #attn.mask<causal, top_left>}
// CHECK: %[[ULO:.+]], %[[UHI:.+]] = attn.kv_range unmasked %[[R0]], %[[NQ]], %[[NK]]
// CHECK-SAME: {block_m = 128 : i64, block_n = 16 : i64, mask = #attn.mask<window, bottom_right, left = 8, right = 2>}
// CHECK: return %[[VLO]], %[[VHI]], %[[ULO]], %[[UHI]]
func.func @kv_range(%r0: index, %nq: index, %nk: index) -> (index, index, index, index) {
  %lo, %hi = attn.kv_range visible %r0, %nq, %nk
      {block_m = 64 : i64, block_n = 32 : i64, mask = #attn.mask<causal, top_left>}
  %ulo, %uhi = attn.kv_range unmasked %r0, %nq, %nk
      {block_m = 128 : i64, block_n = 16 : i64, mask = #attn.mask<window, bottom_right, left = 8, right = 2>}
  return %lo, %hi, %ulo, %uhi : index, index, index, index
}

// A visible range with a mask_mod region (evaluated for batch %b, head %h).
// CHECK-LABEL: func.func @kv_range_mask_mod
// CHECK-SAME: %[[R0:[a-zA-Z0-9_]+]]: index, %[[N:[a-zA-Z0-9_]+]]: index, %[[B:[a-zA-Z0-9_]+]]: index, %[[H:[a-zA-Z0-9_]+]]: index
// CHECK: attn.kv_range visible %[[R0]], %[[N]], %[[N]] {block_m = 64 : i64, block_n = 64 : i64, mask = #attn.mask<none>} mask_mod(%[[B]], %[[H]]) {
// CHECK-NEXT: ^bb0(%{{.+}}: index, %{{.+}}: index, %[[QI:.+]]: index, %[[KI:.+]]: index):
// CHECK-NEXT: %[[SEE:.+]] = arith.cmpi sle, %[[KI]], %[[QI]] : index
// CHECK-NEXT: attn.yield %[[SEE]] : i1
func.func @kv_range_mask_mod(%r0: index, %n: index, %b: index, %h: index) -> (index, index) {
  %lo, %hi = attn.kv_range visible %r0, %n, %n
      {block_m = 64 : i64, block_n = 64 : i64, mask = #attn.mask<none>} mask_mod(%b, %h) {
  ^bb0(%bi: index, %hi: index, %qi: index, %ki: index):
    %see = arith.cmpi sle, %ki, %qi : index
    attn.yield %see : i1
  }
  return %lo, %hi : index, index
}

// An unmasked range with the region, searching blocks [%f, %n), and a mask
// with the region.
// CHECK-LABEL: func.func @unmasked_mask_mod
// CHECK-SAME: %[[R0:[a-zA-Z0-9_]+]]: index, %[[N:[a-zA-Z0-9_]+]]: index, %[[B:[a-zA-Z0-9_]+]]: index, %[[H:[a-zA-Z0-9_]+]]: index, %[[F:[a-zA-Z0-9_]+]]: index, %[[S:[a-zA-Z0-9_]+]]: tensor<64x64xf32>
// CHECK: attn.kv_range unmasked %[[R0]], %[[N]], %[[N]] from %[[F]] to %[[N]] {block_m = 64 : i64, block_n = 64 : i64, mask = #attn.mask<none>} mask_mod(%[[B]], %[[H]]) {
// CHECK: attn.mask %[[S]] rows %[[R0]] of %[[N]] cols %[[F]] of %[[N]] {mask = #attn.mask<none>} : tensor<64x64xf32> mask_mod(%[[B]], %[[H]]) {
// CHECK-NEXT: ^bb0(%{{.+}}: index, %{{.+}}: index, %[[QI:.+]]: index, %[[KI:.+]]: index):
// CHECK-NEXT: %[[SEE:.+]] = arith.cmpi sle, %[[KI]], %[[QI]] : index
// CHECK-NEXT: attn.yield %[[SEE]] : i1
func.func @unmasked_mask_mod(%r0: index, %n: index, %b: index, %h: index, %f: index, %s: tensor<64x64xf32>) -> (index, index, tensor<64x64xf32>) {
  %lo, %up = attn.kv_range unmasked %r0, %n, %n from %f to %n
      {block_m = 64 : i64, block_n = 64 : i64, mask = #attn.mask<none>} mask_mod(%b, %h) {
  ^bb0(%bi: index, %hi: index, %qi: index, %ki: index):
    %see = arith.cmpi sle, %ki, %qi : index
    attn.yield %see : i1
  }
  %m = attn.mask %s rows %r0 of %n cols %f of %n {mask = #attn.mask<none>} : tensor<64x64xf32> mask_mod(%b, %h) {
  ^bb0(%bi: index, %hi: index, %qi: index, %ki: index):
    %see = arith.cmpi sle, %ki, %qi : index
    attn.yield %see : i1
  }
  return %lo, %up, %m : index, index, tensor<64x64xf32>
}

// Rank-2 tiles of a rank-4 buffer and rank-1 tiles of a rank-3 buffer.
// CHECK-LABEL: func.func @load_store
// CHECK-SAME: %[[Q:[a-zA-Z0-9_]+]]: memref<?x?x?x64xf16>
// CHECK-SAME: %[[L:[a-zA-Z0-9_]+]]: memref<?x?x?xf32>
// CHECK-SAME: %[[B:[a-zA-Z0-9_]+]]: index, %[[H:[a-zA-Z0-9_]+]]: index, %[[R:[a-zA-Z0-9_]+]]: index, %[[C:[a-zA-Z0-9_]+]]: index
// CHECK: %[[T:.+]] = attn.load %[[Q]][%[[B]], %[[H]], %[[R]], %[[C]]] : memref<?x?x?x64xf16> -> tensor<64x64xf16>
// CHECK: %[[T1:.+]] = attn.load %[[L]][%[[B]], %[[H]], %[[R]]] : memref<?x?x?xf32> -> tensor<64xf32>
// CHECK: attn.store %[[T]], %[[Q]][%[[B]], %[[H]], %[[R]], %[[C]]] : tensor<64x64xf16>, memref<?x?x?x64xf16>
// CHECK: attn.store %[[T1]], %[[L]][%[[B]], %[[H]], %[[R]]] : tensor<64xf32>, memref<?x?x?xf32>
func.func @load_store(%q: memref<?x?x?x64xf16>, %lse: memref<?x?x?xf32>,
                      %b: index, %h: index, %r: index, %c: index) {
  %t = attn.load %q[%b, %h, %r, %c] : memref<?x?x?x64xf16> -> tensor<64x64xf16>
  %t1 = attn.load %lse[%b, %h, %r] : memref<?x?x?xf32> -> tensor<64xf32>
  attn.store %t, %q[%b, %h, %r, %c] : tensor<64x64xf16>, memref<?x?x?x64xf16>
  attn.store %t1, %lse[%b, %h, %r] : tensor<64xf32>, memref<?x?x?xf32>
  return
}

// CHECK-LABEL: func.func @dot
// CHECK-SAME: %[[A:[a-zA-Z0-9_]+]]: tensor<64x16xf16>, %[[BT:[a-zA-Z0-9_]+]]: tensor<32x16xf16>
// CHECK-SAME: %[[BB:[a-zA-Z0-9_]+]]: tensor<16x32xbf16>, %[[AB:[a-zA-Z0-9_]+]]: tensor<64x16xbf16>
// CHECK-SAME: %[[AF:[a-zA-Z0-9_]+]]: tensor<64x32xf32>, %[[ACC:[a-zA-Z0-9_]+]]: tensor<64x32xf32>
// CHECK: %[[D0:.+]] = attn.dot %[[A]], %[[BT]], %[[ACC]] transpose_b : tensor<64x16xf16>, tensor<32x16xf16> -> tensor<64x32xf32>
// CHECK: %[[D1:.+]] = attn.dot %[[AB]], %[[BB]], %[[D0]] : tensor<64x16xbf16>, tensor<16x32xbf16> -> tensor<64x32xf32>
// CHECK: %[[Z:.+]] = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
// CHECK: %[[D2:.+]] = attn.dot %[[AF]], %[[ACC]], %[[Z]] transpose_b : tensor<64x32xf32>, tensor<64x32xf32> -> tensor<64x64xf32>
// CHECK: return %[[D1]], %[[D2]]
func.func @dot(%a: tensor<64x16xf16>, %bt: tensor<32x16xf16>, %bb: tensor<16x32xbf16>,
               %ab: tensor<64x16xbf16>, %af: tensor<64x32xf32>, %acc: tensor<64x32xf32>)
    -> (tensor<64x32xf32>, tensor<64x64xf32>) {
  %d0 = attn.dot %a, %bt, %acc transpose_b : tensor<64x16xf16>, tensor<32x16xf16> -> tensor<64x32xf32>
  %d1 = attn.dot %ab, %bb, %d0 : tensor<64x16xbf16>, tensor<16x32xbf16> -> tensor<64x32xf32>
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %d2 = attn.dot %af, %acc, %z transpose_b : tensor<64x32xf32>, tensor<64x32xf32> -> tensor<64x64xf32>
  return %d1, %d2 : tensor<64x32xf32>, tensor<64x64xf32>
}

// A guarded product prints its guard after the accumulator.
// CHECK-LABEL: func.func @guarded_dot
// CHECK-SAME: %[[A:[a-zA-Z0-9_]+]]: tensor<64x16xf16>, %[[BT:[a-zA-Z0-9_]+]]: tensor<32x16xf16>, %[[ACC:[a-zA-Z0-9_]+]]: tensor<64x32xf32>, %[[P:[a-zA-Z0-9_]+]]: i1
// CHECK: attn.dot %[[A]], %[[BT]], %[[ACC]] if %[[P]] transpose_b : tensor<64x16xf16>, tensor<32x16xf16> -> tensor<64x32xf32>
func.func @guarded_dot(%a: tensor<64x16xf16>, %bt: tensor<32x16xf16>, %acc: tensor<64x32xf32>, %p: i1)
    -> tensor<64x32xf32> {
  %d = attn.dot %a, %bt, %acc if %p transpose_b : tensor<64x16xf16>, tensor<32x16xf16> -> tensor<64x32xf32>
  return %d : tensor<64x32xf32>
}

// CHECK-LABEL: func.func @mask
// CHECK-SAME: %[[S:[a-zA-Z0-9_]+]]: tensor<64x32xf32>
// CHECK-SAME: %[[R0:[a-zA-Z0-9_]+]]: index, %[[NQ:[a-zA-Z0-9_]+]]: index, %[[C0:[a-zA-Z0-9_]+]]: index, %[[NK:[a-zA-Z0-9_]+]]: index
// CHECK: %[[M:.+]] = attn.mask %[[S]] rows %[[R0]] of %[[NQ]] cols %[[C0]] of %[[NK]] {mask = #attn.mask<causal, bottom_right>} : tensor<64x32xf32>
// CHECK: return %[[M]]
func.func @mask(%s: tensor<64x32xf32>, %r0: index, %nq: index, %c0: index, %nk: index)
    -> tensor<64x32xf32> {
  %m = attn.mask %s rows %r0 of %nq cols %c0 of %nk {mask = #attn.mask<causal, bottom_right>} : tensor<64x32xf32>
  return %m : tensor<64x32xf32>
}

// CHECK-LABEL: func.func @rows
// CHECK-SAME: %[[T:[a-zA-Z0-9_]+]]: tensor<64x32xf32>
// CHECK: %[[MX:.+]] = attn.reduce_rows max %[[T]] : tensor<64x32xf32> -> tensor<64xf32>
// CHECK: %[[SM:.+]] = attn.reduce_rows sum %[[T]] : tensor<64x32xf32> -> tensor<64xf32>
// CHECK: %[[BC:.+]] = attn.broadcast_rows %[[MX]] : tensor<64xf32> -> tensor<64x16xf32>
// CHECK: return %[[SM]], %[[BC]]
func.func @rows(%t: tensor<64x32xf32>) -> (tensor<64xf32>, tensor<64x16xf32>) {
  %mx = attn.reduce_rows max %t : tensor<64x32xf32> -> tensor<64xf32>
  %sm = attn.reduce_rows sum %t : tensor<64x32xf32> -> tensor<64xf32>
  %bc = attn.broadcast_rows %mx : tensor<64xf32> -> tensor<64x16xf32>
  return %sm, %bc : tensor<64xf32>, tensor<64x16xf32>
}

// CHECK-LABEL: func.func @softmax
// CHECK-SAME: %[[S:[a-zA-Z0-9_]+]]: tensor<64x32xf32>, %[[M:[a-zA-Z0-9_]+]]: tensor<64xf32>
// CHECK-SAME: %[[L:[a-zA-Z0-9_]+]]: tensor<64xf32>, %[[ACC:[a-zA-Z0-9_]+]]: tensor<64x16xf32>
// CHECK: %[[P:.+]], %[[M1:.+]], %[[L1:.+]], %[[A1:.+]] = attn.online_softmax %[[S]], %[[M]], %[[L]], %[[ACC]]
// CHECK-SAME: {scale_log2e = 1.250000e-01 : f32} : tensor<64x32xf32>, tensor<64xf32>, tensor<64x16xf32>
// CHECK: %[[O:.+]], %[[LSE:.+]] = attn.finalize %[[A1]], %[[M1]], %[[L1]] : tensor<64x16xf32>, tensor<64xf32>
// CHECK: return %[[P]], %[[O]], %[[LSE]]
func.func @softmax(%s: tensor<64x32xf32>, %m: tensor<64xf32>, %l: tensor<64xf32>,
                   %acc: tensor<64x16xf32>)
    -> (tensor<64x32xf32>, tensor<64x16xf32>, tensor<64xf32>) {
  %p, %m1, %l1, %a1 = attn.online_softmax %s, %m, %l, %acc {scale_log2e = 0.125 : f32}
      : tensor<64x32xf32>, tensor<64xf32>, tensor<64x16xf32>
  %o, %lse = attn.finalize %a1, %m1, %l1 : tensor<64x16xf32>, tensor<64xf32>
  return %p, %o, %lse : tensor<64x32xf32>, tensor<64x16xf32>, tensor<64xf32>
}

// The program's own row maximum (attn-hoist-row-max): an optional operand
// of the running max's type.
// CHECK-LABEL: func.func @softmax_block_max
// CHECK-SAME: %[[BM:[a-zA-Z0-9_]+]]: tensor<64xf32>)
// CHECK: attn.online_softmax %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}} block_max %[[BM]] {scale_log2e = 1.250000e-01 : f32}
func.func @softmax_block_max(%s: tensor<64x32xf32>, %m: tensor<64xf32>, %l: tensor<64xf32>,
                             %acc: tensor<64x16xf32>, %bm: tensor<64xf32>) -> tensor<64x32xf32> {
  %p, %m1, %l1, %a1 = attn.online_softmax %s, %m, %l, %acc block_max %bm {scale_log2e = 0.125 : f32}
      : tensor<64x32xf32>, tensor<64xf32>, tensor<64x16xf32>
  return %p : tensor<64x32xf32>
}
