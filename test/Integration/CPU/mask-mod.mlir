// A mask_mod region alone: a prefix-LM mask (every query sees the first 20
// keys and the keys up to itself) that also hides every key from the rows
// with i % 5 == 3 (those rows see no key: O = 0, LSE = -inf); with no mask
// and with a window, against an f64 reference; GQA, odd lengths.

// RUN: cat %s %S/Inputs/check-mods.mlir \
// RUN:   | sed -e 's/@DT@/f32/g; s/@D@/16/g; s/@BT@/f32/g; s/@CVT@/arith.bitcast/g; s/@BCVT@/arith.bitcast/g; s/@ATTRS@//' \
// RUN:   | attn-opt '--attn-lower-to-cpu' | %mlir_run_cpu | FileCheck %s
// RUN: cat %s %S/Inputs/check-mods.mlir \
// RUN:   | sed -e 's/@DT@/f32/g; s/@D@/16/g; s/@BT@/f32/g; s/@CVT@/arith.bitcast/g; s/@BCVT@/arith.bitcast/g; s/@ATTRS@/{mask = #attn.mask<window, top_left, left = 30, right = 4>}/; s/%left = arith.constant -1 : index/%left = arith.constant 30 : index/; s/%right = arith.constant -1 : index/%right = arith.constant 4 : index/' \
// RUN:   | attn-opt '--attn-lower-to-cpu' | %mlir_run_cpu | FileCheck %s
// RUN: cat %s %S/Inputs/check-mods.mlir \
// RUN:   | sed -e 's/@DT@/f32/g; s/@D@/16/g; s/@BT@/f32/g; s/@CVT@/arith.bitcast/g; s/@BCVT@/arith.bitcast/g; s/@ATTRS@//' \
// RUN:   | attn-opt '--attn-lower-to-cpu=split-kv-loop=false' | %mlir_run_cpu | FileCheck %s

func.func @attention(%q: memref<?x?x?x@D@x@DT@>, %k: memref<?x?x?x@D@x@DT@>,
                     %v: memref<?x?x?x@D@x@DT@>, %o: memref<?x?x?x@D@x@DT@>,
                     %lse: memref<?x?x?xf32>, %bias: memref<?x?x?x?x@BT@>,
                     %slopes: memref<?xf32>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x@D@x@DT@>, memref<?x?x?x@D@x@DT@>, memref<?x?x?x@D@x@DT@>)
                 outs(%o, %lse : memref<?x?x?x@D@x@DT@>, memref<?x?x?xf32>) @ATTRS@
                 mask_mod {
  ^bb0(%b: index, %h: index, %qi: index, %ki: index):
    %c20 = arith.constant 20 : index
    %c5 = arith.constant 5 : index
    %c3 = arith.constant 3 : index
    %prefix = arith.cmpi slt, %ki, %c20 : index
    %causal = arith.cmpi sle, %ki, %qi : index
    %see = arith.ori %prefix, %causal : i1
    %r = arith.remui %qi, %c5 : index
    %blind = arith.cmpi eq, %r, %c3 : index
    %t = arith.constant true
    %notBlind = arith.xori %blind, %t : i1
    %vis = arith.andi %see, %notBlind : i1
    attn.yield %vis : i1
  }
  return
}

func.func @ref_score(%s: f64, %b: index, %h: index, %i: index, %j: index,
                     %bias: memref<?x?x?x?x@BT@>, %slopes: memref<?xf32>,
                     %nq: index, %nk: index) -> f64 {
  %c20 = arith.constant 20 : index
  %c5 = arith.constant 5 : index
  %c3 = arith.constant 3 : index
  %ninf = arith.constant 0xFFF0000000000000 : f64
  %prefix = arith.cmpi slt, %j, %c20 : index
  %causal = arith.cmpi sle, %j, %i : index
  %see = arith.ori %prefix, %causal : i1
  %r = arith.remui %i, %c5 : index
  %sighted = arith.cmpi ne, %r, %c3 : index
  %vis = arith.andi %see, %sighted : i1
  %m = arith.select %vis, %s, %ninf : f64
  return %m : f64
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
  %false = arith.constant false
  %amp = arith.constant 1.0 : f32
  %bamp = arith.constant 0.0 : f32
  %scale = arith.constant 0.25 : f64
  %tolOut = arith.constant 1.0e-5 : f64
  %tolLse = arith.constant 1.0e-5 : f64
  %seed0 = arith.constant 11 : i32
  // CHECK: out_rel_err
  // CHECK-NEXT: lse_err
  // CHECK-NEXT: PASS
  call @check_mods(%c2, %c8, %c2, %c130, %c130, %c1, %c1, %seed0, %amp, %bamp, %scale, %left, %right, %false, %tolOut, %tolLse)
      : (index, index, index, index, index, index, index, i32, f32, f32, f64, index, index, i1, f64, f64) -> ()
  %seed1 = arith.constant 27 : i32
  // CHECK: out_rel_err
  // CHECK-NEXT: lse_err
  // CHECK-NEXT: PASS
  call @check_mods(%c1, %c4, %c4, %c77, %c200, %c1, %c1, %seed1, %amp, %bamp, %scale, %left, %right, %false, %tolOut, %tolLse)
      : (index, index, index, index, index, index, index, i32, f32, f32, f64, index, index, i1, f64, f64) -> ()
  %seed2 = arith.constant 39 : i32
  // CHECK: out_rel_err
  // CHECK-NEXT: lse_err
  // CHECK-NEXT: PASS
  call @check_mods(%c1, %c2, %c1, %c200, %c77, %c1, %c1, %seed2, %amp, %bamp, %scale, %left, %right, %false, %tolOut, %tolLse)
      : (index, index, index, index, index, index, index, i32, f32, f32, f64, index, index, i1, f64, f64) -> ()
  // CHECK-NOT: FAIL
  return
}
