//===- AttnAttentionOp.td - the high-level attention op ----*- tablegen -*-===//

#ifndef ATTN_DIALECT_ATTN_IR_ATTNATTENTIONOP_TD
#define ATTN_DIALECT_ATTN_IR_ATTNATTENTIONOP_TD

include "attn/Dialect/Attn/IR/AttnAttrs.td"
include "mlir/Interfaces/DestinationStyleOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Attn_RankedTensorOrMemRef : AnyTypeOf<[AnyRankedTensor, AnyMemRef],
    "ranked tensor or memref">;

def Attn_AttentionOp : Attn_Op<"attention", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    DestinationStyleOpInterface]> {
  let summary = "Scaled dot-product attention: softmax(Q K^T * scale + mask) V";
  let description = [{
    Computes, for every batch `b`, query head `h` and query row `i`,

    ```
    s[j]   = scale * dot(Q[b, h, i, :], K[b, h / G, j, :])   (masked: -inf)
    O[b, h, i, :] = sum_j softmax(s)[j] * V[b, h / G, j, :]
    LSE[b, h, i]  = log(sum_j exp(s[j]))
    ```

    with `G = Hq / Hkv` query heads sharing one K/V head (grouped-query
    attention; `G = Hq` is multi-query attention).

    Operands are `Q [B, Hq, Nq, D]`, `K [B, Hkv, Nk, D]`, `V [B, Hkv, Nk, Dv]`
    and the destinations `O [B, Hq, Nq, Dv]` and, optionally, the log-sum-exp
    `LSE [B, Hq, Nq]` in f32 (the backward pass needs it). Q, K, V and O share
    one element type: f16, bf16 or f32; scores, softmax and accumulation are
    f32 whatever the input type.

    The op is in destination-passing style: on tensors it returns the updated
    destinations, on memrefs it writes them and returns nothing.

    * `scale` defaults to `1/sqrt(D)`.
    * `mask` is an `#attn.mask` (default `#attn.mask<none>`).
    * `config` is an `#attn.tile_config`; absent, `attn-default-config` picks one.
    * `gpu_config` is an `#attn.gpu_config` (register knobs of the GPU
      lowering); `attn-default-config{chip=...}` picks one for GPU targets.

    A row that sees no key (possible with bottom-right causal masks when
    `Nq > Nk`, or with windows) has output 0 and log-sum-exp `-inf`.

    Example (causal GQA, tensors):

    ```mlir
    %o, %lse = attn.attention
        ins(%q, %k, %v : tensor<2x8x128x64xf16>, tensor<2x2x128x64xf16>,
                         tensor<2x2x128x64xf16>)
        outs(%o0, %lse0 : tensor<2x8x128x64xf16>, tensor<2x8x128xf32>)
        {mask = #attn.mask<causal, top_left>}
        -> tensor<2x8x128x64xf16>, tensor<2x8x128xf32>
    ```

    Room is left (as further optional operands and attributes) for fp8 inputs
    with their scales, variable-length sequences given by offsets, logit
    softcapping and an additive score bias; none of these is implemented yet,
    and nothing here accepts them.
  }];

  let arguments = (ins
    Attn_RankedTensorOrMemRef:$query,
    Attn_RankedTensorOrMemRef:$key,
    Attn_RankedTensorOrMemRef:$value,
    Attn_RankedTensorOrMemRef:$output,
    Optional<Attn_RankedTensorOrMemRef>:$lse,
    OptionalAttr<F64Attr>:$scale,
    OptionalAttr<Attn_MaskAttr>:$mask,
    OptionalAttr<Attn_TileConfigAttr>:$config,
    OptionalAttr<Attn_GpuConfigAttr>:$gpu_config
  );
  let results = (outs Variadic<AnyRankedTensor>:$results);

  let assemblyFormat = [{
    `ins` `(` $query `,` $key `,` $value `:` type($query) `,` type($key) `,`
      type($value) `)`
    `outs` `(` $output (`,` $lse^)? `:` type($output) (`,` type($lse)^)? `)`
    attr-dict (`->` type($results)^)?
  }];
  let hasVerifier = 1;

  let extraClassDeclaration = [{
    /// The mask, or `#attn.mask<none>` when the op carries none.
    MaskAttr getMaskOrDefault();
    /// The softmax scale: the `scale` attribute or `1/sqrt(D)`.
    double getScaleOrDefault();
    /// Whether the op works on memrefs (and so has no results).
    bool hasBufferSemantics() {
      return ::llvm::isa<MemRefType>(getOutput().getType());
    }
    ShapedType getQueryType() { return ::llvm::cast<ShapedType>(getQuery().getType()); }
    ShapedType getKeyType() { return ::llvm::cast<ShapedType>(getKey().getType()); }
    ShapedType getValueType() { return ::llvm::cast<ShapedType>(getValue().getType()); }
    ShapedType getOutputType() { return ::llvm::cast<ShapedType>(getOutput().getType()); }
    MutableOperandRange getDpsInitsMutable();
  }];
}

#endif // ATTN_DIALECT_ATTN_IR_ATTNATTENTIONOP_TD
