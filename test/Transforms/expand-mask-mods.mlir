// RUN: attn-opt %s --attn-expand-mask-mods | FileCheck %s

// The region of an attn.mask becomes tile ops: index tiles of the query
// rows and keys of the block, splats of the batch and head, the region's
// ops on tiles (constants as splat tiles), a select of -inf where it
// yields false, and the mask without the region (bounds, mask attribute).
// CHECK-LABEL: func.func @expand
// CHECK-SAME: %[[S:[a-zA-Z0-9_]+]]: tensor<64x32xf32>, %[[R0:[a-zA-Z0-9_]+]]: index, %[[C0:[a-zA-Z0-9_]+]]: index, %[[NQ:[a-zA-Z0-9_]+]]: index, %[[NK:[a-zA-Z0-9_]+]]: index, %[[B:[a-zA-Z0-9_]+]]: index, %[[H:[a-zA-Z0-9_]+]]: index
// CHECK: %[[QI:.+]] = attn.iota 0, %[[R0]] : tensor<64x32xindex>
// CHECK: %[[KI:.+]] = attn.iota 1, %[[C0]] : tensor<64x32xindex>
// CHECK: %[[BT:.+]] = tensor.splat %[[B]] : tensor<64x32xindex>
// CHECK: %[[HT:.+]] = tensor.splat %[[H]] : tensor<64x32xindex>
// CHECK: %[[C48:.+]] = arith.constant dense<48> : tensor<64x32xindex>
// CHECK: %[[DQ:.+]] = arith.divui %[[QI]], %[[C48]] : tensor<64x32xindex>
// CHECK: %[[DK:.+]] = arith.divui %[[KI]], %[[C48]] : tensor<64x32xindex>
// CHECK: %[[SAME:.+]] = arith.cmpi eq, %[[DQ]], %[[DK]] : tensor<64x32xindex>
// CHECK: %[[HEAD:.+]] = arith.cmpi ult, %[[HT]], %[[BT]] : tensor<64x32xindex>
// CHECK: %[[SEE:.+]] = arith.ori %[[SAME]], %[[HEAD]] : tensor<64x32xi1>
// CHECK: %[[NINF:.+]] = arith.constant dense<0xFF800000> : tensor<64x32xf32>
// CHECK: %[[SEL:.+]] = arith.select %[[SEE]], %[[S]], %[[NINF]] : tensor<64x32xi1>, tensor<64x32xf32>
// CHECK: %[[M:.+]] = attn.mask %[[SEL]] rows %[[R0]] of %[[NQ]] cols %[[C0]] of %[[NK]] {mask = #attn.mask<causal, bottom_right>} : tensor<64x32xf32>
// CHECK-NOT: mask_mod
// CHECK: return %[[M]]
func.func @expand(%s: tensor<64x32xf32>, %r0: index, %c0: index, %nq: index, %nk: index, %b: index, %h: index) -> tensor<64x32xf32> {
  %m = attn.mask %s rows %r0 of %nq cols %c0 of %nk {mask = #attn.mask<causal, bottom_right>} : tensor<64x32xf32> mask_mod(%b, %h) {
  ^bb0(%bi: index, %hi: index, %qi: index, %ki: index):
    %c48 = arith.constant 48 : index
    %dq = arith.divui %qi, %c48 : index
    %dk = arith.divui %ki, %c48 : index
    %same = arith.cmpi eq, %dq, %dk : index
    %head = arith.cmpi ult, %hi, %bi : index
    %see = arith.ori %same, %head : i1
    attn.yield %see : i1
  }
  return %m : tensor<64x32xf32>
}

// A mask without a region is left alone.
// CHECK-LABEL: func.func @plain
// CHECK-NOT: attn.iota
// CHECK: attn.mask %{{.+}} {mask = #attn.mask<none>} : tensor<64x32xf32>
// CHECK-NEXT: return
func.func @plain(%s: tensor<64x32xf32>, %r0: index, %nq: index, %nk: index) -> tensor<64x32xf32> {
  %m = attn.mask %s rows %r0 of %nq cols %r0 of %nk {mask = #attn.mask<none>} : tensor<64x32xf32>
  return %m : tensor<64x32xf32>
}
