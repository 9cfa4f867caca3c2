// An additive bias [B or 1, Hq or 1, Nq, Nk] against an f64 reference: full,
// broadcast over the batch, over the heads, over both (extents of 1 given
// at run time, so the kernel picks index 0 by a run-time test); f32 and f16
// bias, with a causal mask and GQA, odd lengths, Nq != Nk both ways.

// RUN: cat %s %S/Inputs/check-mods.mlir \
// RUN:   | sed -e 's/@DT@/f32/g; s/@D@/16/g; s/@BT@/f32/g; s/@CVT@/arith.bitcast/g; s/@BCVT@/arith.bitcast/g' \
// RUN:   | attn-opt '--attn-lower-to-cpu' | %mlir_run_cpu | FileCheck %s
// RUN: cat %s %S/Inputs/check-mods.mlir \
// RUN:   | sed -e 's/@DT@/f32/g; s/@D@/16/g; s/@BT@/f16/g; s/@CVT@/arith.bitcast/g; s/@BCVT@/arith.truncf/g' \
// RUN:   | attn-opt '--attn-lower-to-cpu' | %mlir_run_cpu | FileCheck %s
// With accumulate_bias (attn-accumulate-bias) the bias is the product's
// initial accumulator and Q is scaled in front of the loops: the same
// results (f32 Q: the scaled Q's rounding is f32's).
// RUN: cat %s %S/Inputs/check-mods.mlir \
// RUN:   | sed -e 's/@DT@/f32/g; s/@D@/16/g; s/@BT@/f16/g; s/@CVT@/arith.bitcast/g; s/@BCVT@/arith.truncf/g' \
// RUN:         -e 's/{mask = #attn.mask<causal, top_left>}/{mask = #attn.mask<causal, top_left>, gpu_config = #attn.gpu_config<accumulate_bias = true>}/' \
// RUN:   | attn-opt '--attn-lower-to-cpu' | %mlir_run_cpu | FileCheck %s
// RUN: cat %s %S/Inputs/check-mods.mlir \
// RUN:   | sed -e 's/@DT@/f32/g; s/@D@/16/g; s/@BT@/f32/g; s/@CVT@/arith.bitcast/g; s/@BCVT@/arith.bitcast/g' \
// RUN:         -e 's/{mask = #attn.mask<causal, top_left>}/{mask = #attn.mask<causal, top_left>, gpu_config = #attn.gpu_config<accumulate_bias = true>}/' \
// RUN:   | attn-opt --attn-default-config --attn-tile --attn-accumulate-bias | FileCheck %s --check-prefix=ACC
// ACC: scf.for
// ACC: %[[B:.+]] = attn.load %{{.+}} : memref<?x?x?x?xf32> -> tensor<64x64xf32>
// ACC-NEXT: attn.dot %{{[^ ]+}}, %{{[^ ]+}}, %[[B]] transpose_b
// ACC-NOT: arith.addf
// ACC: attn.finalize
// The bias is a tile load at the block's rows and keys, broadcast indices
// chosen by extent, added to the scaled scores:
// RUN: cat %s %S/Inputs/check-mods.mlir \
// RUN:   | sed -e 's/@DT@/f32/g; s/@D@/16/g; s/@BT@/f32/g; s/@CVT@/arith.bitcast/g; s/@BCVT@/arith.bitcast/g' \
// RUN:   | attn-opt --attn-default-config --attn-tile | FileCheck %s --check-prefix=TILE
// TILE: buffers({{.*}}bias = %{{.+}} : memref<?x?x?x?xf32>)
// TILE: scf.for
// TILE: %[[S:.+]] = attn.dot
// TILE: %[[X:.+]] = arith.mulf %[[S]], %{{.+}} fastmath<contract> : tensor<64x64xf32>
// TILE: %[[B:.+]] = attn.load %{{.+}}[%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}] : memref<?x?x?x?xf32> -> tensor<64x64xf32>
// TILE: arith.addf %[[X]], %[[B]] fastmath<contract> : tensor<64x64xf32>

func.func @attention(%q: memref<?x?x?x@D@x@DT@>, %k: memref<?x?x?x@D@x@DT@>,
                     %v: memref<?x?x?x@D@x@DT@>, %o: memref<?x?x?x@D@x@DT@>,
                     %lse: memref<?x?x?xf32>, %bias: memref<?x?x?x?x@BT@>,
                     %slopes: memref<?xf32>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x@D@x@DT@>, memref<?x?x?x@D@x@DT@>, memref<?x?x?x@D@x@DT@>)
                 bias(%bias : memref<?x?x?x?x@BT@>)
                 outs(%o, %lse : memref<?x?x?x@D@x@DT@>, memref<?x?x?xf32>)
                 {mask = #attn.mask<causal, top_left>}
  return
}

func.func @ref_score(%s: f64, %b: index, %h: index, %i: index, %j: index,
                     %bias: memref<?x?x?x?x@BT@>, %slopes: memref<?xf32>,
                     %nq: index, %nk: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %bb = memref.dim %bias, %c0 : memref<?x?x?x?x@BT@>
  %hb = memref.dim %bias, %c1 : memref<?x?x?x?x@BT@>
  %b1 = arith.cmpi eq, %bb, %c1 : index
  %h1 = arith.cmpi eq, %hb, %c1 : index
  %bi = arith.select %b1, %c0, %b : index
  %hi = arith.select %h1, %c0, %h : index
  %x = memref.load %bias[%bi, %hi, %i, %j] : memref<?x?x?x?x@BT@>
  %xf = arith.extf %x : @BT@ to f64
  %r = arith.addf %s, %xf : f64
  return %r : f64
}

func.func @main() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c77 = arith.constant 77 : index
  %c130 = arith.constant 130 : index
  %c200 = arith.constant 200 : index
  %left = arith.constant -1 : index
  %right = arith.constant 0 : index
  %false = arith.constant false
  %amp = arith.constant 1.0 : f32
  %bamp = arith.constant 4.0 : f32
  %scale = arith.constant 0.25 : f64
  %tolOut = arith.constant 1.0e-5 : f64
  %tolLse = arith.constant 1.0e-5 : f64
  %seed0 = arith.constant 5 : i32
  // Full bias, GQA 4:1.
  // CHECK: out_rel_err
  // CHECK-NEXT: lse_err
  // CHECK-NEXT: PASS
  call @check_mods(%c2, %c8, %c2, %c130, %c130, %c2, %c8, %seed0, %amp, %bamp, %scale, %left, %right, %false, %tolOut, %tolLse)
      : (index, index, index, index, index, index, index, i32, f32, f32, f64, index, index, i1, f64, f64) -> ()
  %seed1 = arith.constant 13 : i32
  // Broadcast over the batch; Nq < Nk.
  // CHECK: out_rel_err
  // CHECK-NEXT: lse_err
  // CHECK-NEXT: PASS
  call @check_mods(%c2, %c4, %c4, %c77, %c200, %c1, %c4, %seed1, %amp, %bamp, %scale, %left, %right, %false, %tolOut, %tolLse)
      : (index, index, index, index, index, index, index, i32, f32, f32, f64, index, index, i1, f64, f64) -> ()
  %seed2 = arith.constant 21 : i32
  // Broadcast over the heads; Nq > Nk.
  // CHECK: out_rel_err
  // CHECK-NEXT: lse_err
  // CHECK-NEXT: PASS
  call @check_mods(%c2, %c4, %c2, %c200, %c77, %c2, %c1, %seed2, %amp, %bamp, %scale, %left, %right, %false, %tolOut, %tolLse)
      : (index, index, index, index, index, index, index, i32, f32, f32, f64, index, index, i1, f64, f64) -> ()
  %seed3 = arith.constant 33 : i32
  // Broadcast over both; one row.
  // CHECK: out_rel_err
  // CHECK-NEXT: lse_err
  // CHECK-NEXT: PASS
  call @check_mods(%c2, %c2, %c1, %c1, %c130, %c1, %c1, %seed3, %amp, %bamp, %scale, %left, %right, %false, %tolOut, %tolLse)
      : (index, index, index, index, index, index, index, i32, f32, f32, f64, index, index, i1, f64, f64) -> ()
  // CHECK-NOT: FAIL
  return
}
