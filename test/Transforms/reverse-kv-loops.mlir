// RUN: attn-opt %s --attn-split-kv-loop --attn-reverse-kv-loops | FileCheck %s

// In a program whose tile configuration has reverse_kv = true: the three
// loops attn-split-kv-loop makes of one masked K/V loop, visited
// last block first: the masked tail [b, hi) runs first, then the unmasked
// [a, b), then the masked head [lo, a). Each loop runs over positions
// p = hi - 1 - j, contiguous over the chain, and rebuilds j from p. The
// softmax state enters the (former) tail loop and leaves the (former) head.

// CHECK-LABEL: func.func @chain
// CHECK-SAME: %[[M0:[a-zA-Z0-9_]+]]: tensor<64xf32>, %[[L0:[a-zA-Z0-9_]+]]: tensor<64xf32>, %[[A0:[a-zA-Z0-9_]+]]: tensor<64x16xf32>
// CHECK-DAG: %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG: %[[C32:.+]] = arith.constant 32 : index
// CHECK: %[[LO:[a-zA-Z0-9_]+]], %[[HI:[a-zA-Z0-9_]+]] = attn.kv_range visible
// CHECK: %[[A:.+]] = arith.minsi %{{.+}}, %[[HI]] : index
// CHECK: %[[B:.+]] = arith.minsi %{{.+}}, %[[HI]] : index
// CHECK: %[[LAST:.+]] = arith.subi %[[HI]], %{{.+}} : index
// Positions hi - x of the bounds, one value per bound, so that each loop
// starts at the position where the one before it ends:
// CHECK-NEXT: %[[P_A:.+]] = arith.subi %[[HI]], %[[A]] : index
// CHECK-NEXT: %[[P_LO:.+]] = arith.subi %[[HI]], %[[LO]] : index
// CHECK-NEXT: %[[P_B:.+]] = arith.subi %[[HI]], %[[B]] : index
// CHECK-NEXT: %[[P_HI:.+]] = arith.subi %[[HI]], %[[HI]] : index
// CHECK-NOT: arith.subi %[[HI]]
//
// The masked tail first, from the chain's initial state:
// CHECK: %[[R2:.+]]:3 = scf.for %[[P2:.+]] = %[[P_HI]] to %[[P_B]] step %[[C1]]
// CHECK-SAME: iter_args(%{{.+}} = %[[M0]], %{{.+}} = %[[L0]], %{{.+}} = %[[A0]])
// CHECK-NEXT: %[[J2:.+]] = arith.subi %[[LAST]], %[[P2]] : index
// CHECK-NEXT: %[[COL2:.+]] = arith.muli %[[J2]], %[[C32]] : index
// CHECK: attn.mask %{{.+}} rows %{{.+}} cols %[[COL2]]
// CHECK: scf.yield
//
// CHECK: %[[R1:.+]]:3 = scf.for %[[P1:.+]] = %[[P_B]] to %[[P_A]] step %[[C1]]
// CHECK-SAME: iter_args(%{{.+}} = %[[R2]]#0, %{{.+}} = %[[R2]]#1, %{{.+}} = %[[R2]]#2)
// CHECK-NEXT: %[[J1:.+]] = arith.subi %[[LAST]], %[[P1]] : index
// CHECK-NOT: attn.mask
// CHECK: scf.yield
//
// CHECK: %[[R0:.+]]:3 = scf.for %[[P0:.+]] = %[[P_A]] to %[[P_LO]] step %[[C1]]
// CHECK-SAME: iter_args(%{{.+}} = %[[R1]]#0, %{{.+}} = %[[R1]]#1, %{{.+}} = %[[R1]]#2)
// CHECK-NEXT: %[[J0:.+]] = arith.subi %[[LAST]], %[[P0]] : index
// CHECK: attn.mask
// CHECK: scf.yield
// CHECK-NOT: scf.for
// CHECK: attn.store %[[R0]]#0
// CHECK: attn.store %[[R0]]#1
func.func @chain(%q: tensor<64x16xf32>, %kbuf: memref<?x16xf32>, %row0: index, %nq: index, %nk: index,
                 %m0: tensor<64xf32>, %l0: tensor<64xf32>, %a0: tensor<64x16xf32>,
                 %out: memref<?xf32>, %gm: index, %gbh: index) {
  attn.program (%pm, %pbh) in (%gm, %gbh)
      buffers(k = %kbuf : memref<?x16xf32>, lse = %out : memref<?xf32>)
      attributes {config = #attn.tile_config<block_m = 64, block_n = 32, warps = 4, stages = 2>,
                  gpu_config = #attn.gpu_config<reverse_kv = true>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %z = arith.constant dense<0.0> : tensor<64x32xf32>
  %lo, %hi = attn.kv_range visible %row0, %nq, %nk
      {block_m = 64 : i64, block_n = 32 : i64, mask = #attn.mask<window, bottom_right, left = 100, right = 3>}
  %r:3 = scf.for %j = %lo to %hi step %c1 iter_args(%m = %m0, %l = %l0, %acc = %a0)
      -> (tensor<64xf32>, tensor<64xf32>, tensor<64x16xf32>) {
    %col0 = arith.muli %j, %c32 : index
    %k = attn.load %kbuf[%col0, %c0] : memref<?x16xf32> -> tensor<32x16xf32>
    %s = attn.dot %q, %k, %z transpose_b : tensor<64x16xf32>, tensor<32x16xf32> -> tensor<64x32xf32>
    %sm = attn.mask %s rows %row0 of %nq cols %col0 of %nk
        {mask = #attn.mask<window, bottom_right, left = 100, right = 3>} : tensor<64x32xf32>
    %p, %m1, %l1, %a1 = attn.online_softmax %sm, %m, %l, %acc {scale_log2e = 1.0 : f32}
        : tensor<64x32xf32>, tensor<64xf32>, tensor<64x16xf32>
    %a2 = attn.dot %p, %k, %a1 : tensor<64x32xf32>, tensor<32x16xf32> -> tensor<64x16xf32>
    scf.yield %m1, %l1, %a2 : tensor<64xf32>, tensor<64xf32>, tensor<64x16xf32>
  }
  attn.store %r#0, %out[%row0] : tensor<64xf32>, memref<?xf32>
  attn.store %r#1, %out[%row0] : tensor<64xf32>, memref<?xf32>
  }
  return
}

// One loop (no split) is reversed on its own.
// CHECK-LABEL: func.func @single
// CHECK: %[[LAST:.+]] = arith.subi %[[N:.+]], %{{.+}} : index
// CHECK: scf.for %[[P:.+]] = %{{.+}} to %{{.+}} step
// CHECK-NEXT: arith.subi %[[LAST]], %[[P]] : index
func.func @single(%q: tensor<64x16xf32>, %kbuf: memref<?x16xf32>, %n: index,
                  %m0: tensor<64xf32>, %l0: tensor<64xf32>, %a0: tensor<64x16xf32>,
                  %out: memref<?xf32>, %gm: index, %gbh: index) {
  attn.program (%pm, %pbh) in (%gm, %gbh)
      buffers(k = %kbuf : memref<?x16xf32>, lse = %out : memref<?xf32>)
      attributes {config = #attn.tile_config<block_m = 64, block_n = 32, warps = 4, stages = 2>,
                  gpu_config = #attn.gpu_config<reverse_kv = true>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %z = arith.constant dense<0.0> : tensor<64x32xf32>
  %r:3 = scf.for %j = %c0 to %n step %c1 iter_args(%m = %m0, %l = %l0, %acc = %a0)
      -> (tensor<64xf32>, tensor<64xf32>, tensor<64x16xf32>) {
    %col0 = arith.muli %j, %c32 : index
    %k = attn.load %kbuf[%col0, %c0] : memref<?x16xf32> -> tensor<32x16xf32>
    %s = attn.dot %q, %k, %z transpose_b : tensor<64x16xf32>, tensor<32x16xf32> -> tensor<64x32xf32>
    %p, %m1, %l1, %a1 = attn.online_softmax %s, %m, %l, %acc {scale_log2e = 1.0 : f32}
        : tensor<64x32xf32>, tensor<64xf32>, tensor<64x16xf32>
    %a2 = attn.dot %p, %k, %a1 : tensor<64x32xf32>, tensor<32x16xf32> -> tensor<64x16xf32>
    scf.yield %m1, %l1, %a2 : tensor<64xf32>, tensor<64xf32>, tensor<64x16xf32>
  }
  attn.store %r#0, %out[%c0] : tensor<64xf32>, memref<?xf32>
  }
  return
}

// The same program without reverse_kv is left alone.
// CHECK-LABEL: func.func @forward
// CHECK: scf.for %[[J:.+]] = %[[C0:.+]] to %{{.+}} step
// CHECK-NOT: arith.subi
// CHECK: arith.muli %[[J]]
func.func @forward(%q: tensor<64x16xf32>, %kbuf: memref<?x16xf32>, %n: index,
                   %m0: tensor<64xf32>, %l0: tensor<64xf32>, %a0: tensor<64x16xf32>,
                   %out: memref<?xf32>, %gm: index, %gbh: index) {
  attn.program (%pm, %pbh) in (%gm, %gbh)
      buffers(k = %kbuf : memref<?x16xf32>, lse = %out : memref<?xf32>)
      attributes {config = #attn.tile_config<block_m = 64, block_n = 32, warps = 4, stages = 2>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %z = arith.constant dense<0.0> : tensor<64x32xf32>
  %r:3 = scf.for %j = %c0 to %n step %c1 iter_args(%m = %m0, %l = %l0, %acc = %a0)
      -> (tensor<64xf32>, tensor<64xf32>, tensor<64x16xf32>) {
    %col0 = arith.muli %j, %c32 : index
    %k = attn.load %kbuf[%col0, %c0] : memref<?x16xf32> -> tensor<32x16xf32>
    %s = attn.dot %q, %k, %z transpose_b : tensor<64x16xf32>, tensor<32x16xf32> -> tensor<64x32xf32>
    %p, %m1, %l1, %a1 = attn.online_softmax %s, %m, %l, %acc {scale_log2e = 1.0 : f32}
        : tensor<64x32xf32>, tensor<64xf32>, tensor<64x16xf32>
    %a2 = attn.dot %p, %k, %a1 : tensor<64x32xf32>, tensor<32x16xf32> -> tensor<64x16xf32>
    scf.yield %m1, %l1, %a2 : tensor<64xf32>, tensor<64xf32>, tensor<64x16xf32>
  }
  attn.store %r#0, %out[%c0] : tensor<64xf32>, memref<?xf32>
  }
  return
}

// Loops without attn.online_softmax are not K/V loops: left alone.
// CHECK-LABEL: func.func @left_alone
// CHECK: scf.for %[[J:.+]] = %[[C0:.+]] to %{{.+}} step
// CHECK-NOT: arith.subi
// CHECK: scf.yield
func.func @left_alone(%n: index, %init: tensor<64xf32>) -> tensor<64xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %j = %c0 to %n step %c1 iter_args(%t = %init) -> (tensor<64xf32>) {
    %u = arith.addf %t, %t : tensor<64xf32>
    scf.yield %u : tensor<64xf32>
  }
  return %r : tensor<64xf32>
}

// A loop that carries more than the softmax state may depend on the order
// of its iterations: left alone, even with reverse_kv.
// CHECK-LABEL: func.func @extra_state
// CHECK: scf.for %[[J:.+]] = %[[C0:.+]] to %{{.+}} step
// CHECK-NOT: arith.subi
// CHECK: arith.muli %[[J]]
func.func @extra_state(%q: tensor<64x16xf32>, %kbuf: memref<?x16xf32>, %n: index,
                       %m0: tensor<64xf32>, %l0: tensor<64xf32>, %a0: tensor<64x16xf32>,
                       %out: memref<?xf32>, %gm: index, %gbh: index) {
  attn.program (%pm, %pbh) in (%gm, %gbh)
      buffers(k = %kbuf : memref<?x16xf32>, lse = %out : memref<?xf32>)
      attributes {config = #attn.tile_config<block_m = 64, block_n = 32, warps = 4, stages = 2>,
                  gpu_config = #attn.gpu_config<reverse_kv = true>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %z = arith.constant dense<0.0> : tensor<64x32xf32>
  %r:4 = scf.for %j = %c0 to %n step %c1 iter_args(%m = %m0, %l = %l0, %acc = %a0, %last = %c0)
      -> (tensor<64xf32>, tensor<64xf32>, tensor<64x16xf32>, index) {
    %col0 = arith.muli %j, %c32 : index
    %k = attn.load %kbuf[%col0, %c0] : memref<?x16xf32> -> tensor<32x16xf32>
    %s = attn.dot %q, %k, %z transpose_b : tensor<64x16xf32>, tensor<32x16xf32> -> tensor<64x32xf32>
    %p, %m1, %l1, %a1 = attn.online_softmax %s, %m, %l, %acc {scale_log2e = 1.0 : f32}
        : tensor<64x32xf32>, tensor<64xf32>, tensor<64x16xf32>
    %a2 = attn.dot %p, %k, %a1 : tensor<64x32xf32>, tensor<32x16xf32> -> tensor<64x16xf32>
    scf.yield %m1, %l1, %a2, %j : tensor<64xf32>, tensor<64xf32>, tensor<64x16xf32>, index
  }
  attn.store %r#0, %out[%r#3] : tensor<64xf32>, memref<?xf32>
  }
  return
}
