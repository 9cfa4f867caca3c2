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

def ConvertAttnTileToNVVM : Pass<"convert-attn-tile-to-nvvm", "ModuleOp"> {
  let summary = "Lower laid-out tile programs to sm_80 and sm_90a tensor-core kernels (gpu + NVVM)";
  let description = [{
    Takes tile programs whose tiles have GPU layouts and whose shared memory
    is explicit (`attn-assign-layouts`, `attn-stage-shared`, `attn-pipeline`,
    `attn-allocate-shared`) and turns each function holding an
    `attn.program` into a kernel `gpu.func` of the same name in
    `gpu.module @attn_kernels`, erasing the function: a kernel is launched
    by the attn runtime from the `attn.launch` metadata on it. Its
    arguments are the program's buffers, each as a global pointer, its
    sizes and its strides (i64, elements); one CTA runs one program
    instance.

    The lowering is a dialect conversion with a 1:N type converter: a tile
    in a register layout becomes the scalars one thread holds (in the
    layout's order), a shared buffer its byte offset in dynamic shared
    memory, a memref its kernel arguments. One pattern per op, grouped by
    family: elementwise `arith`/`math` on tiles (one scalar op per
    register; `fastmath<afn>` math takes the hardware approximations),
    loads and stores (bounds-checked), `cp.async` copies and their groups,
    `attn.dot` as `ldmatrix` + `mma.sync.m16n8k16`, masks, index tiles,
    row reductions with quad shuffles, the online softmax (with the
    `lazy_rescale` knob of `#attn.gpu_config`) and its finalisation; `scf`
    structurally.

    On sm_90a, for programs whose `#attn.gpu_config` asks for `wgmma`:
    `attn.dot` becomes `wgmma.mma_async` per k-step and warpgroup (shared
    operands through descriptors of their 128-byte-swizzled buffers, P from
    registers), `attn.dot_wait` a wgmma wait group; an
    `attn.warp_specialize` a producer warpgroup that copies tiles with TMA
    (`cp.async.bulk.tensor`, one box per column block of the buffer's
    swizzle) into mbarrier-guarded rings and consumer warpgroups with their
    `setmaxnreg` budgets; TMA stores of the output. The kernel then takes
    one by-value TMA descriptor per (buffer, box) after the buffers
    (format 3 of the launch metadata, docs/gpu-kernels.md).

    Refused with a diagnostic at the op: tiles without a layout, ops on
    tiles outside attn/arith/math/scf, non-splat tile constants, layout
    changes other than accumulator -> A operand, copies of partial rows,
    products whose N or K is not a multiple of 16, host functions holding
    more than the attention (the kernel replaces the whole function).

    ```mlir
    // After (abridged)
    gpu.module @attn_kernels {
      llvm.mlir.global external @attn_smem() {addr_space = 3 : i32, alignment = 128 : i64} : !llvm.array<0 x i8>
      gpu.func @attn(%q: !llvm.ptr<1>, %q_b: i64, ..., %o: !llvm.ptr<1>, ...) kernel attributes {attn.launch = {...}, known_block_size = array<i32: 128, 1, 1>} {
        nvvm.cp.async.shared.global %dst, %src, 16, cache = cg, %n : !llvm.ptr<3>, !llvm.ptr<1>, i32
        %a = nvvm.ldmatrix %p {...} : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>
        %d = nvvm.mma.sync A[...] B[...] C[...] {...} : (...) -> !llvm.struct<(f32, f32, f32, f32)>
      }
    }
    ```
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90a\"",
           "Target GPU: sm_80, sm_90 or sm_90a (wgmma, TMA and setmaxnreg "
           "need sm_90a; a program asking for them elsewhere is refused)">,
    Option<"ldmatrixLocalLoads", "ldmatrix-local-loads", "bool",
           /*default=*/"false",
           "Read attn.local_load's accumulator-layout tiles four pairs per "
           "ldmatrix.x4 (an even number of n-tiles) instead of one per "
           "4-byte load">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::gpu::GPUDialect",
    "::mlir::LLVM::LLVMDialect", "::mlir::math::MathDialect",
    "::mlir::NVVM::NVVMDialect", "::mlir::scf::SCFDialect",
    "::mlir::cf::ControlFlowDialect"
  ];
}

def AttnTensorMapParams : Pass<"attn-tensor-map-params", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Make the TMA descriptor arguments of kernels by-value grid constants";
  let description = [{
    A kernel outlined with `attn.tensor_maps = N` takes its N TMA
    descriptors as its last arguments (format 3, docs/gpu-kernels.md). Each
    becomes a 128-byte, 64-byte-aligned by-value parameter (`llvm.byval`
    `!llvm.array<16 x i64>`, `llvm.align = 64`) read in place
    (`nvvm.grid_constant`): `cp.async.bulk.tensor` takes the parameter's
    address, and without the attribute the NVPTX backend would copy it to
    local memory, where TMA cannot read a descriptor. Runs on the
    `llvm.func` kernels after gpu-to-nvvm: neither the 1:N signature
    conversion nor gpu-to-nvvm carries argument attributes, and the NVVM
    verifier takes `nvvm.grid_constant` on `nvvm.kernel` functions only.
  }];
  let dependentDialects = ["::mlir::NVVM::NVVMDialect"];
}

def AttnLoopAnnotations : Pass<"attn-loop-annotations"> {
  let summary = "Give LLVM the loop hints that scf.for carried (`llvm.loop_annotation`)";
  let description = [{
    `convert-scf-to-cf` copies an `scf.for`'s `llvm.loop_annotation`
    attribute to the loop's back-edge branch, and `convert-cf-to-llvm`
    copies it again to the `llvm.br`, but as a discardable attribute of
    that name, which the translation to LLVM IR ignores: it emits
    `!llvm.loop` metadata only from the branch's own `loop_annotation`.
    This pass moves the one into the other on every `llvm.br` and
    `llvm.cond_br`, so that a hint set at the tile level (the persistent
    tile loop's `licm.disable`, attn-warp-specialize) reaches LLVM.

    ```mlir
    // Before
    llvm.br ^bb1(%n : i32) {llvm.loop_annotation = #llvm.loop_annotation<licm = <disable = true>>}
    // After
    llvm.br ^bb1(%n : i32) {loop_annotation = #llvm.loop_annotation<licm = <disable = true>>}
    ```
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

#endif // ATTN_CONVERSION_PASSES_TD
