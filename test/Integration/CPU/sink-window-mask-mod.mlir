// Attention sinks and a sliding window as a mask_mod region, end to end on
// the CPU against the f64 reference: a query sees the first 20 keys and
// the keys at most 100 before it, under a causal mask. The K/V range runs
// from the sink blocks to the diagonal; the blocks between the sinks and
// the window are hidden by the region (kv-range-hidden-mask-mod.mlir), and
// attn-split-kv-loop's loops skip them. Lengths of 600 keys leave up to
// three such 64-key blocks for the last query blocks; GQA, Nq != Nk
// (bottom-right), rows beyond the keys.

// RUN: cat %s %S/Inputs/check-mods.mlir \
// RUN:   | sed -e 's/@DT@/f32/g; s/@D@/16/g; s/@BT@/f32/g; s/@CVT@/arith.bitcast/g; s/@BCVT@/arith.bitcast/g; s/@ATTRS@/{mask = #attn.mask<causal, top_left>}/' \
// RUN:   | attn-opt '--attn-lower-to-cpu' | %mlir_run_cpu | FileCheck %s
// RUN: cat %s %S/Inputs/check-mods.mlir \
// RUN:   | sed -e 's/@DT@/f32/g; s/@D@/16/g; s/@BT@/f32/g; s/@CVT@/arith.bitcast/g; s/@BCVT@/arith.bitcast/g; s/@ATTRS@/{mask = #attn.mask<causal, bottom_right>}/; s/%false = arith.constant false/%false = arith.constant true/' \
// RUN:   | attn-opt '--attn-lower-to-cpu' | %mlir_run_cpu | FileCheck %s

// The split loops count positions: each body maps its position to a block
// past the hidden run, and the middle loop (full blocks after the run)
// has no attn.mask.
// RUN: cat %s %S/Inputs/check-mods.mlir \
// RUN:   | sed -e 's/@DT@/f32/g; s/@D@/16/g; s/@BT@/f32/g; s/@CVT@/arith.bitcast/g; s/@BCVT@/arith.bitcast/g; s/@ATTRS@/{mask = #attn.mask<causal, top_left>}/' \
// RUN:   | attn-opt --attn-default-config --attn-tile --attn-split-kv-loop | FileCheck %s --check-prefix=SPLIT
// SPLIT: %[[LO:[a-zA-Z0-9_]+]], %[[HI:[a-zA-Z0-9_]+]] = attn.kv_range visible
// SPLIT: %[[G0:[a-zA-Z0-9_]+]], %[[G1:[a-zA-Z0-9_]+]] = attn.kv_range hidden {{.+}} from %[[LO]] to %[[HI]]
// SPLIT: %[[GAP:[a-zA-Z0-9_]+]] = arith.subi %[[G1]], %[[G0]]
// SPLIT: attn.kv_range unmasked {{.+}} from %[[G1]] to %[[HI]]
// SPLIT: %[[END:[a-zA-Z0-9_]+]] = arith.subi %[[HI]], %[[GAP]]
// SPLIT: scf.for %[[T:[a-zA-Z0-9_]+]] = %[[LO]] to
// SPLIT-NEXT: %[[AFTER:[a-zA-Z0-9_]+]] = arith.cmpi sge, %[[T]], %[[G0]]
// SPLIT-NEXT: %[[OFF:[a-zA-Z0-9_]+]] = arith.select %[[AFTER]], %[[GAP]]
// SPLIT-NEXT: arith.addi %[[T]], %[[OFF]]
// SPLIT: attn.mask
// SPLIT: scf.for %[[T2:[a-zA-Z0-9_]+]] =
// SPLIT-NEXT: arith.cmpi sge, %[[T2]], %[[G0]]
// SPLIT-NOT: attn.mask
// SPLIT: scf.yield
// SPLIT: scf.for %{{.+}} = %{{.+}} to %[[END]]
// SPLIT: attn.mask

func.func @attention(%q: memref<?x?x?x@D@x@DT@>, %k: memref<?x?x?x@D@x@DT@>,
                     %v: memref<?x?x?x@D@x@DT@>, %o: memref<?x?x?x@D@x@DT@>,
                     %lse: memref<?x?x?xf32>, %bias: memref<?x?x?x?x@BT@>,
                     %slopes: memref<?xf32>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x@D@x@DT@>, memref<?x?x?x@D@x@DT@>, memref<?x?x?x@D@x@DT@>)
                 outs(%o, %lse : memref<?x?x?x@D@x@DT@>, memref<?x?x?xf32>) @ATTRS@
                 mask_mod {
  ^bb0(%b: index, %h: index, %qi: index, %ki: index):
    %c20 = arith.constant 20 : index
    %c100 = arith.constant 100 : index
    %sink = arith.cmpi ult, %ki, %c20 : index
    %back = arith.subi %qi, %ki : index
    %near = arith.cmpi sle, %back, %c100 : index
    %see = arith.ori %sink, %near : i1
    attn.yield %see : i1
  }
  return
}

func.func @ref_score(%s: f64, %b: index, %h: index, %i: index, %j: index,
                     %bias: memref<?x?x?x?x@BT@>, %slopes: memref<?xf32>,
                     %nq: index, %nk: index) -> f64 {
  %c20 = arith.constant 20 : index
  %c100 = arith.constant 100 : index
  %ninf = arith.constant 0xFFF0000000000000 : f64
  %sink = arith.cmpi ult, %j, %c20 : index
  %back = arith.subi %i, %j : index
  %near = arith.cmpi sle, %back, %c100 : index
  %vis = arith.ori %sink, %near : i1
  %m = arith.select %vis, %s, %ninf : f64
  return %m : f64
}

func.func @main() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c77 = arith.constant 77 : index
  %c600 = arith.constant 600 : index
  %left = arith.constant -1 : index
  %right = arith.constant 0 : index
  %false = arith.constant false
  %amp = arith.constant 1.0 : f32
  %bamp = arith.constant 0.0 : f32
  %scale = arith.constant 0.25 : f64
  %tolOut = arith.constant 1.0e-5 : f64
  %tolLse = arith.constant 1.0e-5 : f64
  %seed0 = arith.constant 5 : i32
  // CHECK: out_rel_err
  // CHECK-NEXT: lse_err
  // CHECK-NEXT: PASS
  call @check_mods(%c1, %c4, %c2, %c600, %c600, %c1, %c1, %seed0, %amp, %bamp, %scale, %left, %right, %false, %tolOut, %tolLse)
      : (index, index, index, index, index, index, index, i32, f32, f32, f64, index, index, i1, f64, f64) -> ()
  %seed1 = arith.constant 17 : i32
  // CHECK: out_rel_err
  // CHECK-NEXT: lse_err
  // CHECK-NEXT: PASS
  call @check_mods(%c1, %c2, %c1, %c77, %c600, %c1, %c1, %seed1, %amp, %bamp, %scale, %left, %right, %false, %tolOut, %tolLse)
      : (index, index, index, index, index, index, index, i32, f32, f32, f64, index, index, i1, f64, f64) -> ()
  %seed2 = arith.constant 29 : i32
  // CHECK: out_rel_err
  // CHECK-NEXT: lse_err
  // CHECK-NEXT: PASS
  call @check_mods(%c2, %c2, %c2, %c600, %c77, %c1, %c1, %seed2, %amp, %bamp, %scale, %left, %right, %false, %tolOut, %tolLse)
      : (index, index, index, index, index, index, index, i32, f32, f32, f64, index, index, i1, f64, f64) -> ()
  // CHECK-NOT: FAIL
  return
}
