// A score_mod region (a relative-position term and a per-head offset, on
// the scaled scores) with a mask_mod region (documents of 37 tokens: a
// query sees the keys of its own document) and a top-left causal mask,
// against an f64 reference; GQA, odd lengths, Nq != Nk.

// RUN: cat %s %S/Inputs/check-mods.mlir \
// RUN:   | sed -e 's/@DT@/f32/g; s/@D@/16/g; s/@BT@/f32/g; s/@CVT@/arith.bitcast/g; s/@BCVT@/arith.bitcast/g' \
// RUN:   | attn-opt '--attn-lower-to-cpu' | %mlir_run_cpu | FileCheck %s
// RUN: cat %s %S/Inputs/check-mods.mlir \
// RUN:   | sed -e 's/@DT@/f16/g; s/@D@/16/g; s/@BT@/f32/g; s/@CVT@/arith.truncf/g; s/@BCVT@/arith.bitcast/g; s/%%tolOut = arith.constant 1.0e-5/%%tolOut = arith.constant 5.0e-3/' \
// RUN:   | attn-opt '--attn-lower-to-cpu' | %mlir_run_cpu | FileCheck %s
// The regions become elementwise math on tiles, with index tiles for the
// query and key positions (the mask_mod by way of attn.mask's region):
// RUN: cat %s %S/Inputs/check-mods.mlir \
// RUN:   | sed -e 's/@DT@/f32/g; s/@D@/16/g; s/@BT@/f32/g; s/@CVT@/arith.bitcast/g; s/@BCVT@/arith.bitcast/g' \
// RUN:   | attn-opt --attn-default-config --attn-tile --attn-expand-mask-mods --cse | FileCheck %s --check-prefix=TILE
// TILE: %[[QI:.+]] = attn.iota 0, %{{.+}} : tensor<128x64xindex>
// TILE: %[[KI:.+]] = attn.iota 1, %{{.+}} : tensor<128x64xindex>
// TILE: arith.subi %[[KI]], %[[QI]] : tensor<128x64xindex>
// TILE: arith.divui %[[QI]], %{{.+}} : tensor<128x64xindex>
// TILE: arith.cmpi eq, %{{.+}}, %{{.+}} : tensor<128x64xindex>
// TILE: arith.select %{{.+}}, %{{.+}}, %{{.+}} : tensor<128x64xi1>, tensor<128x64xf32>
// TILE: attn.mask

func.func @attention(%q: memref<?x?x?x@D@x@DT@>, %k: memref<?x?x?x@D@x@DT@>,
                     %v: memref<?x?x?x@D@x@DT@>, %o: memref<?x?x?x@D@x@DT@>,
                     %lse: memref<?x?x?xf32>, %bias: memref<?x?x?x?x@BT@>,
                     %slopes: memref<?xf32>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x@D@x@DT@>, memref<?x?x?x@D@x@DT@>, memref<?x?x?x@D@x@DT@>)
                 outs(%o, %lse : memref<?x?x?x@D@x@DT@>, memref<?x?x?xf32>)
                 {mask = #attn.mask<causal, top_left>}
                 score_mod {
  ^bb0(%s: f32, %b: index, %h: index, %qi: index, %ki: index):
    %rel = arith.subi %ki, %qi : index
    %reli = arith.index_cast %rel : index to i32
    %relf = arith.sitofp %reli : i32 to f32
    %w = arith.constant 0.05 : f32
    %t = arith.mulf %relf, %w : f32
    %hi = arith.index_cast %h : index to i32
    %hf = arith.sitofp %hi : i32 to f32
    %hw = arith.constant 0.1 : f32
    %ho = arith.mulf %hf, %hw : f32
    %a = arith.addf %s, %t : f32
    %r = arith.addf %a, %ho : f32
    attn.yield %r : f32
  } mask_mod {
  ^bb0(%b: index, %h: index, %qi: index, %ki: index):
    %c37 = arith.constant 37 : index
    %dq = arith.divui %qi, %c37 : index
    %dk = arith.divui %ki, %c37 : index
    %same = arith.cmpi eq, %dq, %dk : index
    attn.yield %same : i1
  }
  return
}

func.func @ref_score(%s: f64, %b: index, %h: index, %i: index, %j: index,
                     %bias: memref<?x?x?x?x@BT@>, %slopes: memref<?xf32>,
                     %nq: index, %nk: index) -> f64 {
  %c37 = arith.constant 37 : index
  %ninf = arith.constant 0xFFF0000000000000 : f64
  %di = arith.divui %i, %c37 : index
  %dj = arith.divui %j, %c37 : index
  %same = arith.cmpi eq, %di, %dj : index
  %rel = arith.subi %j, %i : index
  %reli = arith.index_cast %rel : index to i64
  %relf = arith.sitofp %reli : i64 to f64
  %w = arith.constant 0.05 : f64
  %t = arith.mulf %relf, %w : f64
  %hi = arith.index_cast %h : index to i64
  %hf = arith.sitofp %hi : i64 to f64
  %hw = arith.constant 0.1 : f64
  %ho = arith.mulf %hf, %hw : f64
  %a = arith.addf %s, %t : f64
  %r = arith.addf %a, %ho : f64
  %m = arith.select %same, %r, %ninf : f64
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
  %right = arith.constant 0 : index
  %false = arith.constant false
  %amp = arith.constant 1.0 : f32
  %bamp = arith.constant 0.0 : f32
  %scale = arith.constant 0.25 : f64
  %tolOut = arith.constant 1.0e-5 : f64
  %tolLse = arith.constant 1.0e-5 : f64
  %seed0 = arith.constant 9 : i32
  // CHECK: out_rel_err
  // CHECK-NEXT: lse_err
  // CHECK-NEXT: PASS
  call @check_mods(%c2, %c8, %c2, %c130, %c130, %c1, %c1, %seed0, %amp, %bamp, %scale, %left, %right, %false, %tolOut, %tolLse)
      : (index, index, index, index, index, index, index, i32, f32, f32, f64, index, index, i1, f64, f64) -> ()
  %seed1 = arith.constant 23 : i32
  // CHECK: out_rel_err
  // CHECK-NEXT: lse_err
  // CHECK-NEXT: PASS
  call @check_mods(%c1, %c4, %c4, %c77, %c200, %c1, %c1, %seed1, %amp, %bamp, %scale, %left, %right, %false, %tolOut, %tolLse)
      : (index, index, index, index, index, index, index, i32, f32, f32, f64, index, index, i1, f64, f64) -> ()
  %seed2 = arith.constant 35 : i32
  // Nq > Nk: with the top-left causal mask every row sees key 0 of its
  // document only when the document started at or before Nk.
  // CHECK: out_rel_err
  // CHECK-NEXT: lse_err
  // CHECK-NEXT: PASS
  call @check_mods(%c1, %c2, %c1, %c200, %c77, %c1, %c1, %seed2, %amp, %bamp, %scale, %left, %right, %false, %tolOut, %tolLse)
      : (index, index, index, index, index, index, index, i32, f32, f32, f64, index, index, i1, f64, f64) -> ()
  // CHECK-NOT: FAIL
  return
}
