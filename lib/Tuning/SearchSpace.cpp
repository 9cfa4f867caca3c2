//===- SearchSpace.cpp - tuning candidates and their cost -----------------===//

#include "attn/Tuning/SearchSpace.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace mlir::attn;

TileConfigAttr TuningCandidate::tileConfig(MLIRContext *ctx) const {
  return TileConfigAttr::get(ctx, blockM, blockN, warps, stages);
}

GpuConfigAttr TuningCandidate::gpuConfig(MLIRContext *ctx) const {
  return GpuConfigAttr::get(ctx, lazyRescale, reverseKV, loopLocalIds, wgmma);
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
  return s;
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
      }
  return out;
}

double mlir::attn::estimateCost(const TuningCandidate &c,
                                const KernelResources &r,
                                const TuningProblem &p) {
  int64_t threads = 32 * c.warps;
  // CTAs per SM: registers (64K per SM, allocated per warp in units of
  // 256), shared memory (228 KB per SM, 1 KB reserved per CTA), threads.
  int64_t regsPerWarp = ((std::max<int64_t>(r.registers, 1) * 32 + 255) / 256) * 256;
  int64_t byRegs = 65536 / (regsPerWarp * c.warps);
  int64_t byShared =
      r.sharedBytes > 0 ? (233472 / (r.sharedBytes + 1024)) : 32;
  int64_t byThreads = 2048 / threads;
  int64_t perSM = std::max<int64_t>(
      1, std::min({byRegs, byShared, byThreads, int64_t(32)}));
  // Work: query blocks, each over the keys it sees (half under a causal
  // mask).
  int64_t qBlocks = (p.nq + c.blockM - 1) / c.blockM;
  double keysPerBlock = p.causal ? 0.5 * p.nk + 0.5 * c.blockM : p.nk;
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
  // Memory: every query block re-reads K and V (2-byte elements) at the
  // copy ceiling (4.27 TB/s measured there).
  double bytes = double(ctas) * keysPerBlock * (p.d + p.dv) * 2;
  double memory = bytes / 4.27e12;
  // Short pipelines expose copy latency; small key blocks pay per block.
  double pipeline = 1.0 + 0.08 / c.stages + 8.0 / c.blockN;
  return std::max(compute, memory) * pipeline;
}
