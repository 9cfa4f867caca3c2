//===- TuningDB.h - the SQLite tuning database ------------------*- C++ -*-===//
//
// Measured configurations, keyed by target and problem class, in an SQLite
// file (Debian's libsqlite3): every timed candidate with its time and the
// environment it was measured in, the winner of each key marked. Exported
// and imported as JSON so that a reviewed database can live in the
// repository. Every failure (missing file, not a database, another
// schema, missing columns, a locked file, malformed JSON, an imported
// entry that no lookup could use) is an error message, never a crash.
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_TUNING_TUNINGDB_H
#define ATTN_TUNING_TUNINGDB_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

struct sqlite3;

namespace mlir {
class MLIRContext;
namespace attn {

/// A problem class (what a configuration is tuned for).
struct TuningKey {
  std::string chip;  // sm_80, sm_90a
  std::string dtype; // f16, bf16
  int64_t d = 0, dv = 0;
  std::string mask; // the #attn.mask attribute as printed
  std::string mods; // comma-separated score modification kinds, "" = none
                    // (bias, bias_b1, bias_h1, bias_b1h1: a bias and the
                    // dimensions it is broadcast over)
  int64_t gqa = 1;  // query heads per key/value head (0 = unknown: any,
                    // 1 preferred; an entry is stored with the group it
                    // was measured at)
  bool lse = true;
  int64_t nBucket = 4096;
};

/// One measured candidate of a key.
struct TuningEntry {
  TuningKey key;
  std::string config;    // #attn.tile_config<...> as printed
  std::string gpuConfig; // #attn.gpu_config<...> as printed
  double timeMs = 0;
  bool winner = false;
  std::string gpu, driver, compiler, measuredAt;
};

/// The sequence-length bucket of `n`: the power of two >= n in [512, 16384].
int64_t sequenceBucket(int64_t n);

/// Why `entry` cannot be stored ("" if it can): a chip the pipelines take,
/// a 16- or 32-bit float element type, positive head dims and GQA group, a
/// bucket that sequenceBucket gives, a positive finite time, modifications
/// and a mask as getTuningKey prints them (a lookup compares the text), and
/// configurations that parse and verify as the attributes
/// attn-apply-tuning reads (TuningEntryCheck.cpp).
/// `ctx` has the attn dialect loaded.
std::string checkTuningEntry(const TuningEntry &entry, MLIRContext &ctx);

class TuningDB {
public:
  ~TuningDB();
  /// Opens (creating it if `create`) the database at `path` and checks its
  /// schema.
  static llvm::Expected<std::unique_ptr<TuningDB>> open(llvm::StringRef path,
                                                        bool create);
  /// Adds `entry` unless a row equal to it in every column is there.
  llvm::Error insert(const TuningEntry &entry);
  /// The winner for `key`: its own bucket, else the nearest one. For an
  /// unknown GQA group (0) of one group only, as entriesOf: 1 if present,
  /// else the smallest (a group-8 entry never stands in for group 1's
  /// because its bucket is nearer). A key without an LSE output takes the
  /// entries measured with one where it has none of its own (the same
  /// kernel but for the LSE's store; never the other way round: an LSE
  /// output needs registers that an entry without one did not have).
  /// Where a bucket has several winners (measured on several GPUs or in
  /// several runs), the fastest.
  llvm::Expected<std::optional<TuningEntry>> lookup(const TuningKey &key);
  /// Every timed entry of `key`'s problem class in any bucket (winners and
  /// losers; for a dynamic GQA group, of one group: 1 if present, else the
  /// smallest; without an LSE output, of one LSE class as lookup).
  llvm::Expected<std::vector<TuningEntry>> entriesOf(const TuningKey &key);
  llvm::Expected<std::vector<TuningEntry>> all();
  /// {"schema_version": 1, "entries": [...]}
  llvm::Expected<std::string> exportJSON();
  llvm::Error importJSON(llvm::StringRef json);

private:
  explicit TuningDB(sqlite3 *db, std::string path)
      : db(db), path(std::move(path)) {}
  sqlite3 *db;
  std::string path;
};

} // namespace attn
} // namespace mlir

#endif // ATTN_TUNING_TUNINGDB_H
