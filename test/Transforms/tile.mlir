// RUN: attn-opt %s --attn-tile -cse | FileCheck %s

// attn-tile turns attn.attention on memrefs into an attn.program: a grid of
// ceildiv(Nq, block_m) x (B * Hq) instances, each of which runs the online
// softmax over the K/V blocks that attn.kv_range marks visible. (-cse only
// merges the constants and dims that the pass creates one per use.)

// Causal GQA (Hq = 8, Hkv = 2) in f16, D = 64 != Dv = 16, with log-sum-exp.
// CHECK-LABEL: func.func @gqa_f16
// CHECK-SAME: %[[Q:[a-zA-Z0-9_]+]]: memref<?x8x?x64xf16>
// CHECK-SAME: %[[K:[a-zA-Z0-9_]+]]: memref<?x2x?x64xf16>
// CHECK-SAME: %[[V:[a-zA-Z0-9_]+]]: memref<?x2x?x16xf16>
// CHECK-SAME: %[[O:[a-zA-Z0-9_]+]]: memref<?x8x?x16xf16>
// CHECK-SAME: %[[L:[a-zA-Z0-9_]+]]: memref<?x8x?xf32>
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG: %[[C2:.+]] = arith.constant 2 : index
// CHECK-DAG: %[[C32:.+]] = arith.constant 32 : index
// CHECK-DAG: %[[C64:.+]] = arith.constant 64 : index
// CHECK-DAG: %[[B:.+]] = memref.dim %[[Q]], %[[C0]]
// CHECK-DAG: %[[HQ:.+]] = memref.dim %[[Q]], %[[C1]]
// CHECK-DAG: %[[NQ:.+]] = memref.dim %[[Q]], %[[C2]]
// CHECK-DAG: %[[HKV:.+]] = memref.dim %[[K]], %[[C1]]
// CHECK-DAG: %[[NK:.+]] = memref.dim %[[K]], %[[C2]]
// CHECK-DAG: %[[GM:.+]] = arith.ceildivui %[[NQ]], %[[C64]] : index
// CHECK-DAG: %[[GBH:.+]] = arith.muli %[[B]], %[[HQ]] : index
// CHECK-DAG: %[[GROUP:.+]] = arith.divui %[[HQ]], %[[HKV]] : index
// CHECK: attn.program (%[[M:[a-zA-Z0-9_]+]], %[[BH:[a-zA-Z0-9_]+]]) in (%[[GM]], %[[GBH]])
// The buffers and their roles, which a kernel takes as its arguments.
// CHECK-NEXT: buffers(q = %[[Q]] : memref<?x8x?x64xf16>, k = %[[K]] : memref<?x2x?x64xf16>, v = %[[V]] : memref<?x2x?x16xf16>, o = %[[O]] : memref<?x8x?x16xf16>, lse = %[[L]] : memref<?x8x?xf32>)
// CHECK-SAME: attributes {attn.mask = #attn.mask<causal, bottom_right>, attn.scale = 1.250000e-01 : f64, config = #attn.tile_config<block_m = 64, block_n = 32, warps = 4, stages = 2>}
//
// Program ids to batch, query head, K/V head (h / (Hq / Hkv)) and first row;
// under a causal mask query blocks go last (heaviest) first.
// CHECK: %[[BI:.+]] = arith.divui %[[BH]], %[[HQ]] : index
// CHECK: %[[H:.+]] = arith.remui %[[BH]], %[[HQ]] : index
// CHECK: %[[KVH:.+]] = arith.divui %[[H]], %[[GROUP]] : index
// CHECK: %[[LASTM:.+]] = arith.subi %[[GM]], %[[C1]] : index
// CHECK: %[[TM:.+]] = arith.subi %[[LASTM]], %[[M]] : index
// CHECK: %[[ROW0:.+]] = arith.muli %[[TM]], %[[C64]] : index
// CHECK: %[[QT:.+]] = attn.load %[[Q]][%[[BI]], %[[H]], %[[ROW0]], %[[C0]]] : memref<?x8x?x64xf16> -> tensor<64x64xf16>
// CHECK-DAG: %[[M0:.+]] = arith.constant dense<0xFF800000> : tensor<64xf32>
// CHECK-DAG: %[[L0:.+]] = arith.constant dense<0.000000e+00> : tensor<64xf32>
// CHECK-DAG: %[[A0:.+]] = arith.constant dense<0.000000e+00> : tensor<64x16xf32>
// CHECK-DAG: %[[SZ:.+]] = arith.constant dense<0.000000e+00> : tensor<64x32xf32>
// CHECK: %[[LO:.+]], %[[HI:.+]] = attn.kv_range visible %[[ROW0]], %[[NQ]], %[[NK]]
// CHECK-SAME: {block_m = 64 : i64, block_n = 32 : i64, mask = #attn.mask<causal, bottom_right>}
// CHECK: %[[R:.+]]:3 = scf.for %[[J:[a-zA-Z0-9_]+]] = %[[LO]] to %[[HI]] step %[[C1]]
// CHECK-SAME: iter_args(%[[MI:[a-zA-Z0-9_]+]] = %[[M0]], %[[LI:[a-zA-Z0-9_]+]] = %[[L0]], %[[ACC:[a-zA-Z0-9_]+]] = %[[A0]])
// CHECK-SAME: -> (tensor<64xf32>, tensor<64xf32>, tensor<64x16xf32>)
// CHECK: %[[COL0:.+]] = arith.muli %[[J]], %[[C32]] : index
// CHECK: %[[KT:.+]] = attn.load %[[K]][%[[BI]], %[[KVH]], %[[COL0]], %[[C0]]] : memref<?x2x?x64xf16> -> tensor<32x64xf16>
// CHECK: %[[S:.+]] = attn.dot %[[QT]], %[[KT]], %[[SZ]] transpose_b : tensor<64x64xf16>, tensor<32x64xf16> -> tensor<64x32xf32>
// CHECK: %[[SM:.+]] = attn.mask %[[S]] rows %[[ROW0]] of %[[NQ]] cols %[[COL0]] of %[[NK]]
// CHECK-SAME: {mask = #attn.mask<causal, bottom_right>} : tensor<64x32xf32>
// The scale 0.125 times log2(e).
// CHECK: %[[P:.+]], %[[MN:.+]], %[[LN:.+]], %[[AN:.+]] = attn.online_softmax %[[SM]], %[[MI]], %[[LI]], %[[ACC]]
// CHECK-SAME: {scale_log2e = 0.180336878 : f32}
// CHECK: %[[PH:.+]] = arith.truncf %[[P]] : tensor<64x32xf32> to tensor<64x32xf16>
// CHECK: %[[VT:.+]] = attn.load %[[V]][%[[BI]], %[[KVH]], %[[COL0]], %[[C0]]] : memref<?x2x?x16xf16> -> tensor<32x16xf16>
// CHECK: %[[PV:.+]] = attn.dot %[[PH]], %[[VT]], %[[AN]] : tensor<64x32xf16>, tensor<32x16xf16> -> tensor<64x16xf32>
// CHECK: scf.yield %[[MN]], %[[LN]], %[[PV]] : tensor<64xf32>, tensor<64xf32>, tensor<64x16xf32>
// CHECK: }
// CHECK: %[[OUT:.+]], %[[LSE:.+]] = attn.finalize %[[R]]#2, %[[R]]#0, %[[R]]#1 : tensor<64x16xf32>, tensor<64xf32>
// CHECK: %[[OH:.+]] = arith.truncf %[[OUT]] : tensor<64x16xf32> to tensor<64x16xf16>
// CHECK: attn.store %[[OH]], %[[O]][%[[BI]], %[[H]], %[[ROW0]], %[[C0]]] : tensor<64x16xf16>, memref<?x8x?x16xf16>
// CHECK: attn.store %[[LSE]], %[[L]][%[[BI]], %[[H]], %[[ROW0]]] : tensor<64xf32>, memref<?x8x?xf32>
// CHECK-NEXT: }
// CHECK-NOT: attn.attention
func.func @gqa_f16(%q: memref<?x8x?x64xf16>, %k: memref<?x2x?x64xf16>, %v: memref<?x2x?x16xf16>,
                   %o: memref<?x8x?x16xf16>, %lse: memref<?x8x?xf32>) {
  attn.attention ins(%q, %k, %v : memref<?x8x?x64xf16>, memref<?x2x?x64xf16>, memref<?x2x?x16xf16>)
                 outs(%o, %lse : memref<?x8x?x16xf16>, memref<?x8x?xf32>)
                 {mask = #attn.mask<causal, bottom_right>, scale = 0.125 : f64,
                  config = #attn.tile_config<block_m = 64, block_n = 32, warps = 4, stages = 2>}
  return
}

// f32 without LSE and without a mask: no truncation, one store, an
// unbounded mask on kv_range and attn.mask, and the default scale 1/sqrt(16)
// = 0.25 times log2(e).
// CHECK-LABEL: func.func @mha_f32_static
// CHECK-SAME: %[[Q:[a-zA-Z0-9_]+]]: memref<1x4x10x16xf32>
// CHECK-SAME: %[[O:[a-zA-Z0-9_]+]]: memref<1x4x10x16xf32>
// CHECK-NOT: cf.assert
// CHECK: attn.program (%[[MS:[a-zA-Z0-9_]+]],
// CHECK-NEXT: buffers(q = %[[Q]] : memref<1x4x10x16xf32>, k = %[[Q]] : memref<1x4x10x16xf32>, v = %[[Q]] : memref<1x4x10x16xf32>, o = %[[O]] : memref<1x4x10x16xf32>)
// CHECK-SAME: attributes {attn.mask = #attn.mask<none>, attn.scale = 2.500000e-01 : f64, config = #attn.tile_config<block_m = 16, block_n = 16, warps = 1, stages = 1>}
// Without a right bound every query block sees the same keys: ids in order.
// CHECK-NOT: arith.subi
// CHECK: arith.muli %[[MS]], %{{.+}} : index
// CHECK: attn.load %[[Q]]{{.*}} -> tensor<16x16xf32>
// CHECK: attn.kv_range visible
// CHECK-SAME: {block_m = 16 : i64, block_n = 16 : i64, mask = #attn.mask<none>}
// CHECK: scf.for
// CHECK: attn.mask {{.*}} {mask = #attn.mask<none>}
// CHECK: %[[P:[a-zA-Z0-9_]+]], {{.*}} = attn.online_softmax {{.*}} {scale_log2e = 0.360673755 : f32}
// CHECK-NOT: arith.truncf
// CHECK: attn.dot %[[P]], {{.*}} : tensor<16x16xf32>, tensor<16x16xf32> -> tensor<16x16xf32>
// CHECK: %[[OUT:[a-zA-Z0-9_]+]], %{{.+}} = attn.finalize
// CHECK-NOT: arith.truncf
// CHECK: attn.store %[[OUT]], %[[O]]
// CHECK-NOT: attn.store
// CHECK: return
func.func @mha_f32_static(%q: memref<1x4x10x16xf32>, %o: memref<1x4x10x16xf32>) {
  attn.attention ins(%q, %q, %q : memref<1x4x10x16xf32>, memref<1x4x10x16xf32>, memref<1x4x10x16xf32>)
                 outs(%o : memref<1x4x10x16xf32>)
                 {config = #attn.tile_config<block_m = 16, block_n = 16, warps = 1, stages = 1>}
  return
}

// Sizes the verifier cannot compare (dynamic dims) are compared at run time,
// before the program: every dynamic pair, and Hq a multiple of Hkv > 0.
// CHECK-LABEL: func.func @runtime_shape_checks
// CHECK-SAME: %[[Q:[a-zA-Z0-9_]+]]: memref<?x?x?x16xf32>, %[[K:[a-zA-Z0-9_]+]]: memref<?x?x?x16xf32>
// CHECK-SAME: %[[V:[a-zA-Z0-9_]+]]: memref<?x?x?x16xf32>, %[[O:[a-zA-Z0-9_]+]]: memref<?x?x?x16xf32>
// CHECK-SAME: %[[L:[a-zA-Z0-9_]+]]: memref<?x?x?xf32>
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG: %[[QB:.+]] = memref.dim %[[Q]], %[[C0]]
// CHECK-DAG: %[[KB:.+]] = memref.dim %[[K]], %[[C0]]
// CHECK: %[[OK:.+]] = arith.cmpi eq, %[[QB]], %[[KB]] : index
// CHECK-NEXT: cf.assert %[[OK]], "attn.attention: batch size of 'key' differs from 'query'"
// CHECK: cf.assert %{{.+}}, "attn.attention: batch size of 'value' differs from 'query'"
// CHECK: cf.assert %{{.+}}, "attn.attention: batch size of 'output' differs from 'query'"
// CHECK-DAG: %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG: %[[HQ:.+]] = memref.dim %[[Q]], %[[C1]]
// CHECK-DAG: %[[HKV:.+]] = memref.dim %[[K]], %[[C1]]
// CHECK-DAG: cf.assert %{{.+}}, "attn.attention: head count of 'output' differs from 'query'"
// CHECK: cf.assert %{{.+}}, "attn.attention: head count of 'value' differs from 'key'"
// CHECK: cf.assert %{{.+}}, "attn.attention: length of 'output' differs from 'query'"
// CHECK: cf.assert %{{.+}}, "attn.attention: length of 'value' differs from 'key'"
// CHECK: cf.assert %{{.+}}, "attn.attention: batch size of 'lse' differs from 'query'"
// CHECK: cf.assert %{{.+}}, "attn.attention: head count of 'lse' differs from 'query'"
// CHECK: cf.assert %{{.+}}, "attn.attention: length of 'lse' differs from 'query'"
// CHECK: %[[POS:.+]] = arith.cmpi sgt, %[[HKV]], %[[C0]] : index
// CHECK: %[[DIV:.+]] = arith.select %[[POS]], %[[HKV]], %[[C1]] : index
// CHECK: %[[REM:.+]] = arith.remui %[[HQ]], %[[DIV]] : index
// CHECK: %[[EXACT:.+]] = arith.cmpi eq, %[[REM]], %[[C0]] : index
// CHECK: %[[GQA:.+]] = arith.andi %[[POS]], %[[EXACT]] : i1
// CHECK: cf.assert %[[GQA]], "attn.attention: the query head count must be a multiple of the key/value head count"
// CHECK-NOT: cf.assert
// CHECK: attn.program
func.func @runtime_shape_checks(%q: memref<?x?x?x16xf32>, %k: memref<?x?x?x16xf32>, %v: memref<?x?x?x16xf32>,
                                %o: memref<?x?x?x16xf32>, %lse: memref<?x?x?xf32>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x16xf32>, memref<?x?x?x16xf32>, memref<?x?x?x16xf32>)
                 outs(%o, %lse : memref<?x?x?x16xf32>, memref<?x?x?xf32>)
                 {config = #attn.tile_config<block_m = 64, block_n = 64, warps = 4, stages = 2>}
  return
}

// Only the pairs with a dynamic side are checked: here the query and key
// lengths (Nq and Nk may differ, so no check between them).
// CHECK-LABEL: func.func @partly_static
// CHECK-NOT: cf.assert
// CHECK: cf.assert %{{.+}}, "attn.attention: length of 'output' differs from 'query'"
// CHECK-NOT: cf.assert
// CHECK: attn.program
func.func @partly_static(%q: memref<2x4x?x16xf32>, %kv: memref<2x2x32x16xf32>, %o: memref<2x4x100x16xf32>) {
  attn.attention ins(%q, %kv, %kv : memref<2x4x?x16xf32>, memref<2x2x32x16xf32>, memref<2x2x32x16xf32>)
                 outs(%o : memref<2x4x100x16xf32>)
                 {config = #attn.tile_config<block_m = 64, block_n = 64, warps = 4, stages = 2>}
  return
}

// A mask_mod region that interval evaluation can bound goes onto the visible
// kv_range too (with the batch and head), so that the K/V loop skips the
// blocks at either end that it hides, and onto the loop's attn.mask, so
// that attn-split-kv-loop can drop it where it shows every key; one it
// cannot bound (a bitwise and) does neither: it is applied in the loop
// body as tile ops.
// CHECK-LABEL: func.func @mask_mod_range
// CHECK: attn.program (%{{.+}}, %[[BH:.+]]) in
// CHECK: %[[B:.+]] = arith.divui %[[BH]], %[[HQ:.+]] : index
// CHECK-NEXT: %[[H:.+]] = arith.remui %[[BH]], %[[HQ]] : index
// CHECK: attn.kv_range visible {{.+}} mask_mod(%[[B]], %[[H]]) {
// CHECK: arith.divui
// CHECK: arith.cmpi eq
// CHECK: attn.yield
// CHECK: scf.for
// CHECK-NOT: attn.iota
// CHECK: attn.mask {{.+}} : tensor<64x64xf32> mask_mod(%[[B]], %[[H]]) {
// CHECK: arith.divui
// CHECK: arith.cmpi eq
// CHECK: attn.yield
func.func @mask_mod_range(%q: memref<?x?x?x16xf32>, %o: memref<?x?x?x16xf32>) {
  attn.attention ins(%q, %q, %q : memref<?x?x?x16xf32>, memref<?x?x?x16xf32>, memref<?x?x?x16xf32>)
                 outs(%o : memref<?x?x?x16xf32>) {config = #attn.tile_config<block_m = 64, block_n = 64, warps = 4, stages = 2>} mask_mod {
  ^bb0(%b: index, %h: index, %qi: index, %ki: index):
    %c256 = arith.constant 256 : index
    %dq = arith.divui %qi, %c256 : index
    %dk = arith.divui %ki, %c256 : index
    %same = arith.cmpi eq, %dq, %dk : index
    attn.yield %same : i1
  }
  return
}

// CHECK-LABEL: func.func @opaque_mask_mod_range
// CHECK: attn.kv_range visible
// CHECK-NOT: mask_mod(
// CHECK: scf.for
// CHECK: attn.iota
// CHECK: arith.andi {{.+}} : tensor<64x64xindex>
// CHECK: arith.select
// CHECK: attn.mask {{.+}} : tensor<64x64xf32>{{$}}
func.func @opaque_mask_mod_range(%q: memref<?x?x?x16xf32>, %o: memref<?x?x?x16xf32>) {
  attn.attention ins(%q, %q, %q : memref<?x?x?x16xf32>, memref<?x?x?x16xf32>, memref<?x?x?x16xf32>)
                 outs(%o : memref<?x?x?x16xf32>) {config = #attn.tile_config<block_m = 64, block_n = 64, warps = 4, stages = 2>} mask_mod {
  ^bb0(%b: index, %h: index, %qi: index, %ki: index):
    %z = arith.constant 0 : index
    %both = arith.andi %qi, %ki : index
    %see = arith.cmpi ne, %both, %z : index
    attn.yield %see : i1
  }
  return
}
