// attn.kv_range with a mask_mod region, lowered for the CPU and run: the
// range shrinks to the K/V blocks from the first to the last one in which
// the region may show a key. Block sizes 64 x 64; the expected ranges are
// the exact ones, found by evaluating each mask on every (query, key) pair
// (interval reasoning is exact for these masks at block granularity). An
// empty range prints as lower == upper; a region the evaluation cannot
// bound (a bitwise and) keeps the whole range.

// RUN: attn-opt %s --attn-lower-to-cpu | %mlir_run_cpu | FileCheck %s

// Documents of 256 keys: qi / 256 == ki / 256.
func.func @doc(%row0: index, %nq: index, %nk: index) {
  %c0 = arith.constant 0 : index
  %lo, %hi = attn.kv_range visible %row0, %nq, %nk {block_m = 64 : i64, block_n = 64 : i64, mask = #attn.mask<none>} mask_mod(%c0, %c0) {
  ^bb0(%b: index, %h: index, %qi: index, %ki: index):
    %c256 = arith.constant 256 : index
    %dq = arith.divui %qi, %c256 : index
    %dk = arith.divui %ki, %c256 : index
    %same = arith.cmpi eq, %dq, %dk : index
    attn.yield %same : i1
  }
  vector.print %lo : index
  vector.print %hi : index
  return
}

// A prefix-LM mask: the first 20 keys and the keys up to the query.
func.func @prefix(%row0: index, %nq: index, %nk: index) {
  %c0 = arith.constant 0 : index
  %lo, %hi = attn.kv_range visible %row0, %nq, %nk {block_m = 64 : i64, block_n = 64 : i64, mask = #attn.mask<none>} mask_mod(%c0, %c0) {
  ^bb0(%b: index, %h: index, %qi: index, %ki: index):
    %c20 = arith.constant 20 : index
    %prefix = arith.cmpi ult, %ki, %c20 : index
    %causal = arith.cmpi ule, %ki, %qi : index
    %see = arith.ori %prefix, %causal : i1
    attn.yield %see : i1
  }
  vector.print %lo : index
  vector.print %hi : index
  return
}

// A sliding window written as differences (signed, may be negative):
// -100 <= ki - qi <= 10.
func.func @window(%row0: index, %nq: index, %nk: index) {
  %c0 = arith.constant 0 : index
  %lo, %hi = attn.kv_range visible %row0, %nq, %nk {block_m = 64 : i64, block_n = 64 : i64, mask = #attn.mask<none>} mask_mod(%c0, %c0) {
  ^bb0(%b: index, %h: index, %qi: index, %ki: index):
    %c10 = arith.constant 10 : index
    %c100 = arith.constant 100 : index
    %ahead = arith.subi %ki, %qi : index
    %behind = arith.subi %qi, %ki : index
    %near = arith.cmpi sle, %ahead, %c10 : index
    %recent = arith.cmpi sle, %behind, %c100 : index
    %see = arith.andi %near, %recent : i1
    attn.yield %see : i1
  }
  vector.print %lo : index
  vector.print %hi : index
  return
}

// A mask that hides every key of short sequences: ki > qi + 1000, in i32.
// (qi + 5000 would not be bounded: at lengths near the runtime's limit of
// 2^31 - 1025 it could wrap.)
func.func @never(%row0: index, %nq: index, %nk: index) {
  %c0 = arith.constant 0 : index
  %lo, %hi = attn.kv_range visible %row0, %nq, %nk {block_m = 64 : i64, block_n = 64 : i64, mask = #attn.mask<none>} mask_mod(%c0, %c0) {
  ^bb0(%b: index, %h: index, %qi: index, %ki: index):
    %c1000 = arith.constant 1000 : i32
    %q32 = arith.index_cast %qi : index to i32
    %k32 = arith.index_cast %ki : index to i32
    %far = arith.addi %q32, %c1000 : i32
    %see = arith.cmpi sgt, %k32, %far : i32
    attn.yield %see : i1
  }
  vector.print %lo : index
  vector.print %hi : index
  return
}

// Keys by batch and head: ki / 128 - b == h. (h + b would not be bounded:
// each may be near 2^31.)
func.func @headdoc(%row0: index, %nq: index, %nk: index, %b0: index, %h0: index) {
  %lo, %hi = attn.kv_range visible %row0, %nq, %nk {block_m = 64 : i64, block_n = 64 : i64, mask = #attn.mask<none>} mask_mod(%b0, %h0) {
  ^bb0(%b: index, %h: index, %qi: index, %ki: index):
    %c128 = arith.constant 128 : index
    %dk = arith.divui %ki, %c128 : index
    %doc = arith.subi %dk, %b : index
    %same = arith.cmpi eq, %doc, %h : index
    attn.yield %same : i1
  }
  vector.print %lo : index
  vector.print %hi : index
  return
}

// A bitwise and of the indices: not bounded, so every block stays.
func.func @opaque(%row0: index, %nq: index, %nk: index) {
  %c0 = arith.constant 0 : index
  %lo, %hi = attn.kv_range visible %row0, %nq, %nk {block_m = 64 : i64, block_n = 64 : i64, mask = #attn.mask<none>} mask_mod(%c0, %c0) {
  ^bb0(%b: index, %h: index, %qi: index, %ki: index):
    %z = arith.constant 0 : index
    %both = arith.andi %qi, %ki : index
    %see = arith.cmpi ne, %both, %z : index
    attn.yield %see : i1
  }
  vector.print %lo : index
  vector.print %hi : index
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c256 = arith.constant 256 : index
  %c300 = arith.constant 300 : index
  %c512 = arith.constant 512 : index
  %c600 = arith.constant 600 : index
  %c960 = arith.constant 960 : index
  %c1000 = arith.constant 1000 : index
  // CHECK: 0
  // CHECK-NEXT: 4
  call @doc(%c0, %c1000, %c1000) : (index, index, index) -> ()
  // CHECK-NEXT: 4
  // CHECK-NEXT: 8
  call @doc(%c300, %c1000, %c1000) : (index, index, index) -> ()
  // CHECK-NEXT: 12
  // CHECK-NEXT: 16
  call @doc(%c960, %c1000, %c1000) : (index, index, index) -> ()
  // Rows 512..599 of 600 (a short last query block), keys of 1000.
  // CHECK-NEXT: 8
  // CHECK-NEXT: 12
  call @doc(%c512, %c600, %c1000) : (index, index, index) -> ()
  // CHECK-NEXT: 0
  // CHECK-NEXT: 5
  call @prefix(%c256, %c1000, %c1000) : (index, index, index) -> ()
  // CHECK-NEXT: 0
  // CHECK-NEXT: 1
  call @prefix(%c0, %c1000, %c1000) : (index, index, index) -> ()
  // CHECK-NEXT: 6
  // CHECK-NEXT: 10
  call @window(%c512, %c1000, %c1000) : (index, index, index) -> ()
  // CHECK-NEXT: 0
  // CHECK-NEXT: 2
  call @window(%c0, %c1000, %c1000) : (index, index, index) -> ()
  // CHECK-NEXT: 13
  // CHECK-NEXT: 16
  call @window(%c960, %c1000, %c1000) : (index, index, index) -> ()
  // Empty: both bounds at the end of the visible range (5 blocks of 64).
  // CHECK-NEXT: 5
  // CHECK-NEXT: 5
  call @never(%c0, %c300, %c300) : (index, index, index) -> ()
  // CHECK-NEXT: 8
  // CHECK-NEXT: 10
  call @headdoc(%c0, %c1000, %c1000, %c1, %c3) : (index, index, index, index, index) -> ()
  // CHECK-NEXT: 0
  // CHECK-NEXT: 16
  call @opaque(%c0, %c1000, %c1000) : (index, index, index) -> ()
  return
}
