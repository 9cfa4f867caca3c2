//===- TuneLoop.h - attn-tune's prepare / measure / import loop -*- C++ -*-===//
//
// The tuning loop as one command (issue 10): `attn-tune prepare` runs the
// static half (this executable's own mode, one child process per key) for
// each key of a key file, `attn-tune measure` runs the runtime-only
// measurer (bench/device/tune_measure.py: no MLIR, for the GPU machine)
// over the prepared keys and merges what it measured, `attn-tune import`
// fills the SQLite database, and `attn-tune all` runs the three on a
// machine that has both the compiler and a GPU. Every phase skips what is
// done (resumable) and prints a progress line with an ETA.
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_TOOLS_ATTN_TUNE_TUNELOOP_H
#define ATTN_TOOLS_ATTN_TUNE_TUNELOOP_H

#include "StaticHalf.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace attn_tune {

/// One line of a key file: `NAME DTYPE D[:DV] MASK[+softcap=C][+bias[=SHAPE]]
/// [gqa=G]` (`+bias`: an additive [B, H, Nq, Nk] bias operand; SHAPE
/// `full`, the default, or `b1`, `h1`, `b1h1` for a bias broadcast over the
/// batch, the heads or both, which are tuning keys of their own).
struct KeySpec {
  std::string name, dtype, mask, softcap;
  std::string bias; // "" (none), "full", "b1", "h1" or "b1h1"
  int64_t d = 0, dv = 0, gqa = 0; // gqa 0: dynamic head counts
  bool lse = true;                 // `lse=no`: an output without the LSE
  /// The function holding the key's attn.attention (f16/bf16, with LSE
  /// unless `lse=no`, dynamic B/H/N unless gqa fixes the heads at the
  /// benchmark's).
  std::string moduleText() const;
  /// The harness's description of the score modification (run.Meta) for
  /// the heuristic's kernel, or "" when there is none.
  std::string harnessJSON() const;
};

/// Parses `text` (the contents of `file`); on a malformed line returns
/// std::nullopt with `error` = "FILE:LINE: reason".
std::optional<std::vector<KeySpec>> parseKeys(llvm::StringRef text,
                                              llvm::StringRef file,
                                              std::string &error);

/// The static half's options (`self` is the static half's process; the
/// loop ignores `input`, `emitDir` and `progress` and passes each key's
/// own), and the loop's.
struct LoopOptions : StaticOptions {
  /// SHA-256 of `self`: a report from another build is stale.
  std::string fingerprint;
  // measure
  std::string runtime, measurer, python;
  double budgetS = 540;
};

int prepare(const LoopOptions &options, llvm::StringRef keysFile,
            llvm::StringRef dir);
int measure(const LoopOptions &options, llvm::StringRef dir,
            llvm::StringRef out);
int importInto(llvm::StringRef out, llvm::StringRef db);

} // namespace attn_tune

#endif // ATTN_TOOLS_ATTN_TUNE_TUNELOOP_H
