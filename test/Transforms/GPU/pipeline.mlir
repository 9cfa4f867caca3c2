// RUN: sed s/STAGES/1/ %S/Inputs/two-kv-loops.mlir | attn-opt --attn-assign-layouts --attn-stage-shared --attn-pipeline | FileCheck %s --check-prefix=S1
// RUN: sed s/STAGES/2/ %S/Inputs/two-kv-loops.mlir | attn-opt --attn-assign-layouts --attn-stage-shared --attn-pipeline | FileCheck %s --check-prefix=S2
// RUN: sed s/STAGES/3/ %S/Inputs/two-kv-loops.mlir | attn-opt --attn-assign-layouts --attn-stage-shared --attn-pipeline | FileCheck %s --check-prefix=S3

// attn-pipeline overlaps the K/V copies of a chain of K/V loops with the
// products, by the configuration's stages. The chain here is two loops over
// [0, full) and [full, nb); the copies run ahead across the boundary.

// stages = 1: one K and one V buffer. The first block's K is copied before
// the chain (if there is a block); in each block V is issued first, Q K^T
// waits for all but the newest group (that V), then a barrier frees K and
// the next block's K is issued (one commit group per block, copy or not);
// P V waits for all but that newest group.
// S1-LABEL: func.func @two_loops
// S1: memref.subview %arg1
// S1-NEXT: %[[K:.+]] = attn.local_alloc : !attn.shared<64x64xf16, #attn.swizzled>
// S1: memref.subview %arg2
// S1-NEXT: %[[V:.+]] = attn.local_alloc : !attn.shared<64x64xf16, #attn.swizzled>
// S1: %[[ANY:.+]] = arith.cmpi slt, %c0, %[[NB:[0-9]+]] : index
// S1-NEXT: scf.if %[[ANY]] {
// S1: attn.async_copy %{{.*}} into %[[K]]
// S1: }
// S1-NEXT: attn.async_commit
// S1: scf.for %[[J:.+]] = %c0 to %[[FULL:[0-9]+]] step
// S1: attn.async_copy %{{.*}} into %[[V]]
// S1-NEXT: attn.async_commit
// S1-NEXT: attn.async_wait {pending = 1 : i64}
// S1-NEXT: gpu.barrier
// S1-NEXT: attn.dot %{{.*}}, %[[K]], %{{.*}} transpose_b
// S1-NEXT: gpu.barrier
// S1: %[[NEXT:.+]] = arith.addi %[[J]], %{{.*}} : index
// S1-NEXT: %[[MORE:.+]] = arith.cmpi slt, %[[NEXT]], %[[NB]] : index
// S1-NEXT: scf.if %[[MORE]] {
// S1: attn.async_copy %{{.*}} into %[[K]]
// S1: }
// S1-NEXT: attn.async_commit
// S1: attn.async_wait {pending = 1 : i64}
// S1-NEXT: gpu.barrier
// S1-NEXT: attn.dot %{{.*}}, %[[V]], %{{.*}} :
// S1-NEXT: gpu.barrier
// S1-NEXT: scf.yield
// S1: scf.for %{{.*}} = %[[FULL]] to %[[NB]] step
// S1: attn.async_wait {pending = 1 : i64}

// stages = 2: two-stage ring buffers; block j lives in stage j % 2. Block 0
// (K and V) is issued before the chain; each block waits for every group,
// passes a barrier (the stage block j - 1 used is free) and issues block
// j + 1 into the other stage.
// S2-LABEL: func.func @two_loops
// S2: %[[K:.+]] = attn.local_alloc : !attn.shared<2x64x64xf16, #attn.swizzled>
// S2: %[[V:.+]] = attn.local_alloc : !attn.shared<2x64x64xf16, #attn.swizzled>
// S2: scf.if
// S2: attn.local_view %[[K]][%{{.*}}] : !attn.shared<2x64x64xf16, #attn.swizzled> -> !attn.shared<64x64xf16, #attn.swizzled>
// S2: attn.async_copy
// S2: attn.local_view %[[V]][%{{.*}}]
// S2: attn.async_copy
// S2: }
// S2-NEXT: attn.async_commit
// S2-NEXT: scf.for %[[J:.+]] = %c0 to
// S2: %[[ST:.+]] = arith.remui %[[J]], %{{.*}} : index
// S2-NEXT: %[[KV:.+]] = attn.local_view %[[K]][%[[ST]]]
// S2-NEXT: %[[VV:.+]] = attn.local_view %[[V]][%[[ST]]]
// S2-NEXT: attn.async_wait {pending = 0 : i64}
// S2-NEXT: gpu.barrier
// S2: scf.if
// S2: attn.async_copy
// S2: attn.async_copy
// S2: }
// S2-NEXT: attn.async_commit
// S2: attn.dot %{{.*}}, %[[KV]], %{{.*}} transpose_b
// S2-NOT: gpu.barrier
// S2: attn.dot %{{.*}}, %[[VV]], %{{.*}} :
// S2-NEXT: scf.yield

// stages = 3: blocks 0 and 1 before the chain (two groups), each block
// waits for all but the newest group and issues block j + 2.
// S3-LABEL: func.func @two_loops
// S3: attn.local_alloc : !attn.shared<3x64x64xf16, #attn.swizzled>
// S3: attn.local_alloc : !attn.shared<3x64x64xf16, #attn.swizzled>
// S3: scf.if
// S3: attn.async_commit
// S3: scf.if
// S3: attn.async_commit
// S3-NEXT: scf.for %[[J:.+]] = %c0 to
// S3: arith.remui %[[J]], %{{.*}} : index
// S3: attn.async_wait {pending = 1 : i64}
// S3-NEXT: gpu.barrier
// S3: %[[AHEAD:.+]] = arith.addi %[[J]], %c2{{.*}} : index
// S3-NEXT: arith.cmpi slt, %[[AHEAD]]
// S3: attn.async_commit
// S3: scf.yield

// A tile loaded into registers in the loop (a bias) moves to the top of the
// body, ahead of the copy schedule's waits and of Q K^T, which then hides
// its latency; its column offset is recomputed there.
// RUN: attn-opt %S/Inputs/bias-kv-loop.mlir --attn-assign-layouts --attn-stage-shared --attn-pipeline | FileCheck %s --check-prefix=BIAS
// BIAS-LABEL: func.func @biased
// BIAS: scf.for %[[J:.+]] = %c0 to
// BIAS-NEXT: %[[COL:.+]] = arith.muli %[[J]], %c64 : index
// BIAS-NEXT: %[[B:.+]] = attn.load %arg4[%{{.*}}, %{{.*}}, %{{.*}}, %[[COL]]] : memref<?x?x?x?xf16> -> tensor<64x64xf16, #attn.mma<warps = 4>>
// BIAS: attn.async_wait
// BIAS: attn.dot
// BIAS: arith.extf %[[B]]
// BIAS-NOT: attn.load %arg4

// Reversed K/V loops (attn-reverse-kv-loops): the loops run over positions
// p, block hi - 1 - p; the copies run ahead in positions across the chain,
// so the block copied ahead is hi - 1 - (p + 1).
// RUN: attn-opt %S/Inputs/reversed-causal.mlir --attn-tile --attn-split-kv-loop --attn-reverse-kv-loops --cse \
// RUN:   --attn-assign-layouts --attn-stage-shared --attn-pipeline | FileCheck %s --check-prefix=REV
// REV-LABEL: func.func @reversed
// REV: %[[LAST:.+]] = arith.subi %upper, %c1 : index
// Before the chain: position 0, block hi - 1.
// REV: scf.if
// REV: %[[B0:.+]] = arith.subi %[[LAST]], %{{.*}} : index
// REV: attn.async_copy
// REV: scf.for %[[P:.+]] = %{{.*}} to %{{.*}} step
// REV: %[[NEXT:.+]] = arith.addi %[[P]], %c1{{.*}} : index
// REV: scf.if
// REV: arith.subi %[[LAST]], %[[NEXT]] : index
// REV: attn.async_copy
// REV: }
// REV: arith.subi %[[LAST]], %[[P]] : index
// REV: scf.for
