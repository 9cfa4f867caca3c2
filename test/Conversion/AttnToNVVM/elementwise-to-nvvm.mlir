// RUN: attn-opt %s --attn-assign-layouts --attn-stage-shared --attn-pipeline --attn-allocate-shared \
// RUN:   --convert-attn-tile-to-nvvm | FileCheck %s

// ElementwiseToNVVM: arith and math on a register tile become the same op on
// each of the thread's registers (64 x 64 f32 over 128 threads: 32 each).
// A hand-written tile program: a softcap (divf, tanh, mulf), then exp,
// a compare-and-select and an abs on the scores.
// - math with fastmath<afn> takes the hardware approximation: tanh is
//   llvm.tanh with afn, which the NVPTX backend selects as tanh.approx.f32;
// - math without it stays a scalar math op (libdevice later);
// - abs is sign-bit arithmetic (the backend's abs.f32), not a libdevice call;
// - tile constants become scalar constants.

// CHECK-LABEL: gpu.func @elementwise
// CHECK-DAG: %[[CAP:.+]] = arith.constant 3.000000e+01 : f32
// CHECK-DAG: %[[LIM:.+]] = arith.constant -5.000000e+00 : f32
// CHECK: scf.for
// CHECK: nvvm.mma.sync
// CHECK-COUNT-32: arith.divf %{{.*}}, %[[CAP]] : f32
// CHECK-COUNT-32: llvm.intr.tanh(%{{.*}}) {fastmathFlags = #llvm.fastmath<afn>} : (f32) -> f32
// CHECK-COUNT-32: arith.mulf %{{.*}}, %[[CAP]] : f32
// CHECK-COUNT-32: math.exp %{{.*}} : f32
// CHECK-COUNT-32: arith.cmpf olt, %{{.*}}, %[[LIM]] : f32
// CHECK-COUNT-32: arith.select %{{.*}}, %[[LIM]], %{{.*}} : f32
// CHECK: %[[MAG:.+]] = llvm.mlir.constant(2147483647 : i32) : i32
// CHECK: llvm.and %{{.*}}, %[[MAG]] : i32
// CHECK-NOT: math.absf
// CHECK-NOT: math.tanh
!q = memref<?x?x?x64xf16>
func.func @elementwise(%q: !q, %k: !q, %v: !q, %o: !q) {
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
    %cap = arith.constant dense<30.0> : tensor<64x64xf32>
    %lim = arith.constant dense<-5.0> : tensor<64x64xf32>
    %r:3 = scf.for %j = %c0 to %nb step %c1 iter_args(%m = %m0, %l = %l0, %acc = %a0)
        -> (tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>) {
      %col = arith.muli %j, %c64 : index
      %kt = attn.load %k[%bi, %hi, %col, %c0] : !q -> tensor<64x64xf16>
      %s = attn.dot %qt, %kt, %a0 transpose_b : tensor<64x64xf16>, tensor<64x64xf16> -> tensor<64x64xf32>
      %d = arith.divf %s, %cap : tensor<64x64xf32>
      %t = math.tanh %d fastmath<afn> : tensor<64x64xf32>
      %c = arith.mulf %t, %cap : tensor<64x64xf32>
      %e = math.exp %c : tensor<64x64xf32>
      %lt = arith.cmpf olt, %c, %lim : tensor<64x64xf32>
      %sel = arith.select %lt, %lim, %e : tensor<64x64xi1>, tensor<64x64xf32>
      %scaled = math.absf %sel : tensor<64x64xf32>
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

// Index compares (the sink + window mask_mod's form): each register's
// qi - ki is the thread's row-minus-column difference plus an immediate
// (foldOffsets), and a signed compare of it against a constant compares
// the difference with the constant less the immediate: no add per
// register. The first register's offset is 0 (plain subi of the iotas).
// CHECK-LABEL: gpu.func @index_compares
// CHECK: %[[D0:.+]] = arith.subi %{{.*}}, %{{.*}} : index
// CHECK-NEXT: %[[D1:.+]] = arith.subi %[[QB:.+]], %[[KB:.+]] : index
// CHECK-NEXT: %[[CM1:.+]] = arith.constant -1 : index
// CHECK-NEXT: arith.addi %[[D1]], %[[CM1]] : index
// CHECK-NEXT: %[[D2:.+]] = arith.subi %[[QB]], %[[KB]] : index
// CHECK: arith.cmpi sle, %[[D0]], %{{.*}} : index
// CHECK-NEXT: %[[W1:.+]] = arith.constant 1025 : index
// CHECK-NEXT: arith.cmpi sle, %[[D1]], %[[W1]] : index
// CHECK-NEXT: %[[W2:.+]] = arith.constant 1016 : index
// CHECK-NEXT: arith.cmpi sle, %[[D2]], %[[W2]] : index
// An unsigned compare keeps its per-register values (a difference may be
// negative where the value is not), and so does a signed one whose
// constant less the offset would overflow 32 bits:
// CHECK: arith.cmpi ult, %[[K0:.+]], %[[SINK:.+]] : index
// CHECK-NEXT: arith.cmpi ult, %[[K1:.+]], %[[SINK]] : index
// CHECK: arith.cmpi sgt, %[[K0]], %[[LOW:.+]] : index
// CHECK-NEXT: arith.cmpi sgt, %[[K1]], %[[LOW]] : index
func.func @index_compares(%q: !q, %k: !q, %v: !q, %o: !q) {
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
    %ninf = arith.constant dense<0xFF800000> : tensor<64x64xf32>
    %win = arith.constant dense<1024> : tensor<64x64xindex>
    %sink = arith.constant dense<128> : tensor<64x64xindex>
    %lowest = arith.constant dense<-2147483648> : tensor<64x64xindex>
    %r:3 = scf.for %j = %c0 to %nb step %c1 iter_args(%m = %m0, %l = %l0, %acc = %a0)
        -> (tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>) {
      %col = arith.muli %j, %c64 : index
      %kt = attn.load %k[%bi, %hi, %col, %c0] : !q -> tensor<64x64xf16>
      %s = attn.dot %qt, %kt, %a0 transpose_b : tensor<64x64xf16>, tensor<64x64xf16> -> tensor<64x64xf32>
      %qi = attn.iota 0, %r0 : tensor<64x64xindex>
      %ki = attn.iota 1, %col : tensor<64x64xindex>
      %back = arith.subi %qi, %ki : tensor<64x64xindex>
      %near = arith.cmpi sle, %back, %win : tensor<64x64xindex>
      %early = arith.cmpi ult, %ki, %sink : tensor<64x64xindex>
      %above = arith.cmpi sgt, %ki, %lowest : tensor<64x64xindex>
      %see0 = arith.ori %near, %early : tensor<64x64xi1>
      %see = arith.andi %see0, %above : tensor<64x64xi1>
      %sel = arith.select %see, %s, %ninf : tensor<64x64xi1>, tensor<64x64xf32>
      %masked = attn.mask %sel rows %r0 of %nq cols %col of %nk {mask = #attn.mask<none>} : tensor<64x64xf32>
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
