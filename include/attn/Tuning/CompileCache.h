//===- CompileCache.h - tuning compilations kept by content hash -*- C++ -*-===//
//
// attn-tune compiles every candidate of the search space and assembles it
// with ptxas; most of its time goes there, and most of that repeats when the
// same key is prepared again (a resumed or extended tuning run, another
// --top or --n). The cache keeps, per compilation, what the tuner needs
// from it: the ptxas resource report, the reason a candidate was rejected,
// and the artifact files of an accepted one. An entry is found by the
// SHA-256 of everything that decides the result: the candidate's module
// text (configuration attached, kernels renamed), the chip, the artifact
// stem, and a fingerprint of the compiler and ptxas (the caller's: the
// tool's own executable and ptxas's version, so that a rebuilt compiler
// never reads entries of another build, dirty trees included).
//
// An entry is a directory `<dir>/<hash>/` holding `entry.json` and, for an
// accepted candidate, the files writeArtifacts wrote. It is written under a
// temporary name and renamed into place, so a reader sees a whole entry or
// none; an entry that does not parse, names a file that is missing or has
// another schema is a miss (and is replaced by the next store).
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_TUNING_COMPILECACHE_H
#define ATTN_TUNING_COMPILECACHE_H

#include "attn/Tuning/SearchSpace.h"

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir {
namespace attn {

/// What a cached compilation says about one candidate.
struct CachedCompilation {
  /// Empty when the candidate was accepted, else why it was not.
  std::string rejected;
  KernelResources resources;
  /// Kernel names of the artifacts (accepted candidates).
  std::vector<std::string> kernels;
  /// The entry's directory: the artifact files, as writeArtifacts names
  /// them.
  std::string directory;
};

/// The content key of one compilation: the hex SHA-256 of its parts.
std::string compileCacheKey(llvm::ArrayRef<llvm::StringRef> parts);

/// The SHA-256 of a file's bytes (hex), or "" when it cannot be read.
std::string hashFile(llvm::StringRef path);

/// The entry for `key` under `dir`, or nothing (no entry, or one that is
/// incomplete or corrupt).
std::optional<CachedCompilation> lookupCompilation(llvm::StringRef dir,
                                                   llvm::StringRef key);

/// Stores an entry for `key`: `result` (its `directory` ignored) and, when
/// `artifactDir` is not empty, every regular file in it. Returns "" or why
/// it could not (the tuner then goes on without the cache).
std::string storeCompilation(llvm::StringRef dir, llvm::StringRef key,
                             const CachedCompilation &result,
                             llvm::StringRef artifactDir);

/// Copies the artifact files of a cached entry into `dest`.
std::string copyCachedArtifacts(const CachedCompilation &entry,
                                llvm::StringRef dest);

} // namespace attn
} // namespace mlir

#endif // ATTN_TUNING_COMPILECACHE_H
