//===- Ptxas.h - ptxas's resource report for attn-tune ---------*- C++ -*-===//
//
// attn-tune prunes by what ptxas reports (registers, spills, stack, and on
// sm_90a whether it ignored setmaxnreg), which the MLIR pipeline's own
// assembly does not expose: it runs `ptxas -v` itself and reads the log.
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_TOOLS_ATTN_TUNE_PTXAS_H
#define ATTN_TOOLS_ATTN_TUNE_PTXAS_H

#include "attn/Tuning/SearchSpace.h"

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace attn_tune {

namespace attn = mlir::attn;

/// ptxas in `toolkit`/bin, $CUDA_HOME/bin or on PATH, in that order.
std::optional<std::string> findPtxas(llvm::StringRef toolkit);

/// Reads `ptxas -v`'s log of a module into `r`: the most registers of its
/// kernels, the sum of their spill stores and stack frames, and warning
/// C7508 (setmaxnreg ignored). Returns false where the log names no
/// kernel's registers.
bool parsePtxasLog(llvm::StringRef log, attn::KernelResources &r);

/// Runs `ptxas -v -arch=chip` on `ptx`; fills `r` and `cubin` (what ptxas
/// assembled, so that the device loads it instead of JIT-compiling the
/// PTX) or returns the reason it failed ("ptxas failed ..." or
/// "cannot ..." for a failure of this machine rather than of the PTX).
std::string assemble(llvm::StringRef ptxas, llvm::StringRef chip,
                     llvm::StringRef ptx, attn::KernelResources &r,
                     std::string &cubin);

} // namespace attn_tune

#endif // ATTN_TOOLS_ATTN_TUNE_PTXAS_H
