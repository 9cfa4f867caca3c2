// RUN: attn-opt %s --attn-tile --attn-split-kv-loop --cse --attn-assign-layouts=chip=sm_90a \
// RUN:   --attn-overlap-softmax --attn-stage-shared --attn-warp-specialize --attn-allocate-shared \
// RUN:   --convert-attn-tile-to-nvvm=chip=sm_90a | FileCheck %s

// `rescale_slack` and `lazy_rescale` on an overlapped warp-specialized
// kernel (SoftmaxToNVVM.cpp): the online softmax moves a row's reference
// maximum only when the row's maximum passes it by more than the slack,
// and the accumulator's rescale, which attn-overlap-softmax writes out
// after the next block's product, runs under a warp vote.

// CHECK-LABEL: gpu.func @slack
// CHECK: scf.for
// The row maximum (scaled) against the reference m + 8; ugt, so that a NaN
// maximum moves the reference as before.
// CHECK: %[[ROWMAX:.+]] = arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK-NEXT: %[[MAX:.+]] = arith.maximumf %[[M:arg[0-9]+]], %[[ROWMAX]] : f32
// CHECK-NEXT: %[[SLACK:.+]] = arith.constant 8.000000e+00 : f32
// CHECK-NEXT: %[[LIMIT:.+]] = arith.addf %[[M]], %[[SLACK]] : f32
// CHECK-NEXT: %[[MOVED:.+]] = arith.cmpf ugt, %[[ROWMAX]], %[[LIMIT]] : f32
// CHECK-NEXT: arith.select %[[MOVED]], %[[MAX]], %[[M]] : f32
// No vote inside the softmax (its accumulator result is dead here) ...
// CHECK-NOT: nvvm.vote.sync
// ... one after the wait for the next block's scores: alpha = 2^(m - ref)
// per row of the thread, the multiplies only where some alpha of the warp
// is not 1.
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: %[[ALPHA:.+]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f32"
// CHECK: arith.cmpf une, %[[ALPHA]], %{{.*}} : f32
// CHECK: %[[ANY:.+]] = nvvm.vote.sync  any %{{.*}}, %{{.*}} -> i1
// CHECK-NEXT: scf.if %[[ANY]] -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32) {
// CHECK-NEXT: arith.mulf %{{.*}}, %[[ALPHA]] : f32
// CHECK: } else {
// CHECK-NEXT: scf.yield %arg
// Then P V.
// CHECK: nvvm.wgmma.fence.aligned
func.func @slack(%q: memref<?x?x?x64xf16>, %k: memref<?x?x?x64xf16>, %v: memref<?x?x?x64xf16>, %o: memref<?x?x?x64xf16>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x64xf16>, memref<?x?x?x64xf16>, memref<?x?x?x64xf16>)
                 outs(%o : memref<?x?x?x64xf16>)
                 {config = #attn.tile_config<block_m = 128, block_n = 64, warps = 8, stages = 2>,
                  gpu_config = #attn.gpu_config<lazy_rescale = true, wgmma = true, overlap_softmax = true, warp_specialize = true, rescale_slack = 8>}
  return
}

// Without the knobs: the reference is the running maximum and the
// rescale multiplies every register.
// CHECK-LABEL: gpu.func @eager
// CHECK: scf.for
// CHECK: %[[ROWMAX:.+]] = arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK-NEXT: %[[MAX:.+]] = arith.maximumf %{{.*}}, %[[ROWMAX]] : f32
// CHECK-NEXT: arith.cmpf oeq, %[[MAX]], %{{.*}} : f32
// CHECK-NOT: nvvm.vote.sync
func.func @eager(%q: memref<?x?x?x64xf16>, %k: memref<?x?x?x64xf16>, %v: memref<?x?x?x64xf16>, %o: memref<?x?x?x64xf16>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x64xf16>, memref<?x?x?x64xf16>, memref<?x?x?x64xf16>)
                 outs(%o : memref<?x?x?x64xf16>)
                 {config = #attn.tile_config<block_m = 128, block_n = 64, warps = 8, stages = 2>,
                  gpu_config = #attn.gpu_config<wgmma = true, overlap_softmax = true, warp_specialize = true>}
  return
}

// `guarded_rescale` with a softcap and f16 P (the online softmax's
// score_bound = 30 log2 e): the reference starts at -bound, p = 2^(s scale
// - ref) with no per-score maximum, and a row's reference moves only in a
// branch taken where the row's sum of p (across the quad) passes 2^15, by
// the sum's binary exponent (an exact power of two from its bits).
// CHECK-LABEL: gpu.func @guarded
// CHECK: scf.for
// CHECK: %[[LIMIT:.+]] = arith.constant 3.276800e+04 : f32
// CHECK: %[[REF:.+]] = arith.maximumf %[[M:arg[0-9]+]], %{{.*}} : f32
// CHECK-NEXT: %[[NEGREF:.+]] = arith.negf %[[REF]] : f32
// CHECK-NEXT: llvm.intr.fma(%{{.*}}, %{{.*}}, %[[NEGREF]])
// CHECK-NEXT: %[[P0:.+]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f32"
// No maximum over scores (only each row's start, of its reference %arg):
// CHECK-NOT: {{arith.maximumf %[0-9c]}}
// CHECK: gpu.shuffle  xor
// CHECK: gpu.shuffle  xor
// CHECK-NEXT: %[[SUM:.+]] = arith.addf %{{.*}}, %shuffleResult
// CHECK-NEXT: %[[BIG:.+]] = arith.cmpf ogt, %[[SUM]], %[[LIMIT]] : f32
// CHECK-NEXT: scf.if %[[BIG]] -> (f32,
// CHECK-NEXT: %[[BITS:.+]] = arith.bitcast %[[SUM]] : f32 to i32
// CHECK: %[[SHIFTED:.+]] = arith.shrui %[[BITS]]
// CHECK-NEXT: %[[E:.+]] = arith.subi %[[SHIFTED]]
// CHECK: %[[FACTOR:.+]] = arith.bitcast %{{.*}} : i32 to f32
// CHECK-NEXT: %[[EF:.+]] = arith.sitofp %[[E]] : i32 to f32
// CHECK-NEXT: %[[MOVED:.+]] = arith.addf %[[REF]], %[[EF]] : f32
// CHECK-NEXT: arith.mulf %[[P0]], %[[FACTOR]] : f32
// CHECK: arith.mulf %[[SUM]], %[[FACTOR]] : f32
// CHECK-NEXT: scf.yield {{.*}}, %[[MOVED]] : f32
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %[[P0]], {{.*}}, %[[SUM]], %[[REF]] : f32
// CHECK: }
// alpha = 2^(m - ref) once both rows are done.
// CHECK: %[[DIFF:.+]] = arith.subf %[[M]], %{{.*}}#17 : f32
// CHECK-NEXT: llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f32"(%[[DIFF]])
func.func @guarded(%q: memref<?x?x?x64xf16>, %k: memref<?x?x?x64xf16>, %v: memref<?x?x?x64xf16>, %o: memref<?x?x?x64xf16>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x64xf16>, memref<?x?x?x64xf16>, memref<?x?x?x64xf16>)
                 outs(%o : memref<?x?x?x64xf16>)
                 {softcap = 30.0 : f64, config = #attn.tile_config<block_m = 128, block_n = 64, warps = 8, stages = 2>,
                  gpu_config = #attn.gpu_config<lazy_rescale = true, wgmma = true, overlap_softmax = true, warp_specialize = true, guarded_rescale = true>}
  return
}
