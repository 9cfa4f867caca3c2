// ALiBi slopes [Hq] against an f64 reference: s - slope[h] |j - d(i)| with
// d(i) = i (top-left alignment, and no mask) or i + Nk - Nq (bottom-right);
// without a mask, with a bottom-right causal mask (Nq < Nk and Nq > Nk, so
// some rows see no key) and with softcap; GQA, odd lengths.

// RUN: cat %s %S/Inputs/check-mods.mlir \
// RUN:   | sed -e 's/@DT@/f32/g; s/@D@/16/g; s/@BT@/f32/g; s/@CVT@/arith.bitcast/g; s/@BCVT@/arith.bitcast/g; s/@ATTRS@//; s/@BR@/false/; s/@CAP@/0.0/' \
// RUN:   | attn-opt '--attn-lower-to-cpu' | %mlir_run_cpu | FileCheck %s
// RUN: cat %s %S/Inputs/check-mods.mlir \
// RUN:   | sed -e 's/@DT@/f32/g; s/@D@/16/g; s/@BT@/f32/g; s/@CVT@/arith.bitcast/g; s/@BCVT@/arith.bitcast/g; s/@ATTRS@/{mask = #attn.mask<causal, bottom_right>}/; s/@BR@/true/; s/@CAP@/0.0/; s/%right = arith.constant -1 : index/%right = arith.constant 0 : index/' \
// RUN:   | attn-opt '--attn-lower-to-cpu' | %mlir_run_cpu | FileCheck %s
// RUN: cat %s %S/Inputs/check-mods.mlir \
// RUN:   | sed -e 's/@DT@/f32/g; s/@D@/16/g; s/@BT@/f32/g; s/@CVT@/arith.bitcast/g; s/@BCVT@/arith.bitcast/g; s/@ATTRS@/{softcap = 3.0 : f64, mask = #attn.mask<causal, bottom_right>}/; s/@BR@/true/; s/@CAP@/3.0/; s/%right = arith.constant -1 : index/%right = arith.constant 0 : index/' \
// RUN:   | attn-opt '--attn-lower-to-cpu' | %mlir_run_cpu | FileCheck %s

func.func @attention(%q: memref<?x?x?x@D@x@DT@>, %k: memref<?x?x?x@D@x@DT@>,
                     %v: memref<?x?x?x@D@x@DT@>, %o: memref<?x?x?x@D@x@DT@>,
                     %lse: memref<?x?x?xf32>, %bias: memref<?x?x?x?x@BT@>,
                     %slopes: memref<?xf32>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x@D@x@DT@>, memref<?x?x?x@D@x@DT@>, memref<?x?x?x@D@x@DT@>)
                 alibi_slopes(%slopes : memref<?xf32>)
                 outs(%o, %lse : memref<?x?x?x@D@x@DT@>, memref<?x?x?xf32>) @ATTRS@
  return
}

// Softcap (when @CAP@ > 0) first, then the ALiBi penalty.
func.func @ref_score(%s: f64, %b: index, %h: index, %i: index, %j: index,
                     %bias: memref<?x?x?x?x@BT@>, %slopes: memref<?xf32>,
                     %nq: index, %nk: index) -> f64 {
  %cap = arith.constant @CAP@ : f64
  %zero = arith.constant 0.0 : f64
  %capped = arith.cmpf ogt, %cap, %zero : f64
  %x = scf.if %capped -> (f64) {
    %y = arith.divf %s, %cap : f64
    %t = math.tanh %y : f64
    %r = arith.mulf %t, %cap : f64
    scf.yield %r : f64
  } else {
    scf.yield %s : f64
  }
  %br = arith.constant @BR@
  %c0 = arith.constant 0 : index
  %shift = arith.subi %nk, %nq : index
  %sh = arith.select %br, %shift, %c0 : index
  %d = arith.addi %i, %sh : index
  %dist = arith.subi %j, %d : index
  %di = arith.index_cast %dist : index to i64
  %df = arith.sitofp %di : i64 to f64
  %ad = math.absf %df : f64
  %slope = memref.load %slopes[%h] : memref<?xf32>
  %sf = arith.extf %slope : f32 to f64
  %pen = arith.mulf %sf, %ad : f64
  %r = arith.subf %x, %pen : f64
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
  %right = arith.constant -1 : index
  %br = arith.constant @BR@
  %amp = arith.constant 1.0 : f32
  %bamp = arith.constant 0.0 : f32
  %scale = arith.constant 0.25 : f64
  %tolOut = arith.constant 1.0e-5 : f64
  %tolLse = arith.constant 1.0e-5 : f64
  %seed0 = arith.constant 7 : i32
  // CHECK: out_rel_err
  // CHECK-NEXT: lse_err
  // CHECK-NEXT: PASS
  call @check_mods(%c2, %c8, %c2, %c130, %c130, %c1, %c1, %seed0, %amp, %bamp, %scale, %left, %right, %br, %tolOut, %tolLse)
      : (index, index, index, index, index, index, index, i32, f32, f32, f64, index, index, i1, f64, f64) -> ()
  %seed1 = arith.constant 19 : i32
  // CHECK: out_rel_err
  // CHECK-NEXT: lse_err
  // CHECK-NEXT: PASS
  call @check_mods(%c1, %c4, %c4, %c77, %c200, %c1, %c1, %seed1, %amp, %bamp, %scale, %left, %right, %br, %tolOut, %tolLse)
      : (index, index, index, index, index, index, index, i32, f32, f32, f64, index, index, i1, f64, f64) -> ()
  %seed2 = arith.constant 31 : i32
  // CHECK: out_rel_err
  // CHECK-NEXT: lse_err
  // CHECK-NEXT: PASS
  call @check_mods(%c2, %c2, %c1, %c200, %c77, %c1, %c1, %seed2, %amp, %bamp, %scale, %left, %right, %br, %tolOut, %tolLse)
      : (index, index, index, index, index, index, index, i32, f32, f32, f64, index, index, i1, f64, f64) -> ()
  // CHECK-NOT: FAIL
  return
}
