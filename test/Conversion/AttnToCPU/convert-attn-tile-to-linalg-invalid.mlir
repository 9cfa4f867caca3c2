// RUN: attn-opt %s --convert-attn-tile-to-linalg -split-input-file -verify-diagnostics

// Ops that the CPU lowering does not handle say which pass must run first.

func.func @online_softmax_left(%s: tensor<64x32xf32>, %m: tensor<64xf32>, %acc: tensor<64x16xf32>)
    -> (tensor<64x32xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64x16xf32>) {
  // expected-error @+1 {{'attn.online_softmax' op has no CPU lowering; run attn-decompose-online-softmax first}}
  %p, %m1, %l1, %a1 = attn.online_softmax %s, %m, %m, %acc {scale_log2e = 1.0 : f32}
      : tensor<64x32xf32>, tensor<64xf32>, tensor<64x16xf32>
  return %p, %m1, %l1, %a1 : tensor<64x32xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64x16xf32>
}

// -----

func.func @finalize_left(%acc: tensor<64x16xf32>, %m: tensor<64xf32>) -> (tensor<64x16xf32>, tensor<64xf32>) {
  // expected-error @+1 {{'attn.finalize' op has no CPU lowering; run attn-decompose-online-softmax first}}
  %o, %lse = attn.finalize %acc, %m, %m : tensor<64x16xf32>, tensor<64xf32>
  return %o, %lse : tensor<64x16xf32>, tensor<64xf32>
}

// -----

func.func @attention_left(%m: memref<1x1x64x64xf32>) {
  // expected-error @+1 {{'attn.attention' op must be tiled first (run attn-tile)}}
  attn.attention ins(%m, %m, %m : memref<1x1x64x64xf32>, memref<1x1x64x64xf32>, memref<1x1x64x64xf32>)
                 outs(%m : memref<1x1x64x64xf32>)
  return
}

// -----

func.func @attention_on_tensors_left(%t: tensor<1x1x64x64xf32>) -> tensor<1x1x64x64xf32> {
  // expected-error @+1 {{'attn.attention' op must be tiled first (run attn-tile)}}
  %r = attn.attention ins(%t, %t, %t : tensor<1x1x64x64xf32>, tensor<1x1x64x64xf32>, tensor<1x1x64x64xf32>)
                      outs(%t : tensor<1x1x64x64xf32>) -> tensor<1x1x64x64xf32>
  return %r : tensor<1x1x64x64xf32>
}

// -----

// Inside a tile program, the leftover op is reported once the program
// around it has been lowered.
func.func @in_program(%gm: index, %gbh: index, %acc: tensor<64x16xf32>, %m: tensor<64xf32>,
                      %out: memref<?x16xf32>) {
  %c0 = arith.constant 0 : index
  attn.program (%pm, %pbh) in (%gm, %gbh) buffers(o = %out : memref<?x16xf32>) {
    // expected-error @+1 {{'attn.finalize' op has no CPU lowering; run attn-decompose-online-softmax first}}
    %o, %lse = attn.finalize %acc, %m, %m : tensor<64x16xf32>, tensor<64xf32>
    attn.store %o, %out[%c0, %c0] : tensor<64x16xf32>, memref<?x16xf32>
  }
  return
}
