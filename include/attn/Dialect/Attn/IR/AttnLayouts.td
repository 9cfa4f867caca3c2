//===- AttnLayouts.td - layouts of tiles on a GPU ----------*- tablegen -*-===//
//
// Where the elements of a tile live on a GPU, as encodings of the tile's
// tensor type (in the spirit of TritonGPU's encodings): register layouts say
// which thread holds which element in which register, shared layouts how a
// tile is laid out in shared memory. `attn-assign-layouts{chip=...}` picks
// them; the GPU lowering reads them. Tiles without an encoding are the
// target-independent tile level that the CPU lowering takes.
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_DIALECT_ATTN_IR_ATTNLAYOUTS_TD
#define ATTN_DIALECT_ATTN_IR_ATTNLAYOUTS_TD

include "attn/Dialect/Attn/IR/AttnBase.td"
include "mlir/IR/TensorEncoding.td"

def Attn_RegisterLayoutInterface : AttrInterface<"RegisterLayoutInterface"> {
  let cppNamespace = "::mlir::attn";
  let description = [{
    A distribution of a tile's elements over the registers of the threads
    of one program instance (a CTA). Every thread holds the same number of
    elements; the GPU lowering turns a tile of this layout into that many
    scalar values per thread, in an order the layout defines.
  }];
  let methods = [
    InterfaceMethod<[{The number of elements each thread holds of a tile of
                      this shape.}],
      "int64_t", "getElementsPerThread", (ins "::llvm::ArrayRef<int64_t>":$shape)>,
    InterfaceMethod<[{The number of warps the layout spreads a tile over.}],
      "int64_t", "getWarps", (ins)>
  ];
}

def Attn_MmaLayoutAttr : Attn_Attr<"MmaLayout", "mma", [
    DeclareAttrInterfaceMethods<VerifiableTensorEncoding>,
    DeclareAttrInterfaceMethods<Attn_RegisterLayoutInterface>]> {
  let summary = "The accumulator layout of the tensor cores (mma.sync m16n8, wgmma m64nN)";
  let description = [{
    A `[M, N]` tile with `M = 16 x MT x warps` rows and `N = 8 x NT`
    columns: warp `w` holds rows `[16 MT w, 16 MT (w + 1))`, in `MT`
    m-tiles of 16 rows; within an m-tile and an 8-column n-tile, lane
    `4 g + t` holds the four elements `(g, 2t)`, `(g, 2t + 1)`,
    `(g + 8, 2t)`, `(g + 8, 2t + 1)` (the C fragment of PTX's
    `mma.m16n8k16`). A thread's `4 MT NT` elements are ordered by m-tile,
    then n-tile, then those four. Any element type (scores, probabilities,
    masks and index tiles share the layout).

    `version` says which instruction produces and consumes the layout, as
    TritonGPU's `versionMajor` does: 2 (the default) is `mma.sync`
    m16n8k16, 3 is Hopper's warpgroup `wgmma.mma_async` m64nNk16 (sm_90a),
    whose accumulator is the same distribution with one m-tile per warp:
    warpgroup `w / 4` holds rows `[64 (w / 4), 64 (w / 4 + 1))` and its warp
    `w % 4` the 16 rows `[16 w, 16 w + 16)`. Version 3 needs a multiple of
    4 warps and `M = 16 x warps` (`MT = 1`).

    ```mlir
    tensor<128x64xf32, #attn.mma<warps = 4>>     // MT = 2, NT = 8: 64 per thread
    tensor<128x64xf32, #attn.mma<warps = 8, version = 3>>   // wgmma: 32 per thread
    ```
  }];
  let parameters = (ins "int64_t":$warps,
                        DefaultValuedParameter<"int64_t", "2">:$version);
  let builders = [
    AttrBuilder<(ins "int64_t":$warps), [{
      return $_get($_ctxt, warps, /*version=*/2);
    }]>
  ];
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// 16-row m-tiles per warp of an `rows`-row tile.
    int64_t getMTiles(int64_t rows) const { return rows / (16 * getWarps()); }
    /// Whether wgmma (warpgroup MMA, sm_90a) produces the layout.
    bool isWarpgroup() const { return getVersion() == 3; }
  }];
}

def Attn_DotOperandLayoutAttr : Attn_Attr<"DotOperandLayout", "dot_operand", [
    DeclareAttrInterfaceMethods<VerifiableTensorEncoding>,
    DeclareAttrInterfaceMethods<Attn_RegisterLayoutInterface>]> {
  let summary = "The A-operand layout of mma.sync m16n8k16";
  let description = [{
    A `[M, K]` tile (`M = 16 x MT x warps`, `K = 16 x KS`) as the A operand
    of `mma.m16n8k16`: per m-tile and 16-column k-step, lane `4 g + t`
    holds `a0 = (g, 2t..2t+1)`, `a1 = (g + 8, 2t..)`, `a2 = (g, 2t + 8..)`,
    `a3 = (g + 8, 2t + 8..)`, eight elements ordered by m-tile, k-step,
    then `a0..a3`. The A fragment of a k-step is exactly the accumulator of
    the two n-tiles it spans, so `attn.convert_layout` from the parent
    `#attn.mma` moves no data. Only the A operand has a register layout:
    B operands are read from shared memory. With a version-3 parent it is
    the register A operand of wgmma (the same fragment per warp).

    ```mlir
    tensor<128x64xf16, #attn.dot_operand<a, #attn.mma<warps = 4>>>
    ```
  }];
  let parameters = (ins "::mlir::attn::MmaLayoutAttr":$parent);
  let assemblyFormat = "`<` `a` `,` qualified($parent) `>`";
}

def Attn_RowsLayoutAttr : Attn_Attr<"RowsLayout", "rows", [
    DeclareAttrInterfaceMethods<VerifiableTensorEncoding>,
    DeclareAttrInterfaceMethods<Attn_RegisterLayoutInterface>]> {
  let summary = "One value per row of a tile in the parent register layout";
  let description = [{
    A 1-D `[M]` tile whose element `r` sits with the threads that hold row
    `r` of an `[M, *]` tile in the parent layout (the slice of the parent
    along its columns): running maxima and sums, the log-sum-exp. With an
    `#attn.mma` parent every thread holds `2 MT` values, rows `g` and
    `g + 8` of each of its m-tiles, and the four lanes of a quad hold the
    same ones.

    ```mlir
    tensor<128xf32, #attn.rows<#attn.mma<warps = 4>>>
    ```
  }];
  let parameters = (ins "::mlir::attn::MmaLayoutAttr":$parent);
  let assemblyFormat = "`<` qualified($parent) `>`";
}

def Attn_SwizzledSharedLayoutAttr : Attn_Attr<"SwizzledSharedLayout", "swizzled", [
    DeclareAttrInterfaceMethods<VerifiableTensorEncoding>]> {
  let summary = "A tile in shared memory, rows of 16-byte chunks XOR-swizzled";
  let description = [{
    A row-major `[R, C]` tile of 2-byte elements in shared memory whose
    16-byte chunk `c` of row `r` is stored at chunk `c ^ (r % 8)`, so that
    the eight rows an `ldmatrix` reads lie in eight different bank groups.
    `C` must be a multiple of 64 (of `span / 2` with a `span`). On a tensor type it says that the tile is
    to be staged through shared memory (`attn-stage-shared` makes that an
    `!attn.shared` buffer); on a buffer type it is the buffer's layout.

    `blocked` stores the tile as `C / 64` column blocks, each an `[R, 64]`
    tile of 128-byte rows swizzled the same way (block `b` at byte
    `128 R b`; `R` a multiple of 8): the 128-byte-swizzle canonical layout
    of wgmma's shared-memory operands, K-major or MN-major alike, whose
    8-row atoms must start at multiples of 1024 bytes (attn-allocate-shared
    aligns such buffers so).

    `span` (blocked only; 32, 64 or 128 bytes, 128 when absent) is the width
    of a column block's rows, the swizzle mode of the TMA box that writes
    it: `C / (span / 2)` blocks of `span`-byte rows, block `b` at byte
    `span R b`, chunk `c` of row `r` at chunk `c ^ ((r / (128 / span)) %
    (span / 16))` (TMA's swizzle: address bits 7.. XORed into bits 4..).
    The narrower spans are for tiles that no dot reads, whose column count
    is no multiple of 64 (a bias of 80, 96 or 112 columns, staged by
    attn-stage-loads): in them, as in the 128-byte span, the eight rows of
    an accumulator-layout quad column lie in eight different bank groups,
    which unswizzled rows of such a length do not (docs/perf-log.md,
    eighteenth session: one extra wavefront per load at 80 columns).

    ```mlir
    tensor<64x128xf16, #attn.swizzled>
    tensor<64x128xf16, #attn.swizzled<blocked>>
    tensor<128x112xf16, #attn.swizzled<blocked, span = 32>>
    ```
  }];
  let parameters = (ins DefaultValuedParameter<"bool", "false">:$blocked,
                        DefaultValuedParameter<"int64_t", "128">:$span);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let builders = [
    AttrBuilder<(ins), [{ return $_get($_ctxt, /*blocked=*/false, 128); }]>,
    AttrBuilder<(ins "bool":$blocked),
                [{ return $_get($_ctxt, blocked, 128); }]>
  ];
  let extraClassDeclaration = [{
    /// Byte alignment the buffer must start at: a blocked tile's swizzle
    /// atoms (8 rows of `span` bytes) at multiples of their size, since
    /// the hardware swizzles absolute addresses.
    int64_t getAlignment() const { return getBlocked() ? 8 * getSpan() : 128; }
    /// Columns of 2-byte elements in one column block (one TMA box).
    int64_t getBlockColumns() const { return getBlocked() ? getSpan() / 2 : 0; }
  }];
}

def Attn_UnswizzledSharedLayoutAttr : Attn_Attr<"UnswizzledSharedLayout", "unswizzled", [
    DeclareAttrInterfaceMethods<VerifiableTensorEncoding>]> {
  let summary = "A tile in shared memory, plain row-major";
  let description = [{
    A row-major `[R, C]` tile of 2-byte elements in shared memory, row `r`
    at byte `2 C r`, no swizzle: what one TMA box without a swizzle mode
    writes (`C` at most 256 and a multiple of 8, whole 16-byte units), and
    what `attn.local_load` reads back in a register layout. For tiles that
    are not dot operands (a score modification's bias, staged by
    `attn-stage-loads`), which no `ldmatrix` or wgmma descriptor reads.
    Buffers start at 128-byte boundaries.

    ```mlir
    tensor<128x80xf16, #attn.unswizzled>
    !attn.shared<2x128x80xf16, #attn.unswizzled>
    ```
  }];
  let extraClassDeclaration = [{
    /// Byte alignment the buffer must start at.
    int64_t getAlignment() const { return 128; }
  }];
}

#endif // ATTN_DIALECT_ATTN_IR_ATTNLAYOUTS_TD
