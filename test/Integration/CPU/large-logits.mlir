// Logits of magnitude ~1e4: Q and K uniform in [-100, 100], D = 16,
// scale = 1 (given explicitly). exp of such logits overflows any float; the
// online softmax subtracts the running maximum first, so nothing may
// overflow or turn into NaN (NaN fails the check). f32 scores carry an
// absolute error of about 1e4 x 2^-24 ~ 1e-3, which becomes a relative
// error of up to that size in the softmax weights: the output tolerance is 1e-3
// accordingly; the LSE error is relative to |LSE| ~ 1e4. Each RUN line
// renames one of the two entry points to @main.

// RUN: cat %s %S/Inputs/check-attention.mlir \
// RUN:   | sed -e 's/@DT@/f32/g; s/@DV@/16/g; s/@D@/16/g; s/@CVT@/arith.bitcast/g; s/@MASK@//g; s/@main_nomask()/@main()/' \
// RUN:   | attn-opt '--attn-lower-to-cpu' | %mlir_run_cpu | FileCheck %s --check-prefix=NOMASK
// RUN: cat %s %S/Inputs/check-attention.mlir \
// RUN:   | sed -e 's/@DT@/f32/g; s/@DV@/16/g; s/@D@/16/g; s/@CVT@/arith.bitcast/g; s/@MASK@/, mask = #attn.mask<causal, top_left>/g; s/@main_causal()/@main()/' \
// RUN:   | attn-opt '--attn-lower-to-cpu' | %mlir_run_cpu | FileCheck %s --check-prefix=CAUSAL

func.func @attention(%q: memref<?x?x?x@D@x@DT@>, %k: memref<?x?x?x@D@x@DT@>,
                     %v: memref<?x?x?x@DV@x@DT@>, %o: memref<?x?x?x@DV@x@DT@>,
                     %lse: memref<?x?x?xf32>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x@D@x@DT@>, memref<?x?x?x@D@x@DT@>, memref<?x?x?x@DV@x@DT@>)
                 outs(%o, %lse : memref<?x?x?x@DV@x@DT@>, memref<?x?x?xf32>) {scale = 1.0 : f64 @MASK@}
  return
}

func.func @main_nomask() {
  %cm1 = arith.constant -1 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c77 = arith.constant 77 : index
  %c130 = arith.constant 130 : index
  %c200 = arith.constant 200 : index
  %amp = arith.constant 100.0 : f32
  %scale = arith.constant 1.0 : f64
  %true = arith.constant true
  %false = arith.constant false
  %tolOut = arith.constant 1.0e-3 : f64
  %tolLse = arith.constant 1.0e-5 : f64
  %seed0 = arith.constant 11 : i32
  // no mask
  // NOMASK: out_rel_err
  // NOMASK-NEXT: lse_err
  // NOMASK-NEXT: PASS
  call @check(%c2, %c4, %c2, %c130, %c130, %seed0, %amp, %scale, %cm1, %cm1, %false, %tolOut, %tolLse)
      : (index, index, index, index, index, i32, f32, f64, index, index, i1, f64, f64) -> ()
  %seed1 = arith.constant 18 : i32
  // no mask, Nq < Nk
  // NOMASK: out_rel_err
  // NOMASK-NEXT: lse_err
  // NOMASK-NEXT: PASS
  call @check(%c1, %c2, %c2, %c77, %c200, %seed1, %amp, %scale, %cm1, %cm1, %false, %tolOut, %tolLse)
      : (index, index, index, index, index, i32, f32, f64, index, index, i1, f64, f64) -> ()
  // NOMASK-NOT: FAIL
  return
}

func.func @main_causal() {
  %cm1 = arith.constant -1 : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c77 = arith.constant 77 : index
  %c130 = arith.constant 130 : index
  %c200 = arith.constant 200 : index
  %amp = arith.constant 100.0 : f32
  %scale = arith.constant 1.0 : f64
  %true = arith.constant true
  %false = arith.constant false
  %tolOut = arith.constant 1.0e-3 : f64
  %tolLse = arith.constant 1.0e-5 : f64
  %seed0 = arith.constant 11 : i32
  // causal
  // CAUSAL: out_rel_err
  // CAUSAL-NEXT: lse_err
  // CAUSAL-NEXT: PASS
  call @check(%c2, %c4, %c2, %c130, %c130, %seed0, %amp, %scale, %cm1, %c0, %false, %tolOut, %tolLse)
      : (index, index, index, index, index, i32, f32, f64, index, index, i1, f64, f64) -> ()
  %seed1 = arith.constant 18 : i32
  // causal, Nq > Nk
  // CAUSAL: out_rel_err
  // CAUSAL-NEXT: lse_err
  // CAUSAL-NEXT: PASS
  call @check(%c1, %c2, %c2, %c200, %c77, %seed1, %amp, %scale, %cm1, %c0, %false, %tolOut, %tolLse)
      : (index, index, index, index, index, i32, f32, f64, index, index, i1, f64, f64) -> ()
  // CAUSAL-NOT: FAIL
  return
}
