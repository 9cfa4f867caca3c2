//===- ApplyTuning.cpp - tuned configurations from the database -----------===//

#include "attn/Tuning/Passes.h"
#include "attn/Tuning/SearchSpace.h"
#include "attn/Tuning/TuningDB.h"

#include "attn/Dialect/Attn/IR/AttnDialect.h"
#include "attn/Dialect/Attn/Transforms/Passes.h"
#include "attn/Support/ParseSource.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"

#include "llvm/Support/FormatVariadic.h"

#include <map>

namespace mlir {
namespace attn {
#define GEN_PASS_DEF_ATTNAPPLYTUNING
#include "attn/Tuning/Passes.h.inc"
} // namespace attn
} // namespace mlir

using namespace mlir;
using namespace mlir::attn;

/// For an op whose key length is dynamic (one kernel for every length):
/// among the configurations timed in every bucket of the key, the one whose
/// worst bucket is nearest that bucket's best (the ratio of times), with
/// that ratio; nothing when no configuration was timed in every bucket.
static std::optional<std::pair<TuningEntry, double>>
robustChoice(ArrayRef<TuningEntry> entries, int64_t &bucketCount) {
  std::map<int64_t, double> best;
  std::map<std::pair<std::string, std::string>, std::map<int64_t, double>> by;
  std::map<std::pair<std::string, std::string>, const TuningEntry *> entryOf;
  for (const TuningEntry &e : entries) {
    auto [it, inserted] = best.try_emplace(e.key.nBucket, e.timeMs);
    if (!inserted)
      it->second = std::min(it->second, e.timeMs);
    std::pair<std::string, std::string> config{e.config, e.gpuConfig};
    auto &times = by[config];
    auto [t, fresh] = times.try_emplace(e.key.nBucket, e.timeMs);
    if (!fresh)
      t->second = std::min(t->second, e.timeMs);
    entryOf.try_emplace(config, &e);
  }
  bucketCount = best.size();
  std::optional<std::pair<TuningEntry, double>> choice;
  for (auto &[config, times] : by) {
    if (times.size() != best.size())
      continue;
    double worst = 0;
    for (auto [bucket, ms] : times)
      worst = std::max(worst, ms / best[bucket]);
    if (!choice || worst < choice->second)
      choice = {*entryOf[config], worst};
  }
  return choice;
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
      std::optional<TuningKey> key =
          getTuningKey(op, chip, seqLen > 0 ? seqLen : 4096);
      if (!key) {
        heuristic(op);
        continue;
      }
      std::string source;
      std::optional<TuningEntry> robust;
      if (seqLen <= 0 && ShapedType::isDynamic(op.getKeyType().getDimSize(2))) {
        auto all = (*opened)->entriesOf(*key);
        if (!all) {
          op.emitWarning() << llvm::toString(all.takeError())
                           << "; using the heuristic configuration";
          heuristic(op);
          continue;
        }
        int64_t buckets = 0;
        if (auto choice = robustChoice(*all, buckets); choice && buckets > 1) {
          robust = choice->first;
          source = llvm::formatv("db robust over {0} buckets (worst {1:f3}x "
                                 "the bucket's best)",
                                 buckets, choice->second)
                       .str();
        }
      }
      auto found = robust ? llvm::Expected<std::optional<TuningEntry>>(robust)
                          : (*opened)->lookup(*key);
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
        tiles =
            dyn_cast_or_null<TileConfigAttr>(parseAttributeText(e.config, ctx));
        gpu = dyn_cast_or_null<GpuConfigAttr>(
            parseAttributeText(e.gpuConfig, ctx));
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
      op.setGpuConfigAttr(withKeyLengthSchedule(gpu, op, seqLen));
      if (source.empty())
        source = (e.key.nBucket == key->nBucket ? "db exact "
                                                : "db nearest ") +
                 std::to_string(e.key.nBucket);
      if (e.key.lse != key->lse)
        source += " (measured with an LSE output)";
      op->setAttr("attn.tuning", StringAttr::get(ctx, source));
    }
  }
};
} // namespace
