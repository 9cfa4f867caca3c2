//===- CompileSchedule.h - which candidates attn-tune compiles -*- C++ -*-===//
//
// Compiling is the static half's cost (about a second a variant), and most
// candidates cannot reach any length's --top. Each variant's cost has a
// lower bound before it is compiled (estimateCostBound: the resources enter
// the model only through the CTAs per SM). Compiling in the order of the
// bounds, a length is settled once its --top best compiled costs are all
// below the bound of every variant not yet compiled for it: no other can
// enter its --top. When every length is settled the rest is not compiled.
//
// And a variant whose family (the same configuration and lengths but for
// block_n) spilled kFamilySpillBytes or more at a smaller block_n is not
// compiled either: a wider K/V block holds more of every per-key register
// tile. Small spills are not monotone in block_n (D = 256's async_pv spills
// 80 bytes at 64 keys and none at 80; a softcap's 256 bytes at 144, none at
// 176), large ones were: over the full spaces of four keys no wider block of
// a family that spilled 512 bytes compiled without spills (docs/tuning.md).
// A family's blocks are compiled narrowest first.
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_TOOLS_ATTN_TUNE_COMPILESCHEDULE_H
#define ATTN_TOOLS_ATTN_TUNE_COMPILESCHEDULE_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/ThreadPool.h"

#include <cstdint>
#include <functional>
#include <vector>

namespace attn_tune {

/// A family's spill at a narrower block that rules out its wider blocks.
constexpr int64_t kFamilySpillBytes = 512;

/// What the schedule needs of a compiled variant.
struct CompileResult {
  bool accepted = false;
  std::vector<double> costs; // per length of the variant, when accepted
  int64_t spillBytes = 0;    // when rejected for spills, else 0
};

/// The variants to compile, before any is.
struct CompilePlan {
  size_t lengths = 0; // the --n
  /// Per variant: the lengths (indices into the --n) it is compiled for,
  /// and its cost bound at each of them.
  std::vector<std::vector<size_t>> lengthsOf;
  std::vector<std::vector<double>> bounds;
  int64_t top = 16;
  bool prune = true; // false: compile every variant (--emit-all)
  /// Whether variant k is a narrower block of variant i's family.
  std::function<bool(size_t i, size_t k)> narrowerSibling;
};

/// Compiles the variants of `plan` that can reach a length's --top with
/// `compile` (called concurrently, from up to `workers` tasks of `pool`),
/// and returns when no more will be compiled (other tasks of `pool` are
/// not waited for). `ruledOut(i, k)` is called, serialized, for a variant
/// i not compiled because its narrower sibling k spilled. Returns, per
/// variant, whether it was compiled.
std::vector<bool> scheduleCompilations(
    const CompilePlan &plan, llvm::ThreadPoolInterface &pool, unsigned workers,
    llvm::function_ref<CompileResult(size_t)> compile,
    llvm::function_ref<void(size_t i, size_t k, int64_t spillBytes)> ruledOut);

} // namespace attn_tune

#endif // ATTN_TOOLS_ATTN_TUNE_COMPILESCHEDULE_H
