//===- metadata.cpp - reading the kernel metadata documents -------------===//
//
// Turns a parsed dir/<name>.json into an attn_kernel_desc. Every message
// names the key (as a path: "mask.kind") and, where the value exists, its
// line and column.
//
//===----------------------------------------------------------------------===//

#include "core.h"
#include "strict_json.h"

#include <cmath>
#include <cstring>
#include <string>

namespace attn_rt {

const char *const kExpectedParams[] = {
    "q",    "k",    "v",    "o",    "lse",  "B",    "Hq",   "Hkv",
    "Nq",   "Nk",   "q_sb", "q_sh", "q_sr", "k_sb", "k_sh", "k_sr",
    "v_sb", "v_sh", "v_sr", "o_sb", "o_sh", "o_sr", "lse_sb", "lse_sh"};
const char *const kExpectedGrid[] = {"ceildiv(Nq, block_m)", "B * Hq", "1"};

std::string noSpaces(const std::string &s) {
  std::string r;
  for (char c : s)
    if (c != ' ' && c != '\t')
      r += c;
  return r;
}

namespace {

/// Reads the fields of a metadata document; every message names the key.
class DescReader {
public:
  DescReader(const JsonDocument &document, std::string &message)
      : doc(document), error(message) {}

  bool read(attn_kernel_desc &d);

private:
  const JsonDocument &doc;
  std::string &error;

  bool fail(const std::string &msg) {
    error = msg;
    return false;
  }

  /// `key "path" (line L, column C)`, the position when known.
  std::string keyAt(const std::string &path) const {
    std::string where = doc.where(path);
    return "key \"" + path + "\"" + (where.empty() ? "" : " (" + where + ")");
  }

  bool failAt(const std::string &path, const std::string &what) {
    return fail(keyAt(path) + ": " + what);
  }

  const Json *find(const Json &obj, const std::string &key) const {
    auto it = obj.find(key);
    return it == obj.end() ? nullptr : &*it;
  }

  const Json *get(const Json &obj, const std::string &objPath,
                  const std::string &key) {
    const Json *v = find(obj, key);
    if (!v)
      fail("missing key \"" + JsonDocument::childPath(objPath, key) + "\"");
    return v;
  }

  bool wrongType(const Json &v, const std::string &path,
                 const char *expected) {
    return failAt(path, std::string("expected ") + expected + ", got " +
                            jsonKindName(v));
  }

  bool toInt(const Json &v, const std::string &path, int64_t lo, int64_t hi,
             int64_t &out);
  bool getInt(const Json &obj, const std::string &objPath,
              const std::string &key, int64_t lo, int64_t hi, int64_t &out) {
    const Json *v = get(obj, objPath, key);
    return v && toInt(*v, JsonDocument::childPath(objPath, key), lo, hi, out);
  }

  bool copyString(const Json &v, const std::string &path, char *dst,
                  size_t cap, bool nonEmpty);
  bool getString(const Json &obj, const std::string &objPath,
                 const std::string &key, char *dst, size_t cap,
                 bool nonEmpty) {
    const Json *v = get(obj, objPath, key);
    return v && copyString(*v, JsonDocument::childPath(objPath, key), dst,
                           cap, nonEmpty);
  }

  bool readCommon(attn_kernel_desc &d);
  bool readV1(attn_kernel_desc &d);
  bool readElementType(const Json &v, const std::string &path,
                       attn_dtype &out);
  bool readScale(const Json &v, attn_kernel_desc &d);
  bool readMask(const Json &m, attn_kernel_desc &d);
  bool checkStringArray(const char *key, const char *const *expected,
                        size_t count, bool ignoreSpaces);
};

bool DescReader::toInt(const Json &v, const std::string &path, int64_t lo,
                       int64_t hi, int64_t &out) {
  if (!v.is_number())
    return wrongType(v, path, "an integer");
  // nlohmann keeps integers that fit 64 bits as integers (non-negative ones
  // unsigned) and everything else, 1.0 and 1e3 included, as a double.
  bool exact = v.is_number_integer() &&
               !(v.is_number_unsigned() &&
                 v.get<uint64_t>() > (uint64_t)INT64_MAX);
  if (!exact)
    return failAt(path, "expected an integer, got a non-integral or "
                        "out-of-range number");
  int64_t value = v.get<int64_t>();
  if (value < lo || value > hi)
    return failAt(path, std::to_string(value) + " is out of range [" +
                            std::to_string(lo) + ", " + std::to_string(hi) +
                            "]");
  out = value;
  return true;
}

bool DescReader::copyString(const Json &v, const std::string &path, char *dst,
                            size_t cap, bool nonEmpty) {
  if (!v.is_string())
    return wrongType(v, path, "a string");
  const std::string &s = v.get_ref<const std::string &>();
  if (nonEmpty && s.empty())
    return failAt(path, "must not be empty");
  if (s.size() >= cap)
    return failAt(path, "longer than " + std::to_string(cap - 1) + " bytes");
  std::memcpy(dst, s.data(), s.size());
  dst[s.size()] = '\0';
  return true;
}

bool DescReader::readElementType(const Json &v, const std::string &path,
                                 attn_dtype &out) {
  if (!v.is_string())
    return wrongType(v, path, "a string");
  const std::string &s = v.get_ref<const std::string &>();
  if (s == "f16")
    out = ATTN_F16;
  else if (s == "bf16")
    out = ATTN_BF16;
  else if (s == "f32")
    out = ATTN_F32;
  else
    return failAt(path, "unknown element type \"" + s +
                            "\" (expected f16, bf16 or f32)");
  return true;
}

bool DescReader::readScale(const Json &v, attn_kernel_desc &d) {
  if (!v.is_number())
    return wrongType(v, "scale_log2e", "a number");
  double scale = v.get<double>();
  if (!std::isfinite(scale) || scale == 0)
    return failAt("scale_log2e", "must be finite and non-zero");
  d.scale_log2e = scale;
  return true;
}

bool DescReader::readMask(const Json &m, attn_kernel_desc &d) {
  if (!m.is_object())
    return wrongType(m, "mask", "an object");
  const Json *kind = get(m, "mask", "kind");
  if (!kind)
    return false;
  if (!kind->is_string())
    return wrongType(*kind, "mask.kind", "a string");
  const std::string &kindName = kind->get_ref<const std::string &>();
  if (kindName == "none")
    d.mask_kind = ATTN_MASK_NONE;
  else if (kindName == "causal")
    d.mask_kind = ATTN_MASK_CAUSAL;
  else if (kindName == "window")
    d.mask_kind = ATTN_MASK_WINDOW;
  else
    return failAt("mask.kind", "unknown kind \"" + kindName +
                                   "\" (expected none, causal or window)");

  // The alignment decides which keys a row sees when Nq != Nk; it must be
  // explicit for causal and window masks (as in the compiler's syntax).
  d.mask_alignment = ATTN_TOP_LEFT;
  const Json *align = find(m, "alignment");
  if (!align && d.mask_kind != ATTN_MASK_NONE)
    return fail("missing key \"mask.alignment\" (required for a " + kindName +
                " mask)");
  if (align && !(d.mask_kind == ATTN_MASK_NONE && align->is_null())) {
    if (!align->is_string())
      return wrongType(*align, "mask.alignment", "a string");
    const std::string &a = align->get_ref<const std::string &>();
    if (a == "top_left")
      d.mask_alignment = ATTN_TOP_LEFT;
    else if (a == "bottom_right")
      d.mask_alignment = ATTN_BOTTOM_RIGHT;
    else
      return failAt("mask.alignment",
                    "unknown alignment \"" + a +
                        "\" (expected top_left or bottom_right)");
  }

  d.mask_left = d.mask_right = 0;
  if (d.mask_kind == ATTN_MASK_WINDOW)
    return getInt(m, "mask", "left", 0, INT32_MAX, d.mask_left) &&
           getInt(m, "mask", "right", 0, INT32_MAX, d.mask_right);
  // Ignored for none and causal, but must not be garbage when present.
  for (const char *key : {"left", "right"}) {
    const Json *v = find(m, key);
    std::string path = std::string("mask.") + key;
    if (!v || v->is_null())
      continue;
    if (!v->is_number())
      return wrongType(*v, path, "an integer or null");
    if (!toInt(*v, path, INT64_MIN, INT64_MAX,
               key[0] == 'l' ? d.mask_left : d.mask_right))
      return false;
  }
  return true;
}

bool DescReader::checkStringArray(const char *key, const char *const *expected,
                                  size_t count, bool ignoreSpaces) {
  const Json *v = get(doc.root(), "", key);
  if (!v)
    return false;
  if (!v->is_array())
    return wrongType(*v, key, "an array of strings");
  std::string want, got;
  for (size_t i = 0; i < count; ++i)
    want += std::string(i ? ", " : "") + expected[i];
  bool same = v->size() == count;
  for (size_t i = 0; i < v->size(); ++i) {
    const Json &e = (*v)[i];
    std::string path = JsonDocument::childPath(key, i);
    if (!e.is_string())
      return wrongType(e, path, "a string");
    const std::string &s = e.get_ref<const std::string &>();
    got += std::string(i ? ", " : "") + s;
    if (same && (ignoreSpaces ? noSpaces(s) != noSpaces(expected[i])
                              : s != expected[i]))
      same = false;
  }
  if (!same)
    return failAt(key, "[" + got +
                           "] is not the kernel ABI this runtime launches ([" +
                           want + "])");
  return true;
}

/// The keys every format version has.
bool DescReader::readCommon(attn_kernel_desc &d) {
  const Json &root = doc.root();
  if (!getString(root, "", "name", d.name, sizeof d.name, true) ||
      !getString(root, "", "entry", d.entry, sizeof d.entry, true) ||
      !getString(root, "", "target", d.target, sizeof d.target, true) ||
      !getString(root, "", "compiler", d.compiler, sizeof d.compiler, false) ||
      !getString(root, "", "ptx", d.ptx, sizeof d.ptx, true))
    return false;

  // The cubin may be null (no ptxas at compile time) or left out.
  if (const Json *cubin = find(root, "cubin")) {
    if (cubin->is_string()) {
      if (!copyString(*cubin, "cubin", d.cubin, sizeof d.cubin, true))
        return false;
    } else if (!cubin->is_null()) {
      return wrongType(*cubin, "cubin", "a string or null");
    }
  }

  return getInt(root, "", "block_m", 1, 1024, d.block_m) &&
         getInt(root, "", "block_n", 1, 1024, d.block_n) &&
         getInt(root, "", "warps", 1, 32, d.warps) &&
         getInt(root, "", "stages", 1, 64, d.stages) &&
         getInt(root, "", "threads", 1, 1024, d.threads) &&
         getInt(root, "", "shared_bytes", 0, 16 << 20, d.shared_bytes);
}

bool DescReader::readV1(attn_kernel_desc &d) {
  const Json &root = doc.root();
  if (!getInt(root, "", "head_dim", 1, 65536, d.head_dim) ||
      !getInt(root, "", "value_head_dim", 1, 65536, d.value_head_dim))
    return false;

  const Json *elt = get(root, "", "element_type");
  if (!elt || !readElementType(*elt, "element_type", d.element_type))
    return false;

  const Json *lse = get(root, "", "has_lse");
  if (!lse)
    return false;
  if (!lse->is_boolean())
    return wrongType(*lse, "has_lse", "a boolean");
  d.has_lse = lse->get<bool>() ? 1 : 0;

  const Json *scale = get(root, "", "scale_log2e");
  if (!scale || !readScale(*scale, d))
    return false;
  const Json *mask = get(root, "", "mask");
  if (!mask || !readMask(*mask, d))
    return false;

  return checkStringArray("grid", kExpectedGrid, 3, /*ignoreSpaces=*/true) &&
         checkStringArray("params", kExpectedParams, 24, false);
}

bool DescReader::read(attn_kernel_desc &d) {
  std::memset(&d, 0, sizeof d);
  const Json &root = doc.root();
  if (!root.is_object())
    return fail(std::string("the document is ") + jsonKindName(root) +
                ", expected an object");

  int64_t version;
  if (!getInt(root, "", "format_version", INT64_MIN, INT64_MAX, version))
    return false;
  if (version != 1)
    return fail("unsupported format_version " + std::to_string(version) +
                " (this runtime reads version 1)");
  d.format_version = 1;
  return readCommon(d) && readV1(d);
}

} // namespace

bool readDescription(const JsonDocument &doc, attn_kernel_desc &out,
                     std::string &error) {
  return DescReader(doc, error).read(out);
}

} // namespace attn_rt
