//===- AttnAttrs.td - attn attributes ----------------------*- tablegen -*-===//
//
// Masks and tile configurations. Both live on the IR (never in global state):
// the passes that choose write them, the passes that lower read them.
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_DIALECT_ATTN_IR_ATTNATTRS_TD
#define ATTN_DIALECT_ATTN_IR_ATTNATTRS_TD

include "attn/Dialect/Attn/IR/AttnBase.td"
include "mlir/IR/EnumAttr.td"
include "attn/Dialect/Attn/IR/AttnLayouts.td"

def Attn_MaskKind : I32EnumAttr<"MaskKind", "kind of attention mask", [
    I32EnumAttrCase<"None", 0, "none">,
    I32EnumAttrCase<"Causal", 1, "causal">,
    I32EnumAttrCase<"Window", 2, "window">
  ]> {
  let cppNamespace = "::mlir::attn";
  let genSpecializedAttr = 0;
}

def Attn_MaskAlignment : I32EnumAttr<"MaskAlignment",
    "where query row 0 sits relative to the keys when Nq != Nk", [
    I32EnumAttrCase<"TopLeft", 0, "top_left">,
    I32EnumAttrCase<"BottomRight", 1, "bottom_right">
  ]> {
  let cppNamespace = "::mlir::attn";
  let genSpecializedAttr = 0;
}

def Attn_MaskAttr : Attn_Attr<"Mask", "mask"> {
  let summary = "Which keys each query may attend to";
  let description = [{
    Query row `i` may attend to key `j` iff

    ```
    i' - left <= j <= i' + right,   i' = i + (align == bottom_right ? Nk - Nq : 0)
    ```

    * `none`: every key is visible (`left = right = infinity`).
    * `causal`: `left = infinity, right = 0`.
    * `window`: a sliding window with explicit `left` and `right` extents,
      each in `[0, 2^31 - 1]`.

    The alignment only matters when `Nq != Nk`. `top_left` is PyTorch's
    `is_causal=True` convention (query 0 sees key 0); `bottom_right` is
    FlashAttention's (the last query sees the last key). With bottom-right
    alignment and `Nq > Nk`, the first `Nq - Nk` causal rows see no key: their
    output is defined to be 0 and their log-sum-exp `-inf`.

    ```mlir
    #attn.mask<none>
    #attn.mask<causal, bottom_right>
    #attn.mask<window, top_left, left = 128, right = 0>
    ```
  }];
  let parameters = (ins
    EnumParameter<Attn_MaskKind>:$kind,
    EnumParameter<Attn_MaskAlignment>:$alignment,
    "int64_t":$left,
    "int64_t":$right
  );
  let builders = [
    AttrBuilder<(ins), [{
      return $_get($_ctxt, MaskKind::None, MaskAlignment::TopLeft, 0, 0);
    }]>
  ];
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Whether keys to the left of the diagonal are unbounded.
    bool isLeftUnbounded() const { return getKind() != MaskKind::Window; }
    /// Whether keys to the right of the diagonal are unbounded.
    bool isRightUnbounded() const { return getKind() == MaskKind::None; }
    /// The right extent; 0 for causal masks.
    int64_t getRightExtent() const {
      return getKind() == MaskKind::Causal ? 0 : getRight();
    }
  }];
}

def Attn_TileConfigAttr : Attn_Attr<"TileConfig", "tile_config"> {
  let summary = "Tile sizes of an attention program";
  let description = [{
    `block_m` query rows (a power of two, or 192: three wgmma warpgroups
    of 64 rows on 12 warps) and `block_n` key rows (a power of two, or a
    multiple of 16 such as 80 or 176) per tile, `warps` per program (a
    power of two or 12; GPU targets), and `stages` of K/V blocks in flight (GPU
    targets, read by `attn-pipeline`: 1 is one K and one V buffer with the
    next K copied behind the scores; s > 1 is s buffer pairs, blocks
    j + 1 .. j + s - 1 in flight while block j is computed).
    `split_kv = false` (default true) keeps every K/V block of a program
    masked: `attn-split-kv-loop` leaves its loop alone (one loop instead of
    three, for compile time: ptxas takes about 2.5x as long for three copies
    of a D = 256 loop). The `attn-default-config` pass fills the attribute
    in from measured defaults when an `attn.attention` op carries none;
    autotuning passes write it too. None of these change the result
    beyond rounding. How a GPU lowering spends registers is a separate
    attribute, `#attn.gpu_config`.

    ```mlir
    #attn.tile_config<block_m = 64, block_n = 64, warps = 4, stages = 2>
    #attn.tile_config<block_m = 64, block_n = 64, warps = 4, stages = 1, split_kv = false>
    ```
  }];
  let parameters = (ins
    "int64_t":$block_m,
    "int64_t":$block_n,
    "int64_t":$warps,
    "int64_t":$stages,
    DefaultValuedParameter<"bool", "true">:$split_kv
  );
  let builders = [
    AttrBuilder<(ins "int64_t":$block_m, "int64_t":$block_n,
                     "int64_t":$warps, "int64_t":$stages), [{
      return $_get($_ctxt, block_m, block_n, warps, stages,
                   /*split_kv=*/true);
    }]>
  ];
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def Attn_GpuConfigAttr : Attn_Attr<"GpuConfig", "gpu_config"> {
  let summary = "How the GPU lowering spends registers and which tensor-core instructions it uses";
  let description = [{
    Knobs of the GPU lowering that change neither the tile program's
    semantics nor its tiles, only the code a kernel is made of. They exist
    for register allocation at the 255-register limit: which combination
    keeps a kernel free of spills differs by mask and target
    (docs/perf-log.md). `attn-default-config{chip=...}` writes one next to
    the tile configuration; without it every knob is off.

    * `lazy_rescale`: skip the rescaling of the output accumulator for a
      block in which no row of a warp has a new maximum (exact: the factor
      is then 1); it trades the multiplies for a warp vote and a branch,
      which also changes how ptxas schedules the block.
    * `reverse_kv`: visit the K/V blocks of each query block last to first
      (`attn-reverse-kv-loops`): with a causal mask the masked blocks at the
      diagonal come first. The blocks are summed in another order, so
      results agree up to rounding.
    * `loop_local_ids`: every K/V loop derives its thread-, lane- and
      warp-dependent offsets afresh instead of sharing them with the other
      loops, so that none of them is kept live across a loop that does not
      use it (a few integer operations per block for registers; see
      docs/gpu-kernels.md).
    * `wgmma` (sm_90a only): the dots run on Hopper's warpgroup MMA
      (`wgmma.mma_async`, operands in shared memory through descriptors,
      P from registers) instead of `mma.sync`; needs a multiple of 4 warps
      and `block_m = 16 x warps` (64 rows per warpgroup).
      `attn-assign-layouts` then picks `#attn.mma<version = 3>` and
      `#attn.swizzled<blocked>`.
    * `overlap_softmax` (with `wgmma`, `stages >= 2`): each K/V block's
      `Q K^T` is issued one block ahead and asynchronously, so that it runs
      on the tensor cores while the warpgroup computes the previous
      block's softmax (`attn-overlap-softmax`); it is waited for before
      `P V`, which stays synchronous.
    * `warp_specialize` (with `wgmma`): a producer warpgroup copies Q, K and
      V with TMA into a ring of `stages` shared buffers, each stage with
      "full" and "empty" mbarriers, while the `warps / 4` consumer
      warpgroups compute (`attn-warp-specialize`); the kernel then has 128
      threads more than `warps` says, and no CTA-wide barrier in its K/V
      loop.
    * `ping_pong` (with `warp_specialize`, two or more consumer
      warpgroups): each product of a K/V loop is one warpgroup's turn, the
      turns going round the consumer warpgroups, so that one warpgroup's
      softmax runs while another's products use the tensor cores.
    * `persistent` (with `warp_specialize`): the kernel runs at most as
      many CTAs as fit on the GPU at once and each loops over query tiles
      (`attn-warp-specialize`), so that the producer copies the next
      tile's Q and K while the consumers finish the current tile and no
      CTA's start-up and tail are exposed (short rows, where a CTA's
      K/V loop is a few blocks long). The runtime picks the grid.
    * `fma_exp2 = k` (0 to 8, default 0): `k` of every 8 exponentials of
      the online softmax are computed by a polynomial on the FMA pipe
      (round to an integer with the 1.5 x 2^23 trick, a degree-5 minimax
      polynomial for 2^f on [-1/2, 1/2], the integer added to the
      exponent bits; relative error 1.7e-7, like `ex2.approx`; -inf gives
      0 and NaN stays NaN) instead of `ex2.approx` on the MUFU pipe, which
      a softcap's `tanh` shares (two MUFU operations an element instead
      of one).
    * `peel_last_block` (with `overlap_softmax` and `warp_specialize`, not
      `ping_pong`): the K/V loops stop one block early and the last block
      runs once after them (`attn-warp-specialize`, PeelLastBlock.h),
      without the next block's product that the overlap otherwise computes
      for the last block a second time (one product in 2 x blocks: 12.5%
      at 4 blocks). It pays with few blocks per query tile and costs at
      long rows in persistent kernels; the configuration passes set it for
      key lengths up to 1024 (`withKeyLengthSchedule`).
    * `rescale_slack = t` (0 to 15, default 0): the online softmax keeps
      a row's reference maximum until the row's scores exceed it by more
      than `t` (in log2 units, after the scale), as FlashAttention-4's
      conditional rescaling does, instead of moving it to every new
      maximum. The result is the same up to rounding (numerator and
      denominator share the reference); the probabilities are then at
      most 2^t (below 16-bit floats' 65504 for t <= 15), and the
      rescaling factor of a block is exactly 1 unless some row moved. With
      `lazy_rescale` the accumulator's rescale is then skipped in most
      blocks of a long row, not only where no maximum changed.
    * `async_pv` (with `overlap_softmax` and `warp_specialize`, not
      `peel_last_block`; with `ping_pong` a block's two products are one
      turn): FlashAttention-3's rotation of
      the overlap. `P V` of block `j` is issued asynchronously after the
      next block's `Q K^T` and stays in flight across the iteration, under
      block `j + 1`'s mask and softmax; the accumulator is waited for and
      rescaled after that softmax. Only one score tile is then live (the
      one under the softmax), not two, which leaves registers for wider
      K/V blocks with the overlap (`attn-overlap-softmax`).
    * `early_qk` (with `async_pv`): block `j + 1`'s `Q K^T` is issued
      before block `j`'s softmax, as without `async_pv`, while `P V` of
      block `j - 1` stays in flight across the iteration: both products
      run under every softmax (the accumulator's wait after it completes
      both), for a second live score tile. Meant for softmaxes as
      long as the products (a softcap at D = 128: a tanh and an ex2 per
      score, MUFU work equal to the tensor work), where a warpgroup
      otherwise waits for its next scores with no softmax to run.
    * `loads_ahead` (with `overlap_softmax` and `warp_specialize`): the
      register tiles a K/V
      loop loads for its block's scores (a bias) are loaded a block ahead,
      as the overlap loads K: block `j + 1`'s right before the wait for
      block `j + 1`'s scores, carried to the next iteration in registers
      (block `lo`'s before the loops), so that the load (with
      `stage_loads`: the stage's wait and the read from shared memory)
      runs under the next block's `Q K^T` instead of on the softmax's path
      (`attn-overlap-softmax`). Costs the tile's registers across the
      iteration, which cost more than the move saves: on the H200 the forms
      measured ran 0.81-0.98x the same tile without it, one at par only
      with a 24 / 240 register split (twenty-seventh session), so no
      default sets it.
    * `prefetch_loads`: every register tile a K/V loop loads from global
      memory (a bias) is prefetched into L1 one block ahead
      (`attn.prefetch`, `attn-prefetch-loads`), so that the block's loads,
      issued right before the scores need them, hit L1 instead of waiting
      for L2; it holds no registers.
    * `stage_loads` (with `warp_specialize`): every 16-bit register tile a
      K/V loop loads from global memory (a bias) is copied by the producer
      warpgroup with TMA into a ring of `stages` shared buffers beside K
      and V (`attn-stage-loads`, `#attn.unswizzled`), and the consumers
      read it from there (`attn.local_load`) instead of waiting for global
      memory in the softmax. TMA needs the tensor's pointer and strides at
      multiples of 16 bytes (for a [.., Nq, Nk] bias: Nk a multiple of 8
      at 16 bits): the kernel compiled without the staging ships beside it
      as its TMA fallback, which the runtime launches for other tensors.
      The configuration passes set it for a 16-bit bias of a
      warp-specialized kernel (`withKeyLengthSchedule`).
    * `stage_stores` (with `warp_specialize`): the consumers write the
      output tile (16-bit elements, rows of a multiple of 64 columns) into
      a shared buffer in the 128-byte swizzle and each warpgroup copies its
      64 rows out with one TMA store (`attn-stage-stores`,
      `attn.tma_store`) instead of storing from registers, where the
      buffer fits in shared memory beside the others (else the register
      stores stay). The store reads the buffer asynchronously: the next
      tile of a persistent kernel waits for that read only before writing
      it again.
    * `group_m = g` (with `persistent`; default 0): the tiles go round in
      groups of `g` query blocks of every batch and head (Triton's
      grouped launch order along the heads), instead of every query block
      of one head before the next head. The CTAs working at once then
      share the rows of a bias broadcast over batches or heads (read from
      memory once per group instead of once per head) at the price of
      more heads' K and V per round. The configuration passes set 16 for a
      persistent kernel with such a bias (`withKeyLengthSchedule`; 1.05-1.09x
      at N = 16384, unchanged where the bias fits in L2). Under a mask the
      grouped rounds also go from the heaviest query blocks of every head
      to the lightest: a persistent causal kernel ran 1.40-1.57x at
      N = 16384 with `group_m = 16` (docs/perf-log.md, twenty-fourth
      session); the passes do not set it there, since the length dispatch
      runs one CTA per tile at such lengths, still 2-11% faster.
    * `guarded_rescale` (not with `rescale_slack`; no default sets it):
      for an online softmax with a `score_bound` R (a softcap alone) and
      no `max_bound` (f16 P), the row's reference starts at -R and moves
      only in a branch taken where the row's sum of the block's p (f32, at
      most 2^(2R) each) passes 2^15, by the sum's binary exponent (p and
      the sum scaled by exactly that power of two). Every p stays below
      2^15, in f16's range, with no per-score maximum, no shuffles for it
      and none of the reference's arithmetic. Measured slower on the H200
      (0.96-0.99x against `rescale_slack = 8` on the f16 softcap's
      192 x 80 kernels, 0.96-0.97x the eager causal 128 x 128 one;
      docs/perf-log.md, thirtieth session); at 192 x 80 (128 registers at
      entry) the kernel spills in its loop. One warp-uniform branch a
      block instead of one per row (forty-fifth session) was no faster
      (0.95-0.98x the slack on an H100) and spills the same 40 bytes, which
      go only with the branch: the per-row branches were not the cost.
    * `hoist_row_max` (no default sets it: measured slower on an H100,
      0.95-0.99x on the warp-specialized f16 softcap kernels and
      0.74-0.77x at D = 64, where it takes 137 registers and halves the
      CTAs per SM; docs/perf-log.md, thirty-second session): where an online softmax's
      scores are a monotone
      elementwise function of another tile (a softcap, `c tanh(s / c)`, of
      the product's scores) and no `max_bound` is set (f16 P),
      `attn-hoist-row-max` takes the block's row maximum of the product
      itself and applies the function to that one value per row
      (`block_max`), so that the reduction and its shuffles no longer wait
      for the last `tanh` of the block: they run beside the MUFU work, and
      the exponentials start right after it. One more `tanh` per row and
      block. Masked blocks keep the maximum of the masked scores.

    * `accumulate_bias` (no default sets it: measured no faster on an
      H100, 0.97-1.00x the default f16 [1, 1, N, N] bias kernel at
      N = 2048-16384, forty-sixth session): where a K/V loop's scores
      are `Q K^T * scale + x` (a bias tile, or any tile the body computes),
      `x` becomes the initial accumulator of the product and the scale
      moves into Q, multiplied once per query tile in f32 and rounded to
      Q's type (`attn-accumulate-bias`): the tensor cores add the bias, and
      the per-score FMA that added it goes. Q is rounded once more, so the
      results agree up to that rounding. A scale above 1 in magnitude is
      left alone (the scaled Q could overflow Q's type). With `overlap_softmax` block
      `j + 1`'s tile is read right before its product is issued.

    ```mlir
    #attn.gpu_config<lazy_rescale = true, reverse_kv = true, loop_local_ids = true>
    #attn.gpu_config<wgmma = true, overlap_softmax = true>
    #attn.gpu_config<wgmma = true, warp_specialize = true>
    #attn.gpu_config<wgmma = true, warp_specialize = true, fma_exp2 = 3>
    ```
  }];
  let parameters = (ins
    DefaultValuedParameter<"bool", "false">:$lazy_rescale,
    DefaultValuedParameter<"bool", "false">:$reverse_kv,
    DefaultValuedParameter<"bool", "false">:$loop_local_ids,
    DefaultValuedParameter<"bool", "false">:$wgmma,
    DefaultValuedParameter<"bool", "false">:$overlap_softmax,
    DefaultValuedParameter<"bool", "false">:$warp_specialize,
    DefaultValuedParameter<"bool", "false">:$ping_pong,
    DefaultValuedParameter<"bool", "false">:$persistent,
    DefaultValuedParameter<"unsigned", "0">:$fma_exp2,
    DefaultValuedParameter<"bool", "false">:$peel_last_block,
    DefaultValuedParameter<"unsigned", "0">:$rescale_slack,
    DefaultValuedParameter<"bool", "false">:$async_pv,
    DefaultValuedParameter<"bool", "false">:$prefetch_loads,
    DefaultValuedParameter<"bool", "false">:$stage_loads,
    DefaultValuedParameter<"bool", "false">:$stage_stores,
    DefaultValuedParameter<"bool", "false">:$early_qk,
    DefaultValuedParameter<"unsigned", "0">:$group_m,
    DefaultValuedParameter<"bool", "false">:$loads_ahead,
    DefaultValuedParameter<"bool", "false">:$guarded_rescale,
    DefaultValuedParameter<"bool", "false">:$hoist_row_max,
    DefaultValuedParameter<"bool", "false">:$accumulate_bias
  );
  let builders = [
    AttrBuilder<(ins "bool":$lazy_rescale, "bool":$reverse_kv,
                     "bool":$loop_local_ids), [{
      return $_get($_ctxt, lazy_rescale, reverse_kv, loop_local_ids,
                   /*wgmma=*/false, /*overlap_softmax=*/false,
                   /*warp_specialize=*/false, /*ping_pong=*/false,
                   /*persistent=*/false, /*fma_exp2=*/0,
                   /*peel_last_block=*/false, /*rescale_slack=*/0,
                   /*async_pv=*/false, /*prefetch_loads=*/false,
                   /*stage_loads=*/false, /*stage_stores=*/false,
                   /*early_qk=*/false, /*group_m=*/0,
                   /*loads_ahead=*/false, /*guarded_rescale=*/false,
                   /*hoist_row_max=*/false, /*accumulate_bias=*/false);
    }]>,
    AttrBuilder<(ins "bool":$lazy_rescale, "bool":$reverse_kv,
                     "bool":$loop_local_ids, "bool":$wgmma), [{
      return $_get($_ctxt, lazy_rescale, reverse_kv, loop_local_ids, wgmma,
                   /*overlap_softmax=*/false, /*warp_specialize=*/false,
                   /*ping_pong=*/false, /*persistent=*/false, /*fma_exp2=*/0,
                   /*peel_last_block=*/false, /*rescale_slack=*/0,
                   /*async_pv=*/false, /*prefetch_loads=*/false,
                   /*stage_loads=*/false, /*stage_stores=*/false,
                   /*early_qk=*/false, /*group_m=*/0,
                   /*loads_ahead=*/false, /*guarded_rescale=*/false,
                   /*hoist_row_max=*/false, /*accumulate_bias=*/false);
    }]>
  ];
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def Attn_BufferRole : I32EnumAttr<"BufferRole",
    "what a buffer of an attention program holds", [
    I32EnumAttrCase<"Q", 0, "q">,
    I32EnumAttrCase<"K", 1, "k">,
    I32EnumAttrCase<"V", 2, "v">,
    I32EnumAttrCase<"O", 3, "o">,
    I32EnumAttrCase<"LSE", 4, "lse">,
    I32EnumAttrCase<"Bias", 5, "bias">,
    I32EnumAttrCase<"AlibiSlopes", 6, "alibi_slopes">,
    I32EnumAttrCase<"Input", 7, "input">,
    I32EnumAttrCase<"Output", 8, "output">
  ]> {
  let cppNamespace = "::mlir::attn";
  let genSpecializedAttr = 0;
}
def Attn_BufferRoleAttr : EnumAttr<Attn_Dialect, Attn_BufferRole, "role">;
def Attn_BufferRoleArrayAttr
    : TypedArrayAttrBase<Attn_BufferRoleAttr, "array of buffer roles">;

def Attn_KVRangeKind : I32EnumAttr<"KVRangeKind",
    "which K/V blocks an attn.kv_range op counts", [
    I32EnumAttrCase<"Visible", 0, "visible">,
    I32EnumAttrCase<"Unmasked", 1, "unmasked">,
    I32EnumAttrCase<"Hidden", 2, "hidden">
  ]> {
  let cppNamespace = "::mlir::attn";
}

def Attn_ReductionKind : I32EnumAttr<"ReductionKind",
    "row reduction of a tile", [
    I32EnumAttrCase<"Max", 0, "max">,
    I32EnumAttrCase<"Sum", 1, "sum">
  ]> {
  let cppNamespace = "::mlir::attn";
}

#endif // ATTN_DIALECT_ATTN_IR_ATTNATTRS_TD
