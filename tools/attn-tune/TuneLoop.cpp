//===- TuneLoop.cpp - attn-tune's prepare / measure / import loop ---------===//
//
// See TuneLoop.h. The phases run other processes (the static half once per
// key, the measurer once for every pending key) so that a failing key stops
// neither the loop nor the measurements already made: each phase writes
// what it finished and the next run starts from there.
//
//===----------------------------------------------------------------------===//

#include "TuneLoop.h"

#include "attn/Tuning/TuningDB.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <set>
#include <sys/wait.h>

using namespace attn_tune;
using llvm::SmallString;
using llvm::SmallVector;
using llvm::StringRef;
namespace json = llvm::json;
namespace fs = llvm::sys::fs;

namespace {
/// Seconds since the phase started, and the progress line with an ETA that
/// every phase prints per finished item.
struct Progress {
  size_t total;
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  double elapsed() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                         start)
        .count();
  }
  void line(size_t done, StringRef what) const {
    double t = elapsed();
    double eta = done ? t / done * (total - done) : 0;
    llvm::outs() << llvm::formatv(
        "[{0}/{1}] {2,-40} {3,6:f1} s elapsed, ETA {4,6:f1} s\n", done, total,
        what, t, eta);
    llvm::outs().flush();
  }
};
} // namespace

static bool isIdentifier(StringRef s) {
  return !s.empty() && (llvm::isAlpha(s[0]) || s[0] == '_') &&
         llvm::all_of(s, [](char c) { return llvm::isAlnum(c) || c == '_'; });
}

std::optional<std::vector<KeySpec>>
attn_tune::parseKeys(StringRef text, StringRef file, std::string &error) {
  std::vector<KeySpec> keys;
  int lineNo = 0;
  for (StringRef line : llvm::split(text, '\n')) {
    ++lineNo;
    SmallVector<StringRef> f;
    line.split(f, ' ', -1, /*KeepEmpty=*/false);
    if (f.empty() || f[0].starts_with("#"))
      continue;
    auto fail = [&](const llvm::Twine &why) {
      error = (file + ":" + llvm::Twine(lineNo) + ": " + why).str();
      return std::nullopt;
    };
    if (f.size() < 4 || f.size() > 6)
      return fail("expected 'NAME DTYPE D[:DV] MASK[+softcap=C][+bias[=SHAPE]] "
                  "[gqa=G] [lse=no]'");
    KeySpec k;
    k.name = f[0].str();
    if (!isIdentifier(k.name))
      return fail("key name '" + f[0] + "' is not an identifier");
    if (llvm::any_of(keys, [&](const KeySpec &o) { return o.name == k.name; }))
      return fail("key '" + f[0] + "' appears twice");
    k.dtype = f[1].str();
    if (k.dtype != "f16" && k.dtype != "bf16")
      return fail("dtype '" + f[1] + "' (f16, bf16)");
    auto [d, dv] = f[2].split(':');
    if (d.getAsInteger(10, k.d) || k.d <= 0 ||
        (!dv.empty() && (dv.getAsInteger(10, k.dv) || k.dv <= 0)))
      return fail("head dim '" + f[2] + "' (D or D:DV, positive)");
    if (dv.empty())
      k.dv = k.d;
    SmallVector<StringRef> parts;
    f[3].split(parts, '+');
    StringRef mask = parts.front();
    k.mask = mask.str();
    if (!llvm::is_contained({"none", "causal_br", "causal_tl", "window_br"},
                            mask))
      return fail("mask '" + mask +
                  "' (none, causal_br, causal_tl, window_br)");
    for (StringRef mod : llvm::ArrayRef(parts).drop_front()) {
      double c = 0;
      StringRef shape = mod;
      if (shape.consume_front("bias") && k.bias.empty() &&
          (shape.empty() || shape.consume_front("="))) {
        if (mod == "bias")
          shape = "full";
        if (!llvm::is_contained({"full", "b1", "h1", "b1h1"}, shape))
          return fail("bias shape '" + shape + "' (full, b1, h1, b1h1)");
        k.bias = shape.str();
        continue;
      }
      StringRef cap = mod;
      if (!cap.consume_front("softcap=") || !k.softcap.empty() ||
          cap.getAsDouble(c) || !(c > 0) || !std::isfinite(c))
        return fail("score modification '" + mod +
                    "' (softcap=C with C > 0, or bias[=full|b1|h1|b1h1]; "
                    "each once)");
      // As the key's function and its harness write it: an MLIR float
      // literal needs a dot ("30" and "1e3" do not parse as f64), which
      // JSON takes too.
      k.softcap = cap.ltrim('+').str();
      if (k.softcap.find('.') == std::string::npos)
        k.softcap.insert(std::min(k.softcap.find_first_of("eE"),
                                  k.softcap.size()),
                         ".0");
    }
    bool seenGqa = false, seenLse = false;
    for (StringRef field : llvm::ArrayRef(f).drop_front(4)) {
      StringRef g = field;
      if (!seenLse && g.consume_front("lse=") && (g == "no" || g == "yes")) {
        seenLse = true;
        k.lse = g == "yes";
        continue;
      }
      g = field;
      if (seenGqa || !g.consume_front("gqa=") || g.getAsInteger(10, k.gqa) ||
          k.gqa <= 0)
        return fail("field '" + field + "' (gqa=G or lse=no, each once)");
      seenGqa = true;
      int64_t hq = 2048 / k.d;
      if (hq == 0 || hq % k.gqa)
        return fail("gqa=" + llvm::Twine(k.gqa) + " does not divide the " +
                    llvm::Twine(hq) + " query heads of D = " +
                    llvm::Twine(k.d));
    }
    keys.push_back(std::move(k));
  }
  if (keys.empty()) {
    error = (file + ": no keys").str();
    return std::nullopt;
  }
  return keys;
}

std::string KeySpec::moduleText() const {
  std::string attrs;
  if (mask == "causal_br")
    attrs = "mask = #attn.mask<causal, bottom_right>";
  else if (mask == "causal_tl")
    attrs = "mask = #attn.mask<causal, top_left>";
  else if (mask == "window_br")
    attrs = "mask = #attn.mask<window, bottom_right, left = 256, right = 0>";
  if (!softcap.empty())
    attrs += (attrs.empty() ? "" : ", ") + ("softcap = " + softcap + " : f64");
  // gqa fixes the head counts at the benchmark's (H * D = 2048).
  std::string hq = "?", hkv = "?";
  if (gqa) {
    hq = std::to_string(2048 / d);
    hkv = std::to_string(2048 / d / gqa);
  }
  auto memref = [&](const std::string &h, int64_t dim) {
    return llvm::formatv("memref<?x{0}x?x{1}x{2}>", h, dim, dtype).str();
  };
  std::string q = memref(hq, d), k = memref(hkv, d), v = memref(hkv, dv),
              o = memref(hq, dv), l = "memref<?x" + hq + "x?xf32>";
  // A bias of every query head's full score matrix ([B, Hq, Nq, Nk]), or
  // one broadcast (extent 1) over the batch, the heads or both.
  std::string biasB = bias == "b1" || bias == "b1h1" ? "1" : "?";
  std::string biasH = bias == "h1" || bias == "b1h1" ? "1" : hq;
  std::string biasType =
      "memref<" + biasB + "x" + biasH + "x?x?x" + dtype + ">";
  std::string biasArg = bias.empty() ? "" : ", %bias: " + biasType;
  std::string biasOperand =
      bias.empty() ? "" : " bias(%bias : " + biasType + ")";
  std::string lseArg = lse ? ", %lse: " + l : "";
  std::string outs = lse ? "outs(%o, %lse : " + o + ", " + l + ")"
                         : "outs(%o : " + o + ")";
  return llvm::formatv("func.func @{0}(%q: {1}, %k: {2}, %v: {3}, %o: {4}"
                       "{5}{7}) {{\n"
                       "  attn.attention ins(%q, %k, %v : {1}, {2}, {3}){8} "
                       "{9}{6}\n"
                       "  return\n}\n",
                       name, q, k, v, o, lseArg,
                       attrs.empty() ? "" : " {" + attrs + "}", biasArg,
                       biasOperand, outs)
      .str();
}

std::string KeySpec::harnessJSON() const {
  SmallVector<std::string> mods;
  if (!softcap.empty())
    mods.push_back("\"softcap\": " + softcap);
  if (!bias.empty())
    mods.push_back("\"bias\": \"" + bias + "\"");
  if (mods.empty())
    return "";
  return "{\"mods\": {" + llvm::join(mods, ", ") + "}, \"flex\": false}\n";
}

static std::optional<json::Value> readJSON(StringRef path,
                                           std::string *error = nullptr) {
  auto file = llvm::MemoryBuffer::getFile(path);
  if (!file) {
    if (error)
      *error = "cannot read " + path.str();
    return std::nullopt;
  }
  llvm::Expected<json::Value> v = json::parse((*file)->getBuffer());
  if (!v) {
    if (error)
      *error = path.str() + ": " + llvm::toString(v.takeError());
    else
      llvm::consumeError(v.takeError());
    return std::nullopt;
  }
  return std::move(*v);
}

static bool writeFile(StringRef path, StringRef text) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec)
    return false;
  os << text;
  return true;
}

/// A key's directory holds a finished static half for these options: the
/// same module, and a report written by this build with the same chip,
/// lengths, top and candidate filter.
static bool isPrepared(const LoopOptions &o, StringRef keyDir,
                       const KeySpec &k) {
  SmallString<128> mlir(keyDir), report(keyDir);
  llvm::sys::path::append(mlir, k.name + ".mlir");
  llvm::sys::path::append(report, "report.json");
  auto text = llvm::MemoryBuffer::getFile(mlir);
  if (!text || (*text)->getBuffer() != k.moduleText())
    return false;
  std::optional<json::Value> r = readJSON(report);
  const json::Object *obj = r ? r->getAsObject() : nullptr;
  if (!obj || o.fingerprint.empty())
    return false;
  json::Array ns;
  for (int64_t n : o.ns)
    ns.push_back(n);
  auto str = [&](StringRef f) { return obj->getString(f).value_or(""); };
  const json::Array *rns = obj->getArray("ns");
  return str("compiler") == o.fingerprint && str("chip") == o.chip &&
         rns && *rns == ns && obj->getInteger("top") == o.top &&
         obj->getBoolean("emit_all") == o.emitAll && str("only") == o.only;
}

int attn_tune::prepare(const LoopOptions &o, StringRef keysFile,
                       StringRef dir) {
  auto file = llvm::MemoryBuffer::getFileOrSTDIN(keysFile);
  if (!file) {
    llvm::errs() << "attn-tune: cannot read " << keysFile << "\n";
    return 1;
  }
  std::string error;
  std::optional<std::vector<KeySpec>> keys =
      parseKeys((*file)->getBuffer(), keysFile, error);
  if (!keys) {
    llvm::errs() << "attn-tune: " << error << "\n";
    return 1;
  }
  if (fs::create_directories(dir)) {
    llvm::errs() << "attn-tune: cannot create " << dir << "\n";
    return 1;
  }
  std::string nList;
  for (int64_t n : o.ns)
    nList += (nList.empty() ? "" : ",") + std::to_string(n);
  Progress progress{keys->size()};
  std::vector<std::string> failedKeys;
  for (size_t i = 0; i < keys->size(); ++i) {
    const KeySpec &k = (*keys)[i];
    SmallString<128> keyDir(dir);
    llvm::sys::path::append(keyDir, k.name);
    if (isPrepared(o, keyDir, k)) {
      progress.line(i + 1, k.name + " (prepared already)");
      continue;
    }
    // A directory of another build or key is replaced, never mixed with.
    fs::remove_directories(keyDir);
    SmallString<128> mlir(keyDir), report(keyDir), part(keyDir);
    llvm::sys::path::append(mlir, k.name + ".mlir");
    llvm::sys::path::append(report, "report.json");
    llvm::sys::path::append(part, "report.json.part");
    bool ok = !fs::create_directories(keyDir) &&
              writeFile(mlir, k.moduleText());
    if (ok && !k.harnessJSON().empty()) {
      SmallString<128> harness(keyDir);
      llvm::sys::path::append(harness, k.name + "__default.harness.json");
      ok = writeFile(harness, k.harnessJSON());
    }
    if (!ok) {
      llvm::errs() << "attn-tune: cannot write " << keyDir << "\n";
      return 1;
    }
    std::vector<std::string> args = {o.self,
                                     mlir.str().str(),
                                     "--chip=" + o.chip,
                                     "--n=" + nList,
                                     "--top=" + std::to_string(o.top),
                                     "-j=" + std::to_string(o.jobs),
                                     "--emit=" + keyDir.str().str(),
                                     "--progress"};
    if (!o.toolkit.empty())
      args.push_back("--toolkit=" + o.toolkit);
    if (!o.cacheDir.empty())
      args.push_back("--cache-dir=" + o.cacheDir);
    if (!o.only.empty())
      args.push_back("--only=" + o.only);
    if (o.emitAll)
      args.push_back("--emit-all");
    SmallVector<StringRef> argRefs(args.begin(), args.end());
    std::optional<StringRef> redirects[] = {std::nullopt, StringRef(part),
                                            std::nullopt};
    double before = progress.elapsed();
    std::string execError;
    int rc = llvm::sys::ExecuteAndWait(o.self, argRefs, std::nullopt,
                                       redirects, 0, 0, &execError);
    // The report is renamed into place only when the static half finished:
    // a key that failed or was stopped is prepared again next time.
    if (rc != 0 || fs::rename(part, report)) {
      llvm::errs() << "attn-tune: key " << k.name << " (" << mlir
                   << ") failed: exit " << rc
                   << (execError.empty() ? "" : ", " + execError)
                   << "; prepared again by the next run\n";
      failedKeys.push_back(k.name);
      progress.line(i + 1, k.name + " (failed)");
      continue;
    }
    if (std::optional<json::Value> r = readJSON(report))
      if (const json::Object *obj = r->getAsObject()) {
        int64_t emitted = 0;
        if (const json::Array *rows = obj->getArray("ranked"))
          for (const json::Value &row : *rows)
            if (row.getAsObject() && row.getAsObject()->get("kernels"))
              ++emitted;
        llvm::outs() << llvm::formatv(
            "{0}: {1} candidates, {2} accepted, {3} emitted, {4:f1} s\n",
            k.name, obj->getInteger("candidates").value_or(0),
            obj->getInteger("accepted").value_or(0), emitted,
            progress.elapsed() - before);
      }
    progress.line(i + 1, k.name);
  }
  if (!failedKeys.empty()) {
    llvm::errs() << "attn-tune: " << failedKeys.size()
                 << " keys not prepared: " << llvm::join(failedKeys, " ")
                 << "\n";
    return 1;
  }
  return 0;
}

/// The (key, N) points a report asks to measure: the key printed (json
/// prints objects with sorted members, so equal keys print alike) and N.
static std::vector<std::string> pointsOf(const json::Object &report) {
  std::vector<std::string> points;
  const json::Value *key = report.get("key");
  const json::Array *ns = report.getArray("ns");
  if (!key || !ns)
    return points;
  std::string k = llvm::formatv("{0}", *key).str();
  for (const json::Value &n : *ns)
    if (std::optional<int64_t> v = n.getAsInteger())
      points.push_back(k + " @" + std::to_string(*v));
  return points;
}

static std::string shellQuote(StringRef s) {
  std::string q = "'";
  for (char c : s)
    q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

static bool writeJSONAtomically(StringRef path, const json::Value &v) {
  std::string tmp = (path + ".tmp").str();
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(tmp, ec);
    if (ec)
      return false;
    os << llvm::formatv("{0:1}", v) << "\n";
  }
  return !fs::rename(tmp, path);
}

int attn_tune::measure(const LoopOptions &o, StringRef dir, StringRef out) {
  // What earlier runs measured.
  json::Object done{{"schema_version", 1},
                    {"entries", json::Array()},
                    {"summary", json::Array()},
                    {"failed", json::Array()}};
  if (fs::exists(out)) {
    std::string error;
    std::optional<json::Value> v = readJSON(out, &error);
    json::Object *obj = v ? v->getAsObject() : nullptr;
    if (!obj || !obj->getArray("entries") || !obj->getArray("summary")) {
      llvm::errs() << "attn-tune: " << (error.empty() ? out.str() : error)
                   << ": not a measurement (entries, summary); left as it "
                      "is\n";
      return 1;
    }
    for (StringRef f : {"entries", "summary", "failed"})
      if (json::Array *a = obj->getArray(f))
        *done.getArray(f) = std::move(*a);
  }
  std::set<std::string> have;
  auto noteMeasured = [&](const json::Array &summary) {
    for (const json::Value &s : summary)
      if (const json::Object *so = s.getAsObject())
        if (const json::Value *key = so->get("key"))
          if (std::optional<int64_t> n = so->getInteger("n"))
            have.insert(llvm::formatv("{0}", *key).str() + " @" +
                        std::to_string(*n));
  };
  noteMeasured(*done.getArray("summary"));

  // The prepared keys, in name order, and which of them miss a point.
  std::vector<std::string> keyDirs;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; it != end && !ec;
       it.increment(ec)) {
    SmallString<128> report(it->path());
    llvm::sys::path::append(report, "report.json");
    if (fs::exists(report))
      keyDirs.push_back(it->path());
  }
  if (ec || keyDirs.empty()) {
    llvm::errs() << "attn-tune: " << dir
                 << " holds no prepared key (attn-tune prepare writes "
                    "DIR/<key>/report.json)\n";
    return 1;
  }
  llvm::sort(keyDirs);
  std::vector<std::pair<std::string, std::vector<std::string>>> pending;
  size_t total = 0;
  for (const std::string &keyDir : keyDirs) {
    SmallString<128> report(keyDir);
    llvm::sys::path::append(report, "report.json");
    std::string error;
    std::optional<json::Value> r = readJSON(report, &error);
    const json::Object *obj = r ? r->getAsObject() : nullptr;
    std::vector<std::string> points = obj ? pointsOf(*obj) : std::vector<std::string>();
    if (points.empty()) {
      llvm::errs() << "attn-tune: " << (error.empty() ? report.str().str() : error)
                   << ": no key and lengths; prepare it again\n";
      return 1;
    }
    StringRef name = llvm::sys::path::filename(keyDir);
    if (llvm::all_of(points, [&](const std::string &p) { return have.count(p); })) {
      llvm::outs() << name << ": measured already\n";
      continue;
    }
    total += llvm::count_if(points, [&](const std::string &p) { return !have.count(p); });
    pending.push_back({keyDir, std::move(points)});
  }
  llvm::outs().flush();
  if (pending.empty())
    return 0;

  // One measuring process for every pending key (torch and the runtime
  // start once): it skips the points measured before, starts no point after
  // the budget and rewrites its output after every key, so whatever it
  // measured is merged even when it fails or is stopped.
  std::string part = (out + ".part").str();
  fs::remove(part);
  std::string cmd = shellQuote(o.python) + " " + shellQuote(o.measurer) +
                    " --runtime " + shellQuote(o.runtime) + " --out " +
                    shellQuote(part) + " --budget-s " +
                    llvm::formatv("{0}", o.budgetS).str();
  if (fs::exists(out))
    cmd += " --skip-measured " + shellQuote(out);
  for (const auto &p : pending)
    cmd += " " + shellQuote(p.first);
  cmd += " 2>&1";
  Progress progress{total};
  FILE *pipe = popen(cmd.c_str(), "r");
  if (!pipe) {
    llvm::errs() << "attn-tune: cannot run " << o.measurer << "\n";
    return 1;
  }
  size_t points = 0;
  std::string line;
  char buf[4096];
  while (fgets(buf, sizeof buf, pipe)) {
    line += buf;
    if (line.empty() || line.back() != '\n')
      continue; // a line longer than the buffer: read on
    llvm::outs() << line;
    // The measurer prints one "<dtype> <key> N=<n> default ..." line per
    // measured point.
    StringRef l(line);
    size_t at = l.find(" N=");
    if (at != StringRef::npos && l.contains(" default ")) {
      ++points;
      progress.line(std::min(points, total), l.take_front(at).trim());
    }
    llvm::outs().flush();
    line.clear();
  }
  int status = pclose(pipe);
  int rc = status == -1 ? -1 : WIFEXITED(status) ? WEXITSTATUS(status) : 128;

  if (fs::exists(part)) {
    std::string error;
    std::optional<json::Value> v = readJSON(part, &error);
    json::Object *obj = v ? v->getAsObject() : nullptr;
    if (!obj) {
      llvm::errs() << "attn-tune: " << error << "; kept for inspection\n";
      return 1;
    }
    for (StringRef f : {"entries", "summary", "failed"})
      if (json::Array *a = obj->getArray(f))
        for (json::Value &x : *a)
          done.getArray(f)->push_back(std::move(x));
    have.clear();
    noteMeasured(*done.getArray("summary"));
    if (!writeJSONAtomically(out, json::Value(std::move(done)))) {
      llvm::errs() << "attn-tune: cannot write " << out << "\n";
      return 1;
    }
    fs::remove(part);
  }
  std::vector<std::string> left;
  for (const auto &p : pending)
    if (!llvm::all_of(p.second, [&](const std::string &x) { return have.count(x); }))
      left.push_back(llvm::sys::path::filename(p.first).str());
  llvm::outs() << llvm::formatv("measured {0} points in {1:f0} s (exit {2}); "
                                "{3} keys not complete",
                                points, progress.elapsed(), rc, left.size());
  if (!left.empty())
    llvm::outs() << ": " << llvm::join(left, " ")
                 << " (budget spent or a key failed; run again to resume)";
  llvm::outs() << "\n";
  return left.empty() && rc == 0 ? 0 : 1;
}

int attn_tune::importInto(StringRef out, StringRef db) {
  auto file = llvm::MemoryBuffer::getFile(out);
  if (!file) {
    llvm::errs() << "attn-tune: cannot read " << out << "\n";
    return 1;
  }
  auto opened = mlir::attn::TuningDB::open(db, /*create=*/true);
  if (!opened) {
    llvm::errs() << "attn-tune: " << llvm::toString(opened.takeError())
                 << "\n";
    return 1;
  }
  if (llvm::Error err = (*opened)->importJSON((*file)->getBuffer())) {
    llvm::errs() << "attn-tune: " << out << ": "
                 << llvm::toString(std::move(err)) << "\n";
    return 1;
  }
  llvm::outs() << "imported " << out << " into " << db << "\n";
  return 0;
}
