// attn.kv_range hidden with a mask_mod region, lowered for the CPU and
// run: the first run of blocks in [from, to) in which the region hides
// every key from every row of the query block (the blocks between
// attention sinks and a sliding window), starting at the first such block
// among the 8 from `from`; the empty range [from, from) where none of the
// 8 is hidden. Block sizes 64 x 64, 1024 queries and keys, a top-left
// causal mask attribute (which bounds the search by the diagonal). The
// expected ranges were worked out by hand (written next to each call).

// RUN: attn-opt %s --attn-lower-to-cpu | %mlir_run_cpu | FileCheck %s

// Sinks (keys below %sinks) and a window of 200 keys back from the query.
// The sink count reaches the region as its batch argument (the region is
// isolated from above; its batch and head are the only runtime values it
// sees).
func.func @sinks_window(%row0: index, %sinks: index, %from: index, %to: index) {
  %n = arith.constant 1024 : index
  %c0 = arith.constant 0 : index
  %glo, %ghi = attn.kv_range hidden %row0, %n, %n from %from to %to {block_m = 64 : i64, block_n = 64 : i64, mask = #attn.mask<causal, top_left>} mask_mod(%sinks, %c0) {
  ^bb0(%b: index, %h: index, %qi: index, %ki: index):
    %c200 = arith.constant 200 : index
    %sink = arith.cmpi ult, %ki, %b : index
    %back = arith.subi %qi, %ki : index
    %near = arith.cmpi sle, %back, %c200 : index
    %see = arith.ori %sink, %near : i1
    attn.yield %see : i1
  }
  vector.print %glo : index
  vector.print %ghi : index
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c16 = arith.constant 16 : index
  %c100 = arith.constant 100 : index
  %c128 = arith.constant 128 : index
  %c600 = arith.constant 600 : index
  %c768 = arith.constant 768 : index
  %c960 = arith.constant 960 : index
  // Rows 768..831, 100 sinks: block 0 holds sinks only, block 1 sinks up
  // to key 99; the window starts at key 568 (block 8). Blocks 2-7 (keys
  // 128..511) are at least 257 keys back from every row.
  // CHECK: 2
  // CHECK-NEXT: 8
  call @sinks_window(%c768, %c100, %c0, %c16) : (index, index, index, index) -> ()
  // The same from block 3.
  // CHECK-NEXT: 3
  // CHECK-NEXT: 8
  call @sinks_window(%c768, %c100, %c3, %c16) : (index, index, index, index) -> ()
  // The same up to block 5: the run ends there.
  // CHECK-NEXT: 2
  // CHECK-NEXT: 5
  call @sinks_window(%c768, %c100, %c0, %c5) : (index, index, index, index) -> ()
  // Rows 128..191: the window reaches key 0, nothing is hidden.
  // CHECK-NEXT: 0
  // CHECK-NEXT: 0
  call @sinks_window(%c128, %c100, %c0, %c16) : (index, index, index, index) -> ()
  // Rows 960..1023, 600 sinks (blocks 0-9), window from key 760 (block
  // 11): block 10 alone is hidden, but it is not among the 8 blocks from
  // block 0 ...
  // CHECK-NEXT: 0
  // CHECK-NEXT: 0
  call @sinks_window(%c960, %c600, %c0, %c16) : (index, index, index, index) -> ()
  // ... and is found from block 4.
  // CHECK-NEXT: 10
  // CHECK-NEXT: 11
  call @sinks_window(%c960, %c600, %c4, %c16) : (index, index, index, index) -> ()
  return
}
