//===- Passes.td - attn conversions ------------------------*- tablegen -*-===//

#ifndef ATTN_CONVERSION_PASSES_TD
#define ATTN_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertAttnTileToLinalg : Pass<"convert-attn-tile-to-linalg"> {
  let summary = "Lower tile programs to scf loops and linalg ops on tensors (CPU)";
  let description = [{
    The CPU lowering of the tile level. `attn.program` becomes a nest of two
    `scf.for` loops over its grid; `attn.kv_range` becomes index arithmetic;
    `attn.load` becomes a `tensor.generate` that reads in-bounds elements and
    yields zero elsewhere; `attn.store` a loop nest that writes in-bounds
    elements; `attn.dot`, `attn.mask`, `attn.reduce_rows` and
    `attn.broadcast_rows` become `linalg.generic` ops. Run
    `attn-decompose-online-softmax` first. Bufferization and the standard
    lowerings to LLVM follow (see the `attn-lower-to-cpu` pipeline).

    ```mlir
    // Before
    %s = attn.dot %q, %k, %z transpose_b : tensor<64x16xf32>, tensor<32x16xf32> -> tensor<64x32xf32>
    // After
    %s = linalg.generic {indexing_maps = [(m, n, k) -> (m, k), (m, n, k) -> (n, k), (m, n, k) -> (m, n)],
                         iterator_types = ["parallel", "parallel", "reduction"]} ...
    ```
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::linalg::LinalgDialect",
    "::mlir::memref::MemRefDialect", "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

#endif // ATTN_CONVERSION_PASSES_TD
