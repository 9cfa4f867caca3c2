// RUN: attn-opt %s | attn-opt | FileCheck %s

// Laid-out tile programs print, parse and verify: register layouts
// (#attn.mma, #attn.dot_operand, #attn.rows), the shared-memory layout
// (#attn.swizzled) on tensors and on !attn.shared buffers, and the ops that
// only exist at that level.

#mma = #attn.mma<warps = 4>

// CHECK-LABEL: func.func @types
// CHECK-SAME: tensor<128x64xf32, #attn.mma<warps = 4>>
// CHECK-SAME: tensor<128x64xf16, #attn.dot_operand<a, #attn.mma<warps = 4>>>
// CHECK-SAME: tensor<128xf32, #attn.rows<#attn.mma<warps = 4>>>
// CHECK-SAME: tensor<64x128xf16, #attn.swizzled>
// CHECK-SAME: !attn.shared<2x64x128xf16, #attn.swizzled>
func.func @types(%s: tensor<128x64xf32, #mma>,
                 %p: tensor<128x64xf16, #attn.dot_operand<a, #mma>>,
                 %m: tensor<128xf32, #attn.rows<#mma>>,
                 %k: tensor<64x128xf16, #attn.swizzled>,
                 %buf: !attn.shared<2x64x128xf16, #attn.swizzled>) {
  return
}

// wgmma (version 3) and its blocked shared layout; version 2 is the default
// and is not printed.
// CHECK-LABEL: func.func @wgmma_types
// CHECK-SAME: tensor<128x64xf32, #attn.mma<warps = 8, version = 3>>
// CHECK-SAME: tensor<128x64xf16, #attn.dot_operand<a, #attn.mma<warps = 8, version = 3>>>
// CHECK-SAME: tensor<64x64xf32, #attn.mma<warps = 4>>
// CHECK-SAME: !attn.shared<2x64x128xf16, #attn.swizzled<blocked>>
// A span of 128 bytes is the default and is not printed.
// CHECK-SAME: !attn.shared<2x128x64xf16, #attn.swizzled<blocked>>
// CHECK-SAME: !attn.shared<2x128x112xf16, #attn.swizzled<blocked, span = 32>>
// CHECK-SAME: !attn.shared<2x128x96xbf16, #attn.swizzled<blocked, span = 64>>
func.func @wgmma_types(%s: tensor<128x64xf32, #attn.mma<warps = 8, version = 3>>,
                       %p: tensor<128x64xf16, #attn.dot_operand<a, #attn.mma<warps = 8, version = 3>>>,
                       %v2: tensor<64x64xf32, #attn.mma<warps = 4, version = 2>>,
                       %buf: !attn.shared<2x64x128xf16, #attn.swizzled<blocked>>,
                       %b128: !attn.shared<2x128x64xf16, #attn.swizzled<blocked, span = 128>>,
                       %b32: !attn.shared<2x128x112xf16, #attn.swizzled<blocked, span = 32>>,
                       %b64: !attn.shared<2x128x96xbf16, #attn.swizzled<blocked, span = 64>>) {
  return
}

// CHECK-LABEL: func.func @shared_ops
// CHECK: %[[Q:.+]] = attn.local_alloc {offset = 0 : i64} : !attn.shared<128x64xf16, #attn.swizzled>
// CHECK: %[[K:.+]] = attn.local_alloc : !attn.shared<2x64x64xf16, #attn.swizzled>
// CHECK: attn.async_copy %{{.+}}[%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}] into %[[Q]] : memref<?x?x?x64xf16>, !attn.shared<128x64xf16, #attn.swizzled>
// CHECK: attn.async_commit
// CHECK: %[[K1:.+]] = attn.local_view %[[K]][%{{.+}}] : !attn.shared<2x64x64xf16, #attn.swizzled> -> !attn.shared<64x64xf16, #attn.swizzled>
// CHECK: attn.async_copy %{{.+}} into %[[K1]]
// CHECK: attn.async_wait {pending = 1 : i64}
// CHECK: attn.dot %[[Q]], %[[K1]], %{{.+}} transpose_b : !attn.shared<128x64xf16, #attn.swizzled>, !attn.shared<64x64xf16, #attn.swizzled> -> tensor<128x64xf32, #attn.mma<warps = 4>>
// CHECK: attn.convert_layout %{{.+}} : tensor<128x64xf16, #attn.mma<warps = 4>> -> tensor<128x64xf16, #attn.dot_operand<a, #attn.mma<warps = 4>>>
// CHECK: attn.local_store %{{.+}}, %{{.+}} : tensor<64x64xf16, #attn.mma<warps = 4>>, !attn.shared<64x64xf16, #attn.swizzled>
func.func @shared_ops(%src: memref<?x?x?x64xf16>, %i: index, %acc: tensor<128x64xf32, #mma>,
                      %p: tensor<128x64xf16, #mma>, %v: tensor<64x64xf16, #mma>) {
  %q = attn.local_alloc {offset = 0 : i64} : !attn.shared<128x64xf16, #attn.swizzled>
  %k = attn.local_alloc : !attn.shared<2x64x64xf16, #attn.swizzled>
  attn.async_copy %src[%i, %i, %i, %i] into %q : memref<?x?x?x64xf16>, !attn.shared<128x64xf16, #attn.swizzled>
  attn.async_commit
  %k1 = attn.local_view %k[%i] : !attn.shared<2x64x64xf16, #attn.swizzled> -> !attn.shared<64x64xf16, #attn.swizzled>
  attn.async_copy %src[%i, %i, %i, %i] into %k1 : memref<?x?x?x64xf16>, !attn.shared<64x64xf16, #attn.swizzled>
  attn.async_commit
  attn.async_wait {pending = 1 : i64}
  gpu.barrier
  %s = attn.dot %q, %k1, %acc transpose_b : !attn.shared<128x64xf16, #attn.swizzled>, !attn.shared<64x64xf16, #attn.swizzled> -> tensor<128x64xf32, #mma>
  %pa = attn.convert_layout %p : tensor<128x64xf16, #mma> -> tensor<128x64xf16, #attn.dot_operand<a, #mma>>
  %vbuf = attn.local_alloc : !attn.shared<64x64xf16, #attn.swizzled>
  attn.local_store %v, %vbuf : tensor<64x64xf16, #mma>, !attn.shared<64x64xf16, #attn.swizzled>
  %o = attn.dot %pa, %vbuf, %acc : tensor<128x64xf16, #attn.dot_operand<a, #mma>>, !attn.shared<64x64xf16, #attn.swizzled> -> tensor<128x64xf32, #mma>
  return
}

// CHECK-LABEL: func.func @iota
// CHECK: attn.iota 0, %{{.+}} : tensor<64x32xindex>
// CHECK: attn.iota 1, %{{.+}} : tensor<64x32xindex, #attn.mma<warps = 4>>
func.func @iota(%r: index) {
  %q = attn.iota 0, %r : tensor<64x32xindex>
  %k = attn.iota 1, %r : tensor<64x32xindex, #mma>
  return
}

// An async wgmma product and the wait that returns it.
// CHECK-LABEL: func.func @async_product
// CHECK: %[[S:.+]] = attn.dot %{{.+}}, %{{.+}}, %{{.+}} transpose_b async : !attn.shared<64x64xf16, #attn.swizzled<blocked>>, !attn.shared<64x64xf16, #attn.swizzled<blocked>> -> tensor<64x64xf32, #attn.mma<warps = 4, version = 3>>
// CHECK: attn.dot_wait %[[S]], %{{.+}} {pending = 1 : i64} : tensor<64x64xf32, #attn.mma<warps = 4, version = 3>>, tensor<64x64xf32, #attn.mma<warps = 4, version = 3>>
func.func @async_product(%q: !attn.shared<64x64xf16, #attn.swizzled<blocked>>,
                         %k: !attn.shared<64x64xf16, #attn.swizzled<blocked>>,
                         %acc: tensor<64x64xf32, #attn.mma<warps = 4, version = 3>>) {
  %s = attn.dot %q, %k, %acc transpose_b async : !attn.shared<64x64xf16, #attn.swizzled<blocked>>, !attn.shared<64x64xf16, #attn.swizzled<blocked>> -> tensor<64x64xf32, #attn.mma<warps = 4, version = 3>>
  %t = attn.dot %q, %k, %acc async : !attn.shared<64x64xf16, #attn.swizzled<blocked>>, !attn.shared<64x64xf16, #attn.swizzled<blocked>> -> tensor<64x64xf32, #attn.mma<warps = 4, version = 3>>
  %s1, %t1 = attn.dot_wait %s, %t {pending = 1 : i64} : tensor<64x64xf32, #attn.mma<warps = 4, version = 3>>, tensor<64x64xf32, #attn.mma<warps = 4, version = 3>>
  return
}
