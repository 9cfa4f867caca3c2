//===- AttnTileOps.td - the tile-level (Triton-like) ops ---*- tablegen -*-===//
//
// Tiles are statically shaped ranked tensors. Global buffers are memrefs.
// Element-wise math on tiles is `arith`/`math` on those tensors; the ops here
// are what those dialects do not express: program instances, boundary-aware
// block loads and stores, tile matmul, masks, row reductions and broadcasts,
// the online-softmax update and the range of K/V blocks a query block visits.
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_DIALECT_ATTN_IR_ATTNTILEOPS_TD
#define ATTN_DIALECT_ATTN_IR_ATTNTILEOPS_TD

include "attn/Dialect/Attn/IR/AttnAttrs.td"
include "attn/Dialect/Attn/IR/AttnTypes.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Attn_Tile : RankedTensorOf<[AnyFloat], [HasStaticShapePred], "tile">;
// Scores, probabilities, accumulators and per-row state: static f32 tiles of a
// fixed rank. The static shape is part of the constraint so that no verifier
// (or lowering) ever compares or allocates a dynamic size.
def Attn_F32Tile2D : RankedTensorOf<[F32],
    [HasStaticShapePred, HasAnyRankOfPred<[2]>]> {
  let summary = "static 2-D f32 tile";
}
def Attn_F32Tile1D : RankedTensorOf<[F32],
    [HasStaticShapePred, HasAnyRankOfPred<[1]>]> {
  let summary = "static 1-D f32 tile";
}
// The inputs of attn.dot: products and sums are f32, so the inputs are the
// float types that f32 holds exactly.
def Attn_DotInputTile : RankedTensorOf<[F16, BF16, F32],
    [HasStaticShapePred, HasAnyRankOfPred<[2]>]> {
  let summary = "static 2-D f16, bf16 or f32 tile";
}

//===----------------------------------------------------------------------===//
// Program structure
//===----------------------------------------------------------------------===//

def Attn_ProgramOp : Attn_Op<"program", [
    SingleBlock, NoTerminator, RecursiveMemoryEffects]> {
  let summary = "A grid of program instances (one per query block x batch*head)";
  let description = [{
    Runs its body once for every pair `(m, bh)` with `0 <= m < grid_m` and
    `0 <= bh < grid_bh`, in no particular order and possibly concurrently.
    The two block arguments are the program ids: `m` is the query block,
    `bh` is `batch * num_heads + head`. Instances must not depend on each
    other; each writes a disjoint part of the outputs.

    `buffers` lists every memref the body reads or writes, each with its
    role: `q`, `k`, `v`, `o`, `lse`, `bias`, `alibi_slopes` (each at most
    once; the GPU lowering needs `q`, `k`, `v` and `o`), or `input` /
    `output` for any further buffers, in order. The roles say
    what a kernel built from the program takes as which argument (the
    runtime launches it by role); they are not guessed from how a buffer is
    used, and one memref may be listed under two roles (K and V in one
    buffer). A program that touches no memref may leave `buffers` out. The body refers to the buffers
    themselves (the region is not isolated from above); other values from
    above must be side-effect free (sizes, constants, index arithmetic),
    which a GPU lowering recomputes inside the kernel.

    `config` records the tile configuration the body was built for and
    `gpu_config` how a GPU lowering should spend registers on it.

    `persistent` (GPU only; attn-warp-specialize writes it for the
    `persistent` knob of `gpu_config`) says that the body does not run per
    program id but once per *worker*: it loops over the
    `grid_m * grid_bh` tiles itself, worker `gpu.block_id x` of
    `gpu.grid_dim x` taking every `gpu.grid_dim x`-th tile (or, under a
    mask, the mirrored position in every other round), tile `t` being
    `(t mod grid_m, t / grid_m)`. Every tile is taken by one worker
    whatever their number. The program ids are then unused. A kernel built from it may be launched
    on any number of workers (the runtime launches as many as fit on the
    GPU at once).

    ```mlir
    attn.program (%m, %bh) in (%num_m_blocks, %num_bh)
        buffers(q = %q : memref<?x?x?x64xf16>, k = %k : memref<?x?x?x64xf16>,
                v = %v : memref<?x?x?x64xf16>, o = %o : memref<?x?x?x64xf16>) {
      ...
    }
    ```
  }];
  let arguments = (ins Index:$grid_m, Index:$grid_bh,
                       Variadic<AnyMemRef>:$buffers,
                       Attn_BufferRoleArrayAttr:$roles,
                       OptionalAttr<Attn_TileConfigAttr>:$config,
                       OptionalAttr<Attn_GpuConfigAttr>:$gpu_config,
                       UnitAttr:$persistent);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [
    OpBuilder<(ins "Value":$gridM, "Value":$gridBH,
                   "ArrayRef<std::pair<BufferRole, Value>>":$buffers,
                   "TileConfigAttr":$config, "GpuConfigAttr":$gpuConfig)>
  ];
  let extraClassDeclaration = [{
    /// The query-block program id.
    BlockArgument getBlockIdM() { return getBody().getArgument(0); }
    /// The batch*head program id.
    BlockArgument getBlockIdBH() { return getBody().getArgument(1); }
    /// The role of buffer `i`.
    BufferRole getRole(unsigned i) {
      return ::llvm::cast<BufferRoleAttr>(getRoles()[i]).getValue();
    }
    /// The buffer with `role`, or null.
    Value getBuffer(BufferRole role);
    /// The GPU configuration, or one with every knob off.
    GpuConfigAttr getGpuConfigOrDefault();
  }];
}

def Attn_KVRangeOp : Attn_Op<"kv_range", [Pure, IsolatedFromAbove,
                                           AttrSizedOperandSegments]> {
  let summary = "Range of K/V blocks that a query block visits";
  let description = [{
    For the query rows `[row_start, min(row_start + block_m, num_queries))`
    and keys cut into blocks of `block_n`, returns the half-open range
    `[lower, upper)` of key-block indices that are

    * `visible`: hold at least one key in bounds and unmasked for at least one
      of those rows (blocks outside it are skipped entirely), or
    * `unmasked`: hold only keys in bounds and unmasked for every one of those
      rows, so that they need no element mask. The range may be empty
      (`lower >= upper`) and is not clamped to the visible range.

    Loop bounds are computed once per program, not tested per block.

    ```mlir
    %lo, %hi = attn.kv_range visible %row0, %nq, %nk
        {block_m = 64 : i64, block_n = 64 : i64, mask = #attn.mask<causal, top_left>}
    ```

    A range may also carry an `attn.attention` op's `mask_mod` region with
    the batch and head it is evaluated for. Which blocks the region shows is
    worked out by evaluating it on intervals, a block at a time (see
    `MaskModRange.h`); the evaluation is conservative, never wrong, and as
    tight as the region's arithmetic lets interval reasoning be. The region
    uses only its arguments (the op is isolated from above, so that folding
    keeps its constants inside).

    * A `visible` range then shrinks to the blocks from the first to the
      last one that the region may make visible for one of the rows (an
      empty range where it hides every key). The element-wise mask_mod in
      the loop body still decides each key.
    * An `unmasked` range then holds only blocks in which the region shows
      every key to every row as well: the run of such blocks that starts at
      the first one among the 8 blocks from `from` and goes on while the
      blocks stay so, up to `to` (block indices: the visible range, where
      the search pays; the mask attribute's unmasked range by default).
      These are FlexAttention's "full" blocks; their loop needs neither the
      mask nor the region. Blocks the evaluation cannot prove full are left
      out.
    * A `hidden` range (only with a region, `from` and `to`) is the first
      run of blocks in `[from, to)` in which the region hides every key from
      every row, such as the blocks between attention sinks and a sliding
      window: it starts at the first such block among the 8 blocks from
      `from` and ends before the first block after it that the region may
      show a key in. Where none of the 8 is hidden it is the empty range
      `[from, from)`. `attn-split-kv-loop` skips these blocks; the mask
      attribute's visible range bounds the search.

    ```mlir
    %lo, %hi = attn.kv_range visible %row0, %nq, %nk
        {block_m = 128 : i64, block_n = 128 : i64, mask = #attn.mask<none>}
        mask_mod(%b, %h) {
    ^bb0(%bi: index, %hi: index, %qi: index, %ki: index):
      %c256 = arith.constant 256 : index
      %dq = arith.divui %qi, %c256 : index
      %dk = arith.divui %ki, %c256 : index
      %same = arith.cmpi eq, %dq, %dk : index
      attn.yield %same : i1
    }
    %a, %c = attn.kv_range unmasked %row0, %nq, %nk from %lo to %hi
        {block_m = 128 : i64, block_n = 128 : i64, mask = #attn.mask<none>}
        mask_mod(%b, %h) { ... }
    ```
  }];
  let arguments = (ins Attn_KVRangeKind:$kind, Index:$row_start,
                       Index:$num_queries, Index:$num_keys,
                       Optional<Index>:$from, Optional<Index>:$to,
                       Variadic<Index>:$batch_head,
                       Attn_MaskAttr:$mask,
                       ConfinedAttr<I64Attr, [IntPositive]>:$block_m,
                       ConfinedAttr<I64Attr, [IntPositive]>:$block_n);
  let results = (outs Index:$lower, Index:$upper);
  let regions = (region AnyRegion:$mask_mod);
  let assemblyFormat = [{
    $kind $row_start `,` $num_queries `,` $num_keys
    (`from` $from^ `to` $to)? attr-dict
    (`mask_mod` `(` $batch_head^ `)` $mask_mod)?
  }];
  let builders = [
    // A range without a mask_mod region.
    OpBuilder<(ins "KVRangeKind":$kind, "Value":$rowStart,
                   "Value":$numQueries, "Value":$numKeys, "MaskAttr":$mask,
                   "int64_t":$blockM, "int64_t":$blockN)>,
    // A range with an empty mask_mod region for `batch` and `head`, to be
    // filled by the caller (`from` and `to` both null, or both set).
    OpBuilder<(ins "KVRangeKind":$kind, "Value":$rowStart,
                   "Value":$numQueries, "Value":$numKeys, "Value":$from,
                   "Value":$to, "Value":$batch, "Value":$head, "MaskAttr":$mask,
                   "int64_t":$blockM, "int64_t":$blockN)>
  ];
  let hasRegionVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

def Attn_LoadOp : Attn_Op<"load", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "Load a tile from a global buffer, zero outside its bounds";
  let description = [{
    Reads a tile whose rank `r` is at most the buffer's. The indices give the
    position of the tile's first element; the tile spans the buffer's last
    `r` dimensions from there (the leading indices pick the batch and head).
    Elements that fall outside the buffer read as zero, so a block that
    overhangs the end of a sequence is safe to load.

    ```mlir
    %q = attn.load %Q[%b, %h, %row0, %c0]
        : memref<?x?x?x64xf16> -> tensor<64x64xf16>
    ```
  }];
  let arguments = (ins AnyMemRef:$source, Variadic<Index>:$indices);
  let results = (outs Attn_Tile:$result);
  let assemblyFormat = [{
    $source `[` $indices `]` attr-dict `:` type($source) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Attn_StoreOp : Attn_Op<"store", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "Store a tile into a global buffer, dropping what overhangs it";
  let description = [{
    The converse of `attn.load`: the tile spans the buffer's last `r`
    dimensions from the given indices; elements outside the buffer are not
    written.

    ```mlir
    attn.store %o, %O[%b, %h, %row0, %c0]
        : tensor<64x64xf16>, memref<?x?x?x64xf16>
    ```
  }];
  let arguments = (ins Attn_Tile:$value, AnyMemRef:$dest,
                       Variadic<Index>:$indices);
  let assemblyFormat = [{
    $value `,` $dest `[` $indices `]` attr-dict `:` type($value) `,` type($dest)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Compute
//===----------------------------------------------------------------------===//

def Attn_DotOp : Attn_Op<"dot", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    AllTypesMatch<["acc", "result"]>]> {
  let summary = "Tile matrix product with f32 accumulation";
  let description = [{
    `result = acc + a * b` (or `a * b^T` with `transpose_b`), with `a` of
    shape `[M, K]`, `b` of shape `[K, N]` (`[N, K]` transposed), products
    and sums in f32. `a` and `b` share an element type: f16, bf16 or f32.
    On laid-out GPU programs an operand may also be an `!attn.shared`
    buffer holding the tile (the op then reads shared memory): the tensor
    cores take their operands from there.

    With `async` (a `#attn.mma<version = 3>` result only: wgmma) the product
    is issued and not waited for: the result may only pass to
    `attn.dot_wait` (or be yielded), whose results are the finished tile;
    what the product reads must not change until then.

    With `if %pred` (an `i1`) the product is computed only when `%pred` is
    true; otherwise the result is `acc` (the operands may still be read,
    so they must be valid either way). On wgmma one
    branch goes over the product's instructions (a guarded product keeps its
    accumulator registers, so ptxas sees no other writer and keeps every
    product asynchronous), on mma.sync and the CPU the result is selected.
    (Where attn-overlap-softmax could guard the scores of the block after
    the last one, the branch costs more than computing them: it does not,
    docs/perf-log.md.)

    ```mlir
    %s = attn.dot %q, %k, %zero transpose_b
        : tensor<64x64xf16>, tensor<32x64xf16> -> tensor<64x32xf32>
    %s2 = attn.dot %qbuf, %kbuf, %zero2 transpose_b
        : !attn.shared<64x64xf16, #attn.swizzled>, !attn.shared<32x64xf16, #attn.swizzled>
          -> tensor<64x32xf32, #attn.mma<warps = 4>>
    %s3 = attn.dot %qbuf, %kbuf, %zero3 transpose_b async
        : !attn.shared<64x64xf16, #attn.swizzled<blocked>>, !attn.shared<64x64xf16, #attn.swizzled<blocked>>
          -> tensor<64x64xf32, #attn.mma<warps = 4, version = 3>>
    %s4 = attn.dot %q, %k, %zero if %more transpose_b
        : tensor<64x64xf16>, tensor<32x64xf16> -> tensor<64x32xf32>
    ```
  }];
  let arguments = (ins AnyTypeOf<[Attn_DotInputTile, Attn_SharedBuffer]>:$a,
                       AnyTypeOf<[Attn_DotInputTile, Attn_SharedBuffer]>:$b,
                       Attn_F32Tile2D:$acc, Optional<I1>:$pred,
                       UnitAttr:$transpose_b, UnitAttr:$async);
  let results = (outs Attn_F32Tile2D:$result);
  let assemblyFormat = [{
    $a `,` $b `,` $acc (`if` $pred^)? (`transpose_b` $transpose_b^)?
    (`async` $async^)?
    attr-dict `:` type($a) `,` type($b) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Attn_IotaOp : Attn_Op<"iota", [Pure]> {
  let summary = "A tile of row or column indices";
  let description = [{
    Element `(r, c)` (or `r` of a 1-D tile) is `start + r` when `dim` is 0
    and `start + c` when it is 1: the query or key index of each score, for
    score modifications and masks written as elementwise math.

    ```mlir
    %q_idx = attn.iota 0, %row0 : tensor<64x32xindex>
    %kv_idx = attn.iota 1, %col0 : tensor<64x32xindex>
    ```
  }];
  let arguments = (ins ConfinedAttr<I64Attr, [IntNonNegative]>:$dim,
                       Index:$start);
  let results = (outs RankedTensorOf<[Index, I32, I64],
                                     [HasStaticShapePred]>:$result);
  let assemblyFormat = "$dim `,` $start attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Attn_MaskOp : Attn_Op<"mask", [Pure, IsolatedFromAbove,
                                   AllTypesMatch<["scores", "result"]>]> {
  let summary = "Set masked and out-of-bounds scores to -inf";
  let description = [{
    Element `(r, c)` of the score tile belongs to query `row_start + r` and
    key `col_start + c`. It becomes `-inf` when the key is out of bounds
    (`>= num_keys`) or when `mask` hides it from that query; other elements
    pass through.

    ```mlir
    %sm = attn.mask %s rows %row0 of %nq cols %col0 of %nk
        {mask = #attn.mask<causal, bottom_right>} : tensor<64x64xf32>
    ```

    It may also carry an `attn.attention` op's `mask_mod` region with the
    batch and head it is evaluated for: the keys the region hides become
    `-inf` too. `attn-split-kv-loop` drops such a mask in the blocks that an
    `unmasked` `attn.kv_range` with the same region proves full, and
    `attn-expand-mask-mods` spells the region out element-wise (attn.iota
    tiles, the region's ops on tiles, a select) in the blocks left.

    ```mlir
    %sm = attn.mask %s rows %row0 of %nq cols %col0 of %nk
        {mask = #attn.mask<none>} : tensor<128x128xf32> mask_mod(%b, %h) {
    ^bb0(%bi: index, %hi: index, %qi: index, %ki: index):
      ...
      attn.yield %visible : i1
    }
    ```
  }];
  let arguments = (ins Attn_F32Tile2D:$scores, Index:$row_start,
                       Index:$num_queries, Index:$col_start, Index:$num_keys,
                       Variadic<Index>:$batch_head,
                       Attn_MaskAttr:$mask);
  let results = (outs Attn_F32Tile2D:$result);
  let regions = (region AnyRegion:$mask_mod);
  let assemblyFormat = [{
    $scores `rows` $row_start `of` $num_queries `cols` $col_start `of`
    $num_keys attr-dict `:` type($scores)
    (`mask_mod` `(` $batch_head^ `)` $mask_mod)?
  }];
  let builders = [
    // A mask without a mask_mod region.
    OpBuilder<(ins "Type":$type, "Value":$scores, "Value":$rowStart,
                   "Value":$numQueries, "Value":$colStart, "Value":$numKeys,
                   "MaskAttr":$mask)>
  ];
  let hasRegionVerifier = 1;
}

def Attn_ReduceRowsOp : Attn_Op<"reduce_rows", [Pure]> {
  let summary = "Reduce each row of a 2-D f32 tile (max or sum)";
  let description = [{
    `result[r] = max_c t[r, c]` (identity `-inf`) or `sum_c t[r, c]`
    (identity `0`).

    ```mlir
    %rowmax = attn.reduce_rows max %t : tensor<64x32xf32> -> tensor<64xf32>
    ```
  }];
  let arguments = (ins Attn_ReductionKind:$kind, Attn_F32Tile2D:$input);
  let results = (outs Attn_F32Tile1D:$result);
  let assemblyFormat = "$kind $input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

def Attn_BroadcastRowsOp : Attn_Op<"broadcast_rows", [Pure]> {
  let summary = "Broadcast a per-row value across the columns of a tile";
  let description = [{
    `result[r, c] = input[r]`.

    ```mlir
    %b = attn.broadcast_rows %m : tensor<64xf32> -> tensor<64x32xf32>
    ```
  }];
  let arguments = (ins Attn_F32Tile1D:$input);
  let results = (outs Attn_F32Tile2D:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

def Attn_OnlineSoftmaxOp : Attn_Op<"online_softmax", [Pure,
    AllTypesMatch<["scores", "probs"]>,
    AllTypesMatch<["max", "sum", "new_max", "new_sum"]>,
    AllTypesMatch<["acc", "new_acc"]>,
    OptionalTypesMatchWith<"block_max has the running max's type", "max",
                           "block_max", "$_self">]> {
  let summary = "One step of the online softmax over a block of scores";
  let description = [{
    With `t = scores * scale_log2e` (the softmax scale times log2(e), so that
    `exp2` replaces `exp`), the running row maximum `m` and row sum `l` (both
    in that base-2 domain) and the output accumulator `acc`:

    ```
    m_new = max(m, rowmax(t))
    m_ref = (m_new == -inf) ? 0 : m_new      // rows with nothing visible yet
    p     = exp2(t - m_ref)                  // broadcast along rows
    alpha = exp2(m - m_ref)
    l_new = alpha * l + rowsum(p)
    acc_new = alpha * acc                    // broadcast along columns
    ```

    The caller then adds `p * V_block` to `acc_new`. Using `m_ref` keeps a
    row whose scores are all `-inf` at `p = 0, l = 0` instead of NaN.

    With `max_bound = B`, an upper bound of every `t` known when the program
    is built (a softcap as the last score modification bounds the scores),
    `rowmax(t)` is taken to be `B`: every row's reference is `B` from its
    first block on, and `alpha` is 0 at the first block (where `l` and
    `acc` are 0) and 1 after it, so a lowering may drop the row maximum,
    the rescaling and `alpha` itself. Only valid where `exp2(rowmax - B)`
    stays a normal number of P's type (attn-tile sets it for f32 and bf16
    P with `B - min(t) <= 125`, never for f16 P).

    `score_bound = R` states that every `t` is `-inf`, NaN or within
    `[-R, R]` (attn-tile sets it where a softcap is the only modification,
    for every P type, with `2 R <= 118`). It changes nothing here; a
    lowering may use it, as `#attn.gpu_config<guarded_rescale>` does: with
    every `exp2(t - r)` for `r >= -R` at most `2^118` in f32 (a row sum of
    256 of them at most `2^126`), the reference can start at `-R` and move
    only when the probabilities grow large.

    With a `block_max` operand (a row tile of the scores' own units, a
    positive `scale_log2e`, no `max_bound`), `rowmax(t)` is taken to be
    `block_max * scale_log2e`: the program computed the block's row
    maximum itself, as `attn-hoist-row-max` does from the scores before a
    monotone score modification (the maximum of `tanh(s / c)` is
    `tanh(max(s) / c)`), so that a lowering need not reduce the modified
    scores. It must be the row maximum of `scores` up to the rounding of
    the computation that made it (or more); the result is then the same up
    to rounding, the reference only being that much further from the
    maximum.

    ```mlir
    %p, %m1, %l1, %acc1 = attn.online_softmax %s, %m, %l, %acc
        {scale_log2e = 0.18033688 : f32}
        : tensor<64x32xf32>, tensor<64xf32>, tensor<64x64xf32>
    %p2, %m2, %l2, %acc2 = attn.online_softmax %s, %m, %l, %acc
        block_max %bm {scale_log2e = 0.18033688 : f32}
        : tensor<64x32xf32>, tensor<64xf32>, tensor<64x64xf32>
    ```
  }];
  let arguments = (ins Attn_F32Tile2D:$scores, Attn_F32Tile1D:$max,
                       Attn_F32Tile1D:$sum, Attn_F32Tile2D:$acc,
                       Optional<Attn_F32Tile1D>:$block_max,
                       F32Attr:$scale_log2e,
                       OptionalAttr<F32Attr>:$max_bound,
                       OptionalAttr<F32Attr>:$score_bound);
  let results = (outs Attn_F32Tile2D:$probs, Attn_F32Tile1D:$new_max,
                      Attn_F32Tile1D:$new_sum, Attn_F32Tile2D:$new_acc);
  let assemblyFormat = [{
    $scores `,` $max `,` $sum `,` $acc (`block_max` $block_max^)? attr-dict
    `:` type($scores) `,` type($max) `,` type($acc)
  }];
  let hasVerifier = 1;
}

def Attn_FinalizeOp : Attn_Op<"finalize", [Pure,
    AllTypesMatch<["acc", "output"]>, AllTypesMatch<["max", "sum", "lse"]>]> {
  let summary = "Normalise the accumulator and form the log-sum-exp";
  let description = [{
    From the accumulator and the running max/sum of `attn.online_softmax`:

    ```
    out = (l > 0 or l is NaN) ? acc / l : 0
    lse = (l > 0 or l is NaN) ? (m + log2(l)) * ln(2) : -inf     // natural log
    lse = +inf where m = +inf
    ```

    A row with no visible key has `l = 0`: output 0, LSE `-inf`. NaN in the
    inputs reaches `l` and so both results; a `+inf` score gives the LSE
    `+inf` and, through `inf - inf`, a NaN output (as `torch.logsumexp` and
    the softmax built on it do).

    ```mlir
    %o, %lse = attn.finalize %acc, %m, %l
        : tensor<64x64xf32>, tensor<64xf32>
    ```
  }];
  let arguments = (ins Attn_F32Tile2D:$acc, Attn_F32Tile1D:$max,
                       Attn_F32Tile1D:$sum);
  let results = (outs Attn_F32Tile2D:$output, Attn_F32Tile1D:$lse);
  let assemblyFormat = [{
    $acc `,` $max `,` $sum attr-dict `:` type($acc) `,` type($max)
  }];
  let hasVerifier = 1;
}

#endif // ATTN_DIALECT_ATTN_IR_ATTNTILEOPS_TD
