// RUN: attn-opt %s --attn-decompose-online-softmax | FileCheck %s

// attn.online_softmax and attn.finalize become row reductions, row
// broadcasts and arith/math on tiles, with the -inf guards that keep a row
// with no visible key at p = 0, l = 0, output 0 and LSE -inf.

// CHECK-LABEL: func.func @online_softmax
// CHECK-SAME: %[[S:[a-zA-Z0-9_]+]]: tensor<64x32xf32>, %[[M:[a-zA-Z0-9_]+]]: tensor<64xf32>
// CHECK-SAME: %[[L:[a-zA-Z0-9_]+]]: tensor<64xf32>, %[[ACC:[a-zA-Z0-9_]+]]: tensor<64x16xf32>
// CHECK-DAG: %[[ZERO:.+]] = arith.constant dense<0.000000e+00> : tensor<64xf32>
// CHECK-DAG: %[[NEGINF:.+]] = arith.constant dense<0xFF800000> : tensor<64xf32>
// CHECK-DAG: %[[SCALE:.+]] = arith.constant dense<1.250000e-01> : tensor<64x32xf32>
// t = scores * scale_log2e
// CHECK: %[[T:.+]] = arith.mulf %[[S]], %[[SCALE]] : tensor<64x32xf32>
// m_new = max(m, rowmax(t))
// CHECK: %[[RMAX:.+]] = attn.reduce_rows max %[[T]] : tensor<64x32xf32> -> tensor<64xf32>
// CHECK: %[[MNEW:.+]] = arith.maximumf %[[M]], %[[RMAX]] : tensor<64xf32>
// m_ref = (m_new == -inf) ? 0 : m_new
// CHECK: %[[EMPTY:.+]] = arith.cmpf oeq, %[[MNEW]], %[[NEGINF]] : tensor<64xf32>
// CHECK: %[[MREF:.+]] = arith.select %[[EMPTY]], %[[ZERO]], %[[MNEW]] : tensor<64xi1>, tensor<64xf32>
// p = exp2(t - m_ref)
// CHECK: %[[MREFB:.+]] = attn.broadcast_rows %[[MREF]] : tensor<64xf32> -> tensor<64x32xf32>
// CHECK: %[[TS:.+]] = arith.subf %[[T]], %[[MREFB]] : tensor<64x32xf32>
// CHECK: %[[P:.+]] = math.exp2 %[[TS]] : tensor<64x32xf32>
// alpha = exp2(m - m_ref)
// CHECK: %[[MD:.+]] = arith.subf %[[M]], %[[MREF]] : tensor<64xf32>
// CHECK: %[[ALPHA:.+]] = math.exp2 %[[MD]] : tensor<64xf32>
// l_new = alpha * l + rowsum(p)
// CHECK-DAG: %[[RSUM:.+]] = attn.reduce_rows sum %[[P]] : tensor<64x32xf32> -> tensor<64xf32>
// CHECK-DAG: %[[LA:.+]] = arith.mulf %[[L]], %[[ALPHA]] : tensor<64xf32>
// CHECK: %[[LNEW:.+]] = arith.addf %[[LA]], %[[RSUM]] : tensor<64xf32>
// acc_new = alpha * acc
// CHECK: %[[ALPHAB:.+]] = attn.broadcast_rows %[[ALPHA]] : tensor<64xf32> -> tensor<64x16xf32>
// CHECK: %[[ANEW:.+]] = arith.mulf %[[ACC]], %[[ALPHAB]] : tensor<64x16xf32>
// CHECK-NOT: attn.online_softmax
// CHECK: return %[[P]], %[[MNEW]], %[[LNEW]], %[[ANEW]]
func.func @online_softmax(%s: tensor<64x32xf32>, %m: tensor<64xf32>, %l: tensor<64xf32>,
                          %acc: tensor<64x16xf32>)
    -> (tensor<64x32xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64x16xf32>) {
  %p, %m1, %l1, %a1 = attn.online_softmax %s, %m, %l, %acc {scale_log2e = 0.125 : f32}
      : tensor<64x32xf32>, tensor<64xf32>, tensor<64x16xf32>
  return %p, %m1, %l1, %a1 : tensor<64x32xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64x16xf32>
}

// out = (l > 0 or NaN) ? acc / l : 0 (acc is 0 there) and
// lse = (l > 0 or NaN) ? (m + log2(l)) * ln(2) : -inf, +inf where m = +inf
// (ugt: a NaN sum propagates instead of passing for an empty row).
// CHECK-LABEL: func.func @finalize
// CHECK-SAME: %[[ACC:[a-zA-Z0-9_]+]]: tensor<64x16xf32>, %[[M:[a-zA-Z0-9_]+]]: tensor<64xf32>, %[[L:[a-zA-Z0-9_]+]]: tensor<64xf32>
// CHECK-DAG: %[[ZERO:.+]] = arith.constant dense<0.000000e+00> : tensor<64xf32>
// CHECK-DAG: %[[ONE:.+]] = arith.constant dense<1.000000e+00> : tensor<64xf32>
// CHECK-DAG: %[[LN2:.+]] = arith.constant dense<0.693147182> : tensor<64xf32>
// CHECK-DAG: %[[NEGINF:.+]] = arith.constant dense<0xFF800000> : tensor<64xf32>
// CHECK-DAG: %[[POSINF:.+]] = arith.constant dense<0x7F800000> : tensor<64xf32>
// CHECK: %[[POS:.+]] = arith.cmpf ugt, %[[L]], %[[ZERO]] : tensor<64xf32>
// CHECK: %[[SAFE:.+]] = arith.select %[[POS]], %[[L]], %[[ONE]] : tensor<64xi1>, tensor<64xf32>
// CHECK: %[[SAFEB:.+]] = attn.broadcast_rows %[[SAFE]] : tensor<64xf32> -> tensor<64x16xf32>
// CHECK: %[[OUT:.+]] = arith.divf %[[ACC]], %[[SAFEB]] : tensor<64x16xf32>
// CHECK: %[[LOG:.+]] = math.log2 %[[SAFE]] : tensor<64xf32>
// CHECK: %[[LSE2:.+]] = arith.addf %[[M]], %[[LOG]] : tensor<64xf32>
// CHECK: %[[LSEN:.+]] = arith.mulf %[[LSE2]], %[[LN2]] : tensor<64xf32>
// CHECK: %[[LSEP:.+]] = arith.select %[[POS]], %[[LSEN]], %[[NEGINF]] : tensor<64xi1>, tensor<64xf32>
// CHECK: %[[INF:.+]] = arith.cmpf oeq, %[[M]], %[[POSINF]] : tensor<64xf32>
// CHECK: %[[LSE:.+]] = arith.select %[[INF]], %[[POSINF]], %[[LSEP]] : tensor<64xi1>, tensor<64xf32>
// CHECK-NOT: attn.finalize
// CHECK: return %[[OUT]], %[[LSE]]
func.func @finalize(%acc: tensor<64x16xf32>, %m: tensor<64xf32>, %l: tensor<64xf32>)
    -> (tensor<64x16xf32>, tensor<64xf32>) {
  %o, %lse = attn.finalize %acc, %m, %l : tensor<64x16xf32>, tensor<64xf32>
  return %o, %lse : tensor<64x16xf32>, tensor<64xf32>
}

// Both ops inside a loop, as attn-tile leaves them: everything is rewritten
// and the row/tile shapes follow the operands.
// CHECK-LABEL: func.func @in_loop
// CHECK: scf.for
// CHECK: attn.reduce_rows max %{{.+}} : tensor<16x128xf32> -> tensor<16xf32>
// CHECK: attn.broadcast_rows %{{.+}} : tensor<16xf32> -> tensor<16x128xf32>
// CHECK: attn.reduce_rows sum %{{.+}} : tensor<16x128xf32> -> tensor<16xf32>
// CHECK: attn.broadcast_rows %{{.+}} : tensor<16xf32> -> tensor<16x8xf32>
// CHECK: scf.yield
// CHECK: arith.divf %{{.+}}, %{{.+}} : tensor<16x8xf32>
// CHECK-NOT: attn.online_softmax
// CHECK-NOT: attn.finalize
// CHECK: return
func.func @in_loop(%s: tensor<16x128xf32>, %m0: tensor<16xf32>, %l0: tensor<16xf32>,
                   %a0: tensor<16x8xf32>, %n: index) -> (tensor<16x8xf32>, tensor<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:3 = scf.for %j = %c0 to %n step %c1 iter_args(%m = %m0, %l = %l0, %acc = %a0)
      -> (tensor<16xf32>, tensor<16xf32>, tensor<16x8xf32>) {
    %p, %m1, %l1, %a1 = attn.online_softmax %s, %m, %l, %acc {scale_log2e = 1.0 : f32}
        : tensor<16x128xf32>, tensor<16xf32>, tensor<16x8xf32>
    scf.yield %m1, %l1, %a1 : tensor<16xf32>, tensor<16xf32>, tensor<16x8xf32>
  }
  %o, %lse = attn.finalize %r#2, %r#0, %r#1 : tensor<16x8xf32>, tensor<16xf32>
  return %o, %lse : tensor<16x8xf32>, tensor<16xf32>
}
