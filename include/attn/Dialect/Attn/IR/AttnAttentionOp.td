//===- AttnAttentionOp.td - the high-level attention op ----*- tablegen -*-===//

#ifndef ATTN_DIALECT_ATTN_IR_ATTNATTENTIONOP_TD
#define ATTN_DIALECT_ATTN_IR_ATTNATTENTIONOP_TD

include "attn/Dialect/Attn/IR/AttnAttrs.td"
include "mlir/Interfaces/DestinationStyleOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"

def Attn_RankedTensorOrMemRef : AnyTypeOf<[AnyRankedTensor, AnyMemRef],
    "ranked tensor or memref">;

def Attn_AttentionOp : Attn_Op<"attention", [
    AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    DestinationStyleOpInterface]> {
  let summary = "Scaled dot-product attention: softmax(mod(Q K^T * scale) + mask) V";
  let description = [{
    Computes, for every batch `b`, query head `h` and query row `i`,

    ```
    s[j]   = scale * dot(Q[b, h, i, :], K[b, h / G, j, :])
    s[j]   = softcap * tanh(s[j] / softcap)                  (with `softcap`)
    s[j]  -= alibi_slopes[h] * |j - d(i)|                    (with `alibi_slopes`)
    s[j]  += bias[b', h', i, j]                              (with `bias`)
    s[j]   = score_mod(s[j], b, h, i, j)                     (with a score_mod region)
    s[j]   = -inf where `mask` or `mask_mod(b, h, i, j)` hides key j
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

    Score modifications, applied in the order above to the scaled scores
    (FlashAttention-2's order for softcap and ALiBi; FlexAttention's
    `score_mod` on scaled scores):

    * `softcap` (a positive f64): logit soft-capping, `c * tanh(s / c)`.
    * `alibi_slopes` (`[Hq]`, f32): ALiBi, a linear penalty on the distance
      to the query's diagonal key `d(i)` (`i`, plus `Nk - Nq` when the mask
      is bottom-right aligned), FlashAttention-2's convention: under a
      causal mask it is `slope * (j - d(i))`.
    * `bias` (`[B or 1, Hq or 1, Nq, Nk]`, f16, bf16 or f32): an additive
      bias; a dimension of extent 1 broadcasts (`b' = 0`, `h' = 0`).
    * `score_mod` region: `(score: f32, b: index, h: index, q_idx: index,
      kv_idx: index) -> f32`, elementwise `arith`/`math` only.
    * `mask_mod` region: `(b: index, h: index, q_idx: index, kv_idx: index)
      -> i1`, true where the key is visible; elementwise `arith`/`math`.
      It combines with `mask` (a key must pass both).

    The regions may use their arguments and what they compute themselves
    (constants included), nothing from outside. They end in `attn.yield`.

    The op is in destination-passing style: on tensors it returns the updated
    destinations, on memrefs it writes them and returns nothing.

    * `scale` defaults to `1/sqrt(D)`.
    * `mask` is an `#attn.mask` (default `#attn.mask<none>`).
    * `config` is an `#attn.tile_config`; absent, `attn-default-config` picks one.
    * `gpu_config` is an `#attn.gpu_config` (register knobs of the GPU
      lowering); `attn-default-config{chip=...}` picks one for GPU targets.

    A row that sees no key (possible with bottom-right causal masks when
    `Nq > Nk`, with windows, or with a `mask_mod`) has output 0 and
    log-sum-exp `-inf`.

    Example (causal GQA, tensors):

    ```mlir
    %o, %lse = attn.attention
        ins(%q, %k, %v : tensor<2x8x128x64xf16>, tensor<2x2x128x64xf16>,
                         tensor<2x2x128x64xf16>)
        outs(%o0, %lse0 : tensor<2x8x128x64xf16>, tensor<2x8x128xf32>)
        {mask = #attn.mask<causal, top_left>}
        -> tensor<2x8x128x64xf16>, tensor<2x8x128xf32>
    ```

    Example (softcap, a bias broadcast over the batch, a document mask):

    ```mlir
    attn.attention ins(%q, %k, %v : memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>)
                   bias(%bias : memref<1x?x?x?xf32>)
                   outs(%o : memref<?x?x?x128xbf16>) {softcap = 30.0 : f64}
                   mask_mod {
    ^bb0(%b: index, %h: index, %qi: index, %ki: index):
      %c256 = arith.constant 256 : index
      %dq = arith.divui %qi, %c256 : index
      %dk = arith.divui %ki, %c256 : index
      %same = arith.cmpi eq, %dq, %dk : index
      attn.yield %same : i1
    }
    ```

    Room is left (as further optional operands and attributes) for fp8
    inputs with their scales and variable-length sequences given by
    offsets; neither is implemented yet, and nothing here accepts them.
  }];

  let arguments = (ins
    Attn_RankedTensorOrMemRef:$query,
    Attn_RankedTensorOrMemRef:$key,
    Attn_RankedTensorOrMemRef:$value,
    Optional<Attn_RankedTensorOrMemRef>:$bias,
    Optional<Attn_RankedTensorOrMemRef>:$alibi_slopes,
    Attn_RankedTensorOrMemRef:$output,
    Optional<Attn_RankedTensorOrMemRef>:$lse,
    OptionalAttr<F64Attr>:$scale,
    OptionalAttr<Attn_MaskAttr>:$mask,
    OptionalAttr<F64Attr>:$softcap,
    OptionalAttr<Attn_TileConfigAttr>:$config,
    OptionalAttr<Attn_GpuConfigAttr>:$gpu_config
  );
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let regions = (region AnyRegion:$score_mod, AnyRegion:$mask_mod);

  let assemblyFormat = [{
    `ins` `(` $query `,` $key `,` $value `:` type($query) `,` type($key) `,`
      type($value) `)`
    (`bias` `(` $bias^ `:` type($bias) `)`)?
    (`alibi_slopes` `(` $alibi_slopes^ `:` type($alibi_slopes) `)`)?
    `outs` `(` $output (`,` $lse^)? `:` type($output) (`,` type($lse)^)? `)`
    attr-dict (`->` type($results)^)?
    (`score_mod` $score_mod^)?
    (`mask_mod` $mask_mod^)?
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;

  let extraClassDeclaration = [{
    /// The mask, or `#attn.mask<none>` when the op carries none.
    MaskAttr getMaskOrDefault();
    /// The softmax scale: the `scale` attribute or `1/sqrt(D)`.
    double getScaleOrDefault();
    /// Whether the op works on memrefs (and so has no results).
    bool hasBufferSemantics() {
      return ::llvm::isa<MemRefType>(getOutput().getType());
    }
    /// Whether the op modifies its scores beyond scale and mask.
    bool hasScoreModifications() {
      return getSoftcap() || getBias() || getAlibiSlopes() ||
             !getScoreMod().empty() || !getMaskMod().empty();
    }
    ShapedType getQueryType() { return ::llvm::cast<ShapedType>(getQuery().getType()); }
    ShapedType getKeyType() { return ::llvm::cast<ShapedType>(getKey().getType()); }
    ShapedType getValueType() { return ::llvm::cast<ShapedType>(getValue().getType()); }
    ShapedType getOutputType() { return ::llvm::cast<ShapedType>(getOutput().getType()); }
    MutableOperandRange getDpsInitsMutable();
  }];
}

def Attn_YieldOp : Attn_Op<"yield", [Pure, Terminator, ReturnLike,
    ParentOneOf<["AttentionOp", "KVRangeOp", "MaskOp"]>]> {
  let summary = "The value a score_mod or mask_mod region computes";
  let description = [{
    ```mlir
    attn.yield %score : f32
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = "$values attr-dict `:` type($values)";
}

#endif // ATTN_DIALECT_ATTN_IR_ATTNATTENTIONOP_TD
