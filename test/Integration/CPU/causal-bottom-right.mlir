// Causal masks with bottom-right alignment (FlashAttention's): the last
// query sees the last key. With Nq > Nk the first Nq - Nk rows see no key at
// all: their output must be 0 and their LSE -inf (the reference checks
// both). f32, D = 16.

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
// K/V blocks of 48 keys (a multiple of 16, not a power of two), so that
// block boundaries and the diagonal fall apart:
// RUN: cat %s %S/Inputs/check-attention.mlir \
// RUN:   | sed -e 's/@DT@/f32/g; s/@DV@/16/g; s/@D@/16/g; s/@CVT@/arith.bitcast/g; /outs(%o, %lse/s/{mask = /{config = #attn.tile_config<block_m = 32, block_n = 48, warps = 1, stages = 1>, mask = /; /outs(%o, %lse : [^{]*)$/s/$/ {config = #attn.tile_config<block_m = 32, block_n = 48, warps = 1, stages = 1>}/' \
// RUN:   | attn-opt '--attn-lower-to-cpu' | %mlir_run_cpu | FileCheck %s
// 192-row query blocks (three wgmma warpgroups' worth, not a power of
// two) over 80-key blocks: the diagonal crosses block boundaries of both
// (Nq = 400: a last query block of 16 rows):
// RUN: cat %s %S/Inputs/check-attention.mlir \
// RUN:   | sed -e 's/@DT@/f32/g; s/@DV@/16/g; s/@D@/16/g; s/@CVT@/arith.bitcast/g; /outs(%o, %lse/s/{mask = /{config = #attn.tile_config<block_m = 192, block_n = 80, warps = 12, stages = 1>, mask = /; /outs(%o, %lse : [^{]*)$/s/$/ {config = #attn.tile_config<block_m = 192, block_n = 80, warps = 12, stages = 1>}/' \
// RUN:   | attn-opt '--attn-lower-to-cpu' | %mlir_run_cpu | FileCheck %s
// REV: attn.program
// REV-NEXT: buffers({{.*}}gpu_config = #attn.gpu_config<reverse_kv = true>

func.func @attention(%q: memref<?x?x?x@D@x@DT@>, %k: memref<?x?x?x@D@x@DT@>,
                     %v: memref<?x?x?x@DV@x@DT@>, %o: memref<?x?x?x@DV@x@DT@>,
                     %lse: memref<?x?x?xf32>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x@D@x@DT@>, memref<?x?x?x@D@x@DT@>, memref<?x?x?x@DV@x@DT@>)
                 outs(%o, %lse : memref<?x?x?x@DV@x@DT@>, memref<?x?x?xf32>) {mask = #attn.mask<causal, bottom_right>}
  return
}

func.func @main() {
  %cm1 = arith.constant -1 : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c10 = arith.constant 10 : index
  %c77 = arith.constant 77 : index
  %c130 = arith.constant 130 : index
  %c150 = arith.constant 150 : index
  %amp = arith.constant 1.0 : f32
  %scale = arith.constant 0.25 : f64
  %true = arith.constant true
  %false = arith.constant false
  %tolOut = arith.constant 1.0e-5 : f64
  %tolLse = arith.constant 1.0e-5 : f64
  %seed0 = arith.constant 11 : i32
  // Nq = Nk: same as top-left
  // CHECK: out_rel_err
  // CHECK-NEXT: lse_err
  // CHECK-NEXT: PASS
  call @check(%c2, %c8, %c2, %c130, %c130, %seed0, %amp, %scale, %cm1, %c0, %true, %tolOut, %tolLse)
      : (index, index, index, index, index, i32, f32, f64, index, index, i1, f64, f64) -> ()
  %seed1 = arith.constant 18 : i32
  // Nq = 77 < Nk = 130
  // CHECK: out_rel_err
  // CHECK-NEXT: lse_err
  // CHECK-NEXT: PASS
  call @check(%c1, %c8, %c2, %c77, %c130, %seed1, %amp, %scale, %cm1, %c0, %true, %tolOut, %tolLse)
      : (index, index, index, index, index, i32, f32, f64, index, index, i1, f64, f64) -> ()
  %seed2 = arith.constant 25 : i32
  // Nq = 130 > Nk = 77: 53 fully masked rows
  // CHECK: out_rel_err
  // CHECK-NEXT: lse_err
  // CHECK-NEXT: PASS
  call @check(%c1, %c4, %c4, %c130, %c77, %seed2, %amp, %scale, %cm1, %c0, %true, %tolOut, %tolLse)
      : (index, index, index, index, index, i32, f32, f64, index, index, i1, f64, f64) -> ()
  %seed5 = arith.constant 47 : i32
  %c300 = arith.constant 300 : index
  %c400 = arith.constant 400 : index
  // Nq = 400 > Nk = 300: 100 fully masked rows, the diagonal through the
  // second and third query blocks of 192 rows
  // CHECK: out_rel_err
  // CHECK-NEXT: lse_err
  // CHECK-NEXT: PASS
  call @check(%c1, %c2, %c1, %c400, %c300, %seed5, %amp, %scale, %cm1, %c0, %true, %tolOut, %tolLse)
      : (index, index, index, index, index, i32, f32, f64, index, index, i1, f64, f64) -> ()
  %seed3 = arith.constant 32 : i32
  // Nq = 150 > Nk = 10: whole query blocks fully masked
  // CHECK: out_rel_err
  // CHECK-NEXT: lse_err
  // CHECK-NEXT: PASS
  call @check(%c1, %c2, %c2, %c150, %c10, %seed3, %amp, %scale, %cm1, %c0, %true, %tolOut, %tolLse)
      : (index, index, index, index, index, i32, f32, f64, index, index, i1, f64, f64) -> ()
  %seed4 = arith.constant 39 : i32
  // one row that sees every key
  // CHECK: out_rel_err
  // CHECK-NEXT: lse_err
  // CHECK-NEXT: PASS
  call @check(%c1, %c1, %c1, %c1, %c130, %seed4, %amp, %scale, %cm1, %c0, %true, %tolOut, %tolLse)
      : (index, index, index, index, index, i32, f32, f64, index, index, i1, f64, f64) -> ()
  // CHECK-NOT: FAIL
  return
}
