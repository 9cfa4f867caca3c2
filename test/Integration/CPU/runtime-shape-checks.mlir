// With dynamic shapes the verifier cannot compare sizes; attn-tile then
// checks them when the program runs, and a mismatch stops it with a message
// rather than reading or writing out of bounds. (stdbuf: the message is
// printed with puts right before abort, which would drop a buffered line.)

// RUN: sed -e 's/@main_heads()/@main()/' %s | attn-opt --attn-lower-to-cpu \
// RUN:   | not --crash stdbuf -o0 %mlir_run_cpu 2>/dev/null | FileCheck %s --check-prefix=HEADS
// RUN: sed -e 's/@main_batch()/@main()/' %s | attn-opt --attn-lower-to-cpu \
// RUN:   | not --crash stdbuf -o0 %mlir_run_cpu 2>/dev/null | FileCheck %s --check-prefix=BATCH
// RUN: sed -e 's/@main_ok()/@main()/' %s | attn-opt --attn-lower-to-cpu \
// RUN:   | %mlir_run_cpu | FileCheck %s --check-prefix=OK

// HEADS: attn.attention: the query head count must be a multiple of the key/value head count
// HEADS-NOT: finished
// BATCH: attn.attention: batch size of 'key' differs from 'query'
// BATCH-NOT: finished
// OK: finished

func.func @attention(%q: memref<?x?x?x16xf32>, %k: memref<?x?x?x16xf32>,
                     %v: memref<?x?x?x16xf32>, %o: memref<?x?x?x16xf32>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x16xf32>, memref<?x?x?x16xf32>, memref<?x?x?x16xf32>)
                 outs(%o : memref<?x?x?x16xf32>)
  return
}

func.func @run(%b: index, %bk: index, %hq: index, %hkv: index) {
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  %q = memref.alloc(%b, %hq, %c8) : memref<?x?x?x16xf32>
  %k = memref.alloc(%bk, %hkv, %c8) : memref<?x?x?x16xf32>
  %v = memref.alloc(%bk, %hkv, %c8) : memref<?x?x?x16xf32>
  %o = memref.alloc(%b, %hq, %c8) : memref<?x?x?x16xf32>
  linalg.fill ins(%zero : f32) outs(%q : memref<?x?x?x16xf32>)
  linalg.fill ins(%zero : f32) outs(%k : memref<?x?x?x16xf32>)
  linalg.fill ins(%zero : f32) outs(%v : memref<?x?x?x16xf32>)
  call @attention(%q, %k, %v, %o) : (memref<?x?x?x16xf32>, memref<?x?x?x16xf32>, memref<?x?x?x16xf32>, memref<?x?x?x16xf32>) -> ()
  vector.print str "finished\n"
  return
}

// Hq = 3 is not a multiple of Hkv = 2.
func.func @main_heads() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  call @run(%c1, %c1, %c3, %c2) : (index, index, index, index) -> ()
  return
}

// Q has batch 2, K and V batch 1.
func.func @main_batch() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  call @run(%c2, %c1, %c2, %c2) : (index, index, index, index) -> ()
  return
}

// Consistent shapes run through.
func.func @main_ok() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  call @run(%c2, %c2, %c4, %c2) : (index, index, index, index) -> ()
  return
}
