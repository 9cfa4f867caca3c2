//===- ProgramInfo.cpp - what an sm_80 attention kernel is built from -----===//

#include "ProgramInfo.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::attn;
using namespace mlir::attn::sm80;

static const char *kRoleNames[] = {"q", "k", "v", "o", "lse"};

bool sm80::isTransposedDot(Operation *op) {
  auto dot = dyn_cast<DotOp>(op);
  return dot && dot.getTransposeB();
}

FailureOr<ProgramInfo> sm80::analyzeProgram(ProgramOp program,
                                            int64_t maxSharedBytes) {
  ProgramInfo info;
  info.program = program;
  auto fail = [&](const Twine &why) {
    return program.emitOpError() << "cannot be lowered to an sm_80 kernel: "
                                 << why;
  };
  info.config = program.getConfigAttr();
  if (!info.config)
    return fail("it carries no tile configuration");
  info.blockM = info.config.getBlockM();
  info.blockN = info.config.getBlockN();
  info.warps = info.config.getWarps();
  info.stages = info.config.getStages();
  info.gpuConfig = program.getGpuConfigOrDefault();
  info.lazyRescale = info.gpuConfig.getLazyRescale();
  info.loopLocalIds = info.gpuConfig.getLoopLocalIds();
  if (program.getBuffer(BufferRole::Bias) ||
      program.getBuffer(BufferRole::AlibiSlopes))
    return fail("this lowering takes q, k, v, o and lse buffers only");
  for (int r = Q; r <= LSE; ++r)
    info.buffers[r] = program.getBuffer(static_cast<BufferRole>(r));
  info.hasLse = bool(info.buffers[LSE]);

  // Roles of the buffers, from how they are used.
  bool bad = false;
  program.walk([&](Operation *op) {
    if (auto load = dyn_cast<LoadOp>(op)) {
      Role role = Q;
      if (load->getParentOfType<scf::ForOp>()) {
        bool feedsScores = llvm::any_of(load->getUsers(), [&](Operation *u) {
          return isTransposedDot(u) && cast<DotOp>(u).getB() == load;
        });
        role = feedsScores ? K : V;
      }
      if (info.buffers[role] != load.getSource())
        bad = true;
      int64_t cols = load.getType().getDimSize(1);
      if (role == Q || role == K)
        info.d = cols;
      else
        info.dv = cols;
      info.elt = load.getType().getElementType();
    } else if (auto store = dyn_cast<StoreOp>(op)) {
      Role role = store.getValue().getType().getRank() == 2 ? O : LSE;
      if (info.buffers[role] != store.getDest())
        bad = true;
    } else if (auto range = dyn_cast<KVRangeOp>(op)) {
      info.mask = range.getMask();
    } else if (auto softmax = dyn_cast<OnlineSoftmaxOp>(op)) {
      info.scaleLog2e = softmax.getScaleLog2e().convertToDouble();
    }
  });
  if (bad)
    return fail("its loads and stores are not those of the q, k, v, o and "
                "lse buffers as attn-tile builds them");
  for (int r = Q; r <= O; ++r)
    if (!info.buffers[r])
      return fail(Twine("no ") + kRoleNames[r] +
                  " buffer found; expected the program attn-tile builds");
  if (!info.mask || info.scaleLog2e == 0)
    return fail("expected attn.kv_range and attn.online_softmax in the "
                "program attn-tile builds");
  if (!info.elt.isF16() && !info.elt.isBF16())
    return fail("tensor cores take f16 or bf16 here, not " +
                llvm::formatv("{0}", info.elt).str() +
                " (f32 attention runs on the CPU lowering)");
  for (int64_t dim : {info.d, info.dv})
    if (dim % 64 != 0 || dim > 256)
      return fail("head dims must be 64, 128, 192 or 256, got " +
                  Twine(dim));
  if (info.blockM != 16 * info.warps && info.blockM != 32 * info.warps)
    return fail("block_m must be 16 or 32 x warps (one or two 16-row slices "
                "per warp), got block_m = " +
                Twine(info.blockM) + " with " + Twine(info.warps) + " warps");
  info.mTiles = info.blockM / (16 * info.warps);
  if (info.blockN % 16 != 0)
    return fail("block_n must be a multiple of 16");
  if (info.smemBytes() > maxSharedBytes)
    return fail("tiles need " + Twine(info.smemBytes()) +
                " bytes of shared memory, over the target's " +
                Twine(maxSharedBytes));
  return info;
}
