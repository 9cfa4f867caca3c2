// Logit soft-capping, softcap * tanh(s / softcap), against an f64
// reference: a small cap (5) and large logits so that the cap bites; alone
// (the cap folds into the softmax scale) and with a causal mask and a
// window; GQA, odd lengths, Nq != Nk, one row.

// RUN: cat %s %S/Inputs/check-mods.mlir \
// RUN:   | sed -e 's/@DT@/f32/g; s/@D@/16/g; s/@BT@/f32/g; s/@CVT@/arith.bitcast/g; s/@BCVT@/arith.bitcast/g; s/@MASK@//' \
// RUN:   | attn-opt '--attn-lower-to-cpu' | %mlir_run_cpu | FileCheck %s
// RUN: cat %s %S/Inputs/check-mods.mlir \
// RUN:   | sed -e 's/@DT@/f32/g; s/@D@/16/g; s/@BT@/f32/g; s/@CVT@/arith.bitcast/g; s/@BCVT@/arith.bitcast/g; s/@MASK@/, mask = #attn.mask<causal, top_left>/' \
// RUN:   | sed -e 's/%right_ref = arith.constant -1 : index/%right_ref = arith.constant 0 : index/' \
// RUN:   | attn-opt '--attn-lower-to-cpu' | %mlir_run_cpu | FileCheck %s
// RUN: cat %s %S/Inputs/check-mods.mlir \
// RUN:   | sed -e 's/@DT@/f32/g; s/@D@/16/g; s/@BT@/f32/g; s/@CVT@/arith.bitcast/g; s/@BCVT@/arith.bitcast/g; s/@MASK@/, mask = #attn.mask<window, bottom_right, left = 20, right = 3>/' \
// RUN:   | sed -e 's/%left_ref = arith.constant -1 : index/%left_ref = arith.constant 20 : index/; s/%right_ref = arith.constant -1 : index/%right_ref = arith.constant 3 : index/; s/%br_ref = arith.constant false/%br_ref = arith.constant true/' \
// RUN:   | attn-opt '--attn-lower-to-cpu' | %mlir_run_cpu | FileCheck %s
// bf16 (P rounded to bf16: tolerances of its 8-bit significand), where the
// cap also bounds the online softmax (max_bound: no running maximum):
// RUN: cat %s %S/Inputs/check-mods.mlir \
// RUN:   | sed -e 's/@DT@/bf16/g; s/@D@/16/g; s/@BT@/f32/g; s/@CVT@/arith.truncf/g; s/@BCVT@/arith.bitcast/g; s/@MASK@//' \
// RUN:   | sed -e 's/tolOut = arith.constant 1.0e-5/tolOut = arith.constant 2.0e-2/; s/tolLse = arith.constant 1.0e-5/tolLse = arith.constant 1.0e-2/' \
// RUN:   | attn-opt '--attn-lower-to-cpu' | %mlir_run_cpu | FileCheck %s
// With #attn.gpu_config<hoist_row_max> the softmax takes each unmasked
// block's row maximum from the scores before the tanh (attn-hoist-row-max,
// block_max): f32 and f16 P (the one without max_bound), alone and causal.
// RUN: cat %s %S/Inputs/check-mods.mlir \
// RUN:   | sed -e 's/@DT@/f32/g; s/@D@/16/g; s/@BT@/f32/g; s/@CVT@/arith.bitcast/g; s/@BCVT@/arith.bitcast/g; s/@MASK@/, config = #attn.tile_config<block_m = 64, block_n = 32, warps = 4, stages = 1>, gpu_config = #attn.gpu_config<hoist_row_max = true>/' \
// RUN:   | attn-opt '--attn-lower-to-cpu' | %mlir_run_cpu | FileCheck %s
// RUN: cat %s %S/Inputs/check-mods.mlir \
// RUN:   | sed -e 's/@DT@/f16/g; s/@D@/16/g; s/@BT@/f32/g; s/@CVT@/arith.truncf/g; s/@BCVT@/arith.bitcast/g; s/@MASK@/, mask = #attn.mask<causal, top_left>, config = #attn.tile_config<block_m = 64, block_n = 32, warps = 4, stages = 1>, gpu_config = #attn.gpu_config<hoist_row_max = true>/' \
// RUN:   | sed -e 's/%right_ref = arith.constant -1 : index/%right_ref = arith.constant 0 : index/' \
// RUN:   | sed -e 's/tolOut = arith.constant 1.0e-5/tolOut = arith.constant 5.0e-3/; s/tolLse = arith.constant 1.0e-5/tolLse = arith.constant 1.0e-3/' \
// RUN:   | attn-opt '--attn-lower-to-cpu' | %mlir_run_cpu | FileCheck %s
// RUN: cat %s %S/Inputs/check-mods.mlir | sed -e 's/@DT@/f16/g; s/@D@/16/g; s/@BT@/f32/g; s/@CVT@/arith.truncf/g; s/@BCVT@/arith.bitcast/g; s/@MASK@/, mask = #attn.mask<causal, top_left>, config = #attn.tile_config<block_m = 64, block_n = 32, warps = 4, stages = 1>, gpu_config = #attn.gpu_config<hoist_row_max = true>/' | attn-opt --attn-tile --attn-split-kv-loop --attn-hoist-row-max | FileCheck %s --check-prefix=HOIST
// HOIST: %[[S:.+]] = attn.dot
// HOIST: %[[R:.+]] = attn.reduce_rows max %[[S]] : tensor<64x32xf32> -> tensor<64xf32>
// HOIST: %[[RU:.+]] = arith.mulf %[[R]], %{{.+}} : tensor<64xf32>
// HOIST: %[[RT:.+]] = math.tanh %[[RU]] fastmath<afn> : tensor<64xf32>
// HOIST: attn.online_softmax {{.+}} block_max %[[RT]] {scale_log2e = 7.2134752
// HOIST: attn.mask
// HOIST-NOT: block_max
// HOIST: attn.finalize
// The cap becomes a tanh on the scores in the tile program, with the
// factor c moved into the softmax scale (c log2 e = 7.21...):
// RUN: cat %s %S/Inputs/check-mods.mlir | sed -e 's/@DT@/f32/g; s/@D@/16/g; s/@BT@/f32/g; s/@CVT@/arith.bitcast/g; s/@BCVT@/arith.bitcast/g; s/@MASK@//' | attn-opt --attn-default-config --attn-tile | FileCheck %s --check-prefix=TILE
// TILE: math.tanh %{{.+}} fastmath<afn> : tensor<128x64xf32>
// TILE: attn.online_softmax {{.*}}max_bound = 7.2134752{{[0-9]*}} : f32, scale_log2e = 7.2134752

func.func @attention(%q: memref<?x?x?x@D@x@DT@>, %k: memref<?x?x?x@D@x@DT@>,
                     %v: memref<?x?x?x@D@x@DT@>, %o: memref<?x?x?x@D@x@DT@>,
                     %lse: memref<?x?x?xf32>, %bias: memref<?x?x?x?x@BT@>,
                     %slopes: memref<?xf32>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x@D@x@DT@>, memref<?x?x?x@D@x@DT@>, memref<?x?x?x@D@x@DT@>)
                 outs(%o, %lse : memref<?x?x?x@D@x@DT@>, memref<?x?x?xf32>)
                 {softcap = 5.0 : f64 @MASK@}
  return
}

func.func @ref_score(%s: f64, %b: index, %h: index, %i: index, %j: index,
                     %bias: memref<?x?x?x?x@BT@>, %slopes: memref<?xf32>,
                     %nq: index, %nk: index) -> f64 {
  %cap = arith.constant 5.0 : f64
  %x = arith.divf %s, %cap : f64
  %t = math.tanh %x : f64
  %r = arith.mulf %t, %cap : f64
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
  %left_ref = arith.constant -1 : index
  %right_ref = arith.constant -1 : index
  %br_ref = arith.constant false
  // Logits up to about 16 * 3 * 3 * 0.25 = 36: the cap of 5 flattens them.
  %amp = arith.constant 3.0 : f32
  %bamp = arith.constant 0.0 : f32
  %scale = arith.constant 0.25 : f64
  %tolOut = arith.constant 1.0e-5 : f64
  %tolLse = arith.constant 1.0e-5 : f64
  %seed0 = arith.constant 3 : i32
  // CHECK: out_rel_err
  // CHECK-NEXT: lse_err
  // CHECK-NEXT: PASS
  call @check_mods(%c2, %c8, %c2, %c130, %c130, %c1, %c1, %seed0, %amp, %bamp, %scale, %left_ref, %right_ref, %br_ref, %tolOut, %tolLse)
      : (index, index, index, index, index, index, index, i32, f32, f32, f64, index, index, i1, f64, f64) -> ()
  %seed1 = arith.constant 17 : i32
  // CHECK: out_rel_err
  // CHECK-NEXT: lse_err
  // CHECK-NEXT: PASS
  call @check_mods(%c1, %c4, %c4, %c77, %c200, %c1, %c1, %seed1, %amp, %bamp, %scale, %left_ref, %right_ref, %br_ref, %tolOut, %tolLse)
      : (index, index, index, index, index, index, index, i32, f32, f32, f64, index, index, i1, f64, f64) -> ()
  %seed2 = arith.constant 29 : i32
  // CHECK: out_rel_err
  // CHECK-NEXT: lse_err
  // CHECK-NEXT: PASS
  call @check_mods(%c1, %c2, %c1, %c200, %c77, %c1, %c1, %seed2, %amp, %bamp, %scale, %left_ref, %right_ref, %br_ref, %tolOut, %tolLse)
      : (index, index, index, index, index, index, index, i32, f32, f32, f64, index, index, i1, f64, f64) -> ()
  %seed3 = arith.constant 41 : i32
  // CHECK: out_rel_err
  // CHECK-NEXT: lse_err
  // CHECK-NEXT: PASS
  call @check_mods(%c1, %c1, %c1, %c1, %c1, %c1, %c1, %seed3, %amp, %bamp, %scale, %left_ref, %right_ref, %br_ref, %tolOut, %tolLse)
      : (index, index, index, index, index, index, index, i32, f32, f32, f64, index, index, i1, f64, f64) -> ()
  // CHECK-NOT: FAIL
  return
}
