//===- CompileCache.cpp - tuning compilations kept by content hash --------===//

#include "attn/Tuning/CompileCache.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::attn;
namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

/// Bumped whenever entry.json changes meaning.
static constexpr int64_t kSchema = 1;

std::string mlir::attn::compileCacheKey(llvm::ArrayRef<llvm::StringRef> parts) {
  llvm::SHA256 sha;
  for (llvm::StringRef part : parts) {
    // Length-prefixed, so that ("ab", "c") and ("a", "bc") differ.
    sha.update(std::to_string(part.size()) + ":");
    sha.update(part);
  }
  return llvm::toHex(sha.final(), /*LowerCase=*/true);
}

std::string mlir::attn::hashFile(llvm::StringRef file) {
  auto buffer = llvm::MemoryBuffer::getFile(file, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer)
    return "";
  return compileCacheKey({(*buffer)->getBuffer()});
}

std::optional<CachedCompilation>
mlir::attn::lookupCompilation(llvm::StringRef dir, llvm::StringRef key) {
  llvm::SmallString<256> entryDir(dir);
  path::append(entryDir, key);
  llvm::SmallString<256> file(entryDir);
  path::append(file, "entry.json");
  auto buffer = llvm::MemoryBuffer::getFile(file);
  if (!buffer)
    return std::nullopt;
  llvm::Expected<llvm::json::Value> parsed =
      llvm::json::parse((*buffer)->getBuffer());
  if (!parsed) {
    llvm::consumeError(parsed.takeError());
    return std::nullopt;
  }
  const llvm::json::Object *obj = parsed->getAsObject();
  if (!obj || obj->getInteger("schema") != kSchema ||
      obj->getString("key") != key)
    return std::nullopt;
  CachedCompilation out;
  out.directory = entryDir.str().str();
  auto integer = [&](llvm::StringRef name, int64_t &to) {
    std::optional<int64_t> v = obj->getInteger(name);
    if (!v || *v < 0)
      return false;
    to = *v;
    return true;
  };
  std::optional<llvm::StringRef> rejected = obj->getString("rejected");
  std::optional<bool> setmaxnreg = obj->getBoolean("ignored_setmaxnreg");
  const llvm::json::Array *kernels = obj->getArray("kernels");
  const llvm::json::Array *files = obj->getArray("files");
  if (!rejected || !setmaxnreg || !kernels || !files ||
      !integer("registers", out.resources.registers) ||
      !integer("spill_bytes", out.resources.spillBytes) ||
      !integer("stack_bytes", out.resources.stackBytes) ||
      !integer("shared_bytes", out.resources.sharedBytes))
    return std::nullopt;
  out.rejected = rejected->str();
  out.resources.ignoredSetmaxnreg = *setmaxnreg;
  for (const llvm::json::Value &k : *kernels) {
    std::optional<llvm::StringRef> name = k.getAsString();
    if (!name)
      return std::nullopt;
    out.kernels.push_back(name->str());
  }
  // Every file the entry was stored with must still be there, whole.
  for (const llvm::json::Value &f : *files) {
    const llvm::json::Object *fo = f.getAsObject();
    std::optional<llvm::StringRef> name = fo ? fo->getString("name") : std::nullopt;
    std::optional<llvm::StringRef> sha = fo ? fo->getString("sha256") : std::nullopt;
    if (!name || !sha || name->contains('/'))
      return std::nullopt;
    llvm::SmallString<256> p(entryDir);
    path::append(p, *name);
    if (hashFile(p) != *sha)
      return std::nullopt;
  }
  if (out.rejected.empty() && out.kernels.empty())
    return std::nullopt;
  return out;
}

std::string mlir::attn::storeCompilation(llvm::StringRef dir,
                                         llvm::StringRef key,
                                         const CachedCompilation &result,
                                         llvm::StringRef artifactDir) {
  if (std::error_code ec = fs::create_directories(dir))
    return "cannot create " + dir.str() + ": " + ec.message();
  // A fresh temporary directory beside the entry, renamed into place at the
  // end: concurrent writers of the same key each rename a whole entry.
  llvm::SmallString<256> model(dir);
  path::append(model, "tmp-%%%%%%%%%%%%");
  llvm::SmallString<256> tmp;
  if (std::error_code ec = fs::createUniqueDirectory(model, tmp))
    return "cannot create a directory in " + dir.str() + ": " + ec.message();
  auto fail = [&](std::string why) {
    fs::remove_directories(tmp);
    return why;
  };
  llvm::json::Array files;
  if (!artifactDir.empty()) {
    std::error_code ec;
    for (fs::directory_iterator it(artifactDir, ec), end; it != end && !ec;
         it.increment(ec)) {
      if (it->type() != fs::file_type::regular_file)
        continue;
      llvm::StringRef name = path::filename(it->path());
      llvm::SmallString<256> to(tmp);
      path::append(to, name);
      if (std::error_code cec = fs::copy_file(it->path(), to))
        return fail("cannot copy " + it->path() + ": " + cec.message());
      files.push_back(
          llvm::json::Object{{"name", name.str()}, {"sha256", hashFile(to)}});
    }
    if (ec)
      return fail("cannot list " + artifactDir.str() + ": " + ec.message());
  }
  llvm::json::Array kernels;
  for (const std::string &k : result.kernels)
    kernels.push_back(k);
  llvm::json::Object entry{
      {"schema", kSchema},
      {"key", key.str()},
      {"rejected", result.rejected},
      {"registers", result.resources.registers},
      {"spill_bytes", result.resources.spillBytes},
      {"stack_bytes", result.resources.stackBytes},
      {"shared_bytes", result.resources.sharedBytes},
      {"ignored_setmaxnreg", result.resources.ignoredSetmaxnreg},
      {"kernels", std::move(kernels)},
      {"files", std::move(files)}};
  {
    llvm::SmallString<256> file(tmp);
    path::append(file, "entry.json");
    std::error_code ec;
    llvm::raw_fd_ostream os(file, ec);
    if (ec)
      return fail("cannot write " + file.str().str() + ": " + ec.message());
    os << llvm::json::Value(std::move(entry));
  }
  llvm::SmallString<256> final(dir);
  path::append(final, key);
  // An older (for instance corrupt) entry of the same key makes way.
  if (fs::exists(final))
    fs::remove_directories(final);
  if (std::error_code ec = fs::rename(tmp, final)) {
    // Another writer won the race with an entry of the same content.
    if (fs::exists(final))
      return fail("");
    return fail("cannot rename into " + final.str().str() + ": " +
                ec.message());
  }
  return "";
}

std::string mlir::attn::copyCachedArtifacts(const CachedCompilation &entry,
                                            llvm::StringRef dest) {
  if (std::error_code ec = fs::create_directories(dest))
    return "cannot create " + dest.str() + ": " + ec.message();
  std::error_code ec;
  for (fs::directory_iterator it(entry.directory, ec), end; it != end && !ec;
       it.increment(ec)) {
    llvm::StringRef name = path::filename(it->path());
    if (name == "entry.json" || it->type() != fs::file_type::regular_file)
      continue;
    llvm::SmallString<256> to(dest);
    path::append(to, name);
    if (std::error_code cec = fs::copy_file(it->path(), to))
      return "cannot copy " + it->path() + ": " + cec.message();
  }
  if (ec)
    return "cannot list " + entry.directory + ": " + ec.message();
  return "";
}
