// A document mask as a mask_mod region, end to end on the CPU: the K/V
// loops visit only the blocks that attn.kv_range's interval evaluation of
// the region leaves (kv-range-mask-mod.mlir checks those ranges), and the
// result still matches the f64 reference. Documents of 48 keys, not
// aligned to the blocks; queries are shifted by 7 ((qi + 7) / 48 ==
// ki / 48), so with fewer keys than queries the last rows see no key
// (O = 0, LSE = -inf); causal and window masks beside it, GQA, Nq != Nk.

// RUN: cat %s %S/Inputs/check-mods.mlir \
// RUN:   | sed -e 's/@DT@/f32/g; s/@D@/16/g; s/@BT@/f32/g; s/@CVT@/arith.bitcast/g; s/@BCVT@/arith.bitcast/g; s/@ATTRS@//' \
// RUN:   | attn-opt '--attn-lower-to-cpu' | %mlir_run_cpu | FileCheck %s
// RUN: cat %s %S/Inputs/check-mods.mlir \
// RUN:   | sed -e 's/@DT@/f32/g; s/@D@/16/g; s/@BT@/f32/g; s/@CVT@/arith.bitcast/g; s/@BCVT@/arith.bitcast/g; s/@ATTRS@/{mask = #attn.mask<window, top_left, left = 30, right = 4>}/; s/%left = arith.constant -1 : index/%left = arith.constant 30 : index/; s/%right = arith.constant -1 : index/%right = arith.constant 4 : index/' \
// RUN:   | attn-opt '--attn-lower-to-cpu' | %mlir_run_cpu | FileCheck %s
// RUN: cat %s %S/Inputs/check-mods.mlir \
// RUN:   | sed -e 's/@DT@/f32/g; s/@D@/16/g; s/@BT@/f32/g; s/@CVT@/arith.bitcast/g; s/@BCVT@/arith.bitcast/g; s/@ATTRS@/{mask = #attn.mask<causal, bottom_right>}/; s/%left = arith.constant -1 : index/%left = arith.constant -1 : index/; s/%right = arith.constant -1 : index/%right = arith.constant 0 : index/; s/%false = arith.constant false/%false = arith.constant true/' \
// RUN:   | attn-opt '--attn-lower-to-cpu' | %mlir_run_cpu | FileCheck %s
// Documents of 160 keys: the query blocks of 128 rows that lie in one
// document have full key blocks (kv-range-full-mask-mod.mlir), which run
// without the element mask; the others, and a block cut by a document's
// end, keep it.
// RUN: cat %s %S/Inputs/check-mods.mlir \
// RUN:   | sed -e 's/@DT@/f32/g; s/@D@/16/g; s/@BT@/f32/g; s/@CVT@/arith.bitcast/g; s/@BCVT@/arith.bitcast/g; s/@ATTRS@//; s/arith.constant 48 : index/arith.constant 160 : index/' \
// RUN:   | attn-opt '--attn-lower-to-cpu' | %mlir_run_cpu | FileCheck %s
// RUN: cat %s %S/Inputs/check-mods.mlir \
// RUN:   | sed -e 's/@DT@/f32/g; s/@D@/16/g; s/@BT@/f32/g; s/@CVT@/arith.bitcast/g; s/@BCVT@/arith.bitcast/g; s/@ATTRS@/{mask = #attn.mask<causal, bottom_right>}/; s/%left = arith.constant -1 : index/%left = arith.constant -1 : index/; s/%right = arith.constant -1 : index/%right = arith.constant 0 : index/; s/%false = arith.constant false/%false = arith.constant true/; s/arith.constant 48 : index/arith.constant 160 : index/' \
// RUN:   | attn-opt '--attn-lower-to-cpu' | %mlir_run_cpu | FileCheck %s
// The K/V loop of those runs, split: a middle loop without attn.mask.
// RUN: cat %s %S/Inputs/check-mods.mlir \
// RUN:   | sed -e 's/@DT@/f32/g; s/@D@/16/g; s/@BT@/f32/g; s/@CVT@/arith.bitcast/g; s/@BCVT@/arith.bitcast/g; s/@ATTRS@//; s/arith.constant 48 : index/arith.constant 160 : index/' \
// RUN:   | attn-opt --attn-default-config --attn-tile --attn-split-kv-loop --attn-expand-mask-mods | FileCheck %s --check-prefix=SPLIT
// SPLIT: attn.kv_range unmasked {{.+}} from
// SPLIT: scf.for
// SPLIT: arith.select
// SPLIT: attn.mask
// SPLIT: scf.for
// SPLIT-NOT: attn.mask
// SPLIT-NOT: arith.select
// SPLIT: scf.yield
// SPLIT: scf.for
// SPLIT: arith.select
// SPLIT: attn.mask

func.func @attention(%q: memref<?x?x?x@D@x@DT@>, %k: memref<?x?x?x@D@x@DT@>,
                     %v: memref<?x?x?x@D@x@DT@>, %o: memref<?x?x?x@D@x@DT@>,
                     %lse: memref<?x?x?xf32>, %bias: memref<?x?x?x?x@BT@>,
                     %slopes: memref<?xf32>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x@D@x@DT@>, memref<?x?x?x@D@x@DT@>, memref<?x?x?x@D@x@DT@>)
                 outs(%o, %lse : memref<?x?x?x@D@x@DT@>, memref<?x?x?xf32>) @ATTRS@
                 mask_mod {
  ^bb0(%b: index, %h: index, %qi: index, %ki: index):
    %c7 = arith.constant 7 : index
    %c48 = arith.constant 48 : index
    %qs = arith.addi %qi, %c7 : index
    %dq = arith.divui %qs, %c48 : index
    %dk = arith.divui %ki, %c48 : index
    %same = arith.cmpi eq, %dq, %dk : index
    attn.yield %same : i1
  }
  return
}

func.func @ref_score(%s: f64, %b: index, %h: index, %i: index, %j: index,
                     %bias: memref<?x?x?x?x@BT@>, %slopes: memref<?xf32>,
                     %nq: index, %nk: index) -> f64 {
  %c7 = arith.constant 7 : index
  %c48 = arith.constant 48 : index
  %ninf = arith.constant 0xFFF0000000000000 : f64
  %is = arith.addi %i, %c7 : index
  %di = arith.divui %is, %c48 : index
  %dj = arith.divui %j, %c48 : index
  %vis = arith.cmpi eq, %di, %dj : index
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
