//===- TuningEntryCheck.cpp - what a tuning database entry may hold -------===//
//
// An import is the one way a file enters the database, so it refuses what
// no key could look up or attn-apply-tuning could not use: a corrupt or
// hand-edited JSON gives an error naming the entry and the field, not a
// database whose entries warn on every compilation (attn-apply-tuning
// still warns and takes the heuristic for an entry that does not parse,
// for a database written by other means).
//
//===----------------------------------------------------------------------===//

#include "attn/Tuning/TuningDB.h"

#include "attn/Dialect/Attn/IR/AttnDialect.h"
#include "attn/Support/ParseSource.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"

#include "llvm/ADT/StringExtras.h"

#include <cmath>

using namespace mlir;
using namespace mlir::attn;
using llvm::StringRef;

/// Why `text` is not an attribute of type `Attr` ("" if it is, and then
/// `parsed` holds it): the parser's or verifier's first error.
template <typename Attr>
static std::string checkAttr(MLIRContext &ctx, StringRef field, StringRef text,
                             Attr *parsed = nullptr) {
  std::string diag;
  ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &d) {
    if (diag.empty() && d.getSeverity() == DiagnosticSeverity::Error)
      diag = d.str();
    return success();
  });
  Attribute attr = parseAttributeText(text, &ctx);
  if (auto typed = dyn_cast_or_null<Attr>(attr)) {
    if (parsed)
      *parsed = typed;
    return "";
  }
  std::string why = field.str() + " '" + text.str() + "' is not " +
                    (attr ? "the attribute expected" : "valid");
  return diag.empty() ? why : why + ": " + diag;
}

std::string mlir::attn::checkTuningEntry(const TuningEntry &e,
                                         MLIRContext &ctx) {
  const TuningKey &k = e.key;
  if (!llvm::is_contained({"sm_80", "sm_90", "sm_90a"}, k.chip))
    return "chip '" + k.chip + "' is not sm_80, sm_90 or sm_90a";
  if (!llvm::is_contained({"f16", "bf16", "f32"}, k.dtype))
    return "dtype '" + k.dtype + "' is not f16, bf16 or f32";
  if (k.d <= 0 || k.dv <= 0)
    return "d and dv must be positive";
  if (k.gqa <= 0)
    return "gqa must be positive (the group the entry was measured at)";
  if (sequenceBucket(k.nBucket) != k.nBucket)
    return "n_bucket " + std::to_string(k.nBucket) +
           " is not a bucket (a power of two from 512 to 16384)";
  if (!std::isfinite(e.timeMs) || e.timeMs <= 0)
    return "time_ms must be a positive number";
  // The kinds in getTuningKey's order, each once; the bias forms are one
  // kind.
  static const char *const kinds[] = {"softcap",   "bias",      "bias_b1",
                                      "bias_h1",   "bias_b1h1", "alibi",
                                      "score_mod", "mask_mod"};
  auto rank = [](size_t at) { return at == 0 ? 0 : at <= 4 ? 1 : at - 3; };
  if (!k.mods.empty()) {
    size_t next = 0; // the least rank the next kind may have
    for (StringRef mod : llvm::split(k.mods, ',')) {
      const auto *it = llvm::find(kinds, mod);
      if (it == std::end(kinds))
        return "mods: '" + mod.str() + "' is not a score modification kind";
      size_t r = rank(it - std::begin(kinds));
      if (r < next)
        return "mods '" + k.mods +
               "' is not as a key prints it (softcap, a bias, alibi, "
               "score_mod, mask_mod: in that order, each once)";
      next = r + 1;
    }
  }
  MaskAttr mask;
  if (std::string why = checkAttr(ctx, "mask", k.mask, &mask); !why.empty())
    return why;
  // A lookup compares the mask as text.
  std::string printed;
  llvm::raw_string_ostream(printed) << mask;
  if (printed != k.mask)
    return "mask '" + k.mask + "' is not as a key prints it ('" + printed +
           "')";
  if (std::string why = checkAttr<TileConfigAttr>(ctx, "config", e.config);
      !why.empty())
    return why;
  return checkAttr<GpuConfigAttr>(ctx, "gpu_config", e.gpuConfig);
}
