//===- AttnGPUOps.td - ops of laid-out tile programs -------*- tablegen -*-===//
//
// The ops that only exist once tiles have GPU layouts: moving a tile from
// one layout to another, and shared memory (buffers, asynchronous copies
// into them, the waits that complete those copies). `attn-assign-layouts`,
// `attn-stage-shared` and `attn-pipeline` create them; the GPU lowering
// turns them into NVVM.
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_DIALECT_ATTN_IR_ATTNGPUOPS_TD
#define ATTN_DIALECT_ATTN_IR_ATTNGPUOPS_TD

include "attn/Dialect/Attn/IR/AttnTypes.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Attn_ConvertLayoutOp : Attn_Op<"convert_layout", [Pure,
    SameOperandsAndResultShape, SameOperandsAndResultElementType]> {
  let summary = "The same tile in another layout";
  let description = [{
    Returns its operand with the result's encoding. Between `#attn.mma` and
    `#attn.dot_operand<a, ...>` of the same parent (P from the accumulator
    of `Q K^T` to the A operand of `P V`) it moves no data; from a register
    layout to `#attn.swizzled` it stages the tile through shared memory
    (`attn-stage-shared` makes that a buffer and an `attn.local_store`);
    from `#attn.swizzled` or `#attn.unswizzled` (a loaded tile staged
    through shared memory) to `#attn.mma` it reads the buffer back
    (`attn-stage-shared` makes that an `attn.local_load`). Other
    conversions are refused by the GPU lowering.

    ```mlir
    %pa = attn.convert_layout %p : tensor<128x64xf16, #mma> -> tensor<128x64xf16, #attn.dot_operand<a, #mma>>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$source);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$source attr-dict `:` type($source) `->` type($result)";
  let hasVerifier = 1;
}

def Attn_LocalAllocOp : Attn_Op<"local_alloc", [
    MemoryEffects<[MemAlloc<DefaultResource>]>]> {
  let summary = "A buffer in shared memory";
  let description = [{
    Allocates a shared-memory buffer for the rest of the program instance.
    `offset` is its byte offset in the instance's dynamic shared memory,
    assigned by `attn-allocate-shared` (absent before).

    ```mlir
    %kbuf = attn.local_alloc {offset = 16384 : i64} : !attn.shared<2x64x128xf16, #attn.swizzled>
    ```
  }];
  let arguments = (ins OptionalAttr<ConfinedAttr<I64Attr, [IntNonNegative]>>:$offset);
  let results = (outs Attn_SharedBuffer:$result);
  let assemblyFormat = "attr-dict `:` qualified(type($result))";
}

def Attn_LocalViewOp : Attn_Op<"local_view", [Pure]> {
  let summary = "One stage of a multi-stage shared buffer";
  let description = [{
    The `index`-th slice of a buffer along its leading dimension (a
    pipeline stage), as a buffer of the remaining dimensions. `index` must
    be below the leading extent.

    ```mlir
    %k1 = attn.local_view %kbuf[%stage] : !attn.shared<2x64x128xf16, #attn.swizzled> -> !attn.shared<64x128xf16, #attn.swizzled>
    ```
  }];
  let arguments = (ins Attn_SharedBuffer:$source, Index:$index);
  let results = (outs Attn_SharedBuffer:$result);
  let assemblyFormat = [{
    $source `[` $index `]` attr-dict `:` qualified(type($source)) `->`
    qualified(type($result))
  }];
  let hasVerifier = 1;
}

def Attn_AsyncCopyOp : Attn_Op<"async_copy"> {
  let summary = "Start copying a tile from global memory into a shared buffer";
  let description = [{
    Starts copying the tile of `attn.load` semantics (the buffer's shape,
    spanning the source's last two dimensions from `indices`, zero outside
    the source's bounds) into `dest`. The copy joins the current copy group,
    which `attn.async_commit` closes; it has landed once an
    `attn.async_wait` leaves no younger group than its own pending, and
    other threads see it after the next barrier.

    ```mlir
    attn.async_copy %k[%b, %h, %row0, %c0] into %kbuf : memref<?x?x?x128xf16>, !attn.shared<64x128xf16, #attn.swizzled>
    ```
  }];
  let arguments = (ins AnyMemRef:$source, Variadic<Index>:$indices,
                       Attn_SharedBuffer:$dest);
  let assemblyFormat = [{
    $source `[` $indices `]` `into` $dest attr-dict `:` type($source) `,`
    qualified(type($dest))
  }];
  let hasVerifier = 1;
}

def Attn_PrefetchOp : Attn_Op<"prefetch"> {
  let summary = "Bring a register tile's elements into the L1 cache";
  let description = [{
    A hint: the tile `attn.load` of type `tile` would read from `source` at
    `indices` (the buffer's last two dimensions from them) is brought into
    L1, so that a later load of it waits for L1 instead of L2. Each thread
    prefetches lines of the rows it holds in `tile`'s register layout;
    addresses are clamped into the buffer, so a tile past its end reads
    nothing out of bounds. It has no result and changes no value.

    ```mlir
    attn.prefetch %bias[%b, %h, %row0, %col1] : memref<?x?x?x?xf16>, tensor<128x80xf16, #attn.mma<warps = 8, version = 3>>
    ```
  }];
  let arguments = (ins AnyMemRef:$source, Variadic<Index>:$indices,
                       TypeAttrOf<AnyRankedTensor>:$tile);
  let assemblyFormat = [{
    $source `[` $indices `]` attr-dict `:` type($source) `,` $tile
  }];
  let hasVerifier = 1;
}

def Attn_AsyncCommitOp : Attn_Op<"async_commit"> {
  let summary = "Close the current group of asynchronous copies";
  let description = [{
    The copies started since the previous commit form one group (possibly
    empty). `attn.async_wait` counts groups.

    ```mlir
    attn.async_commit
    ```
  }];
  let assemblyFormat = "attr-dict";
}

def Attn_AsyncWaitOp : Attn_Op<"async_wait"> {
  let summary = "Wait until at most `pending` copy groups are in flight";
  let description = [{
    Blocks the thread until every committed copy group but the `pending`
    youngest ones has landed in shared memory (for the copies this thread
    issued; a barrier after it makes all threads' copies visible).

    ```mlir
    attn.async_wait {pending = 1 : i64}
    ```
  }];
  let arguments = (ins ConfinedAttr<I64Attr, [IntNonNegative]>:$pending);
  let assemblyFormat = "attr-dict";
}

def Attn_DotWaitOp : Attn_Op<"dot_wait", [
    DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "Wait for asynchronous products";
  let description = [{
    Blocks the warpgroup until at most `pending` of its asynchronous
    products (`attn.dot ... async`, in issue order) are still running, and
    returns its operands, which must be the results of products that have
    then finished: with `pending = 0`, any; with `pending = n`, the
    products issued before the `n` youngest. Nothing reads an operand's
    registers before the wait.

    ```mlir
    %s1, %o1 = attn.dot_wait %s, %o {pending = 0 : i64}
        : tensor<64x128xf32, #mma3>, tensor<64x128xf32, #mma3>
    ```
  }];
  let arguments = (ins Variadic<Attn_F32Tile2D>:$values,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$pending);
  let results = (outs Variadic<Attn_F32Tile2D>:$results);
  let assemblyFormat = "$values attr-dict `:` type($values)";
  let hasVerifier = 1;
}

def Attn_LocalStoreOp : Attn_Op<"local_store"> {
  let summary = "Write a tile held in registers into a shared buffer";
  let description = [{
    Every thread writes the elements it holds. Other threads see them after
    the next barrier.

    ```mlir
    attn.local_store %v, %vbuf : tensor<64x128xf16, #mma>, !attn.shared<64x128xf16, #attn.swizzled>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$value, Attn_SharedBuffer:$dest);
  let assemblyFormat = [{
    $value `,` $dest attr-dict `:` type($value) `,` qualified(type($dest))
  }];
  let hasVerifier = 1;
}

def Attn_LocalLoadOp : Attn_Op<"local_load"> {
  let summary = "Read a shared buffer's tile into registers";
  let description = [{
    Every thread reads the elements it holds in the result's register
    layout (`#attn.mma`, 16-bit elements) from `source` (2-D, the result's
    shape and element type). The buffer's writes must be visible to the
    thread: after an `attn.async_wait` and a barrier for `attn.async_copy`,
    after the stage's full `attn.mbarrier_wait` for `attn.tma_copy`.
    `attn-stage-shared` makes it from an `attn.convert_layout` of a staged
    tile (`attn-stage-loads`) into a register layout.

    ```mlir
    %bias = attn.local_load %bbuf : !attn.shared<128x80xf16, #attn.unswizzled> -> tensor<128x80xf16, #attn.mma<warps = 8, version = 3>>
    ```
  }];
  let arguments = (ins Attn_SharedBuffer:$source);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $source attr-dict `:` qualified(type($source)) `->` type($result)
  }];
  let hasVerifier = 1;
}

#endif // ATTN_DIALECT_ATTN_IR_ATTNGPUOPS_TD
