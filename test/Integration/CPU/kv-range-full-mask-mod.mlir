// attn.kv_range unmasked with a mask_mod region, lowered for the CPU and
// run: the run of blocks in which the region shows every key to every row
// of the query block (and the mask attribute hides none, all in bounds),
// starting at the first such block among the 8 from `from`, up to `to`.
// Block sizes 64 x 64, 1024 queries and keys; the expected ranges were
// worked out by hand from the masks (written next to each call). No full
// block prints as lower == upper == min(to, the mask attribute's unmasked
// upper bound) (16 blocks for no mask). A region the evaluation cannot
// bound proves no block full.

// RUN: attn-opt %s --attn-lower-to-cpu | %mlir_run_cpu | FileCheck %s

// Documents of 256 and of 100 keys, searched from the first visible block.
func.func @doc256(%row0: index) {
  %n = arith.constant 1024 : index
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %lo, %hi = attn.kv_range visible %row0, %n, %n {block_m = 64 : i64, block_n = 64 : i64, mask = #attn.mask<none>} mask_mod(%c0, %c0) {
  ^bb0(%b: index, %h: index, %qi: index, %ki: index):
    %len = arith.constant 256 : index
    %dq = arith.divui %qi, %len : index
    %dk = arith.divui %ki, %len : index
    %same = arith.cmpi eq, %dq, %dk : index
    attn.yield %same : i1
  }
  %ulo, %uhi = attn.kv_range unmasked %row0, %n, %n from %lo to %hi {block_m = 64 : i64, block_n = 64 : i64, mask = #attn.mask<none>} mask_mod(%c0, %c0) {
  ^bb0(%b: index, %h: index, %qi: index, %ki: index):
    %len = arith.constant 256 : index
    %dq = arith.divui %qi, %len : index
    %dk = arith.divui %ki, %len : index
    %same = arith.cmpi eq, %dq, %dk : index
    attn.yield %same : i1
  }
  vector.print %ulo : index
  vector.print %uhi : index
  return
}

func.func @doc100(%row0: index) {
  %n = arith.constant 1024 : index
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %lo, %hi = attn.kv_range visible %row0, %n, %n {block_m = 64 : i64, block_n = 64 : i64, mask = #attn.mask<none>} mask_mod(%c0, %c0) {
  ^bb0(%b: index, %h: index, %qi: index, %ki: index):
    %len = arith.constant 100 : index
    %dq = arith.divui %qi, %len : index
    %dk = arith.divui %ki, %len : index
    %same = arith.cmpi eq, %dq, %dk : index
    attn.yield %same : i1
  }
  %ulo, %uhi = attn.kv_range unmasked %row0, %n, %n from %lo to %hi {block_m = 64 : i64, block_n = 64 : i64, mask = #attn.mask<none>} mask_mod(%c0, %c0) {
  ^bb0(%b: index, %h: index, %qi: index, %ki: index):
    %len = arith.constant 100 : index
    %dq = arith.divui %qi, %len : index
    %dk = arith.divui %ki, %len : index
    %same = arith.cmpi eq, %dq, %dk : index
    attn.yield %same : i1
  }
  vector.print %ulo : index
  vector.print %uhi : index
  return
}

// The same documents (256 keys) under a top-left causal mask attribute:
// only blocks below the diagonal of every row can be full.
func.func @causal_doc(%row0: index) {
  %n = arith.constant 1024 : index
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %ulo, %uhi = attn.kv_range unmasked %row0, %n, %n from %c0 to %c16 {block_m = 64 : i64, block_n = 64 : i64, mask = #attn.mask<causal, top_left>} mask_mod(%c0, %c0) {
  ^bb0(%b: index, %h: index, %qi: index, %ki: index):
    %c256 = arith.constant 256 : index
    %dq = arith.divui %qi, %c256 : index
    %dk = arith.divui %ki, %c256 : index
    %same = arith.cmpi eq, %dq, %dk : index
    attn.yield %same : i1
  }
  vector.print %ulo : index
  vector.print %uhi : index
  return
}

// A prefix-LM mask: the first 130 keys and the keys up to the query,
// searched in blocks [%from, %to).
func.func @prefix(%row0: index, %from: index, %to: index) {
  %n = arith.constant 1024 : index
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %ulo, %uhi = attn.kv_range unmasked %row0, %n, %n from %from to %to {block_m = 64 : i64, block_n = 64 : i64, mask = #attn.mask<none>} mask_mod(%c0, %c0) {
  ^bb0(%b: index, %h: index, %qi: index, %ki: index):
    %c130 = arith.constant 130 : index
    %prefix = arith.cmpi ult, %ki, %c130 : index
    %causal = arith.cmpi ule, %ki, %qi : index
    %see = arith.ori %prefix, %causal : i1
    attn.yield %see : i1
  }
  vector.print %ulo : index
  vector.print %uhi : index
  return
}

// A window written as differences: -300 <= ki - qi <= 100.
func.func @window(%row0: index) {
  %n = arith.constant 1024 : index
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %lo, %hi = attn.kv_range visible %row0, %n, %n {block_m = 64 : i64, block_n = 64 : i64, mask = #attn.mask<none>} mask_mod(%c0, %c0) {
  ^bb0(%b: index, %h: index, %qi: index, %ki: index):
    %c100 = arith.constant 100 : index
    %c300 = arith.constant 300 : index
    %ahead = arith.subi %ki, %qi : index
    %behind = arith.subi %qi, %ki : index
    %near = arith.cmpi sle, %ahead, %c100 : index
    %recent = arith.cmpi sle, %behind, %c300 : index
    %see = arith.andi %near, %recent : i1
    attn.yield %see : i1
  }
  %ulo, %uhi = attn.kv_range unmasked %row0, %n, %n from %lo to %hi {block_m = 64 : i64, block_n = 64 : i64, mask = #attn.mask<none>} mask_mod(%c0, %c0) {
  ^bb0(%b: index, %h: index, %qi: index, %ki: index):
    %c100 = arith.constant 100 : index
    %c300 = arith.constant 300 : index
    %ahead = arith.subi %ki, %qi : index
    %behind = arith.subi %qi, %ki : index
    %near = arith.cmpi sle, %ahead, %c100 : index
    %recent = arith.cmpi sle, %behind, %c300 : index
    %see = arith.andi %near, %recent : i1
    attn.yield %see : i1
  }
  vector.print %lo : index
  vector.print %ulo : index
  vector.print %uhi : index
  return
}

// A bitwise and of the indices: not bounded, so no block is proved full.
func.func @opaque(%row0: index) {
  %n = arith.constant 1024 : index
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %ulo, %uhi = attn.kv_range unmasked %row0, %n, %n from %c0 to %c16 {block_m = 64 : i64, block_n = 64 : i64, mask = #attn.mask<none>} mask_mod(%c0, %c0) {
  ^bb0(%b: index, %h: index, %qi: index, %ki: index):
    %z = arith.constant 0 : index
    %both = arith.andi %qi, %ki : index
    %see = arith.cmpi ne, %both, %z : index
    attn.yield %see : i1
  }
  vector.print %ulo : index
  vector.print %uhi : index
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c9 = arith.constant 9 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c192 = arith.constant 192 : index
  %c512 = arith.constant 512 : index
  // Rows 64..127, documents of 256: blocks 0-3 are document 0.
  // CHECK: 0
  // CHECK-NEXT: 4
  call @doc256(%c64) : (index) -> ()
  // Rows 128..191, documents of 100 (rows in document 1, keys 100..199):
  // block 1 (64..127) and block 3 (192..255) are partial, block 2 full.
  // CHECK-NEXT: 2
  // CHECK-NEXT: 3
  call @doc100(%c128) : (index) -> ()
  // Rows 64..127 span documents 0 and 1: no block is full for all rows
  // (the empty range at the end of the visible blocks 0-3).
  // CHECK-NEXT: 4
  // CHECK-NEXT: 4
  call @doc100(%c64) : (index) -> ()
  // Rows 192..255 under a causal mask: keys up to 191 are below every
  // row's diagonal (blocks 0-2), all in document 0.
  // CHECK-NEXT: 0
  // CHECK-NEXT: 3
  call @causal_doc(%c192) : (index) -> ()
  // Rows 512..575: every key up to 511 is visible (blocks 0-7), block 8
  // holds the diagonal; the group search skips blocks 0-7 at once.
  // CHECK-NEXT: 0
  // CHECK-NEXT: 8
  call @prefix(%c512, %c0, %c16) : (index, index, index) -> ()
  // The same from block 3.
  // CHECK-NEXT: 3
  // CHECK-NEXT: 8
  call @prefix(%c512, %c3, %c16) : (index, index, index) -> ()
  // The same up to block 5.
  // CHECK-NEXT: 3
  // CHECK-NEXT: 5
  call @prefix(%c512, %c3, %c5) : (index, index, index) -> ()
  // From block 9 (past the diagonal, all hidden but the prefix): none
  // of the 8 blocks from there is full.
  // CHECK-NEXT: 16
  // CHECK-NEXT: 16
  call @prefix(%c512, %c9, %c16) : (index, index, index) -> ()
  // Rows 0..63: the prefix covers blocks 0 and 1 (keys 0..127).
  // CHECK-NEXT: 0
  // CHECK-NEXT: 2
  call @prefix(%c0, %c0, %c16) : (index, index, index) -> ()
  // Rows 512..575 see keys 212..675 (visible from block 3); every row sees
  // keys 275..612, so blocks 5-8 (320..575) are full.
  // CHECK-NEXT: 3
  // CHECK-NEXT: 5
  // CHECK-NEXT: 9
  call @window(%c512) : (index) -> ()
  // CHECK-NEXT: 16
  // CHECK-NEXT: 16
  call @opaque(%c0) : (index) -> ()
  return
}
