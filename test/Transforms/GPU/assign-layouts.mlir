// RUN: attn-opt %s --attn-assign-layouts=chip=sm_80 | FileCheck %s
// RUN: attn-opt %s --attn-assign-layouts=chip=sm_90a | FileCheck %s

// A tile program written by hand (not by attn-tile): the scores are scaled
// with arith.mulf before the softmax, and a second program adds a bias tile
// loaded from a fifth buffer. attn-assign-layouts gives every tile its
// layout from the configuration's 4 warps: the accumulator layout for 2-D
// tiles, a row slice of it for 1-D tiles (constants and loop-carried state
// included), shared memory for the tiles loaded only as dot operands, and a
// layout conversion of P into the A operand of P x V.

!q = memref<?x?x?x64xf16>
!bias = memref<?x?x?x?xf16>

// CHECK-LABEL: func.func @scaled
// CHECK: attn.program
// Q and K are read only by dots: staged through shared memory.
// CHECK: %[[Q:.+]] = attn.load %{{.*}} : memref<?x?x?x64xf16> -> tensor<64x64xf16, #attn.swizzled>
// Tile constants are retyped with the layout of their users.
// CHECK-DAG: arith.constant dense<0xFF800000> : tensor<64xf32, #attn.rows<#attn.mma<warps = 4>>>
// CHECK-DAG: %[[ZERO:.+]] = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #attn.mma<warps = 4>>
// CHECK-DAG: %[[HALF:.+]] = arith.constant dense<5.000000e-01> : tensor<64x64xf32, #attn.mma<warps = 4>>
// The loop's carried state is laid out too.
// CHECK: scf.for {{.*}} -> (tensor<64xf32, #attn.rows<#attn.mma<warps = 4>>>, tensor<64xf32, #attn.rows<#attn.mma<warps = 4>>>, tensor<64x64xf32, #attn.mma<warps = 4>>)
// CHECK: %[[K:.+]] = attn.load %{{.*}} -> tensor<64x64xf16, #attn.swizzled>
// CHECK: %[[S:.+]] = attn.dot %[[Q]], %[[K]], %[[ZERO]] transpose_b : tensor<64x64xf16, #attn.swizzled>, tensor<64x64xf16, #attn.swizzled> -> tensor<64x64xf32, #attn.mma<warps = 4>>
// Elementwise math on the scores stays in the accumulator layout.
// CHECK: %[[SC:.+]] = arith.mulf %[[S]], %[[HALF]] : tensor<64x64xf32, #attn.mma<warps = 4>>
// CHECK: attn.mask %[[SC]] {{.*}} : tensor<64x64xf32, #attn.mma<warps = 4>>
// CHECK: %[[P:.+]], %{{.*}}, %{{.*}}, %[[ACC:.+]] = attn.online_softmax
// CHECK: %[[P16:.+]] = arith.truncf %[[P]] : tensor<64x64xf32, #attn.mma<warps = 4>> to tensor<64x64xf16, #attn.mma<warps = 4>>
// CHECK: %[[V:.+]] = attn.load %{{.*}} -> tensor<64x64xf16, #attn.swizzled>
// CHECK: %[[PA:.+]] = attn.convert_layout %[[P16]] : tensor<64x64xf16, #attn.mma<warps = 4>> -> tensor<64x64xf16, #attn.dot_operand<a, #attn.mma<warps = 4>>>
// CHECK: attn.dot %[[PA]], %[[V]], %[[ACC]] : tensor<64x64xf16, #attn.dot_operand<a, #attn.mma<warps = 4>>>, tensor<64x64xf16, #attn.swizzled> -> tensor<64x64xf32, #attn.mma<warps = 4>>
// CHECK: attn.finalize {{.*}} : tensor<64x64xf32, #attn.mma<warps = 4>>, tensor<64xf32, #attn.rows<#attn.mma<warps = 4>>>
// CHECK: attn.store {{.*}} : tensor<64x64xf16, #attn.mma<warps = 4>>, memref<?x?x?x64xf16>
func.func @scaled(%q: !q, %k: !q, %v: !q, %o: !q) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %b = memref.dim %q, %c0 : !q
  %h = memref.dim %q, %c1 : !q
  %nq = memref.dim %q, %c2 : !q
  %nk = memref.dim %k, %c2 : !q
  %gm = arith.ceildivui %nq, %c64 : index
  %gbh = arith.muli %b, %h : index
  %nb = arith.ceildivui %nk, %c64 : index
  attn.program (%pm, %pbh) in (%gm, %gbh)
      buffers(q = %q : !q, k = %k : !q, v = %v : !q, o = %o : !q)
      attributes {config = #attn.tile_config<block_m = 64, block_n = 64, warps = 4, stages = 1>} {
    %bi = arith.divui %pbh, %h : index
    %hi = arith.remui %pbh, %h : index
    %r0 = arith.muli %pm, %c64 : index
    %qt = attn.load %q[%bi, %hi, %r0, %c0] : !q -> tensor<64x64xf16>
    %m0 = arith.constant dense<0xFF800000> : tensor<64xf32>
    %l0 = arith.constant dense<0.0> : tensor<64xf32>
    %a0 = arith.constant dense<0.0> : tensor<64x64xf32>
    %half = arith.constant dense<0.5> : tensor<64x64xf32>
    %r:3 = scf.for %j = %c0 to %nb step %c1 iter_args(%m = %m0, %l = %l0, %acc = %a0)
        -> (tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>) {
      %col = arith.muli %j, %c64 : index
      %kt = attn.load %k[%bi, %hi, %col, %c0] : !q -> tensor<64x64xf16>
      %s = attn.dot %qt, %kt, %a0 transpose_b : tensor<64x64xf16>, tensor<64x64xf16> -> tensor<64x64xf32>
      %scaled = arith.mulf %s, %half : tensor<64x64xf32>
      %masked = attn.mask %scaled rows %r0 of %nq cols %col of %nk {mask = #attn.mask<none>} : tensor<64x64xf32>
      %p, %nm, %nl, %na = attn.online_softmax %masked, %m, %l, %acc {scale_log2e = 1.442695 : f32}
          : tensor<64x64xf32>, tensor<64xf32>, tensor<64x64xf32>
      %p16 = arith.truncf %p : tensor<64x64xf32> to tensor<64x64xf16>
      %vt = attn.load %v[%bi, %hi, %col, %c0] : !q -> tensor<64x64xf16>
      %acc2 = attn.dot %p16, %vt, %na : tensor<64x64xf16>, tensor<64x64xf16> -> tensor<64x64xf32>
      scf.yield %nm, %nl, %acc2 : tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>
    }
    %out, %lse = attn.finalize %r#2, %r#0, %r#1 : tensor<64x64xf32>, tensor<64xf32>
    %o16 = arith.truncf %out : tensor<64x64xf32> to tensor<64x64xf16>
    attn.store %o16, %o[%bi, %hi, %r0, %c0] : tensor<64x64xf16>, !q
  }
  return
}

// A bias tile is read by elementwise math, not by a dot: it is loaded into
// the accumulator layout (each thread its own elements). The Q tile is both
// a dot operand and read elementwise (a contrived row sum of Q, added to the
// scores): the dot gets a copy of the load that goes through shared memory.
// CHECK-LABEL: func.func @biased
// CHECK: %[[QR:.+]] = attn.load %[[QBUF:[a-z0-9]+]][{{.*}}] : memref<?x?x?x64xf16> -> tensor<64x64xf16, #attn.mma<warps = 4>>
// CHECK-NEXT: %[[QS:.+]] = attn.load %[[QBUF]][{{.*}}] : memref<?x?x?x64xf16> -> tensor<64x64xf16, #attn.swizzled>
// CHECK: attn.reduce_rows sum %{{.*}} : tensor<64x64xf32, #attn.mma<warps = 4>> -> tensor<64xf32, #attn.rows<#attn.mma<warps = 4>>>
// CHECK: scf.for
// CHECK: attn.dot %[[QS]], %{{.*}} transpose_b : tensor<64x64xf16, #attn.swizzled>
// CHECK: %[[B:.+]] = attn.load %{{.*}} : memref<?x?x?x?xf16> -> tensor<64x64xf16, #attn.mma<warps = 4>>
// CHECK: arith.extf %[[B]] : tensor<64x64xf16, #attn.mma<warps = 4>> to tensor<64x64xf32, #attn.mma<warps = 4>>
// CHECK: attn.broadcast_rows %{{.*}} : tensor<64xf32, #attn.rows<#attn.mma<warps = 4>>> -> tensor<64x64xf32, #attn.mma<warps = 4>>
func.func @biased(%q: !q, %k: !q, %v: !q, %o: !q, %bias: !bias) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %b = memref.dim %q, %c0 : !q
  %h = memref.dim %q, %c1 : !q
  %nq = memref.dim %q, %c2 : !q
  %nk = memref.dim %k, %c2 : !q
  %gm = arith.ceildivui %nq, %c64 : index
  %gbh = arith.muli %b, %h : index
  %nb = arith.ceildivui %nk, %c64 : index
  attn.program (%pm, %pbh) in (%gm, %gbh)
      buffers(q = %q : !q, k = %k : !q, v = %v : !q, o = %o : !q, bias = %bias : !bias)
      attributes {config = #attn.tile_config<block_m = 64, block_n = 64, warps = 4, stages = 1>} {
    %bi = arith.divui %pbh, %h : index
    %hi = arith.remui %pbh, %h : index
    %r0 = arith.muli %pm, %c64 : index
    %qt = attn.load %q[%bi, %hi, %r0, %c0] : !q -> tensor<64x64xf16>
    %qf = arith.extf %qt : tensor<64x64xf16> to tensor<64x64xf32>
    %qsum = attn.reduce_rows sum %qf : tensor<64x64xf32> -> tensor<64xf32>
    %m0 = arith.constant dense<0xFF800000> : tensor<64xf32>
    %l0 = arith.constant dense<0.0> : tensor<64xf32>
    %a0 = arith.constant dense<0.0> : tensor<64x64xf32>
    %r:3 = scf.for %j = %c0 to %nb step %c1 iter_args(%m = %m0, %l = %l0, %acc = %a0)
        -> (tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>) {
      %col = arith.muli %j, %c64 : index
      %kt = attn.load %k[%bi, %hi, %col, %c0] : !q -> tensor<64x64xf16>
      %s = attn.dot %qt, %kt, %a0 transpose_b : tensor<64x64xf16>, tensor<64x64xf16> -> tensor<64x64xf32>
      %bt = attn.load %bias[%bi, %hi, %r0, %col] : !bias -> tensor<64x64xf16>
      %bf = arith.extf %bt : tensor<64x64xf16> to tensor<64x64xf32>
      %sb = arith.addf %s, %bf : tensor<64x64xf32>
      %qb = attn.broadcast_rows %qsum : tensor<64xf32> -> tensor<64x64xf32>
      %sq = arith.addf %sb, %qb : tensor<64x64xf32>
      %masked = attn.mask %sq rows %r0 of %nq cols %col of %nk {mask = #attn.mask<none>} : tensor<64x64xf32>
      %p, %nm, %nl, %na = attn.online_softmax %masked, %m, %l, %acc {scale_log2e = 1.442695 : f32}
          : tensor<64x64xf32>, tensor<64xf32>, tensor<64x64xf32>
      %p16 = arith.truncf %p : tensor<64x64xf32> to tensor<64x64xf16>
      %vt = attn.load %v[%bi, %hi, %col, %c0] : !q -> tensor<64x64xf16>
      %acc2 = attn.dot %p16, %vt, %na : tensor<64x64xf16>, tensor<64x64xf16> -> tensor<64x64xf32>
      scf.yield %nm, %nl, %acc2 : tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>
    }
    %out, %lse = attn.finalize %r#2, %r#0, %r#1 : tensor<64x64xf32>, tensor<64xf32>
    %o16 = arith.truncf %out : tensor<64x64xf32> to tensor<64x64xf16>
    attn.store %o16, %o[%bi, %hi, %r0, %c0] : tensor<64x64xf16>, !q
  }
  return
}

// RUN: not attn-opt %s --attn-assign-layouts=chip=sm_75 2>&1 | FileCheck %s --check-prefix=CHIP
// CHIP: error: attn-assign-layouts: no layouts for chip 'sm_75' (known: sm_80, sm_90, sm_90a)

// With wgmma asked for (sm_90a only), the same programs get the version-3
// accumulator layout (64 rows per warpgroup: block_m = 64 on 4 warps) and
// the blocked shared layout wgmma's descriptors read.
// RUN: sed 's/stages = 1>}/stages = 1>, gpu_config = #attn.gpu_config<wgmma = true>}/' %s \
// RUN:   | attn-opt --attn-assign-layouts=chip=sm_90a | FileCheck %s --check-prefix=WGMMA
// WGMMA-LABEL: func.func @scaled
// WGMMA: attn.load %{{.*}} : memref<?x?x?x64xf16> -> tensor<64x64xf16, #attn.swizzled<blocked>>
// WGMMA: attn.dot %{{.*}}, %{{.*}}, %{{.*}} transpose_b : tensor<64x64xf16, #attn.swizzled<blocked>>, tensor<64x64xf16, #attn.swizzled<blocked>> -> tensor<64x64xf32, #attn.mma<warps = 4, version = 3>>
// WGMMA: attn.convert_layout %{{.*}} : tensor<64x64xf16, #attn.mma<warps = 4, version = 3>> -> tensor<64x64xf16, #attn.dot_operand<a, #attn.mma<warps = 4, version = 3>>>
// WGMMA: attn.dot {{.*}} -> tensor<64x64xf32, #attn.mma<warps = 4, version = 3>>
// WGMMA-LABEL: func.func @biased

// Other chips have no wgmma; 128-row blocks on 4 warps are two m-tiles per
// warp, which wgmma's layout does not have.
// RUN: sed 's/stages = 1>}/stages = 1>, gpu_config = #attn.gpu_config<wgmma = true>}/' %s \
// RUN:   | not attn-opt --attn-assign-layouts=chip=sm_80 2>&1 | FileCheck %s --check-prefix=NOWG
// NOWG: error: 'attn.program' op asks for wgmma (#attn.gpu_config<wgmma = true>), which only sm_90a has; this pass targets sm_80
// RUN: sed 's/block_m = 64, block_n = 64, warps = 4, stages = 1>}/block_m = 128, block_n = 64, warps = 4, stages = 1>, gpu_config = #attn.gpu_config<wgmma = true>}/' %s \
// RUN:   | not attn-opt --attn-assign-layouts=chip=sm_90a 2>&1 | FileCheck %s --check-prefix=WGROWS
// WGROWS: error: 'attn.program' op asks for wgmma with block_m = 128 and 4 warps; wgmma computes 64 rows per warpgroup of 4 warps, so block_m must be 16 x warps with warps a multiple of 4
