//===- AttnBase.td - attn dialect definition ---------------*- tablegen -*-===//
//
// The attn dialect: attention at two levels, the high-level `attn.attention`
// op that an ML compiler emits and a Triton-like tile level that spells the
// FlashAttention algorithm out block by block.
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_DIALECT_ATTN_IR_ATTNBASE_TD
#define ATTN_DIALECT_ATTN_IR_ATTNBASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def Attn_Dialect : Dialect {
  let name = "attn";
  let cppNamespace = "::mlir::attn";
  let summary = "Attention, from one op down to FlashAttention-style tile programs";
  let description = [{
    The dialect has two levels.

    * The **high level** is a single op, `attn.attention`, that computes
      `softmax(Q K^T * scale + mask) V` over 4-D operands `[batch, heads,
      sequence, head_dim]`, on tensors or on memrefs, with causal and
      sliding-window masks, grouped-query attention and an optional
      log-sum-exp output.
    * The **tile level** is a Triton-like program: `attn.program` runs its
      body once per (query block, batch x head) pair; the body loads blocks
      (`attn.load`), multiplies them (`attn.dot`), masks scores (`attn.mask`),
      updates an online softmax (`attn.online_softmax`) inside an `scf.for`
      over K/V blocks whose bounds come from `attn.kv_range`, and writes the
      normalised result (`attn.finalize`, `attn.store`). Tiles are ranked
      tensors with static shapes; elementwise math on tiles uses `arith` and
      `math` ops on those tensors.

    The `attn-tile` pass turns the first level into the second; the
    `attn-split-kv-loop` pass peels masked K/V blocks from unmasked ones; the
    CPU and GPU lowerings start from the tile level.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::math::MathDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect"
  ];
  let useDefaultAttributePrinterParser = 1;
  let useDefaultTypePrinterParser = 1;
}

class Attn_Op<string mnemonic, list<Trait> traits = []>
    : Op<Attn_Dialect, mnemonic, traits>;

class Attn_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Attn_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

#endif // ATTN_DIALECT_ATTN_IR_ATTNBASE_TD
