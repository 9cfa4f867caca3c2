//===- SearchSpace.cpp - tuning candidates and their cost -----------------===//

#include "attn/Tuning/SearchSpace.h"

#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace mlir::attn;

TileConfigAttr TuningCandidate::tileConfig(MLIRContext *ctx) const {
  return TileConfigAttr::get(ctx, blockM, blockN, warps, stages);
}

GpuConfigAttr TuningCandidate::gpuConfig(MLIRContext *ctx) const {
  return GpuConfigAttr::get(
      ctx, lazyRescale, reverseKV, loopLocalIds, wgmma,
      /*overlap_softmax=*/warpSpecialize && overlapSoftmax, warpSpecialize,
      /*ping_pong=*/false, persistent,
      /*fma_exp2=*/0, /*peel_last_block=*/false,
      /*rescale_slack=*/0,
      /*async_pv=*/warpSpecialize && overlapSoftmax && asyncPV,
      /*prefetch_loads=*/false, /*stage_loads=*/false,
      /*stage_stores=*/false,
      /*early_qk=*/warpSpecialize && overlapSoftmax && asyncPV && earlyQK,
      /*group_m=*/0, /*loads_ahead=*/false, /*guarded_rescale=*/false,
      /*hoist_row_max=*/false, /*accumulate_bias=*/false);
}

std::string TuningCandidate::str() const {
  std::string s = (wgmma ? "wgmma " : "mma.sync ") + std::to_string(blockM) +
                  "x" + std::to_string(blockN) + " w" + std::to_string(warps) +
                  " s" + std::to_string(stages);
  if (lazyRescale)
    s += " lazy";
  if (reverseKV)
    s += " reverse";
  if (loopLocalIds)
    s += " ids";
  if (warpSpecialize)
    s += overlapSoftmax ? " ws overlap" : " ws";
  if (warpSpecialize && overlapSoftmax && asyncPV)
    s += earlyQK ? " async_pv early_qk" : " async_pv";
  if (persistent)
    s += " persistent";
  return s;
}

/// Appends the warp-specialized wgmma forms of a `blockM` x `blockN` tile
/// on `warps` consumer warps with two stages: with and without the
/// overlapped Q K^T, the overlapped ones also with async_pv, each also
/// persistent.
static void addWarpSpecializedForms(std::vector<TuningCandidate> &out,
                                    int64_t blockM, int64_t blockN,
                                    int64_t warps) {
  for (bool overlap : {true, false})
    for (bool asyncPV : {false, true})
      for (bool persistent : {false, true}) {
        if (asyncPV && !overlap)
          continue;
        TuningCandidate c;
        c.blockM = blockM, c.blockN = blockN, c.warps = warps, c.stages = 2;
        c.wgmma = c.warpSpecialize = true;
        c.overlapSoftmax = overlap, c.asyncPV = asyncPV;
        c.persistent = persistent;
        out.push_back(c);
      }
}

std::vector<TuningCandidate> mlir::attn::enumerateCandidates(StringRef chip) {
  std::vector<TuningCandidate> out;
  if (chip != "sm_80" && chip != "sm_90a")
    return out;
  // mma.sync: block_m must be a multiple of 16 x warps (attn-tile).
  for (auto [bm, warps] : {std::pair<int64_t, int64_t>{64, 4}, {128, 4}, {128, 8}})
    for (int64_t bn : {32, 64, 128})
      for (int64_t stages : {1, 2, 3})
        for (bool lazy : {false, true}) {
          TuningCandidate c;
          c.blockM = bm, c.blockN = bn, c.warps = warps, c.stages = stages;
          c.lazyRescale = lazy;
          out.push_back(c);
        }
  if (chip != "sm_90a")
    return out;
  // wgmma: 64 rows per warpgroup (attn-assign-layouts).
  for (auto [bm, warps] : {std::pair<int64_t, int64_t>{64, 4}, {128, 8}})
    for (int64_t bn : {64, 128})
      for (int64_t stages : {1, 2, 3}) {
        TuningCandidate c;
        c.blockM = bm, c.blockN = bn, c.warps = warps, c.stages = stages;
        c.wgmma = true;
        out.push_back(c);
        // Without the overlap the consumers keep one score tile, not two:
        // at D = 256 that is what lets the persistent kernel fit without
        // spills (1.03-1.06x at short rows there,
        // results/h200/2026-12-02-variants.md).
        if (warps == 8 && stages >= 2)
          for (bool overlap : {true, false})
            for (bool asyncPV : {false, true}) {
              if (asyncPV && !overlap)
                continue;
              c.warpSpecialize = true, c.overlapSoftmax = overlap;
              c.asyncPV = asyncPV;
              c.persistent = false;
              out.push_back(c);
              c.persistent = true;
              out.push_back(c);
            }
      }
  // Wider K/V blocks that are not powers of two, as FlashAttention-3 uses
  // on Hopper (128 x 176 at D = 128, 128 x 80 at D = 256): fewer softmax
  // rounds per key for more score registers. Two stages (a third rarely
  // fits in shared memory; attn-allocate-shared rejects what does not).
  // With async_pv one score tile is live instead of two, which is what
  // fits 128 x 112 at D = 128 and made 128 x 80 at D = 256 1.03-1.11x the
  // 128 x 64 overlapped kernel from 4096 keys
  // (results/h200/2026-12-03-session14-r2.md).
  for (int64_t bn : {80, 96, 112, 144, 160, 176, 192})
    addWarpSpecializedForms(out, /*blockM=*/128, bn, /*warps=*/8);
  // And without a producer, 192 keys per block (D = 64's scores fit).
  TuningCandidate wide;
  wide.blockM = 128, wide.blockN = 192, wide.warps = 8, wide.stages = 2;
  wide.wgmma = true;
  out.push_back(wide);
  // Three consumer warpgroups (192-row Q blocks on 12 warps, 160
  // registers each): more softmax warps per SM sub-partition to hide one
  // warpgroup's softmax under the others' products, the form
  // FlashAttention-3 uses at D = 64. K/V blocks of 64-112 columns; which
  // forms fit those registers is ptxas's call, and attn-tune drops what
  // spills (at D = 128 without a modification, ptxas 13.0: without
  // overlap 64-96 columns fit; overlapped, 64 columns without async_pv
  // and 80 with it; most other forms spill 4-320 bytes). Last, so that the
  // candidates before keep their indices (the emitted kernels' names).
  for (int64_t bn : {64, 80, 96, 112})
    addWarpSpecializedForms(out, /*blockM=*/192, bn, /*warps=*/12);
  // async_pv with the next block's Q K^T before the softmax (early_qk):
  // both products under every softmax, for a second score tile, which
  // fits at D = 128 up to 112 keys per block. For softmaxes as long as the
  // products (a softcap at D = 128). Last, behind their async_pv twins,
  // which the cost model cannot tell them from (the twin wins a tie).
  for (int64_t bn : {80, 96, 112})
    for (bool persistent : {false, true}) {
      TuningCandidate c;
      c.blockM = 128, c.blockN = bn, c.warps = 8, c.stages = 2;
      c.wgmma = c.warpSpecialize = true;
      c.overlapSoftmax = c.asyncPV = c.earlyQK = true;
      c.persistent = persistent;
      out.push_back(c);
    }
  // Three consumer warpgroups on 128-key blocks: at D = 64 (scores and
  // output of 64 x 128 and 64 x 64 a warpgroup) the form without the
  // overlap ran 1.10 / 1.09x the database's 128 x 128 async_pv persistent
  // kernel at N = 4096 / 16384 (docs/perf-log.md, twenty-fourth session);
  // at D >= 128 these spill and attn-tune drops them. Last, for the
  // indices before.
  addWarpSpecializedForms(out, /*blockM=*/192, /*blockN=*/128, /*warps=*/12);
  return out;
}

std::vector<TuningCandidate>
mlir::attn::registerFitForms(const TuningCandidate &c) {
  if (c.wgmma || c.reverseKV || c.loopLocalIds)
    return {};
  std::vector<TuningCandidate> forms;
  for (auto [reverse, ids] : {std::pair<bool, bool>{true, false},
                              {false, true},
                              {true, true}}) {
    TuningCandidate f = c;
    f.reverseKV = reverse, f.loopLocalIds = ids;
    forms.push_back(f);
  }
  return forms;
}

/// The CTAs of candidate `c` one SM holds at most: by its threads alone
/// (registers and shared memory only lower it). A warp-specialized kernel
/// moves registers between its roles with setmaxnreg within a budget of
/// the whole register file (240 x 256 for the consumers and 24 x 128 for
/// the producer: 64512 of 65536), so it runs alone (ptxas reports 168
/// registers at entry for every such candidate, which says the same).
static int64_t maxCTAsPerSM(const TuningCandidate &c) {
  if (c.warpSpecialize)
    return 1;
  int64_t warps = c.warps + (c.warpSpecialize ? 4 : 0);
  return std::max<int64_t>(1, std::min<int64_t>(2048 / (32 * warps), 32));
}

double mlir::attn::estimateCost(const TuningCandidate &c,
                                const KernelResources &r,
                                const TuningProblem &p) {
  // A warp-specialized kernel has a producer warpgroup more; ptxas reports
  // its registers at entry (before setmaxnreg moves them between the two).
  int64_t warps = c.warps + (c.warpSpecialize ? 4 : 0);
  // CTAs per SM: registers (64K per SM, allocated per warp in units of
  // 256), shared memory (228 KB per SM, 1 KB reserved per CTA), threads.
  int64_t regsPerWarp = ((std::max<int64_t>(r.registers, 1) * 32 + 255) / 256) * 256;
  int64_t byRegs = 65536 / (regsPerWarp * warps);
  int64_t byShared =
      r.sharedBytes > 0 ? (233472 / (r.sharedBytes + 1024)) : 32;
  int64_t perSM =
      std::max<int64_t>(1, std::min({byRegs, byShared, maxCTAsPerSM(c)}));
  return estimateCostAt(c, perSM, p);
}

double mlir::attn::estimateCostBound(const TuningCandidate &c,
                                     const TuningProblem &p) {
  double bound = estimateCostAt(c, 1, p);
  for (int64_t perSM = 2; perSM <= maxCTAsPerSM(c); ++perSM)
    bound = std::min(bound, estimateCostAt(c, perSM, p));
  return bound;
}

double mlir::attn::estimateCostAt(const TuningCandidate &c, int64_t perSM,
                                  const TuningProblem &p) {
  // Work: query blocks, each over the keys it sees (half under a causal
  // mask).
  int64_t qBlocks = (p.nq + c.blockM - 1) / c.blockM;
  double keysPerBlock = p.causal ? 0.5 * p.nk + 0.5 * c.blockM : p.nk;
  if (p.window >= 0)
    keysPerBlock = std::min<double>(p.nk, p.window + c.blockM + c.blockN);
  int64_t ctas = qBlocks * p.batchHeads;
  int64_t slots = p.sms * perSM;
  int64_t waves = (ctas + slots - 1) / slots;
  // Compute: the chip's tensor-core rate as the kernels reach it (about
  // 380 TFLOP/s for mma.sync, 500 for wgmma on the H200 at long rows:
  // docs/perf-log.md), shared by the CTAs resident on an SM; their overlap
  // (one's softmax under another's products) is worth a little.
  double rate = (c.wgmma ? 500e12 : 380e12) / p.sms;
  double flopsPerCTA = 2.0 * c.blockM * keysPerBlock * (p.d + p.dv);
  double overlap = perSM > 1 ? 0.9 : 1.0;
  double compute = waves * (flopsPerCTA * perSM / rate) * overlap;
  // Memory: Q, K, V and O once from HBM at the copy ceiling (4.27 TB/s
  // measured there); every further query block's re-read of K and V
  // mostly hits L2 (a head's K and V are a few MB), charged at an assumed
  // 3x that rate. Charging the re-reads at the HBM rate (the first model)
  // ranked every 64-row wgmma candidate below 20 mma.sync ones, and the
  // device measured those fastest for causal D = 128, D = 256 and windows
  // (results/h200/2026-12-01-tuning-first.md).
  double unique = double(p.batchHeads) *
                  (p.nq * (p.d + p.dv) + p.nk * (p.d + p.dv)) * 2;
  double reread = double(ctas - p.batchHeads) * keysPerBlock * (p.d + p.dv) * 2;
  double memory = unique / 4.27e12 + reread / (3 * 4.27e12);
  // Short pipelines expose copy latency; small key blocks pay per block.
  double pipeline = 1.0 + 0.08 / c.stages + 8.0 / c.blockN;
  // Without a producer a CTA's copies and products overlap only in part
  // (the copies are issued by the same warps, and the block's wait comes
  // before its products), but the other CTAs resident on the SM compute
  // under them: the larger term, plus the smaller one's share that no
  // other CTA covers (1 / CTAs per SM). A producer warpgroup's TMA copies
  // run under the products (no CTA barrier per block): the maximum. (The
  // first form, the plain sum, ranked the fastest kernel of a D = 128
  // window, 64 x 64 on one warpgroup with one stage and three CTAs per
  // SM, 38th of 85 in the full-space study; this one 14th at N = 16384,
  // and the rank correlation with the measured times over the whole space
  // rose from 0.62-0.91 to 0.69-0.95 on the study's 8 points:
  // results/h200/2026-12-03-session9-r1.md.)
  if (!c.warpSpecialize)
    return (std::max(compute, memory) + std::min(compute, memory) / perSM) *
           pipeline;
  double cost = std::max(compute, memory) * pipeline;
  // Without the overlapped Q K^T the softmax is exposed in part: 1.01-1.08x
  // the time at D = 256 (results/h200/2026-12-02-variants.md).
  if (!c.overlapSoftmax)
    cost *= 1.04;
  // P V in flight across the iteration as well: 1.03-1.11x at D = 256,
  // 128 x 80, from 4096 keys; 1.00-1.04x at D = 128, 128 x 112
  // (results/h200/2026-12-03-session14-r2.md, -session13-r2.md).
  else if (c.asyncPV)
    cost *= 0.97;
  // A CTA's start (barrier set-up, its first copies' latency) and end
  // (normalizing and storing O) are exposed once per tile: about a third
  // of a K/V block's time (persistent kernels, which hide them under the
  // next tile's copies, ran 1.07x at 4 blocks a tile and 1.04x at 8,
  // results/h200/2026-12-01-persistent.md). Under a mask their tiles
  // differ in work; the mirrored order balances the CTAs up to 8192 query
  // rows (1.03-1.21x the one-CTA-per-tile kernel) but not beyond (0.71x at
  // 16384; results/h200/2026-12-01-persistent-zigzag.md).
  double blockTime = 2.0 * c.blockM * c.blockN * (p.d + p.dv) * perSM / rate;
  if (!c.persistent)
    cost += waves * 0.35 * blockTime;
  else if ((p.causal || p.window >= 0) && p.nq > 8192)
    cost *= 1.4;
  return cost;
}

std::optional<TuningKey> attn::getTuningKey(AttentionOp op, StringRef chip,
                                            int64_t seqLen) {
  TuningKey key;
  key.chip = chip.str();
  ShapedType q = op.getQueryType(), k = op.getKeyType();
  key.d = q.getDimSize(3);
  key.dv = op.getValueType().getDimSize(3);
  if (ShapedType::isDynamic(key.d) || ShapedType::isDynamic(key.dv))
    return std::nullopt;
  llvm::raw_string_ostream dtype(key.dtype);
  dtype << q.getElementType();
  llvm::raw_string_ostream mask(key.mask);
  mask << op.getMaskOrDefault();
  SmallVector<std::string> mods;
  if (op.getSoftcap())
    mods.push_back("softcap");
  // A bias broadcast over the batch or the heads is its own class: the
  // kernel indexes it differently and holds other registers (a
  // configuration measured with a full bias spilled with a batch-
  // broadcast one, docs/perf-log.md, sixteenth session).
  if (Value bias = op.getBias()) {
    auto type = cast<ShapedType>(bias.getType());
    std::string mod = "bias";
    bool b1 = type.getDimSize(0) == 1 && q.getDimSize(0) != 1;
    bool h1 = type.getDimSize(1) == 1 && q.getDimSize(1) != 1;
    if (b1 || h1)
      mod += std::string("_") + (b1 ? "b1" : "") + (h1 ? "h1" : "");
    mods.push_back(mod);
  }
  if (op.getAlibiSlopes())
    mods.push_back("alibi");
  if (!op.getScoreMod().empty())
    mods.push_back("score_mod");
  if (!op.getMaskMod().empty())
    mods.push_back("mask_mod");
  key.mods = llvm::join(mods, ",");
  int64_t hq = q.getDimSize(1), hkv = k.getDimSize(1);
  key.gqa = ShapedType::isDynamic(hq) || ShapedType::isDynamic(hkv) || hkv == 0
                ? 0
                : hq / hkv;
  key.lse = bool(op.getLse());
  int64_t nk = k.getDimSize(2);
  key.nBucket = sequenceBucket(ShapedType::isDynamic(nk) ? seqLen : nk);
  return key;
}
