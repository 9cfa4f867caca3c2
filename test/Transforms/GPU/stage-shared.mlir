// RUN: sed s/STAGES/1/ %S/Inputs/two-kv-loops.mlir | attn-opt --attn-assign-layouts --attn-stage-shared | FileCheck %s

// attn-stage-shared turns each shared-memory tile into a buffer with the
// simplest correct schedule: copy, commit, wait for everything, barrier,
// read; a barrier at the end of a loop body that writes a buffer. The two
// K/V loops (a run of consecutive loops) share one K and one V buffer,
// allocated before the first; the (batch, head) plane of each source is a
// memref.subview taken once, where its buffer is allocated.

// CHECK-LABEL: func.func @two_loops
// CHECK: attn.program
// Q: copied once, before the loops.
// CHECK: %[[QPLANE:.+]] = memref.subview %{{.*}} : memref<?x?x?x64xf16> to memref<?x64xf16, strided<[64, 1], offset: ?>>
// CHECK-NEXT: %[[QBUF:.+]] = attn.local_alloc : !attn.shared<64x64xf16, #attn.swizzled>
// CHECK-NEXT: attn.async_copy %[[QPLANE]][%{{.*}}, %{{.*}}] into %[[QBUF]]
// CHECK-NEXT: attn.async_commit
// K and V: one buffer each for both loops.
// CHECK: %[[KPLANE:.+]] = memref.subview
// CHECK-NEXT: %[[KBUF:.+]] = attn.local_alloc : !attn.shared<64x64xf16, #attn.swizzled>
// CHECK: %[[VPLANE:.+]] = memref.subview
// CHECK-NEXT: %[[VBUF:.+]] = attn.local_alloc : !attn.shared<64x64xf16, #attn.swizzled>
// CHECK-NOT: attn.local_alloc
// CHECK: scf.for
// CHECK: attn.async_copy %[[KPLANE]][%{{.*}}, %{{.*}}] into %[[KBUF]]
// CHECK-NEXT: attn.async_commit
// CHECK-NEXT: attn.async_wait {pending = 0 : i64}
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: attn.dot %[[QBUF]], %[[KBUF]], %{{.*}} transpose_b : !attn.shared<64x64xf16, #attn.swizzled>, !attn.shared<64x64xf16, #attn.swizzled> -> tensor<64x64xf32, #attn.mma<warps = 4>>
// CHECK: attn.async_copy %[[VPLANE]][%{{.*}}, %{{.*}}] into %[[VBUF]]
// CHECK-NEXT: attn.async_commit
// CHECK: attn.async_wait {pending = 0 : i64}
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: attn.dot %{{.*}}, %[[VBUF]], %{{.*}} : tensor<64x64xf16, #attn.dot_operand<a, #attn.mma<warps = 4>>>, !attn.shared<64x64xf16, #attn.swizzled>
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: scf.yield
// The second loop copies into the same buffers.
// CHECK: scf.for
// CHECK: attn.async_copy %[[KPLANE]][%{{.*}}, %{{.*}}] into %[[KBUF]]
// CHECK: attn.mask
// CHECK: attn.async_copy %[[VPLANE]][%{{.*}}, %{{.*}}] into %[[VBUF]]
// CHECK: attn.dot %{{.*}}, %[[VBUF]], %{{.*}} :
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: scf.yield
// No tile in shared memory is left as a tensor.
// CHECK-NOT: #attn.swizzled>>
