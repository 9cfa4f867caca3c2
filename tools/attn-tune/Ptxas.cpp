//===- Ptxas.cpp - ptxas's resource report for attn-tune ------------------===//
//
// See Ptxas.h.
//
//===----------------------------------------------------------------------===//

#include "Ptxas.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdlib>
#include <deque>

using namespace attn_tune;
using llvm::SmallString;
using llvm::SmallVector;
using llvm::StringRef;

std::optional<std::string> attn_tune::findPtxas(StringRef toolkit) {
  SmallVector<StringRef> searchPaths;
  std::string toolkitBin = toolkit.empty() ? "" : toolkit.str() + "/bin";
  const char *cudaHome = std::getenv("CUDA_HOME");
  std::string cudaBin = cudaHome ? std::string(cudaHome) + "/bin" : "";
  for (const std::string &p : {toolkitBin, cudaBin})
    if (!p.empty())
      searchPaths.push_back(p);
  auto ptxas = llvm::sys::findProgramByName("ptxas", searchPaths);
  if (!ptxas)
    ptxas = llvm::sys::findProgramByName("ptxas");
  if (!ptxas)
    return std::nullopt;
  return *ptxas;
}

bool attn_tune::parsePtxasLog(StringRef log, attn::KernelResources &r) {
  SmallVector<StringRef> m;
  // One report per kernel of the module.
  llvm::Regex regs("Used ([0-9]+) registers"),
      spill("([0-9]+) bytes spill stores"), stack("([0-9]+) bytes stack frame");
  for (StringRef line : llvm::split(log, '\n')) {
    int64_t v = 0;
    if (regs.match(line, &m) && !m[1].getAsInteger(10, v))
      r.registers = std::max(r.registers, v);
    if (spill.match(line, &m) && !m[1].getAsInteger(10, v))
      r.spillBytes += v;
    if (stack.match(line, &m) && !m[1].getAsInteger(10, v))
      r.stackBytes += v;
    if (line.contains("C7508"))
      r.ignoredSetmaxnreg = true;
  }
  return r.registers != 0;
}

namespace {
/// Temporary files removed on scope exit (a deque: create's results stay
/// valid as more are made).
struct TempFiles {
  std::deque<SmallString<128>> paths;
  ~TempFiles() {
    for (const SmallString<128> &p : paths)
      llvm::sys::fs::remove(p);
  }
  /// A new temporary file with `suffix`, or "" if none could be made.
  StringRef create(StringRef suffix) {
    SmallString<128> path;
    if (llvm::sys::fs::createTemporaryFile("attn-tune", suffix, path))
      return "";
    paths.push_back(path);
    return paths.back();
  }
};
} // namespace

std::string attn_tune::assemble(StringRef ptxas, StringRef chip, StringRef ptx,
                                attn::KernelResources &r, std::string &cubin) {
  TempFiles files;
  StringRef ptxFile = files.create("ptx");
  StringRef logFile = ptxFile.empty() ? "" : files.create("log");
  StringRef cubinFile = logFile.empty() ? "" : files.create("cubin");
  if (cubinFile.empty())
    return "cannot create a temporary file";
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(ptxFile, ec);
    if (ec)
      return "cannot write " + ptxFile.str();
    os << ptx;
  }
  std::string arch = "-arch=" + chip.str();
  SmallVector<StringRef> args = {ptxas, "-v", arch, ptxFile, "-o", cubinFile};
  std::optional<StringRef> redirects[] = {std::nullopt, logFile, logFile};
  std::string error;
  int rc = llvm::sys::ExecuteAndWait(ptxas, args, std::nullopt, redirects, 0, 0,
                                     &error);
  auto log = llvm::MemoryBuffer::getFile(logFile);
  auto object = llvm::MemoryBuffer::getFile(cubinFile, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (rc == 0 && object)
    cubin = (*object)->getBuffer().str();
  if (rc != 0 || !log)
    return "ptxas failed (exit " + std::to_string(rc) + ")" +
           (log ? ": " + (*log)->getBuffer().take_front(300).str() : error);
  if (!parsePtxasLog((*log)->getBuffer(), r))
    return "no resource report from ptxas";
  return "";
}
