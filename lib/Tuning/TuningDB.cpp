//===- TuningDB.cpp - the SQLite tuning database --------------------------===//

#include "attn/Tuning/TuningDB.h"

#include "attn/Dialect/Attn/IR/AttnDialect.h"

#include "mlir/IR/MLIRContext.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"

#include <sqlite3.h>

using namespace mlir;
using namespace mlir::attn;
using llvm::StringRef;

static constexpr int kSchemaVersion = 1;

// The columns in the order every statement uses.
static const char *kCreate =
    "CREATE TABLE IF NOT EXISTS attn_tuning_meta(key TEXT PRIMARY KEY, "
    "value TEXT NOT NULL);"
    "CREATE TABLE IF NOT EXISTS attn_tuning(chip TEXT NOT NULL, dtype TEXT "
    "NOT NULL, d INTEGER NOT NULL, dv INTEGER NOT NULL, mask TEXT NOT NULL, "
    "mods TEXT NOT NULL, gqa INTEGER NOT NULL, lse INTEGER NOT NULL, "
    "n_bucket INTEGER NOT NULL, config TEXT NOT NULL, gpu_config TEXT NOT "
    "NULL, time_ms REAL NOT NULL, winner INTEGER NOT NULL, gpu TEXT NOT NULL, "
    "driver TEXT NOT NULL, compiler TEXT NOT NULL, measured_at TEXT NOT "
    "NULL);";
static const char *kColumns =
    "chip, dtype, d, dv, mask, mods, gqa, lse, n_bucket, config, gpu_config, "
    "time_ms, winner, gpu, driver, compiler, measured_at";

int64_t mlir::attn::sequenceBucket(int64_t n) {
  int64_t b = 512;
  while (b < n && b < 16384)
    b *= 2;
  return b;
}

static llvm::Error dbError(const std::string &path, const std::string &what) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "tuning database '" + path + "': " + what);
}

TuningDB::~TuningDB() { sqlite3_close(db); }

llvm::Expected<std::unique_ptr<TuningDB>> TuningDB::open(llvm::StringRef path,
                                                         bool create) {
  std::string p = path.str();
  if (!create && !llvm::sys::fs::exists(path))
    return dbError(p, "no such file");
  sqlite3 *handle = nullptr;
  int flags = create ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
                     : SQLITE_OPEN_READWRITE;
  if (sqlite3_open_v2(p.c_str(), &handle, flags, nullptr) != SQLITE_OK) {
    std::string msg = handle ? sqlite3_errmsg(handle) : "cannot open";
    sqlite3_close(handle);
    return dbError(p, msg);
  }
  // A locked file fails at once (after 100 ms) instead of waiting forever.
  sqlite3_busy_timeout(handle, 100);
  std::unique_ptr<TuningDB> db(new TuningDB(handle, p));
  char *err = nullptr;
  if (create &&
      sqlite3_exec(handle, kCreate, nullptr, nullptr, &err) != SQLITE_OK) {
    std::string msg = err ? err : "cannot create the tables";
    sqlite3_free(err);
    return dbError(p, msg);
  }
  if (create) {
    std::string set = "INSERT OR IGNORE INTO attn_tuning_meta VALUES "
                      "('schema_version', '" +
                      std::to_string(kSchemaVersion) + "');";
    if (sqlite3_exec(handle, set.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
      std::string msg = err ? err : "cannot write the schema version";
      sqlite3_free(err);
      return dbError(p, msg);
    }
  }
  // The schema: the version, and every column the statements use (a
  // table of another shape is refused here, not at a lookup).
  sqlite3_stmt *stmt = nullptr;
  if (sqlite3_prepare_v2(handle,
                         "SELECT value FROM attn_tuning_meta WHERE key = "
                         "'schema_version'",
                         -1, &stmt, nullptr) != SQLITE_OK) {
    int code = sqlite3_errcode(handle);
    if (code == SQLITE_BUSY || code == SQLITE_LOCKED)
      return dbError(p, "database is locked (another process holds it)");
    return dbError(p, std::string("not an attn tuning database (") +
                          sqlite3_errmsg(handle) + ")");
  }
  int rc = sqlite3_step(stmt);
  std::string version =
      rc == SQLITE_ROW && sqlite3_column_text(stmt, 0)
          ? reinterpret_cast<const char *>(sqlite3_column_text(stmt, 0))
          : "";
  sqlite3_finalize(stmt);
  if (rc != SQLITE_ROW)
    return dbError(p, rc == SQLITE_DONE ? "no schema_version"
                                        : sqlite3_errmsg(handle));
  if (version != std::to_string(kSchemaVersion))
    return dbError(p, "schema version " + version + ", this compiler reads " +
                          std::to_string(kSchemaVersion));
  std::string probe = std::string("SELECT ") + kColumns +
                      " FROM attn_tuning LIMIT 0";
  if (sqlite3_prepare_v2(handle, probe.c_str(), -1, &stmt, nullptr) !=
      SQLITE_OK)
    return dbError(p, std::string("unexpected table layout (") +
                          sqlite3_errmsg(handle) + ")");
  sqlite3_finalize(stmt);
  return db;
}

llvm::Error TuningDB::insert(const TuningEntry &e) {
  // A row equal to one already there in every column is not added again:
  // importing the same measurements twice (attn-tune all re-imports the
  // merged output of a resumed run) keeps one copy.
  std::string sql =
      std::string("INSERT INTO attn_tuning (") + kColumns +
      ") SELECT ?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,?16,?17 "
      "WHERE NOT EXISTS (SELECT 1 FROM attn_tuning WHERE chip = ?1 AND "
      "dtype = ?2 AND d = ?3 AND dv = ?4 AND mask = ?5 AND mods = ?6 AND "
      "gqa = ?7 AND lse = ?8 AND n_bucket = ?9 AND config = ?10 AND "
      "gpu_config = ?11 AND time_ms = ?12 AND winner = ?13 AND gpu = ?14 AND "
      "driver = ?15 AND compiler = ?16 AND measured_at = ?17)";
  sqlite3_stmt *stmt = nullptr;
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK)
    return dbError(path, sqlite3_errmsg(db));
  int i = 0;
  auto text = [&](const std::string &s) {
    sqlite3_bind_text(stmt, ++i, s.c_str(), -1, SQLITE_TRANSIENT);
  };
  auto integer = [&](int64_t v) { sqlite3_bind_int64(stmt, ++i, v); };
  text(e.key.chip), text(e.key.dtype), integer(e.key.d), integer(e.key.dv);
  text(e.key.mask), text(e.key.mods), integer(e.key.gqa), integer(e.key.lse);
  integer(e.key.nBucket), text(e.config), text(e.gpuConfig);
  sqlite3_bind_double(stmt, ++i, e.timeMs);
  integer(e.winner), text(e.gpu), text(e.driver), text(e.compiler);
  text(e.measuredAt);
  int rc = sqlite3_step(stmt);
  sqlite3_finalize(stmt);
  if (rc != SQLITE_DONE)
    return dbError(path, sqlite3_errmsg(db));
  return llvm::Error::success();
}

static std::string columnText(sqlite3_stmt *stmt, int i) {
  const unsigned char *t = sqlite3_column_text(stmt, i);
  return t ? reinterpret_cast<const char *>(t) : "";
}

static TuningEntry readRow(sqlite3_stmt *stmt) {
  TuningEntry e;
  int i = 0;
  e.key.chip = columnText(stmt, i++);
  e.key.dtype = columnText(stmt, i++);
  e.key.d = sqlite3_column_int64(stmt, i++);
  e.key.dv = sqlite3_column_int64(stmt, i++);
  e.key.mask = columnText(stmt, i++);
  e.key.mods = columnText(stmt, i++);
  e.key.gqa = sqlite3_column_int64(stmt, i++);
  e.key.lse = sqlite3_column_int64(stmt, i++) != 0;
  e.key.nBucket = sqlite3_column_int64(stmt, i++);
  e.config = columnText(stmt, i++);
  e.gpuConfig = columnText(stmt, i++);
  e.timeMs = sqlite3_column_double(stmt, i++);
  e.winner = sqlite3_column_int64(stmt, i++) != 0;
  e.gpu = columnText(stmt, i++);
  e.driver = columnText(stmt, i++);
  e.compiler = columnText(stmt, i++);
  e.measuredAt = columnText(stmt, i++);
  return e;
}

/// Binds the problem class of `key` but its bucket to parameters 1-8 of
/// `stmt` (chip, dtype, d, dv, mask, mods, gqa, lse); returns 8.
static int bindKey(sqlite3_stmt *stmt, const TuningKey &key) {
  int i = 0;
  sqlite3_bind_text(stmt, ++i, key.chip.c_str(), -1, SQLITE_TRANSIENT);
  sqlite3_bind_text(stmt, ++i, key.dtype.c_str(), -1, SQLITE_TRANSIENT);
  sqlite3_bind_int64(stmt, ++i, key.d);
  sqlite3_bind_int64(stmt, ++i, key.dv);
  sqlite3_bind_text(stmt, ++i, key.mask.c_str(), -1, SQLITE_TRANSIENT);
  sqlite3_bind_text(stmt, ++i, key.mods.c_str(), -1, SQLITE_TRANSIENT);
  sqlite3_bind_int64(stmt, ++i, key.gqa);
  sqlite3_bind_int64(stmt, ++i, key.lse);
  return i;
}

llvm::Expected<std::optional<TuningEntry>>
TuningDB::lookup(const TuningKey &key) {
  std::string sql = std::string("SELECT ") + kColumns +
                    " FROM attn_tuning WHERE winner = 1 AND chip = ? AND "
                    "dtype = ? AND d = ? AND dv = ? AND mask = ? AND mods = ? "
                    "AND (gqa = ?7 OR ?7 = 0) AND (lse = ?8 OR ?8 = 0) ORDER "
                    "BY lse != ?8, gqa != 1, gqa, abs(n_bucket - ?), n_bucket, "
                    "time_ms LIMIT 1";
  sqlite3_stmt *stmt = nullptr;
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK)
    return dbError(path, sqlite3_errmsg(db));
  int i = bindKey(stmt, key);
  sqlite3_bind_int64(stmt, ++i, key.nBucket);
  int rc = sqlite3_step(stmt);
  std::optional<TuningEntry> out;
  if (rc == SQLITE_ROW)
    out = readRow(stmt);
  sqlite3_finalize(stmt);
  if (rc != SQLITE_ROW && rc != SQLITE_DONE)
    return dbError(path, sqlite3_errmsg(db));
  return out;
}

llvm::Expected<std::vector<TuningEntry>>
TuningDB::entriesOf(const TuningKey &key) {
  std::string sql = std::string("SELECT ") + kColumns +
                    " FROM attn_tuning WHERE chip = ? AND dtype = ? AND d = ? "
                    "AND dv = ? AND mask = ? AND mods = ? AND (gqa = ?7 OR ?7 "
                    "= 0) AND (lse = ?8 OR ?8 = 0) ORDER BY lse != ?8, gqa != "
                    "1, gqa, n_bucket, rowid";
  sqlite3_stmt *stmt = nullptr;
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK)
    return dbError(path, sqlite3_errmsg(db));
  bindKey(stmt, key);
  std::vector<TuningEntry> out;
  int rc;
  while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
    TuningEntry e = readRow(stmt);
    // One GQA group and one LSE class: the first ones the order gives.
    if (!out.empty() && (e.key.gqa != out.front().key.gqa ||
                         e.key.lse != out.front().key.lse))
      continue;
    out.push_back(std::move(e));
  }
  sqlite3_finalize(stmt);
  if (rc != SQLITE_DONE)
    return dbError(path, sqlite3_errmsg(db));
  return out;
}

llvm::Expected<std::vector<TuningEntry>> TuningDB::all() {
  std::string sql = std::string("SELECT ") + kColumns +
                    " FROM attn_tuning ORDER BY rowid";
  sqlite3_stmt *stmt = nullptr;
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK)
    return dbError(path, sqlite3_errmsg(db));
  std::vector<TuningEntry> out;
  int rc;
  while ((rc = sqlite3_step(stmt)) == SQLITE_ROW)
    out.push_back(readRow(stmt));
  sqlite3_finalize(stmt);
  if (rc != SQLITE_DONE)
    return dbError(path, sqlite3_errmsg(db));
  return out;
}

llvm::Expected<std::string> TuningDB::exportJSON() {
  auto entries = all();
  if (!entries)
    return entries.takeError();
  llvm::json::Array rows;
  for (const TuningEntry &e : *entries)
    rows.push_back(llvm::json::Object{
        {"chip", e.key.chip},     {"dtype", e.key.dtype},
        {"d", e.key.d},           {"dv", e.key.dv},
        {"mask", e.key.mask},     {"mods", e.key.mods},
        {"gqa", e.key.gqa},       {"lse", e.key.lse},
        {"n_bucket", e.key.nBucket}, {"config", e.config},
        {"gpu_config", e.gpuConfig}, {"time_ms", e.timeMs},
        {"winner", e.winner},     {"gpu", e.gpu},
        {"driver", e.driver},     {"compiler", e.compiler},
        {"measured_at", e.measuredAt}});
  llvm::json::Object doc{{"schema_version", kSchemaVersion},
                         {"entries", std::move(rows)}};
  std::string out;
  llvm::raw_string_ostream os(out);
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(doc)));
  return out;
}

llvm::Error TuningDB::importJSON(llvm::StringRef text) {
  llvm::Expected<llvm::json::Value> doc = llvm::json::parse(text);
  if (!doc)
    return dbError(path, "import: " + llvm::toString(doc.takeError()));
  const llvm::json::Object *root = doc->getAsObject();
  if (!root)
    return dbError(path, "import: the document is not a JSON object");
  std::optional<int64_t> version = root->getInteger("schema_version");
  if (!version || *version != kSchemaVersion)
    return dbError(path, "import: schema_version must be " +
                             std::to_string(kSchemaVersion));
  const llvm::json::Array *entries = root->getArray("entries");
  if (!entries)
    return dbError(path, "import: no \"entries\" array");
  std::vector<TuningEntry> parsed;
  MLIRContext ctx(MLIRContext::Threading::DISABLED);
  ctx.loadDialect<AttnDialect>();
  for (auto [i, value] : llvm::enumerate(*entries)) {
    const llvm::json::Object *o = value.getAsObject();
    std::string where = "import: entry " + std::to_string(i) + ": ";
    if (!o)
      return dbError(path, where + "not an object");
    TuningEntry e;
    auto str = [&](StringRef k, std::string &out) {
      std::optional<StringRef> v = o->getString(k);
      if (v)
        out = v->str();
      return v.has_value();
    };
    auto num = [&](StringRef k, int64_t &out) {
      std::optional<int64_t> v = o->getInteger(k);
      if (v)
        out = *v;
      return v.has_value();
    };
    std::optional<bool> lseB = o->getBoolean("lse"), winB = o->getBoolean("winner");
    std::optional<double> t = o->getNumber("time_ms");
    if (!str("chip", e.key.chip) || !str("dtype", e.key.dtype) ||
        !num("d", e.key.d) || !num("dv", e.key.dv) ||
        !str("mask", e.key.mask) || !str("mods", e.key.mods) ||
        !num("gqa", e.key.gqa) || !lseB || !num("n_bucket", e.key.nBucket) ||
        !str("config", e.config) || !str("gpu_config", e.gpuConfig) || !t ||
        !winB || !str("gpu", e.gpu) || !str("driver", e.driver) ||
        !str("compiler", e.compiler) || !str("measured_at", e.measuredAt))
      return dbError(path, where + "a field is missing or of the wrong type");
    e.key.lse = *lseB;
    e.winner = *winB;
    e.timeMs = *t;
    if (std::string why = checkTuningEntry(e, ctx); !why.empty())
      return dbError(path, where + why);
    parsed.push_back(std::move(e));
  }
  // All or nothing.
  if (sqlite3_exec(db, "BEGIN", nullptr, nullptr, nullptr) != SQLITE_OK)
    return dbError(path, std::string("import: ") + sqlite3_errmsg(db));
  for (const TuningEntry &e : parsed)
    if (llvm::Error err = insert(e)) {
      sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
      return err;
    }
  if (sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr) != SQLITE_OK)
    return dbError(path, sqlite3_errmsg(db));
  return llvm::Error::success();
}
