//===- DefaultConfig.cpp - heuristic tile configurations ------------------===//

#include "attn/Dialect/Attn/Transforms/MaskModRange.h"
#include "attn/Dialect/Attn/Transforms/Passes.h"

#include <algorithm>

namespace mlir {
namespace attn {
#define GEN_PASS_DEF_ATTNDEFAULTCONFIG
#include "attn/Dialect/Attn/Transforms/Passes.h.inc"
} // namespace attn
} // namespace mlir

using namespace mlir;
using namespace mlir::attn;

DefaultConfig mlir::attn::getDefaultConfig(MLIRContext *ctx, int64_t headDim,
                                           int64_t valueHeadDim, MaskAttr mask,
                                           bool hasLse, StringRef chip,
                                           ScoreModKinds mods,
                                           int64_t seqLen) {
  // Measured on the H200 (docs/perf-log.md), among configurations that
  // ptxas assembles without spills for the chip (checked in CI by
  // test/GPU/ptxas-default-configs.test): 4 warps with two 16-row m-tiles
  // each (block_m = 128, every K/V fragment feeds two mma.sync) where the
  // accumulator and scores fit in 255 registers, otherwise one.
  int64_t d = std::max(headDim, valueHeadDim);
  auto get = [&](int64_t blockM, int64_t blockN, int64_t stages,
                 bool lazyRescale = false, bool reverseKV = false,
                 bool loopLocalIds = false, bool splitKV = true) {
    return DefaultConfig{
        TileConfigAttr::get(ctx, blockM, blockN, /*warps=*/4, stages, splitKV),
        GpuConfigAttr::get(ctx, lazyRescale, reverseKV, loopLocalIds)};
  };
  if (ShapedType::isDynamic(headDim) || ShapedType::isDynamic(valueHeadDim))
    return get(64, 64, 2); // attn-tile refuses dynamic head dims anyway
  // sm_90a: the dots on wgmma where they were measured against the
  // mma.sync kernels below, same run (results/h200/
  // 2026-12-01-wgmma-defaults.md): 1.1-1.6x at N >= 2048 and 0.99-1.3x at
  // N = 512 without a window; 1.2-1.4x with one. Without a window: 8 warps
  // (two warpgroups of 64 rows), 128 keys per block up to D = 128 (64
  // beside a bias, or beside index tiles, ALiBi or score_mod, with a
  // softcap, at D = 128), except the one-warpgroup tiles below for causal
  // D = 128 and for D = 256.
  // With one: 64 x 64 on one warpgroup (128 x 64 ran 0.93x the mma.sync
  // 64 x 64 at D = 128), one masked loop at D = 256 as below. D = 64 with
  // a bias or index tiles keeps the mma.sync kernel (D = 64 with all of
  // them ran 0.85x on wgmma).
  bool registerTiles = mods.bias || mods.positional;
  bool window = mask.getKind() == MaskKind::Window;
  auto wgmma = [&](int64_t blockM, int64_t blockN, int64_t warps,
                   int64_t stages, bool splitKV, bool warpSpecialize = false,
                   bool persistent = false, bool loopLocalIds = false) {
    // The warp-specialized kernels also issue block j+1's Q K^T before
    // block j's softmax (overlap_softmax): measured against the
    // warp-specialized kernels without it in one run
    // (results/h200/2026-12-01-overlap-warp-specialize.md), N = 512..16384:
    // unmasked D = 128 1.02-1.16x (bf16 1.03-1.11x), unmasked D = 256
    // 1.01-1.11x, causal D = 128 1.03-1.07x for N >= 2048, 0.99x at 1024,
    // 0.94x at 512.
    return DefaultConfig{
        TileConfigAttr::get(ctx, blockM, blockN, warps, stages, splitKV),
        GpuConfigAttr::get(ctx, false, false, loopLocalIds, /*wgmma=*/true,
                           /*overlap_softmax=*/warpSpecialize, warpSpecialize,
                           /*ping_pong=*/false, persistent, /*fma_exp2=*/0,
                           /*peel_last_block=*/false,
                           /*rescale_slack=*/0, /*async_pv=*/false,
                           /*prefetch_loads=*/false, /*stage_loads=*/false,
                           /*stage_stores=*/false, /*early_qk=*/false,
                           /*group_m=*/0, /*loads_ahead=*/false,
                           /*guarded_rescale=*/false, /*hoist_row_max=*/false,
                           /*accumulate_bias=*/false)};
  };
  // D = 192 and D != Dv without a window or register tiles
  // (results/h200/2026-12-01-wgmma-other-dims.md, against the mma.sync
  // kernels in the same run): D = 192 (Dv <= 192) 128 x 64 on 8 warps,
  // 1.3-1.55x (unmasked D = 192) and 1.46-1.95x (causal 192/64); D != Dv up
  // to 128 one warpgroup, 64 x 128, one stage, 1.19-1.64x (128/64
  // unmasked, 64/128 causal); with 256 on either side 64 x 64, one stage
  // (checked correct there, 449-487 TFLOP/s at N >= 2048, not timed against
  // an mma.sync kernel of the same shape).
  if (chip == "sm_90a" && !window && !registerTiles &&
      (headDim != valueHeadDim || d == 192) &&
      (headDim % 64 == 0 && valueHeadDim % 64 == 0)) {
    // D = Dv = 192 without a softcap or a mask_mod: the warp-specialized
    // overlapped 128 x 80 kernel, persistent when unmasked, what the tuning
    // database chose from 1024 keys on (f16 and bf16 unmasked, f16 causal
    // bottom-right), 1.27-1.43x the 128 x 64 kernel below, interleaved
    // (results/h200/2026-12-03-session11-r4.md).
    if (headDim == 192 && valueHeadDim == 192 && !mods.softcap &&
        !mods.maskMod)
      return wgmma(128, 80, 8, 2, true, /*warpSpecialize=*/true,
                   /*persistent=*/mask.getKind() == MaskKind::None);
    if (headDim == 192 && valueHeadDim <= 192)
      return wgmma(128, 64, 8, 2, true);
    if (d <= 128)
      return wgmma(64, 128, 4, 1, true);
    if (d == 256)
      return wgmma(64, 64, 4, 1, true);
  }
  if (chip == "sm_90a" && headDim == valueHeadDim &&
      (d == 128 || d == 256 || (d == 64 && !registerTiles))) {
    // One stage at D = 128 too: 1.09x / 1.13x the two-stage kernel at
    // N = 1024 / 16384 (f16, bottom-right window of 256; the full-space
    // study, results/h200/2026-12-03-session9-r1.md), as the first tuning
    // database measured it (1.10-1.13x, docs/tuning.md): more CTAs per SM
    // cover each other's short K/V loops.
    if (window)
      return d == 256   ? wgmma(64, 64, 4, 1, /*splitKV=*/false)
             : d == 128 ? wgmma(64, 64, 4, 1, true)
                        : wgmma(64, 64, 4, 2, true);
    // One warpgroup and one stage (two CTAs fit an SM, whose softmax and
    // products then overlap each other) where that measured better
    // (results/h200/2026-12-01-wgmma-one-warpgroup.md): D = 256, 1.04-1.12x
    // the 128 x 64 kernel on 8 warps; causal D = 128, 64 x 128: 1.18x at
    // N = 512 down to 1.00x at 16384. (Unmasked D = 128 with 64 x 128 ran
    // 1.12x at N = 512 but 0.93x at 16384: a choice by sequence length,
    // left to tuning.)
    // A TMA producer warpgroup feeding two consumer warpgroups
    // (warp_specialize), measured against the kernels above in one run
    // (results/h200/2026-12-01-warp-specialize.md): D = 128 unmasked
    // 128 x 128, 1.08-1.19x at every N; causal D = 128 128 x 128,
    // 1.04-1.34x for N >= 2048 but 0.85-0.94x at N = 512-1024 (a choice by
    // length that a per-bucket dispatch would make); D = 256 unmasked
    // 128 x 64, 1.02-1.15x; causal (bottom-right) D = 256 128 x 64,
    // 1.00-1.17x (results/h200/2026-12-01-ping-pong.md, the same run as
    // its ping-pong variant). Not (yet) for D = 64 (0.74-0.92x), windows
    // (0.96x) or score modifications other than a softcap (below; not run
    // on the device that way).
    bool plain = !registerTiles && !mods.softcap && !mods.maskMod;
    // A softcap (elementwise tanh between the products) on the
    // warp-specialized D = 128 kernels, against the wgmma kernels it had
    // (results/h200/2026-12-01-softcap-ws.md, N = 1024 / 4096 / 16384):
    // unmasked and persistent 1.24 / 1.30 / 1.21x (f16; bf16 alike),
    // causal 0.98 / 1.15 / 1.32x.
    bool specializable = plain || (!registerTiles && !mods.maskMod);
    // ALiBi, a score_mod region (index tiles in registers) or a mask_mod
    // region, without a bias or a softcap, on the same warp-specialized
    // 128 x 128 kernels, against the 128 x 64 wgmma kernel without a
    // producer that they had (H100, interleaved, results/h100/
    // 2026-12-06-session34-ws-*), N = 1024 / 4096 / 16384: a relative-
    // position score_mod, unmasked and persistent, 1.35 / 1.37 / 1.25x;
    // ALiBi under a causal mask 1.25 / 1.36 / 1.35x (persistent up to
    // 8192 keys 1.23 / 1.36x, so not); a document mask_mod under a causal
    // mask 1.10 / 1.17 / 1.21x, persistent 1.19 / 1.28 / 0.82x (the
    // persistent causal kernels' rule below). With index tiles the thread
    // ids are computed per K/V loop (loop_local_ids): without, f16 ALiBi
    // (unmasked or causal) and a causal f16 score_mod spill 4 bytes; with
    // them none spills (test/GPU/ptxas-default-configs.test). The default
    // kernels as built, against those of 61e4306 (results/h100/
    // 2026-12-06-session34-idx2-*): relpos 1.42 / 1.39 / 1.25x, ALiBi
    // 1.23 / 1.38 / 1.41x, document mask 1.36 / 1.26 / 1.16x; per-loop ids
    // against none 0.98-1.04x. With a softcap or a bias beside them: not
    // measured, the kernels below.
    bool indexMods =
        (mods.positional || mods.maskMod) && !mods.bias && !mods.softcap;
    bool persistentCausal = (plain || (indexMods && !mods.positional)) &&
                            mask.getKind() == MaskKind::Causal;
    // Causal D = 128 up to 8192 keys (a length dispatch,
    // docs/gpu-kernels.md) runs persistent, the odd rounds of tiles
    // mirrored (PersistentTiles.cpp). Against the one-CTA-per-tile kernel,
    // interleaved (results/h200/2026-12-02-persistent-causal.md), N = 512
    // .. 8192 then 16384: f16 bottom-right 1.20 1.16 1.11 1.07 1.04 | 0.71,
    // bf16 bottom-right 1.20 1.17 1.12 1.07 1.04 | 0.70, f16 top-left 1.13
    // 1.12 1.10 1.07 1.05 | 0.70, bf16 top-left 1.15 1.14 1.11 1.07 1.05 |
    // 0.71. At N = 512 that is more than the one-warpgroup kernel's 1.10x
    // over the same kernel (results/h200/2026-12-01-final-7111196.md,
    // wg1_*), which it replaces.
    if (persistentCausal && d == 128 && seqLen > 0 && seqLen <= 8192)
      return wgmma(128, 128, 8, 2, true, /*warpSpecialize=*/true,
                   /*persistent=*/true);
    // A mask_mod that narrows the K/V range (MaskModRange.h) under a
    // causal mask leaves tiles of similar work where its visible blocks
    // are (a document mask): persistent at every length. With the range
    // narrowed, the per-program costs dominate, and persistent kernels
    // ran 1.10-1.24x the one-CTA-per-tile ones (H100, N = 1024 / 4096 /
    // 16384, document masks causal and unmasked, results/h100/
    // 2026-12-06-session35-doc2-*).
    if (persistentCausal && d == 128 && mods.narrowingMaskMod)
      return wgmma(128, 128, 8, 2, true, /*warpSpecialize=*/true,
                   /*persistent=*/true);
    // Unmasked D = 128 runs persistent (the CTAs loop over the tiles):
    // 1.07-1.08x at N = 512, 1.04-1.05x at 1024, 1.02-1.03x from 2048 on
    // against the same kernel without (results/h200/2026-12-01-
    // persistent.md). Causal tiles differ in work (the mirrored rounds
    // above help only up to 8192 keys).
    if ((specializable || indexMods) && d == 128)
      return wgmma(128, 128, 8, 2, true, /*warpSpecialize=*/true,
                   /*persistent=*/mask.getKind() == MaskKind::None,
                   /*loopLocalIds=*/indexMods && mods.positional);
    // D = 256 runs persistent too since the tile loop stopped spilling
    // (LICM off in it, PersistentTiles.cpp): against the same kernel
    // without, interleaved (results/h200/2026-12-03-session10-r1.md),
    // N = 1024 / 4096 / 16384, unmasked f16 1.03 / 1.02 / 1.03x, bf16
    // 1.04 / 1.02 / 1.07x; causal (bottom-right) 1.06 / 1.06x up to 4096
    // keys but 0.64x at 16384 (the tiles' work differs; as for D = 128,
    // a choice by length).
    if (plain && d == 256)
      return wgmma(128, 64, 8, 2, true, /*warpSpecialize=*/true,
                   /*persistent=*/mask.getKind() == MaskKind::None ||
                       (mask.getKind() == MaskKind::Causal && seqLen > 0 &&
                        seqLen <= 4096));
    // A bias tile (read by the consumers from global memory into the
    // accumulator layout, beside the scores) at D = 128: the warp-
    // specialized 128 x 64 kernel ran 1.23 / 1.28 / 1.28x the cp.async one
    // below (unmasked f16, N = 1024 / 4096 / 16384, element-wise loads then,
    // results/h200/2026-12-03-session9-r1.md);
    // no spills with any mask (test/GPU/ptxas-default-configs.test).
    if (mods.bias && !mods.positional && !mods.maskMod && d == 128)
      return wgmma(128, 64, 8, 2, true, /*warpSpecialize=*/true);
    if (d == 256)
      return wgmma(64, 64, 4, 1, true);
    if (d == 128 && mask.getKind() == MaskKind::Causal && !registerTiles)
      return wgmma(64, 128, 4, 1, true);
    return wgmma(128, d <= 128 && !registerTiles ? 128 : 64, 8, 2, true);
  }
  // Score modifications that keep a tile of their own in registers (the
  // bias tile; the index tiles of ALiBi and score_mod regions) spill at
  // 128-row tiles next to a D = 128 accumulator (12-800 bytes, ptxas), and
  // the bias at D <= 64 too; 64 x 64 tiles (64 x 32 above D = 128 with a
  // bias) assemble without spills for every mask on both chips
  // (test/GPU/ptxas-default-configs.test). A softcap or a mask_mod needs
  // no register tile of its own and keeps the defaults.
  if (mods.bias)
    return d <= 128 ? get(64, 64, 2) : get(64, 32, 1);
  if (mods.positional && d > 64 && d <= 128)
    return get(64, 64, 2);
  if (d <= 64)
    return get(128, 64, 2);
  if (d > 128) {
    // 64 x 64, except for 192 paired with a smaller head dim, where that
    // tile spills (8-20 bytes) and 64 x 32 does not; 64 x 32 spills in
    // turn for 256 with 128 or 192 (ptxas, docs/perf-log.md).
    bool narrow = headDim != valueHeadDim &&
                  std::min(headDim, valueHeadDim) < 192 &&
                  (headDim == 192 || valueHeadDim == 192);
    // Windows keep one masked loop: three copies of a D > 128 loop (head,
    // unmasked middle, tail) took ptxas 1.5-2.1 s, one 0.6 s (attn-compile,
    // f16 D = 256); the masks cost little next to D = 256 products.
    bool split = mask.getKind() != MaskKind::Window;
    // Unmasked: per-loop thread ids. With the kernel's ids shared, the
    // kernel ran 4.5% under the first (template) emitter's at N = 512
    // (f16 D = 256, identical K/V loops in SASS, the epilogue scheduled
    // differently); with them, 0.98-1.01x at N = 512..16384, same run
    // (results/h200/2026-12-01-pairs-d256-variants.md).
    // (Measured at D = 256 only; D = 192 keeps the shared ids.)
    bool ids = mask.getKind() == MaskKind::None && d == 256;
    return get(64, narrow ? 32 : 64, 1, /*lazyRescale=*/false,
               /*reverseKV=*/false, /*loopLocalIds=*/ids, split);
  }
  // 64 < Dmax <= 128. The kernels below use all 255 registers, and whether
  // ptxas spills a few values kept across the K/V loops depends on the
  // mask, the chip, the LSE output and Dv; the K/V order and per-loop
  // thread ids are what tip it. Each choice was checked with ptxas for both
  // dtypes and chips (test/GPU/ptxas-default-configs.test; the other
  // combinations spill 4-68 bytes, docs/perf-log.md).
  bool sm80 = chip == "sm_80";
  if (headDim != valueHeadDim)
    return get(64, 64, 2); // 128-row tiles spill for D != Dv
  if (mods.softcap && mask.getKind() != MaskKind::Window) {
    // The tanh's registers tip the kernels below over the limit (4-128
    // bytes of spills with their knobs); these combinations assemble
    // without any, f16 and bf16, with an LSE output, on both chips.
    if (mask.getKind() == MaskKind::None)
      return get(128, 64, 2, /*lazy=*/true, /*reverseKV=*/true,
                 /*loopLocalIds=*/true);
    // With the bounded softmax (bf16) sm_80's 128 x 64 spills 4-100 bytes
    // in every knob combination; 128 x 32 does not and runs 0.99-1.00x
    // the spilling tile (causal bottom-right, results/h200/
    // 2026-12-04-session20-r8-sm80.json; 128 x 64 on eight warps 0.84-0.92x).
    if (sm80 && mods.boundedSoftmax)
      return get(128, 32, 2, true, /*reverseKV=*/true);
    return sm80 ? get(128, 64, 2, true, /*reverseKV=*/true)
                : get(128, 64, 2, true, false, /*loopLocalIds=*/true);
  }
  // A mask_mod that narrows the K/V range makes three K/V loops (blocks
  // the region cuts, the full ones, blocks it cuts again), and sm_80's
  // 128 x 64 kernels then spill 4-68 bytes in every combination of
  // reverse_kv, loop_local_ids and lazy rescaling, and at 128 x 32; 64 x 64
  // needs 168 registers (windows take it anyway, below).
  if (sm80 && mods.narrowingMaskMod && mask.getKind() != MaskKind::Window)
    return get(64, 64, 2, /*lazy=*/true);
  switch (mask.getKind()) {
  case MaskKind::None:
    // 128 x 64 with lazy rescaling; without an LSE output that kernel
    // spills on sm_90a unless it runs last block first with per-loop ids.
    return hasLse || sm80 ? get(128, 64, 2, /*lazy=*/true)
                          : get(128, 64, 2, true, /*reverseKV=*/true,
                                /*loopLocalIds=*/true);
  case MaskKind::Causal:
    if (mask.getAlignment() == MaskAlignment::BottomRight)
      return sm80 ? get(128, 64, 2, true, /*reverseKV=*/true)
                  : get(128, 64, 2, true, false, /*loopLocalIds=*/true);
    return get(128, 64, 2, true, /*reverseKV=*/true, /*loopLocalIds=*/!sm80);
  case MaskKind::Window:
    // 64 x 64: the 128 x 64 kernel's spills change with the window's
    // extents (0-40 bytes on sm_90a), 128 x 32 (the template's choice) has
    // none but runs 4-5% slower than 64 x 64 on the H200 (f16 and bf16,
    // left = 256, N = 512..16384, results/h200/
    // 2026-12-01-pairs-window-variants.md), which needs 164 registers.
    return get(64, 64, 2);
  }
  llvm_unreachable("unknown mask kind");
}

ScoreModKinds ScoreModKinds::of(AttentionOp op) {
  ScoreModKinds mods;
  mods.bias = bool(op.getBias());
  mods.positional = bool(op.getAlibiSlopes()) || !op.getScoreMod().empty();
  mods.softcap = op.getSoftcap().has_value();
  mods.maskMod = !op.getMaskMod().empty();
  mods.narrowingMaskMod = canBoundMaskMod(op.getMaskMod());
  mods.boundedSoftmax = softmaxMaxBound(op).has_value();
  return mods;
}

/// `gpu` with the knobs the configuration passes set per attention
/// (withKeyLengthSchedule) replaced, the others kept.
static GpuConfigAttr withKnobs(GpuConfigAttr gpu, bool lazyRescale,
                               bool peelLastBlock, unsigned rescaleSlack,
                               bool stageLoads, bool stageStores,
                               unsigned groupM) {
  return GpuConfigAttr::get(
      gpu.getContext(), lazyRescale, gpu.getReverseKv(), gpu.getLoopLocalIds(),
      gpu.getWgmma(), gpu.getOverlapSoftmax(), gpu.getWarpSpecialize(),
      gpu.getPingPong(), gpu.getPersistent(), gpu.getFmaExp2(), peelLastBlock,
      rescaleSlack, gpu.getAsyncPv(), gpu.getPrefetchLoads(), stageLoads,
      stageStores, gpu.getEarlyQk(), groupM, gpu.getLoadsAhead(),
      gpu.getGuardedRescale(), gpu.getHoistRowMax(), gpu.getAccumulateBias());
}

/// `gpu` with `stage_loads` for a warp-specialized kernel with a 16-bit
/// bias, unless its key extent is static and not a multiple of 8 (its rows
/// then never a multiple of 16 bytes: TMA could never copy it). The staged
/// bias ran 1.21-1.35x the unstaged one at the tuned configurations
/// (results/h200/2026-12-04-session18-r2-stage.json); where TMA cannot
/// describe a launch's bias (a dynamic Nk % 8 != 0, a strided view), the
/// runtime launches the kernel's TMA fallback, the same attention compiled
/// without the staging (compileToGPU).
static GpuConfigAttr withStagedBias(GpuConfigAttr gpu, AttentionOp op) {
  Value bias = op.getBias();
  if (!gpu || !gpu.getWarpSpecialize() || gpu.getStageLoads() || !bias)
    return gpu;
  auto type = cast<ShapedType>(bias.getType());
  int64_t keys = type.getDimSize(type.getRank() - 1);
  if (type.getElementTypeBitWidth() != 16 ||
      (!ShapedType::isDynamic(keys) && keys % 8 != 0))
    return gpu;
  return withKnobs(gpu, gpu.getLazyRescale(), gpu.getPeelLastBlock(),
                   gpu.getRescaleSlack(), /*stageLoads=*/true,
                   gpu.getStageStores(), gpu.getGroupM());
}

/// `gpu` with `stage_stores` for a warp-specialized kernel whose output
/// has 16-bit elements and Dv = 128; attn-stage-stores then stages the
/// output where its buffer fits beside the others (the short-row
/// variants: 128 x 128, the bias kernels; not 128 x 176 or 128 x 192).
/// Against the register stores, interleaved (results/h200/
/// 2026-12-04-session19-r2-tma-store.json), N = 512 / 1024 / 2048 / 4096:
/// f16 D = 128 unmasked 1.013 / 1.011 / 0.997 / 1.006, bf16 0.984 [0.954,
/// 1.017] / 1.011 / 1.000 / 1.000, f16 causal bottom-right 0.991 / 1.010 /
/// 1.003 / 0.994; D = 64 0.969 [0.928, 1.013] / 1.002 / 0.990 / 1.003 (f16
/// unmasked) and 0.996 / 1.005 / 0.996 / 1.003 (bf16 causal top-left),
/// so not there. What the epilogue costs at short rows (up to 9% at
/// N = 512, run 1) is its bytes, which TMA writes all the same.
static GpuConfigAttr withStagedStores(GpuConfigAttr gpu, AttentionOp op) {
  if (!gpu || !gpu.getWarpSpecialize() || gpu.getStageStores())
    return gpu;
  auto out = cast<ShapedType>(op.getOutput().getType());
  if (out.getElementTypeBitWidth() != 16 ||
      out.getDimSize(out.getRank() - 1) != 128)
    return gpu;
  return withKnobs(gpu, gpu.getLazyRescale(), gpu.getPeelLastBlock(),
                   gpu.getRescaleSlack(), gpu.getStageLoads(),
                   /*stageStores=*/true, gpu.getGroupM());
}

/// `gpu` with `group_m = 16` for a persistent kernel whose bias is
/// broadcast over batches or heads that the attention has more than one
/// of. In the default order the CTAs working at once take every query
/// block of one head (at N = 16384, H = 16: one head per round of 132
/// tiles), so each round reads all Nq rows of the bias and the bias is read
/// from memory once per head: 12 times its bytes' copy time at that shape
/// (results/h200/2026-12-05-session24-nsw-pairs-cost.json). A round of
/// groups of g query blocks of every head reads g x block_m rows of the
/// bias and the K and V of 132 / g heads; per round that is
/// (132 / g) N (D + Dv) 2 + g block_m N 2 bytes, least at
/// g = sqrt(132 (D + Dv) / block_m), 16 at D = Dv = 128. Measured against
/// the same kernels in the default order (results/h200/
/// 2026-12-05-session24-grp-pairs.json), N = 1024 / 4096 / 16384: f16
/// [1, 1, N, N] at 128 x 112 1.002 / 1.017 / 1.089 (g = 8 and 32 within
/// 3% of 16), bf16 [B, 1, N, N] 1.008 / 1.005 / 1.051, D = 64 0.968 /
/// 1.004 / 1.072; a full bias 1.00 and no bias 0.97-1.00, hence not there.
static GpuConfigAttr withGroupedTiles(GpuConfigAttr gpu, AttentionOp op) {
  Value bias = op.getBias();
  if (!gpu || !gpu.getPersistent() || gpu.getGroupM() != 0 || !bias)
    return gpu;
  auto type = cast<ShapedType>(bias.getType());
  ShapedType query = op.getQueryType();
  auto shared = [&](int64_t dim) {
    return type.getDimSize(dim) == 1 && query.getDimSize(dim) != 1;
  };
  if (type.getRank() != 4 || !(shared(0) || shared(1)))
    return gpu;
  return withKnobs(gpu, gpu.getLazyRescale(), gpu.getPeelLastBlock(),
                   gpu.getRescaleSlack(), gpu.getStageLoads(),
                   gpu.getStageStores(), /*groupM=*/16);
}

GpuConfigAttr mlir::attn::withKeyLengthSchedule(GpuConfigAttr gpu,
                                                AttentionOp op,
                                                int64_t seqLen) {
  gpu = withGroupedTiles(withStagedStores(withStagedBias(gpu, op), op), op);
  if (!gpu || !gpu.getWarpSpecialize() || !gpu.getOverlapSoftmax() ||
      gpu.getPingPong())
    return gpu;
  // The rotation of async_pv keeps P V in flight across iterations, which
  // the peeled last block does not handle (the verifier refuses both).
  bool canPeel = !gpu.getAsyncPv();
  int64_t headDim = op.getQueryType().getDimSize(3);
  int64_t valueHeadDim = op.getValueType().getDimSize(3);
  int64_t keyLength = op.getKeyType().getDimSize(2);
  if (!ShapedType::isDynamic(keyLength))
    seqLen = keyLength;
  bool peel = gpu.getPeelLastBlock();
  bool lazy = gpu.getLazyRescale();
  unsigned slack = gpu.getRescaleSlack();
  // The last block without the overlap's spare product, interleaved
  // against the same kernels with it (results/h200/2026-12-03-session10-
  // r2.md), N = 512 / 1024 / 4096 / 16384: D = 128 unmasked persistent
  // 1.06 / 1.04 / 1.00 / 0.97, causal persistent 1.15 / 1.03 / 0.96 / 1.00,
  // D = 64 1.07 / 1.04 / 1.02 / 1.00, D = 192 1.02 / 1.02 / 1.01 / 0.99,
  // D = 256 unmasked persistent 1.03 / 0.975 / 0.93 / 0.99, causal 1.07 /
  // 1.04 / 1.01 / 1.00: a gain with few blocks per query tile only.
  int64_t upTo = headDim >= 256 ? 512 : 1024;
  if (seqLen > 0 && seqLen <= upTo && canPeel)
    peel = true;
  // The rescale skipped where no row's maximum moved by more than 8
  // (log2 units), against the same kernels without (results/h200/
  // 2026-12-03-session12-r6.md), N = 1024 / 4096 / 16384: D = 128
  // unmasked 128 x 144 persistent f16 0.988 / 1.033 / 1.036, bf16 0.979 /
  // 1.017 / 1.062, causal 128 x 128 1.005 / 1.002 / 1.010; at D = 256 the
  // vote's branch made ptxas spill 8 bytes and the kernels ran 0.98-0.99x.
  // A softcap alone with f16 P (no max_bound, so a running maximum and a
  // rescale): the 192 x 80 async_pv kernel with it against without
  // (results/h100/2026-12-05-session29-lazy-pairs.json, an H100), N = 1024
  // / 4096 / 16384: 1.022 / 1.063 / 1.056; unmasked only, as measured.
  // An f16 bias alone (unmasked), on the async_pv kernels the database
  // gives it (128 x 112 persistent), with against without, interleaved
  // on an H100 (results/h100/2026-12-06-session33-{bias,slack}-pairs.json,
  // 3 and 7 rounds), N = 1024 / 4096 / 16384: [1, 1, N, N] 1.022, 1.020 /
  // 1.011, 1.012 / 1.011, 1.003; [B, H, N, N] 1.007, 1.004 / 1.013, 1.001 /
  // 0.992, 1.028 (an A/A pair: 0.999 / 1.000 / 1.014, so +-1% at 1024 and
  // 4096 and +-5% at 16384 is noise): a gain of about 1%, 2% at 1024 keys,
  // hence from 1024 keys. Not for a bf16 bias: 1.007-1.033 in variant
  // pairs (results/h100/2026-12-06-session33-bf16-pairs.json), but the
  // default [B, 1, N, N] kernel with it ran 0.961 at 16384 keys
  // (session33-bf16def-new-vs-old.json, 5 rounds). Not for a bias beside
  // other modifications or under a mask, where it was not measured, nor
  // without async_pv (the peeled last block at short rows: not measured
  // with it).
  // Other modifications: not measured. A configuration with
  // guarded_rescale (its own rule for moving the reference) keeps it.
  ScoreModKinds kinds = ScoreModKinds::of(op);
  bool plain = !kinds.any();
  bool unmasked = op.getMaskOrDefault().getKind() == MaskKind::None;
  bool softcapOnly = kinds.softcap && !kinds.bias && !kinds.positional &&
                     !kinds.maskMod && !kinds.boundedSoftmax && unmasked;
  bool f16BiasOnly = kinds.bias && !kinds.softcap && !kinds.positional &&
                     !kinds.maskMod && !kinds.boundedSoftmax && unmasked &&
                     op.getQueryType().getElementType().isF16() &&
                     gpu.getAsyncPv();
  bool beyond1024 = seqLen <= 0 || seqLen > 1024;
  bool from1024 = seqLen <= 0 || seqLen >= 1024;
  bool slackPays =
      ((plain || softcapOnly) && beyond1024) || (f16BiasOnly && from1024);
  if (headDim == 128 && valueHeadDim == 128 && slackPays && slack == 0 &&
      !gpu.getGuardedRescale()) {
    lazy = true;
    slack = 8;
  }
  if (peel == gpu.getPeelLastBlock() && lazy == gpu.getLazyRescale() &&
      slack == gpu.getRescaleSlack())
    return gpu;
  return withKnobs(gpu, lazy, peel, slack, gpu.getStageLoads(),
                   gpu.getStageStores(), gpu.getGroupM());
}

namespace {
struct AttnDefaultConfigPass
    : public attn::impl::AttnDefaultConfigBase<AttnDefaultConfigPass> {
  using Base::Base;
  void runOnOperation() override {
    if (!chip.empty() && chip != "sm_80" && chip != "sm_90" &&
        chip != "sm_90a") {
      getOperation()->emitError()
          << "attn-default-config: no defaults for chip '" << chip
          << "' (known: sm_80, sm_90, sm_90a; empty for the CPU)";
      return signalPassFailure();
    }
    getOperation()->walk([&](AttentionOp op) {
      // A configuration already there (a user's or an autotuner's) wins;
      // the GPU knobs are only chosen for the tiles chosen here, and only
      // for a GPU target.
      if (op.getConfig())
        return;
      ScoreModKinds mods = ScoreModKinds::of(op);
      int64_t keyLength = op.getKeyType().getDimSize(2);
      DefaultConfig config = getDefaultConfig(
          op.getContext(), op.getQueryType().getDimSize(3),
          op.getValueType().getDimSize(3), op.getMaskOrDefault(),
          /*hasLse=*/bool(op.getLse()), chip, mods,
          ShapedType::isDynamic(keyLength) ? seqLen : keyLength);
      op.setConfigAttr(config.tiles);
      if (!chip.empty() && !op.getGpuConfig())
        op.setGpuConfigAttr(withKeyLengthSchedule(config.gpu, op, seqLen));
    });
  }
};
} // namespace
