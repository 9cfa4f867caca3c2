//===- ApplyTuning.cpp - tuned configurations from the database -----------===//

#include "attn/Tuning/Passes.h"
#include "attn/Tuning/TuningDB.h"

#include "attn/Dialect/Attn/IR/AttnDialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/AsmParser/AsmParser.h"

namespace mlir {
namespace attn {
#define GEN_PASS_DEF_ATTNAPPLYTUNING
#include "attn/Tuning/Passes.h.inc"
} // namespace attn
} // namespace mlir

using namespace mlir;
using namespace mlir::attn;

/// The problem class of `op`, or nothing when a head dim is dynamic.
static std::optional<TuningKey> keyOf(AttentionOp op, StringRef chip,
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
  if (op.getBias())
    mods.push_back("bias");
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

namespace {
struct AttnApplyTuningPass
    : public attn::impl::AttnApplyTuningBase<AttnApplyTuningPass> {
  using Base::Base;
  void runOnOperation() override {
    if (db.empty())
      return;
    Operation *root = getOperation();
    MLIRContext *ctx = &getContext();
    auto heuristic = [&](AttentionOp op) {
      op->setAttr("attn.tuning", StringAttr::get(ctx, "heuristic"));
    };
    SmallVector<AttentionOp> ops;
    root->walk([&](AttentionOp op) {
      if (!op.getConfig())
        ops.push_back(op);
    });
    if (ops.empty())
      return;
    auto opened = TuningDB::open(db, /*create=*/false);
    if (!opened) {
      root->emitWarning() << llvm::toString(opened.takeError())
                          << "; using the heuristic configurations";
      for (AttentionOp op : ops)
        heuristic(op);
      return;
    }
    for (AttentionOp op : ops) {
      std::optional<TuningKey> key = keyOf(op, chip, seqLen);
      if (!key) {
        heuristic(op);
        continue;
      }
      auto found = (*opened)->lookup(*key);
      if (!found) {
        op.emitWarning() << llvm::toString(found.takeError())
                         << "; using the heuristic configuration";
        heuristic(op);
        continue;
      }
      if (!*found) {
        heuristic(op);
        continue;
      }
      const TuningEntry &e = **found;
      // The parser's own diagnostics are kept out of the op's: the entry is
      // the database's fault, reported as one warning below.
      TileConfigAttr tiles;
      GpuConfigAttr gpu;
      {
        ScopedDiagnosticHandler quiet(ctx, [](Diagnostic &) { return success(); });
        tiles = dyn_cast_or_null<TileConfigAttr>(parseAttribute(e.config, ctx));
        gpu = dyn_cast_or_null<GpuConfigAttr>(parseAttribute(e.gpuConfig, ctx));
      }
      if (!tiles || !gpu) {
        op.emitWarning() << "tuning database '" << db
                         << "': the entry for this op holds a configuration "
                            "that does not parse ('"
                         << e.config << "', '" << e.gpuConfig
                         << "'); using the heuristic configuration";
        heuristic(op);
        continue;
      }
      op.setConfigAttr(tiles);
      op.setGpuConfigAttr(gpu);
      std::string source = (e.key.nBucket == key->nBucket ? "db exact "
                                                          : "db nearest ") +
                           std::to_string(e.key.nBucket);
      op->setAttr("attn.tuning", StringAttr::get(ctx, source));
    }
  }
};
} // namespace
