//===- PersistentTiles.h - a warp-specialized program over many tiles -*- C++ -*-===//
//
// A warp-specialized kernel with one CTA per SM (its registers fill the
// SM) exposes each CTA's start (barrier set-up, the first copies' latency)
// and end (normalizing and storing O) once per query tile: about two K/V
// blocks' worth of time, a quarter of a CTA's life at N = 1024. A
// persistent program runs as many CTAs as fit and loops over the tiles in
// each of its roles, so that the producer copies the next tile's Q and K
// while the consumers finish the current one. attn-warp-specialize calls
// this for the `persistent` knob after specializing the program.
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_DIALECT_ATTN_TRANSFORMS_PERSISTENTTILES_H
#define ATTN_DIALECT_ATTN_TRANSFORMS_PERSISTENTTILES_H

#include "attn/Dialect/Attn/IR/AttnDialect.h"

#include <string>

namespace mlir {
namespace attn {

/// What attn-warp-specialize built, as far as the tile loop must know it.
struct SpecializedProgram {
  ProgramOp program;
  WarpSpecializeOp ws;
  /// The barrier of the copies before the chain (Q) and the consumers'
  /// wait for it; null when there are none.
  Value pre;
  MBarrierWaitOp preWait;
  /// The chain's range of blocks (values of the program body) and its last
  /// loop (in the consumers).
  Value lower, upper;
  scf::ForOp lastLoop;
  /// A constant 0 added to every chain position that derives a stage and a
  /// phase: the blocks the CTA's earlier tiles went through.
  Value base;
  /// A constant 0 added to the positions of a ring whose copy before the
  /// chain takes a position per tile: the tiles the CTA did before.
  Value tilesBefore;
  /// Consumer threads (each arrives at an "empty" barrier).
  int64_t consumerThreads;
};

/// Makes `s.program` persistent (ProgramOp's `persistent`): both roles
/// loop over the tiles, the program ids computed from the tile index; the
/// ring positions continue from tile to tile; the copies before the chain
/// get an "empty" barrier, arrived at after the chain. False with `why`
/// (and the program unchanged) where the program is not as
/// attn-warp-specialize leaves it.
bool makePersistent(SpecializedProgram &s, std::string &why);

} // namespace attn
} // namespace mlir

#endif // ATTN_DIALECT_ATTN_TRANSFORMS_PERSISTENTTILES_H
