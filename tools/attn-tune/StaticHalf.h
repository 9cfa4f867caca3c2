//===- StaticHalf.h - attn-tune's candidates, pruned on this machine -*- C++
//-*-===//
//
// The static half of tuning (no GPU needed): enumerates the legal
// configurations of the search space for the chip (attn/Tuning), compiles
// those that can still reach a length's --top (CompileSchedule.h; all of
// them with --emit-all) for the first attn.attention of the input, once per
// key-length schedule that withKeyLengthSchedule gives it among the --n, as
// the configuration passes will schedule a database entry
// (CandidateCompiler.h), rejects what fails to compile or spills or uses
// local memory (and, for sm_90a, kernels where ptxas ignored setmaxnreg),
// ranks the rest with the analytic cost model for each --n, and prints a
// JSON report: the tuning database's key, the heuristic's configuration,
// every candidate with its configuration strings, resources and cost per
// --n, or the reason it was rejected. With an emit directory it writes the
// union of each length's best --top candidates (kernels renamed
// `<function>__c<candidate index>`, `...v<k>` for its k-th schedule; a
// report row's "ns" says which lengths it is for) and the heuristic's
// kernel (`<function>__default`), for bench/device/tune_measure.py.
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_TOOLS_ATTN_TUNE_STATICHALF_H
#define ATTN_TOOLS_ATTN_TUNE_STATICHALF_H

#include <cstdint>
#include <string>
#include <vector>

namespace attn_tune {

struct StaticOptions {
  std::string input; // the .mlir file
  std::string self;  // this executable (fingerprinted for the report and cache)
  std::string chip, toolkit, emitDir, only, cacheDir;
  std::vector<int64_t> ns; // lengths ranked for; 4096 if empty
  int64_t top = 16;
  unsigned jobs = 2;
  bool emitAll = false, progress = false;
};

/// Prints the report to stdout; errors go to stderr with a location.
/// Returns the exit status.
int runStaticHalf(const StaticOptions &options);

} // namespace attn_tune

#endif // ATTN_TOOLS_ATTN_TUNE_STATICHALF_H
