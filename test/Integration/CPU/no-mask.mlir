// attn.attention without a mask, f32, D = 16, on the CPU: lengths of 1 and
// lengths that are not multiples of the 128-row and 64-key blocks, Nq != Nk both ways,
// batch and heads > 1, GQA and MQA. Checked against the f64 reference of
// Inputs/check-attention.mlir; the second run keeps every block masked
// (no attn-split-kv-loop) and must agree as well.

// RUN: cat %s %S/Inputs/check-attention.mlir \
// RUN:   | sed -e 's/@DT@/f32/g; s/@DV@/16/g; s/@D@/16/g; s/@CVT@/arith.bitcast/g' \
// RUN:   | attn-opt '--attn-lower-to-cpu' | %mlir_run_cpu | FileCheck %s
// RUN: cat %s %S/Inputs/check-attention.mlir \
// RUN:   | sed -e 's/@DT@/f32/g; s/@DV@/16/g; s/@D@/16/g; s/@CVT@/arith.bitcast/g' \
// RUN:   | attn-opt '--attn-lower-to-cpu=split-kv-loop=false' | %mlir_run_cpu | FileCheck %s
// Last K/V block first (reverse_kv), small blocks so that every query block
// has masked and unmasked K/V blocks:
// RUN: cat %s %S/Inputs/check-attention.mlir \
// RUN:   | sed -e 's/@DT@/f32/g; s/@DV@/16/g; s/@D@/16/g; s/@CVT@/arith.bitcast/g; /outs(%o, %lse/s/{mask = /{config = #attn.tile_config<block_m = 32, block_n = 16, warps = 1, stages = 1>, gpu_config = #attn.gpu_config<reverse_kv = true>, mask = /; /outs(%o, %lse : [^{]*)$/s/$/ {config = #attn.tile_config<block_m = 32, block_n = 16, warps = 1, stages = 1>, gpu_config = #attn.gpu_config<reverse_kv = true>}/' \
// RUN:   | attn-opt '--attn-lower-to-cpu' | %mlir_run_cpu | FileCheck %s
// The configuration above reaches the op:
// RUN: cat %s %S/Inputs/check-attention.mlir | sed -e 's/@DT@/f32/g; s/@DV@/16/g; s/@D@/16/g; s/@CVT@/arith.bitcast/g; /outs(%o, %lse/s/{mask = /{config = #attn.tile_config<block_m = 32, block_n = 16, warps = 1, stages = 1>, gpu_config = #attn.gpu_config<reverse_kv = true>, mask = /; /outs(%o, %lse : [^{]*)$/s/$/ {config = #attn.tile_config<block_m = 32, block_n = 16, warps = 1, stages = 1>, gpu_config = #attn.gpu_config<reverse_kv = true>}/' \
// RUN:   | attn-opt --attn-tile | FileCheck %s --check-prefix=REV
// REV: attn.program
// REV-NEXT: buffers({{.*}}gpu_config = #attn.gpu_config<reverse_kv = true>

func.func @attention(%q: memref<?x?x?x@D@x@DT@>, %k: memref<?x?x?x@D@x@DT@>,
                     %v: memref<?x?x?x@DV@x@DT@>, %o: memref<?x?x?x@DV@x@DT@>,
                     %lse: memref<?x?x?xf32>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x@D@x@DT@>, memref<?x?x?x@D@x@DT@>, memref<?x?x?x@DV@x@DT@>)
                 outs(%o, %lse : memref<?x?x?x@DV@x@DT@>, memref<?x?x?xf32>)
  return
}

func.func @main() {
  %cm1 = arith.constant -1 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %c77 = arith.constant 77 : index
  %c128 = arith.constant 128 : index
  %c130 = arith.constant 130 : index
  %amp = arith.constant 1.0 : f32
  %scale = arith.constant 0.25 : f64
  %true = arith.constant true
  %false = arith.constant false
  %tolOut = arith.constant 1.0e-5 : f64
  %tolLse = arith.constant 1.0e-5 : f64
  %seed0 = arith.constant 11 : i32
  // one query, one key
  // CHECK: out_rel_err
  // CHECK-NEXT: lse_err
  // CHECK-NEXT: PASS
  call @check(%c1, %c1, %c1, %c1, %c1, %seed0, %amp, %scale, %cm1, %cm1, %false, %tolOut, %tolLse)
      : (index, index, index, index, index, i32, f32, f64, index, index, i1, f64, f64) -> ()
  %seed1 = arith.constant 18 : i32
  // B = 2, H = 4, N = 77
  // CHECK: out_rel_err
  // CHECK-NEXT: lse_err
  // CHECK-NEXT: PASS
  call @check(%c2, %c4, %c4, %c77, %c77, %seed1, %amp, %scale, %cm1, %cm1, %false, %tolOut, %tolLse)
      : (index, index, index, index, index, i32, f32, f64, index, index, i1, f64, f64) -> ()
  %seed2 = arith.constant 25 : i32
  // Nq = 130, Nk = 1
  // CHECK: out_rel_err
  // CHECK-NEXT: lse_err
  // CHECK-NEXT: PASS
  call @check(%c1, %c2, %c2, %c130, %c1, %seed2, %amp, %scale, %cm1, %cm1, %false, %tolOut, %tolLse)
      : (index, index, index, index, index, i32, f32, f64, index, index, i1, f64, f64) -> ()
  %seed3 = arith.constant 32 : i32
  // one query row, Nk = 130
  // CHECK: out_rel_err
  // CHECK-NEXT: lse_err
  // CHECK-NEXT: PASS
  call @check(%c1, %c2, %c2, %c1, %c130, %seed3, %amp, %scale, %cm1, %cm1, %false, %tolOut, %tolLse)
      : (index, index, index, index, index, i32, f32, f64, index, index, i1, f64, f64) -> ()
  %seed4 = arith.constant 39 : i32
  // MQA (Hkv = 1), Nk a multiple of the 64-key blocks
  // CHECK: out_rel_err
  // CHECK-NEXT: lse_err
  // CHECK-NEXT: PASS
  call @check(%c2, %c4, %c1, %c64, %c128, %seed4, %amp, %scale, %cm1, %cm1, %false, %tolOut, %tolLse)
      : (index, index, index, index, index, i32, f32, f64, index, index, i1, f64, f64) -> ()
  %seed5 = arith.constant 46 : i32
  // GQA 4:1, Nq > Nk
  // CHECK: out_rel_err
  // CHECK-NEXT: lse_err
  // CHECK-NEXT: PASS
  call @check(%c1, %c8, %c2, %c130, %c77, %seed5, %amp, %scale, %cm1, %cm1, %false, %tolOut, %tolLse)
      : (index, index, index, index, index, i32, f32, f64, index, index, i1, f64, f64) -> ()
  // CHECK-NOT: FAIL
  return
}
