// attn-prefetch-loads: with prefetch_loads, the bias tile a K/V loop loads
// into registers is prefetched into L1 for the next block (iv + 1) at the
// top of the body; without the knob nothing changes. The NVVM lowering:
// per thread, for each of the two rows it holds in a 64 x 64 tile of f16
// (128 bytes a row: at most two lines, chunks at columns 0 and 63 for quad
// lanes 0 and 1, 63 again for 2 and 3; rows and columns clamped into the
// buffer), one L1 prefetch, before the block's own loads.
// RUN: sed 's/stages = 1>}/stages = 1>, gpu_config = #attn.gpu_config<prefetch_loads = true>}/' %S/Inputs/bias-kv-loop.mlir \
// RUN:   | attn-opt --attn-assign-layouts --attn-stage-shared --attn-pipeline --attn-prefetch-loads | FileCheck %s
// RUN: attn-opt %S/Inputs/bias-kv-loop.mlir --attn-assign-layouts --attn-stage-shared --attn-pipeline \
// RUN:   --attn-prefetch-loads | FileCheck %s --check-prefix=OFF
// RUN: sed 's/stages = 1>}/stages = 1>, gpu_config = #attn.gpu_config<prefetch_loads = true>}/' %S/Inputs/bias-kv-loop.mlir \
// RUN:   | attn-opt --attn-assign-layouts --attn-stage-shared --attn-pipeline --attn-prefetch-loads \
// RUN:     --attn-allocate-shared --convert-attn-tile-to-nvvm | FileCheck %s --check-prefix=NVVM

// CHECK: scf.for %[[J:[^ ]+]] = %{{.*}} to %{{.*}} step %[[STEP:[^ ]+]]
// CHECK-NEXT: %[[NEXT:.+]] = arith.addi %[[J]], %[[STEP]] : index
// CHECK-NEXT: %[[NCOL:.+]] = arith.muli %[[NEXT]], %{{.*}} : index
// CHECK-NEXT: attn.prefetch %{{.*}}[%{{.*}}, %{{.*}}, %[[R0:[^ ,]+]], %[[NCOL]]] : memref<?x?x?x?xf16>, tensor<64x64xf16, #attn.mma<warps = 4>>
// CHECK: %[[COL:.+]] = arith.muli %[[J]], %{{.*}} : index
// CHECK: attn.load %{{.*}}[%{{.*}}, %{{.*}}, %[[R0]], %[[COL]]] : memref<?x?x?x?xf16> -> tensor<64x64xf16, #attn.mma<warps = 4>>
// CHECK-NOT: attn.prefetch

// OFF-NOT: attn.prefetch

// NVVM-LABEL: gpu.func @biased
// NVVM: scf.for
// NVVM-COUNT-2: nvvm.prefetch level = L1, %{{.*}} : !llvm.ptr<1>
// NVVM-NOT: nvvm.prefetch
// NVVM: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<1> -> i32
