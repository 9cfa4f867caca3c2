//===- SearchSpace.h - tuning candidates per target -------------*- C++ -*-===//
//
// The configurations a tuner may try for one attn.attention on one target,
// declared in one place next to the constraints the lowerings check
// (attn-tile: block_m a multiple of 16 x warps; attn-assign-layouts: wgmma
// only on sm_90a, with block_m = 16 x warps and whole warpgroups), and an
// analytic cost model that ranks the candidates that assemble.
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_TUNING_SEARCHSPACE_H
#define ATTN_TUNING_SEARCHSPACE_H

#include "attn/Dialect/Attn/IR/AttnDialect.h"
#include "attn/Tuning/TuningDB.h"

#include <string>
#include <vector>

namespace mlir {
namespace attn {

/// One point of the search space: a tile configuration and the GPU
/// lowering's knobs.
struct TuningCandidate {
  int64_t blockM = 64, blockN = 64, warps = 4, stages = 2;
  bool wgmma = false, lazyRescale = false, reverseKV = false,
       loopLocalIds = false, warpSpecialize = false, persistent = false;
  /// With warpSpecialize: Q K^T one block ahead under the softmax
  /// (attn-overlap-softmax), as the defaults.
  bool overlapSoftmax = true;
  /// With overlapSoftmax: P V in flight across the iteration
  /// (`#attn.gpu_config<async_pv>`).
  bool asyncPV = false;
  /// With asyncPV: the next block's Q K^T issued before the softmax too
  /// (`#attn.gpu_config<early_qk>`).
  bool earlyQK = false;

  TileConfigAttr tileConfig(MLIRContext *ctx) const;
  GpuConfigAttr gpuConfig(MLIRContext *ctx) const;
  /// "wgmma 128x64 w8 s2" and the knobs that are on.
  std::string str() const;
};

/// The legal candidates for `chip` (sm_80, sm_90a): sm_80 and sm_90a
/// mma.sync tiles {64 x (32, 64, 128) on 4 warps, 128 x (32, 64, 128) on 4
/// or 8}, stages 1-3, lazy rescale on or off; sm_90a adds wgmma {64 x (64,
/// 128) on 4 warps, 128 x (64, 128) on 8}, stages 1-3, and those on 8 warps
/// warp-specialized (a TMA producer warpgroup) with stages 2-3 (on one
/// consumer warpgroup they measured slower: docs/perf-log.md), with and
/// without the overlapped Q K^T, each also persistent (the CTAs loop over
/// the tiles), the overlapped ones also with P V in flight across the
/// iteration (async_pv), and 128-row warp-specialized tiles with K/V
/// blocks of 80, 96, 112, 144, 160, 176 and 192 keys (2 stages, the same
/// knobs), a 128 x 192 wgmma tile without a producer, 192-row tiles on 12
/// warps (three consumer warpgroups; K/V blocks of 64-112 keys, the same
/// knobs) and async_pv with early_qk at 128 x 80-112. Empty for another
/// chip.
std::vector<TuningCandidate> enumerateCandidates(llvm::StringRef chip);

/// The forms an mma.sync candidate takes with the mma.sync lowering's
/// register knobs, to compile in this order where the candidate itself
/// spills: its K/V loop last block first (reverse_kv), per-loop thread ids
/// (loop_local_ids), both. They change which values ptxas keeps across the
/// K/V loops, not the work, so the cost model does not tell them apart; the
/// heuristic's 128-row sm_80 tiles exist only through them (their forms
/// without spill 4-136 bytes: DefaultConfig.cpp, docs/tuning.md). Empty for
/// a wgmma candidate and for one that already sets either knob.
std::vector<TuningCandidate> registerFitForms(const TuningCandidate &c);

/// What ptxas reported for a candidate's kernel.
struct KernelResources {
  int64_t registers = 0, spillBytes = 0, stackBytes = 0, sharedBytes = 0;
  bool ignoredSetmaxnreg = false; // ptxas warning C7508
};

/// The problem a candidate is ranked for: B * Hq query blocks of Nq rows
/// against Nk keys, on a chip with `sms` multiprocessors.
struct TuningProblem {
  int64_t batchHeads = 32, nq = 4096, nk = 4096, d = 128, dv = 128;
  bool causal = false;
  /// Keys a query sees under a sliding window (left + right + 1), or -1.
  int64_t window = -1;
  int64_t sms = 132;
};

/// Analytic cost model (lower is better, arbitrary units ~ time): the waves
/// of CTAs over the SMs at the occupancy registers, shared memory and
/// threads allow (one CTA for a warp-specialized kernel, whose setmaxnreg
/// budget is the register file), the tail the last wave leaves, the K/V bytes each query
/// block re-reads against its FLOPs, and a pipeline-depth term. A ranking
/// for choosing what to measure, not a prediction of TFLOP/s.
double estimateCost(const TuningCandidate &c, const KernelResources &r,
                    const TuningProblem &p);

/// estimateCost with `perSM` CTAs resident per SM (what the resources
/// allow; the only way they enter the model).
double estimateCostAt(const TuningCandidate &c, int64_t perSM,
                      const TuningProblem &p);

/// A lower bound of estimateCost over every resource report `c`'s kernel
/// could get (its minimum over the CTAs per SM its threads allow): what
/// attn-tune ranks a candidate by before compiling it, so that it compiles
/// only the candidates that can still reach a bucket's best --top.
double estimateCostBound(const TuningCandidate &c, const TuningProblem &p);

/// The problem class of `op` on `chip` (the bucket of its static key length,
/// else of `seqLen`), or nothing when a head dim is dynamic: the key
/// attn-apply-tuning looks up and attn-tune reports.
std::optional<TuningKey> getTuningKey(AttentionOp op, llvm::StringRef chip,
                                      int64_t seqLen);

} // namespace attn
} // namespace mlir

#endif // ATTN_TUNING_SEARCHSPACE_H
