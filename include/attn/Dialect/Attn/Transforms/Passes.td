//===- Passes.td - attn dialect transformations ------------*- tablegen -*-===//

#ifndef ATTN_DIALECT_ATTN_TRANSFORMS_PASSES_TD
#define ATTN_DIALECT_ATTN_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def AttnDefaultConfig : Pass<"attn-default-config"> {
  let summary = "Attach a heuristic #attn.tile_config (and #attn.gpu_config) to attention ops that have none";
  let description = [{
    Leaves ops that already carry a `config` alone (a user's or an
    autotuner's choice wins). For a GPU chip it also writes the
    `#attn.gpu_config` that goes with the tiles it picked (the register
    knobs `lazy_rescale`, `reverse_kv`, `loop_local_ids`); for the CPU
    (empty chip) it writes none. The heuristic was measured on the H200
    (docs/perf-log.md) among configurations that ptxas assembles without
    register spills for the target `chip` (sm_80, sm_90 or sm_90a; other
    chips are refused; the CPU's empty one gets the mma.sync choices of
    sm_90). On sm_90a the dots run on wgmma (`#attn.gpu_config<wgmma =
    true>`) wherever that measured faster. For D = Dv in {128, 256}
    without a window or score modification (at D = 128 a softcap, a
    bias, or ALiBi / `score_mod` / `mask_mod` regions without a softcap
    or bias beside them allowed; with index tiles the thread ids per K/V
    loop, `loop_local_ids`, and persistent for a causal `mask_mod` as for
    the plain causal kernel, or at every length where the `mask_mod`
    narrows the K/V range), and D = Dv = 192 without a softcap or mask_mod,
    unmasked and causal: a TMA producer warpgroup feeding two consumer
    warpgroups, each block's Q K^T issued under the previous block's
    softmax (`warp_specialize`, `overlap_softmax`; 128 x 128 at D = 128,
    128 x 80 at D = 192, 128 x 64 at D = 256, two stages), persistent
    when unmasked and, through `seq-len`, for causal D = 128 up to 8192
    keys and causal D = 256 up to 4096. The key length also schedules
    the knobs (`withKeyLengthSchedule`): the last block peeled up to 1024
    keys (512 at D = 256), the lazy rescale with its slack above 1024 for
    an unmodified D = 128 (or one whose only modification is an unmasked
    softcap with f16 P), and the output staged for TMA stores
    (`stage_stores`) for a 16-bit Dv = 128. Otherwise on wgmma: D = 64 128 x 128 on 8
    warps, 64 x 64 one stage at D = 256, 64 x 64 on one warpgroup with a
    window; 128 x 64 on 8 warps beside index tiles with a softcap or a
    bias at D = 128 without a window; D = 64 with a bias or index tiles stays on mma.sync;
    and, without a window or register tiles, D = 192 with Dv <= 192
    (128 x 64 on 8 warps) and D != Dv with both multiples of 64 and
    neither 192 (64 x 128 on one warpgroup up to 128, 64 x 64 with 256). Everywhere else (sm_80, sm_90,
    the CPU, and the remaining cases) the mma.sync heuristic: 4 warps, and
    with `Dmax = max(D, Dv)`: a bias gives `64 x 64` (`64 x 32` above 128),
    ALiBi or a `score_mod` region `64 x 64` for `64 < Dmax <= 128`;
    otherwise `128 x 64` blocks and 2 stages for
    `Dmax <= 64`; for `Dmax <= 128`, `128 x 64` blocks, 2 stages and
    `lazy_rescale`, with the `reverse_kv` / `loop_local_ids` combination
    that keeps the kernel free of spills on the chip (it depends on the
    mask and on the LSE output), except `64 x 64` for windows and
    for `D != Dv`; `64 x 64` and 1 stage above (`64 x 32` for
    192 paired with a smaller head dim; windows with `split_kv = false`).
    `block_m = 128` on 4 warps gives each warp two 16-row m-tiles.

    ```mlir
    // Before: causal, D = Dv = 128
    attn.attention ins(...) outs(...) {mask = #attn.mask<causal, top_left>}
    // After (chip = sm_80)
    attn.attention ins(...) outs(...)
      {config = #attn.tile_config<block_m = 128, block_n = 64, warps = 4, stages = 2>,
       gpu_config = #attn.gpu_config<lazy_rescale = true, reverse_kv = true>,
       mask = #attn.mask<causal, top_left>}
    // After (chip = sm_90a)
    attn.attention ins(...) outs(...)
      {config = #attn.tile_config<block_m = 128, block_n = 128, warps = 8, stages = 2>,
       gpu_config = #attn.gpu_config<lazy_rescale = true, wgmma = true,
         overlap_softmax = true, warp_specialize = true, rescale_slack = 8,
         stage_stores = true>,
       mask = #attn.mask<causal, top_left>}
    // After (chip = sm_90a, seq-len = 512)
    attn.attention ins(...) outs(...)
      {config = #attn.tile_config<block_m = 128, block_n = 128, warps = 8, stages = 2>,
       gpu_config = #attn.gpu_config<wgmma = true, overlap_softmax = true,
         warp_specialize = true, persistent = true, peel_last_block = true,
         stage_stores = true>,
       mask = #attn.mask<causal, top_left>}
    ```
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"\"",
           "Target GPU (sm_80, sm_90, sm_90a); empty for the CPU">,
    Option<"seqLen", "seq-len", "int64_t", /*default=*/"0",
           "Largest key length the kernel will be launched for, where the "
           "choice depends on it (0: any length; a static key length "
           "is used where the op has one)">
  ];
  let dependentDialects = ["::mlir::attn::AttnDialect"];
}

def AttnTile : Pass<"attn-tile"> {
  let summary = "Turn attn.attention on memrefs into a FlashAttention tile program";
  let description = [{
    Replaces each `attn.attention` on memrefs with an `attn.program` over
    `(ceildiv(Nq, block_m), B * Hq)` instances. Each instance loads its query
    block, runs the online softmax over the K/V blocks that
    `attn.kv_range visible` returns (every block masked with `attn.mask`),
    normalises with `attn.finalize` and stores the output and log-sum-exp.
    GQA maps query head `h` to K/V head `h / (Hq / Hkv)` by index arithmetic.
    Under a right-bounded mask (causal, windows) program id `m` takes query
    block `ceildiv(Nq, block_m) - 1 - m`: under a causal mask later query
    blocks see more K/V blocks, and GPUs start programs in id order, so the
    heaviest go first and the last wave is made of the lightest (windows,
    whose blocks see about as many keys each, take the same order).

    The tile configuration comes from the op's `config` (run
    `attn-default-config` first). Ops on tensors must be bufferized first;
    head dims must be static; the configuration must fit the tensor-core
    layout (`block_m` a multiple of 16 x `warps`, `block_n` >= 16). All are
    diagnosed. Shape constraints between dynamic dims, which the verifier
    cannot check, become `cf.assert`s that run before the program.

    ```mlir
    // Before
    attn.attention ins(%q, %k, %v : ...) outs(%o : ...) {config = #cfg, ...}
    // After (abridged)
    attn.program (%m, %bh) in (%gm, %gbh) {
      %qt = attn.load %q[%b, %h, %row0, %c0] : ... -> tensor<64x64xf16>
      %lo, %hi = attn.kv_range visible %row0, %nq, %nk {...}
      %r:3 = scf.for %j = %lo to %hi step %c1 iter_args(%mi = %m0, %li = %l0, %acc = %a0) -> (...) {
        %kt = attn.load %k[...] ...
        %s  = attn.dot %qt, %kt, %zero transpose_b ...
        %sm = attn.mask %s rows %row0 of %nq cols %col0 of %nk {...}
        %p, %mn, %ln, %an = attn.online_softmax %sm, %mi, %li, %acc {...}
        ...
        %acc2 = attn.dot %pt, %vt, %an ...
        scf.yield %mn, %ln, %acc2 : ...
      }
      %o, %lse = attn.finalize %r#2, %r#0, %r#1 ...
      attn.store %o, %out[%b, %h, %row0, %c0] ...
    }
    ```
  }];
  let dependentDialects = [
    "::mlir::attn::AttnDialect", "::mlir::arith::ArithDialect",
    "::mlir::cf::ControlFlowDialect", "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect", "::mlir::tensor::TensorDialect"
  ];
}

def AttnSplitKVLoop : Pass<"attn-split-kv-loop"> {
  let summary = "Peel masked K/V blocks off the unmasked ones";
  let description = [{
    Finds each `scf.for` that is safe to split: its bounds are the results
    of one `attn.kv_range visible`, its step is the constant 1, and its body
    applies at least one `attn.mask`, each with the kv_range's `mask`
    attribute and its `row_start`, `num_queries` and `num_keys` operands.
    Other loops are left alone, and so are the loops of an `attn.program`
    whose tile configuration has `split_kv = false`. Each loop found becomes
    three consecutive
    loops over `[lo, a)`, `[a, b)` and `[b, hi)`, where `[a, b)` is the
    `attn.kv_range unmasked` range clamped into `[lo, hi)`. The middle loop
    drops its `attn.mask`: its blocks are wholly visible and in bounds.
    Blocks wholly masked were already outside `[lo, hi)`. The loop-carried
    running max, sum and accumulator thread through the three loops; the
    softmax is order-independent.

    ```mlir
    // After (abridged)
    %lo, %hi = attn.kv_range visible ...
    %ulo, %uhi = attn.kv_range unmasked ...
    %a = clamp(%ulo, %lo, %hi)  %b = clamp(%uhi, %a, %hi)
    %r0:3 = scf.for %j = %lo to %a ... { ... attn.mask ... }
    %r1:3 = scf.for %j = %a to %b ... { ... no attn.mask ... }
    %r2:3 = scf.for %j = %b to %hi ... { ... attn.mask ... }
    ```

    Where the visible range carries a `mask_mod` region, the unmasked one
    carries it too (`from` the first visible block): its blocks are the run
    that the region shows in full (FlexAttention's full blocks), and the
    masks dropped there may carry the same region, for the same batch and
    head. A document mask then applies no element mask inside a document.

    Where the region may also hide blocks between visible ones (it has an
    `or`, `xor`, i1 `select` or `ne`: attention sinks with a window, say),
    an `attn.kv_range hidden` first finds the run `[g0, g1)` of blocks it
    hides from every row, and the full-block search starts at `g1`. The
    three loops then count positions up to `hi - (g1 - g0)`, and each body
    works on block `t + (t >= g0 ? g1 - g0 : 0)` for position `t`: the
    hidden blocks are never visited, and the loops still form one
    contiguous chain for the passes that schedule their copies.

    ```mlir
    %g0, %g1 = attn.kv_range hidden ... from %lo to %hi mask_mod(...) {...}
    %gap = arith.subi %g1, %g0
    %ulo, %uhi = attn.kv_range unmasked ... from %g1 to %hi mask_mod(...) {...}
    %r0:3 = scf.for %t = %lo to (%a - %gap) ... {
      %j = %t + select(%t >= %g0, %gap, 0)   // the block
      ... attn.mask ...
    }
    ...
    %r2:3 = scf.for %t = (%b - %gap) to (%hi - %gap) ... { ... }
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def AttnExpandMaskMods : Pass<"attn-expand-mask-mods"> {
  let summary = "Spell the mask_mod regions of attn.mask out element-wise";
  let description = [{
    Rewrites each `attn.mask` that carries a `mask_mod` region (as
    `attn-tile` builds them, and as `attn-split-kv-loop` leaves them in the
    blocks it cannot prove full) into tile ops that both lowerings compile:
    `attn.iota` tiles of the query and key indices, splat tiles of the batch
    and head, the region's scalar ops applied to those tiles, an
    `arith.select` of `-inf` where the region yields false, and the
    `attn.mask` without the region (bounds and the mask attribute).

    ```mlir
    // Before
    %m = attn.mask %s rows %r0 of %nq cols %c0 of %nk {mask = #attn.mask<none>}
        : tensor<128x128xf32> mask_mod(%b, %h) {
    ^bb0(%bi: index, %hi: index, %qi: index, %ki: index):
      %c256 = arith.constant 256 : index
      %dq = arith.divui %qi, %c256 : index
      %dk = arith.divui %ki, %c256 : index
      %same = arith.cmpi eq, %dq, %dk : index
      attn.yield %same : i1
    }
    // After (abridged)
    %qi = attn.iota 0, %r0 : tensor<128x128xindex>
    %ki = attn.iota 1, %c0 : tensor<128x128xindex>
    %dq = arith.divui %qi, %c256_tile : tensor<128x128xindex>
    ...
    %v = arith.select %same, %s, %ninf : tensor<128x128xi1>, tensor<128x128xf32>
    %m = attn.mask %v rows %r0 of %nq cols %c0 of %nk {mask = #attn.mask<none>}
        : tensor<128x128xf32>
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::tensor::TensorDialect"];
}

def AttnReverseKVLoops : Pass<"attn-reverse-kv-loops"> {
  let summary = "Visit K/V blocks last to first, masked blocks before the unmasked ones";
  let description = [{
    In each `attn.program` whose `#attn.gpu_config` has `reverse_kv = true`,
    finds each chain of consecutive K/V loops (`scf.for` with step 1 whose
    only loop-carried values are the running max, sum and accumulator of an
    `attn.online_softmax` in its body, each loop starting where the
    previous one ends and taking its results as its `iter_args`), as
    `attn-tile` and `attn-split-kv-loop` leave them, and makes the chain
    visit its blocks from the last to the first. Each loop then runs over
    positions `p` with block `j = hi - 1 - p` (`hi` the chain's upper
    bound), and the loops come in the opposite order: the last loop (the
    masked blocks at the diagonal and the partial block at `Nk`) runs first.
    The online softmax does not depend on the order of the blocks.

    Why: in the GPU kernels everything a masked loop needs that the unmasked
    loop does not (its mask bounds, copy addresses) would otherwise be live
    across the unmasked loop, which is what costs registers there;
    with causal masks the masked blocks now come first and nothing but the
    epilogue's values crosses the unmasked loop. Positions are contiguous
    over the whole chain, so the K/V copy pipeline can run ahead across loop
    boundaries with one `hi - 1` kept live. FlashAttention-2 visits its
    blocks in the same order for the same reason.

    ```mlir
    // Before: [lo, b) unmasked, then [b, hi) masked.
    %r1:3 = scf.for %j = %lo to %b ... { ... }
    %r2:3 = scf.for %j = %b to %hi ... iter_args(%r1#0, ...) { attn.mask ... }
    // After: positions [0, hi - b) for the masked blocks, then [hi - b,
    // hi - lo) for the unmasked ones; block j = (hi - 1) - p in both.
    %last = arith.subi %hi, %c1
    %r2:3 = scf.for %p = %hi_hi to %hi_b ... { %j = arith.subi %last, %p  attn.mask ... }
    %r1:3 = scf.for %p = %hi_b to %hi_lo ... iter_args(%r2#0, ...) { %j = ... }
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def AttnAccumulateBias : Pass<"attn-accumulate-bias"> {
  let summary = "Add a term of the scores on the tensor cores, the scale in Q";
  let description = [{
    In each `attn.program` whose `#attn.gpu_config` has `accumulate_bias`,
    in each K/V loop body, where the scores are
    `arith.addf(arith.mulf(attn.dot(%q, %k, zero), %c), %x)` (either
    operand order; `%c` a splat constant of magnitude at most 1, the
    product and the multiply used there alone, `%q` defined outside the
    loop): the product takes
    `%x` as its accumulator and a scaled copy of `%q` as A,
    `truncf(extf(%q) * %c)`, made once in front of the program's loops
    and shared by every such product with the same `%q` and `%c`; the
    multiply and the add go. `c (q . k) + x` becomes `(c q) . k + x`:
    exact but for the rounding of `c q` to Q's type (one more rounding
    of Q, relative 2^-11 in f16, 2^-8 in bf16).

    Why: on the GPU the bias's add is an FMA per score on the consumers,
    beside the conversion of the tile, and each FMA-pipe instruction a
    score costs several percent of a D = 128 kernel (the forty-fifth
    session's perf log); the tensor cores add an initial accumulator for
    nothing. Measured, the kernel gained nothing (0.97-1.00x on an H100,
    forty-sixth session): the tile's read and conversion move in front of
    the product's issue.

    ```mlir
    // Before (attn-tile's bias):
    %s = attn.dot %q, %k, %zero transpose_b : ...
    %m = arith.mulf %s, %c fastmath<contract> : tensor<128x64xf32>
    %b = arith.extf %bias : tensor<128x64xf16> to tensor<128x64xf32>
    %t = arith.addf %m, %b fastmath<contract> : tensor<128x64xf32>
    // After (%qs once, in front of the loops):
    %qs = arith.truncf (arith.mulf (arith.extf %q), %c128x128)
    %b = arith.extf %bias : tensor<128x64xf16> to tensor<128x64xf32>
    %t = attn.dot %qs, %k, %b transpose_b : ...
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def AttnHoistRowMax : Pass<"attn-hoist-row-max"> {
  let summary = "Take a softmax's row maximum before a monotone score modification";
  let description = [{
    In each `attn.program` whose `#attn.gpu_config` has `hoist_row_max`,
    for each `attn.online_softmax` with a positive scale, no `max_bound`
    and no `block_max` whose scores are a chain of monotone non-decreasing
    elementwise ops on another 2-D tile `r` (`arith.mulf` or `arith.divf`
    by a positive splat constant, `arith.addf` or `arith.subf` of a splat
    constant, `math.tanh`, `math.exp`, `math.exp2`, in any number; the
    softcap `tanh(s * scale / c)` that `attn-tile` writes), takes
    `attn.reduce_rows max` of `r`, applies the same chain to that row tile
    (same ops, same fastmath flags, the constants as row tiles) and passes
    the result as the softmax's `block_max`: the maximum of a monotone
    function is the function of the maximum. A chain that ends at
    `attn.mask` (masked blocks: the maximum must be that of the visible
    scores) or at any other op is left alone.

    Why: on the GPU the row maximum of the modified scores is a reduction
    and two shuffles that wait for the block's last `tanh`, and every
    exponential waits for it (the thirty-first session's perf log). Taken
    from `r`, the reduction runs beside the MUFU work.

    ```mlir
    // Before:
    %s = attn.dot %q, %k, %zero transpose_b : ...
    %u = arith.mulf %s, %c : tensor<128x64xf32>
    %t = math.tanh %u fastmath<afn> : tensor<128x64xf32>
    %p, %m1, %l1, %a1 = attn.online_softmax %t, %m, %l, %a {scale_log2e = 43.28 : f32} : ...
    // After:
    %r = attn.reduce_rows max %s : tensor<128x64xf32> -> tensor<128xf32>
    %ru = arith.mulf %r, %c_rows : tensor<128xf32>
    %rt = math.tanh %ru fastmath<afn> : tensor<128xf32>
    %p, %m1, %l1, %a1 = attn.online_softmax %t, %m, %l, %a block_max %rt {scale_log2e = 43.28 : f32} : ...
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect"];
}

def AttnDecomposeOnlineSoftmax : Pass<"attn-decompose-online-softmax"> {
  let summary = "Spell attn.online_softmax and attn.finalize out in smaller tile ops";
  let description = [{
    Rewrites the two composite softmax ops into `attn.reduce_rows`,
    `attn.broadcast_rows` and `arith`/`math` on tiles, for targets (the CPU)
    that have no fused lowering of them. The -inf guards are kept: a row
    with no visible key yields `p = 0`, `l = 0`, output 0 and LSE `-inf`.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::attn::AttnDialect"];
}

def AttnAssignLayouts : Pass<"attn-assign-layouts"> {
  let summary = "Give every tile of a program its GPU layout";
  let description = [{
    The GPU lowering's first step: every tile value inside an `attn.program`
    gets a layout for the target `chip` as the encoding of its tensor type.
    2-D tiles take the mma.sync accumulator layout of the configuration's
    warps (`#attn.mma<warps = W>`), 1-D tiles one value per row of it
    (`#attn.rows<...>`); loop-carried tiles and tile constants included.
    Tiles that attn.load reads for `attn.dot` only are staged through
    shared memory (`#attn.swizzled`; a load with other users is cloned for
    its dots); a computed A operand (the probabilities P) is converted to
    the dot-operand layout, which moves no data; a computed B operand is
    converted to `#attn.swizzled`, as is, on wgmma, a computed A operand
    defined outside the dot's loop (the scaled Q of `attn-accumulate-bias`:
    stored to shared memory once, where it is computed, for every dot that
    reads it, rather than held in registers across the loop; the tile it
    is an elementwise function of, loaded for it alone, is staged through
    shared memory too and read back, so that it keeps its copy). Shapes a
    layout cannot hold, dots on f32 and unknown chips are diagnosed.

    ```mlir
    // Before
    %s = attn.dot %q, %k, %z transpose_b : tensor<128x64xf16>, tensor<64x64xf16> -> tensor<128x64xf32>
    // After (warps = 4; %q and %k come from attn.load)
    %s = attn.dot %q, %k, %z transpose_b : tensor<128x64xf16, #attn.swizzled>,
        tensor<64x64xf16, #attn.swizzled> -> tensor<128x64xf32, #attn.mma<warps = 4>>
    %pa = attn.convert_layout %p : tensor<128x64xf16, #attn.mma<warps = 4>>
        -> tensor<128x64xf16, #attn.dot_operand<a, #attn.mma<warps = 4>>>
    ```
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90a\"",
           "Target GPU: sm_80, sm_90 or sm_90a">
  ];
  let dependentDialects = ["::mlir::attn::AttnDialect"];
}

def AttnOverlapSoftmax : Pass<"attn-overlap-softmax"> {
  let summary = "Issue each K/V block's Q K^T a block ahead, under the previous block's softmax (wgmma)";
  let description = [{
    For programs whose `#attn.gpu_config` has `overlap_softmax` (wgmma
    products, after `attn-assign-layouts`): rotates each chain of K/V loops
    by one product, in the spirit of FlashAttention-3's intra-warpgroup
    pipelining. Block `lo`'s scores are computed before the chain; in the
    loop over block `j`, K of block `min(j + 1, hi - 1)` is loaded and its
    `Q K^T` issued asynchronously (the last block's product is computed
    twice: a guard would make ptxas serialize every wgmma, C7515) before
    the mask, score modifications and softmax of block `j`, which read the
    scores from a fourth iter_arg. The softmax then gets a zero
    accumulator; `attn.dot_wait` and the rescale of the accumulator
    (written out as tile ops) come right before `P V`, so that no other
    instruction writes a product's accumulator while one is in flight. A
    chain of another shape is left alone with a warning.

    With `async_pv` (FlashAttention-3's rotation; needs
    `warp_specialize`): block `j + 1`'s `Q K^T` is issued after block
    `j`'s softmax and rescale, right before `P V`, which is issued async
    too and yielded in flight; the next iteration waits for it (with the
    probabilities, whose conversion to 16 bits must not overwrite the P
    registers the product still reads) after its own softmax, and one wait
    after the chain completes the last. The `Q K^T` is waited for with
    `pending = 1`. With `early_qk` as well, block `j + 1`'s `Q K^T` stays
    before the softmax (both products then run under it) and the
    accumulator's wait completes it too (`pending = 0`: a wait that left it
    pending made ptxas serialize every wgmma, C7514), and the scores go
    through that wait, so that attn-warp-specialize releases K's stage
    there, before the rescale and `P V`: the body has no second wait.
    With `loads_ahead`, the register tiles each body loads for its scores
    (a bias: loads before the softmax whose operands are functions of the
    position) are loaded a block ahead as K is: block `lo`'s before the
    chain, block `min(j + 1, hi - 1)`'s right before the wait that
    completes block `j + 1`'s scores, carried in iter_args in front of the
    scores; the load then runs under the next block's `Q K^T` instead of
    after its wait. Where the loops of a chain do not load the same tiles
    as the same function of the position, a warning, and they keep their
    loads. A `Q K^T` whose accumulator the body computes (a bias tile,
    `attn-accumulate-bias`: side-effect free ops and loads of the position
    from buffers the program does not write) gets it computed for its own
    block: block `lo`'s before the chain, block `min(j + 1, hi - 1)`'s with
    its K, right before its product (after the softmax with `async_pv`);
    loops of a chain that compute it differently are left alone with a
    warning.

    ```mlir
    // after (abridged)
    %s0 = attn.dot %q, %k0, %zero transpose_b : ...
    %r:4 = scf.for %j = %lo to %hi step %c1
        iter_args(%m = ..., %l = ..., %acc = ..., %s = %s0) -> (...) {
      %kn = attn.load %k[..., %next_row, %c0] : ...
      %sn = attn.dot %q, %kn, %zero transpose_b async : ...
      %p, %m1, %l1, %dead = attn.online_softmax %s, %m, %l, %zero_acc ...
      ...
      %sw = attn.dot_wait %sn {pending = 0 : i64} : ...
      %alpha = math.exp2 ... fastmath<afn> : ...
      %acc1 = arith.mulf %acc, %alpha_rows : ...
      %o = attn.dot %pa, %v, %acc1 : ...
      scf.yield %m1, %l1, %o, %sw : ...
    }
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::attn::AttnDialect",
                           "::mlir::scf::SCFDialect"];
}

def AttnStageShared : Pass<"attn-stage-shared"> {
  let summary = "Make the shared-memory tiles of a laid-out program explicit buffers";
  let description = [{
    Each tile in `#attn.swizzled` becomes an `!attn.shared` buffer
    (`attn.local_alloc`): an `attn.load` of one becomes `attn.async_copy`
    + `attn.async_commit`, a `attn.convert_layout` to one an
    `attn.local_store` (into a new buffer, or over the buffer of the tile
    it is an elementwise function of where nothing else reads that buffer:
    the scaled Q of `attn-accumulate-bias`). Loads in a run of consecutive loops (the K/V loops
    after attn-split-kv-loop) share one buffer per source and tile type,
    allocated before the run. The schedule is the simplest correct one:
    every reader waits for all copies (`attn.async_wait {pending = 0}`) and
    a barrier; every loop body that writes a buffer ends with a barrier.
    `attn-pipeline` then overlaps the copies.

    ```mlir
    // After (one K/V loop, abridged)
    %kbuf = attn.local_alloc : !attn.shared<64x64xf16, #attn.swizzled>
    scf.for %j = ... {
      attn.async_copy %k[%b, %h, %col0, %c0] into %kbuf : memref<...>, !attn.shared<64x64xf16, #attn.swizzled>
      attn.async_commit
      attn.async_wait {pending = 0 : i64}
      gpu.barrier
      %s = attn.dot %qbuf, %kbuf, %z transpose_b : ...
      ...
      gpu.barrier
      scf.yield ...
    }
    ```
  }];
  let dependentDialects = ["::mlir::attn::AttnDialect",
                           "::mlir::gpu::GPUDialect"];
}

def AttnWarpSpecialize : Pass<"attn-warp-specialize"> {
  let summary = "A TMA producer warpgroup and mbarrier-synchronized consumers (sm_90a)";
  let description = [{
    For programs whose `#attn.gpu_config` has `warp_specialize` (with
    `wgmma`), as `attn-stage-shared` left them: the copies become
    `attn.tma_copy` issued by one producer thread, the chain's K and V
    buffers get `stages` stages, each stage a "full" barrier (the copy has
    landed) and an "empty" one (every consumer thread is done reading it),
    and the program from its first K/V loop on becomes the consumers'
    region of an `attn.warp_specialize`. The consumers wait for a stage's
    "full" barrier before the product that reads it and arrive at its
    "empty" barrier after; the producer waits for "empty" before copying
    the next block into the stage. No CTA-wide barrier is left in the K/V
    loops. With `overlap_softmax`, a stage read by an async product is
    released after the `attn.dot_wait` that completes it (with `async_pv`,
    whose `P V` stays in flight across the iteration: after the next
    iteration's wait, and the chain's last block after the chain), and the first
    block's copy and product before the chain go to the producer (issued
    only when the chain has blocks) and to the consumers; that first K
    block takes the position in front of the chain's in the K ring rather
    than a buffer of its own (at D = 256 the 40 KiB that let a 128 x 80
    tile fit with the overlap); with `loads_ahead`, so does the first
    block's staged bias tile in the bias's ring, read into registers by
    the consumers before the chain (a register load there, in a TMA
    fallback, moves to the consumers). The side-effect free code computed
    from such tiles and the tiles stored from registers before the chain
    (the scaled Q of `attn-accumulate-bias`, then a barrier among the
    consumers) move to the consumers as well. A program this
    cannot handle (tiles staged from registers in the loops, copies that TMA cannot
    describe, a buffer copied with two tile heights, several chains) keeps
    the cp.async schedule of `attn-pipeline`, with a warning at the program
    that says why.

    ```mlir
    // after (abridged): stages = 2, two consumer warpgroups
    %pre = attn.mbarrier_alloc {arrivals = 1 : i64} : !attn.mbarriers<1>
    %fullK = attn.mbarrier_alloc {arrivals = 1 : i64} : !attn.mbarriers<2>
    %emptyK = attn.mbarrier_alloc {arrivals = 256 : i64} : !attn.mbarriers<2>
    ...
    attn.warp_specialize {consumer_registers = 240 : i64, consumer_warpgroups = 2 : i64,
                          producer_registers = 24 : i64} producer {
      attn.tma_copy %q[%b, %h, %row, %c0] into %qbuf, %pre[%c0] : ...
      scf.for %t = %lo to %hi step %c1 {
        ... %stage = (t - lo) % 2, %phase = (t - lo) / 2
        attn.mbarrier_wait %emptyK[%stage], %phase_plus_1 : !attn.mbarriers<2>
        attn.tma_copy %k[%b, %hk, %krow, %c0] into %kstage, %fullK[%stage] : ...
        ...
      }
    } consumers {
      attn.mbarrier_wait %pre[%c0], %c0 : !attn.mbarriers<1>
      scf.for %j = %lo to %hi step %c1 ... {
        attn.mbarrier_wait %fullK[%stage], %phase : !attn.mbarriers<2>
        %s = attn.dot %qbuf, %kstage, %z transpose_b : ...
        attn.mbarrier_arrive %emptyK[%stage] : !attn.mbarriers<2>
        ...
      }
      ...
    }
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::attn::AttnDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def AttnPipeline : Pass<"attn-pipeline"> {
  let summary = "Overlap the K/V copies of a program with its products (by `stages`)";
  let description = [{
    Software-pipelines the copies of each chain of K/V loops (consecutive
    loops over one contiguous range of positions whose bodies copy into the
    same buffers, each copy the same function of the position in every
    loop) by the `stages` of the tile configuration:

    * `stages = 1` (two copies, K then V): K is prefetched one block ahead
      into the single K buffer: the first block's K before the chain; V is
      issued where K was; `Q K^T` waits for all but the newest copy group;
      after it a barrier and the next block's K (guarded, one commit group
      per block); `P V` waits for all but the newest group.
    * `stages = s > 1`: the buffers get `s` stages, block `j` lives in
      stage `j % s`; blocks `lo .. lo + s - 2` are issued before the chain;
      each block waits for all but the newest `s - 2` groups, passes one
      barrier and issues block `j + s - 1` into the stage block `j - 1`
      used.

    Other loops keep attn-stage-shared's schedule (a warning says so when
    `stages > 1` was asked for). A program with a product in flight across
    K/V iterations (`async_pv` where attn-warp-specialize did not apply)
    is an error: this ring's barriers would let the next copy into the
    buffer the product still reads.

    ```mlir
    // stages = 2, after (abridged)
    %kbuf = attn.local_alloc : !attn.shared<2x64x64xf16, #attn.swizzled>
    scf.if %lo_lt_hi { ... attn.async_copy %k[...] into %k_stage0 ... }
    attn.async_commit
    scf.for %j = %lo to %hi step %c1 ... {
      %st = arith.remui %j, %c2 : index
      attn.async_wait {pending = 0 : i64}
      gpu.barrier
      scf.if %next_lt_hi { ... copies of block j + 1 into stage (st + 1) % 2 ... }
      attn.async_commit
      %kv = attn.local_view %kbuf[%st] : ...
      %s = attn.dot %qbuf, %kv, %z transpose_b : ...
      ...
    }
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::attn::AttnDialect",
                           "::mlir::gpu::GPUDialect", "::mlir::scf::SCFDialect"];
}

def AttnPrefetchLoads : Pass<"attn-prefetch-loads"> {
  let summary = "Prefetch a K/V loop's register-tile loads into L1 one block ahead";
  let description = [{
    For each attn.program whose `#attn.gpu_config` has `prefetch_loads`:
    every `attn.load` of a register tile (an `#attn.mma` layout: a bias)
    at the top level of an `scf.for` body, reading a buffer the program
    never stores to, at indices that are a side-effect free function of the
    induction variable, gets an `attn.prefetch` of the same tile at the
    next position (`iv + step`), at the top of the body. The load of block
    `j` is issued right before the scores need it (the consumers hold no
    spare registers to load it earlier: docs/perf-log.md); the prefetch,
    one iteration earlier, holds none and brings it into L1. The last
    iteration's prefetch reads the next loop's first block, or (clamped)
    nothing past the buffer.

    ```mlir
    scf.for %j = %lo to %hi step %c1 {
      // added: the next block, into L1
      %j1 = arith.addi %j, %c1 : index
      %c1x = arith.muli %j1, %c80 : index
      attn.prefetch %bias[%b, %h, %r0, %c1x] : memref<?x?x?x?xf16>, tensor<128x80xf16, #mma>
      %c = arith.muli %j, %c80 : index
      %t = attn.load %bias[%b, %h, %r0, %c] : memref<?x?x?x?xf16> -> tensor<128x80xf16, #mma>
      ...
    }
    ```
  }];
  let dependentDialects = ["::mlir::attn::AttnDialect", "::mlir::arith::ArithDialect"];
}

def AttnStageLoads : Pass<"attn-stage-loads"> {
  let summary = "Stage a K/V loop's register-tile loads through shared memory";
  let description = [{
    For each attn.program whose `#attn.gpu_config` has `stage_loads`: every
    `attn.load` of a 2-D register tile of 16-bit elements (an `#attn.mma`
    layout: a bias) at the top level of an `scf.for` body, reading a buffer
    the program never stores to, at indices that are a side-effect free
    function of the induction variable, loads a shared-memory tile instead
    (K's `#attn.swizzled` layout where its rows are a multiple of 64
    columns, whose reads in the accumulator layout are free of bank
    conflicts; with `narrow-swizzles`, a warpgroup tile of another multiple
    of 16 columns in `#attn.swizzled<blocked, span = 64>` (multiples of 32)
    or `span = 32`, as free of them; `#attn.unswizzled` otherwise, whose
    rows of 80 or 112 columns conflict 2-way and of 96 4-way), followed by an
    `attn.convert_layout` back to the register layout. `attn-stage-shared` then copies it into a shared buffer
    (`attn.async_copy`) and reads it back (`attn.local_load`), and
    `attn-warp-specialize` makes the copy one more TMA ring of the
    producer beside K and V, so that the consumers no longer wait for
    global memory in the softmax (the long-scoreboard stalls of a bias,
    docs/perf-log.md, seventeenth session). Tiles that neither layout can
    hold (more than 256 rows, or columns not a multiple of 8) stay
    register loads, with a remark. A load of the same tile type from the
    same buffer at the program's top level (the first block's tile that
    `attn-overlap-softmax` loads before the K/V loops with `loads_ahead`)
    is staged with the same layout: `attn-warp-specialize` makes its copy
    the lead position of that ring, as it does the first K block's. With
    `staging=false` nothing is staged
    whatever the configuration says: the TMA fallback of a staged kernel
    (docs/gpu-kernels.md), which the runtime launches where TMA cannot
    describe the tensor.

    ```mlir
    // before
    %t = attn.load %bias[%b, %h, %r0, %c] : memref<?x?x?x?xf16> -> tensor<128x80xf16, #mma>
    // after
    %s = attn.load %bias[%b, %h, %r0, %c] : memref<?x?x?x?xf16> -> tensor<128x80xf16, #attn.unswizzled>
    %t = attn.convert_layout %s : tensor<128x80xf16, #attn.unswizzled> -> tensor<128x80xf16, #mma>
    ```
  }];
  let options = [
    Option<"staging", "staging", "bool", /*default=*/"true",
           "Stage what stage_loads asks for (false: compile the TMA fallback)">,
    Option<"narrowSwizzles", "narrow-swizzles", "bool", /*default=*/"false",
           "Give a warpgroup tile whose columns are a multiple of 16 but not "
           "of 64 a 32- or 64-byte swizzle span (#attn.swizzled<blocked, "
           "span = ...>) instead of #attn.unswizzled rows">
  ];
  let dependentDialects = ["::mlir::attn::AttnDialect"];
}

def AttnStageStores : Pass<"attn-stage-stores"> {
  let summary = "Stage a warp-specialized program's output through shared memory for TMA stores";
  let description = [{
    For each attn.program whose `#attn.gpu_config` has `stage_stores` and
    that `attn-warp-specialize` made a producer and consumers: every
    `attn.store` in the consumers region of a 16-bit tile in the
    warpgroup accumulator layout (`#attn.mma<version = 3>`: 64 rows per
    consumer warpgroup), whole rows of a multiple of 64 columns from
    column 0, becomes `attn.local_store` into a new buffer in the 128-byte
    swizzle (`#attn.swizzled<blocked>`) and `attn.tma_store` from it
    (each consumer warpgroup copies its rows once its threads have written
    them), preceded by `attn.tma_store_wait` (the warpgroup's store of the
    tile before must have read the buffer) and with one more wait at the
    end of the consumers region (the CTA's shared memory must outlive the
    last read). A store whose buffer would take the program over
    `max-shared-bytes` (placed as attn-allocate-shared places buffers)
    stays a register store. With `staging=false` nothing is staged: the
    kernels compiled as TMA fallbacks (docs/gpu-kernels.md).

    ```mlir
    // before (consumers region)
    attn.store %o, %out[%b, %h, %row, %c0] : tensor<128x128xf16, #mma>, memref<?x?x?x128xf16>
    // after
    attn.tma_store_wait
    attn.local_store %o, %obuf : tensor<128x128xf16, #mma>, !attn.shared<128x128xf16, #attn.swizzled<blocked>>
    attn.tma_store %obuf into %out[%b, %h, %row, %c0] : !attn.shared<128x128xf16, #attn.swizzled<blocked>>, memref<?x?x?x128xf16>
    ```
  }];
  let options = [
    Option<"staging", "staging", "bool", /*default=*/"true",
           "Stage what stage_stores asks for (false: compile the TMA fallback)">,
    Option<"maxSharedBytes", "max-shared-bytes", "int64_t",
           /*default=*/"232448",
           "Dynamic shared memory a CTA may use on the target (as attn-allocate-shared)">
  ];
  let dependentDialects = ["::mlir::attn::AttnDialect"];
}

def AttnAllocateShared : Pass<"attn-allocate-shared"> {
  let summary = "Place the shared buffers of each program in its dynamic shared memory";
  let description = [{
    Gives every `attn.local_alloc` of a program its byte `offset`, in
    program order, 128-byte aligned, and records the total on the program as
    `shared_bytes`. A total over `max-shared-bytes` is an error that lists
    every buffer's size.

    ```mlir
    %q = attn.local_alloc {offset = 0 : i64} : !attn.shared<128x64xf16, #attn.swizzled>
    %k = attn.local_alloc {offset = 16384 : i64} : !attn.shared<2x64x64xf16, #attn.swizzled>
    ```
  }];
  let options = [
    Option<"maxSharedBytes", "max-shared-bytes", "int64_t",
           /*default=*/"232448",
           "Dynamic shared memory a CTA may use on the target (sm_90: 232448, sm_80: 166912)">
  ];
  let dependentDialects = ["::mlir::attn::AttnDialect"];
}

#endif // ATTN_DIALECT_ATTN_TRANSFORMS_PASSES_TD
