// A guarded attn.dot (`if %p`) on the CPU: acc + a b when the guard holds,
// acc itself when it does not. The guard is computed in a loop so that it
// is not folded away before the lowering.
// RUN: attn-opt %s --convert-attn-tile-to-linalg | attn-opt --attn-lower-to-cpu \
// RUN:   | %mlir_run_cpu | FileCheck %s

// [[1, 2], [3, 4]] [[1, 0], [1, 1]] = [[3, 2], [7, 4]], plus the accumulator.
// CHECK: data =
// CHECK-NEXT: {{\[}}[13,   22],
// CHECK-NEXT: [37,   44]]
// CHECK: data =
// CHECK-NEXT: {{\[}}[10,   20],
// CHECK-NEXT: [30,   40]]
func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %a = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %b = arith.constant dense<[[1.0, 0.0], [1.0, 1.0]]> : tensor<2x2xf32>
  %acc = arith.constant dense<[[10.0, 20.0], [30.0, 40.0]]> : tensor<2x2xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %out = memref.alloc() : memref<2x2xf32>
  %u = memref.cast %out : memref<2x2xf32> to memref<*xf32>
  scf.for %i = %c0 to %c2 step %c1 {
    %p = arith.cmpi eq, %i, %c0 : index
    %d = attn.dot %a, %b, %acc if %p : tensor<2x2xf32>, tensor<2x2xf32> -> tensor<2x2xf32>
    bufferization.materialize_in_destination %d in writable %out
        : (tensor<2x2xf32>, memref<2x2xf32>) -> ()
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  }
  return
}
