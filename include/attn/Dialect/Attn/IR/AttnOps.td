//===- AttnOps.td - all attn ops ---------------------------*- tablegen -*-===//
//
// The op and dialect generators run on this file; each level of the dialect
// lives in its own file.
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_DIALECT_ATTN_IR_ATTNOPS_TD
#define ATTN_DIALECT_ATTN_IR_ATTNOPS_TD

include "attn/Dialect/Attn/IR/AttnAttentionOp.td"
include "attn/Dialect/Attn/IR/AttnTileOps.td"
include "attn/Dialect/Attn/IR/AttnGPUOps.td"
include "attn/Dialect/Attn/IR/AttnWarpSpecializeOps.td"

#endif // ATTN_DIALECT_ATTN_IR_ATTNOPS_TD
