// attn.attention on tensors, as an ML compiler emits it: the pipeline's first
// One-Shot Bufferize turns it into the memref form (writing in place into the
// destinations), then everything proceeds as for memrefs. f32, D = 16,
// causal bottom-right with GQA and fully masked rows.

// RUN: cat %s %S/Inputs/check-attention.mlir \
// RUN:   | sed -e 's/@DT@/f32/g; s/@DV@/16/g; s/@D@/16/g; s/@CVT@/arith.bitcast/g' \
// RUN:   | attn-opt --attn-lower-to-cpu | %mlir_run_cpu | FileCheck %s

func.func @attention(%q: memref<?x?x?x@D@x@DT@>, %k: memref<?x?x?x@D@x@DT@>,
                     %v: memref<?x?x?x@DV@x@DT@>, %o: memref<?x?x?x@DV@x@DT@>,
                     %lse: memref<?x?x?xf32>) {
  %qt = bufferization.to_tensor %q restrict : memref<?x?x?x@D@x@DT@> to tensor<?x?x?x@D@x@DT@>
  %kt = bufferization.to_tensor %k restrict : memref<?x?x?x@D@x@DT@> to tensor<?x?x?x@D@x@DT@>
  %vt = bufferization.to_tensor %v restrict : memref<?x?x?x@DV@x@DT@> to tensor<?x?x?x@DV@x@DT@>
  %ot = bufferization.to_tensor %o restrict writable : memref<?x?x?x@DV@x@DT@> to tensor<?x?x?x@DV@x@DT@>
  %lt = bufferization.to_tensor %lse restrict writable : memref<?x?x?xf32> to tensor<?x?x?xf32>
  %r:2 = attn.attention
      ins(%qt, %kt, %vt : tensor<?x?x?x@D@x@DT@>, tensor<?x?x?x@D@x@DT@>, tensor<?x?x?x@DV@x@DT@>)
      outs(%ot, %lt : tensor<?x?x?x@DV@x@DT@>, tensor<?x?x?xf32>)
      {mask = #attn.mask<causal, bottom_right>}
      -> tensor<?x?x?x@DV@x@DT@>, tensor<?x?x?xf32>
  bufferization.materialize_in_destination %r#0 in restrict writable %o
      : (tensor<?x?x?x@DV@x@DT@>, memref<?x?x?x@DV@x@DT@>) -> ()
  bufferization.materialize_in_destination %r#1 in restrict writable %lse
      : (tensor<?x?x?xf32>, memref<?x?x?xf32>) -> ()
  return
}

func.func @main() {
  %cm1 = arith.constant -1 : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c77 = arith.constant 77 : index
  %c130 = arith.constant 130 : index
  %seed = arith.constant 5 : i32
  %amp = arith.constant 1.0 : f32
  %scale = arith.constant 0.25 : f64
  %true = arith.constant true
  %tol = arith.constant 1.0e-5 : f64
  // Nq = 130 > Nk = 77, GQA 4:1.
  // CHECK: out_rel_err
  // CHECK-NEXT: lse_err
  // CHECK-NEXT: PASS
  call @check(%c2, %c8, %c2, %c130, %c77, %seed, %amp, %scale, %cm1, %c0, %true, %tol, %tol)
      : (index, index, index, index, index, i32, f32, f64, index, index, i1, f64, f64) -> ()
  // CHECK-NOT: FAIL
  return
}
