// Causal grouped-query attention (Hq = 4 x Hkv) through the whole CPU
// pipeline, against the f64 reference of Inputs/check-attention.mlir.
// Lengths that are not multiples of the 64-row blocks, Nq = Nk and Nq != Nk.

// RUN: cat %s %S/Inputs/check-attention.mlir \
// RUN:   | sed -e 's/@DT@/f32/g; s/@DV@/16/g; s/@D@/16/g; s/@CVT@/arith.bitcast/g' \
// RUN:   | attn-opt --attn-lower-to-cpu \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | FileCheck %s

func.func @attention(%q: memref<?x?x?x@D@x@DT@>, %k: memref<?x?x?x@D@x@DT@>,
                     %v: memref<?x?x?x@DV@x@DT@>, %o: memref<?x?x?x@DV@x@DT@>,
                     %lse: memref<?x?x?xf32>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x@D@x@DT@>, memref<?x?x?x@D@x@DT@>, memref<?x?x?x@DV@x@DT@>)
                 outs(%o, %lse : memref<?x?x?x@DV@x@DT@>, memref<?x?x?xf32>)
                 {mask = #attn.mask<causal, top_left>}
  return
}

func.func @main() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c77 = arith.constant 77 : index
  %c130 = arith.constant 130 : index
  %seed = arith.constant 7 : i32
  %amp = arith.constant 1.0 : f32
  %scale = arith.constant 0.25 : f64
  %unbounded = arith.constant -1 : index
  %c0 = arith.constant 0 : index
  %false = arith.constant false
  %tol = arith.constant 1.0e-5 : f64
  // CHECK: out_rel_err
  // CHECK: PASS
  call @check(%c2, %c8, %c2, %c130, %c130, %seed, %amp, %scale, %unbounded, %c0, %false, %tol, %tol)
      : (index, index, index, index, index, i32, f32, f64, index, index, i1, f64, f64) -> ()
  // CHECK: PASS
  call @check(%c1, %c8, %c2, %c77, %c130, %seed, %amp, %scale, %unbounded, %c0, %false, %tol, %tol)
      : (index, index, index, index, index, i32, f32, f64, index, index, i1, f64, f64) -> ()
  // CHECK-NOT: FAIL
  return
}
