//===- metadata.cpp - reading the kernel metadata documents -------------===//
//
// Turns a parsed dir/<name>.json into an attn_kernel_desc. Every message
// names the key (as a path: "mask.kind") and, where the value exists, its
// line and column.
//
//===----------------------------------------------------------------------===//

#include "core.h"
#include "strict_json.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <initializer_list>
#include <iterator>
#include <string>
#include <vector>

namespace attn_rt {

const char *const kExpectedParams[] = {
    "q",    "k",    "v",    "o",    "lse",  "B",    "Hq",   "Hkv",
    "Nq",   "Nk",   "q_sb", "q_sh", "q_sr", "k_sb", "k_sh", "k_sr",
    "v_sb", "v_sh", "v_sr", "o_sb", "o_sh", "o_sr", "lse_sb", "lse_sh"};
const char *const kExpectedGrid[] = {"ceildiv(Nq, block_m)", "B * Hq", "1"};
const char *const kExpectedGridV2[] = {"ceildiv(q.size2, block_m)",
                                       "q.size0 * q.size1", "1"};

const char *const kRoleNames[ATTN_NUM_ROLES] = {
    "q", "k", "v", "o", "lse", "bias", "alibi_slopes", "input", "output"};

int roleFromName(const char *name) {
  for (int r = 0; name && r < ATTN_NUM_ROLES; ++r)
    if (std::strcmp(name, kRoleNames[r]) == 0)
      return r;
  return -1;
}

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
  bool readV2(attn_kernel_desc &d);
  bool readBuffers(attn_kernel_desc &d);
  bool readBuffer(const Json &v, const std::string &path,
                  attn_buffer_desc &b);
  bool readRoles(const Json &v, const std::string &path, attn_buffer_desc &b);
  bool readStaticShape(const Json &v, const std::string &path,
                       attn_buffer_desc &b);
  bool checkRoleCounts(const attn_kernel_desc &d);
  /// `optional`: an absent key is an empty list (broadcast_sizes, which
  /// documents of kernels without broadcast dimensions may leave out).
  bool readSizePairs(const char *key, const attn_kernel_desc &d,
                     attn_size_pair *pairs, int32_t &count,
                     bool optional = false);
  bool readSizeRef(const Json &v, const std::string &path,
                   const attn_kernel_desc &d, attn_size_ref &ref);
  bool readTensorMaps(attn_kernel_desc &d);
  bool readTensorMap(const Json &v, const std::string &path,
                     const attn_kernel_desc &d, attn_tensor_map_desc &m);
  bool readBox(const Json &v, const std::string &path,
               const attn_buffer_desc &b, attn_tensor_map_desc &m);
  bool checkParamsV2(const attn_kernel_desc &d);
  bool onlyKeys(const Json &v, const std::string &path,
                std::initializer_list<const char *> keys, const char *what);
  bool readDispatch(attn_kernel_desc &d);
  bool readDispatchOn(const Json &v, const attn_kernel_desc &d,
                      attn_kernel_desc &out);
  bool readVariant(const Json &v, const std::string &path,
                   const attn_kernel_desc &d, attn_variant_desc &out);
  bool readPersistent(attn_kernel_desc &d);
  bool readTmaFallback(attn_kernel_desc &d);
  void deriveV1Fields(attn_kernel_desc &d);
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

//===----------------------------------------------------------------------===//
// format_version 2 (and 3: the same, plus tensor_maps)
//===----------------------------------------------------------------------===//

bool DescReader::readRoles(const Json &v, const std::string &path,
                           attn_buffer_desc &b) {
  if (!v.is_array())
    return wrongType(v, path, "an array of role names");
  if (v.empty())
    return failAt(path, "a buffer needs at least one role");
  std::string name;
  for (size_t i = 0; i < v.size(); ++i) {
    std::string rolePath = JsonDocument::childPath(path, i);
    if (!v[i].is_string())
      return wrongType(v[i], rolePath, "a string");
    const std::string &roleName = v[i].get_ref<const std::string &>();
    int role = roleFromName(roleName.c_str());
    if (role < 0)
      return failAt(rolePath, "unknown role \"" + roleName +
                                  "\" (expected q, k, v, o, lse, bias, "
                                  "alibi_slopes, input or output)");
    for (int32_t j = 0; j < b.num_roles; ++j)
      if (b.roles[j] == role)
        return failAt(rolePath, "role \"" + roleName + "\" listed twice");
    // Distinct roles: at most ATTN_NUM_ROLES of them, and their names
    // joined fit ATTN_BUFFER_NAME_LEN.
    b.roles[b.num_roles++] = role;
    name += (name.empty() ? "" : "+") + roleName;
  }
  static_assert(sizeof "q+k+v+o+lse+bias+alibi_slopes+input+output" <=
                    ATTN_BUFFER_NAME_LEN,
                "every buffer name fits");
  std::memcpy(b.name, name.c_str(), name.size() + 1);
  return true;
}

bool DescReader::readStaticShape(const Json &v, const std::string &path,
                                 attn_buffer_desc &b) {
  if (!v.is_array())
    return wrongType(v, path, "an array of integers");
  if (v.size() != (size_t)b.rank)
    return failAt(path, std::to_string(v.size()) + " extents for a buffer "
                        "of rank " + std::to_string(b.rank));
  for (int32_t i = 0; i < b.rank; ++i) {
    std::string dimPath = JsonDocument::childPath(path, (size_t)i);
    if (!toInt(v[i], dimPath, -1, kMaxExtent, b.static_shape[i]))
      return false;
  }
  return true;
}

bool DescReader::readBuffer(const Json &v, const std::string &path,
                            attn_buffer_desc &b) {
  if (!v.is_object())
    return wrongType(v, path, "an object");
  // A buffer key this runtime does not know could be a requirement on the
  // tensor that it would then not check: refuse rather than ignore it.
  static const char *const kKeys[] = {"roles",        "element_type", "rank",
                                      "static_shape", "access",       "align"};
  for (auto it = v.begin(); it != v.end(); ++it)
    if (std::find_if(std::begin(kKeys), std::end(kKeys), [&](const char *k) {
          return it.key() == k;
        }) == std::end(kKeys))
      return failAt(JsonDocument::childPath(path, it.key()),
                    "unknown buffer key (a buffer has roles, element_type, "
                    "rank, static_shape, access and align)");

  const Json *roles = get(v, path, "roles");
  if (!roles || !readRoles(*roles, JsonDocument::childPath(path, "roles"), b))
    return false;
  const Json *elt = get(v, path, "element_type");
  if (!elt || !readElementType(*elt, JsonDocument::childPath(path,
                                                             "element_type"),
                               b.element_type))
    return false;
  int64_t rank;
  if (!getInt(v, path, "rank", 1, ATTN_MAX_RANK, rank))
    return false;
  b.rank = (int32_t)rank;
  const Json *shape = get(v, path, "static_shape");
  if (!shape ||
      !readStaticShape(*shape, JsonDocument::childPath(path, "static_shape"),
                       b))
    return false;

  const Json *access = get(v, path, "access");
  if (!access)
    return false;
  std::string accessPath = JsonDocument::childPath(path, "access");
  if (!access->is_string())
    return wrongType(*access, accessPath, "a string");
  const std::string &a = access->get_ref<const std::string &>();
  if (a != "read" && a != "write")
    return failAt(accessPath, "unknown access \"" + a +
                                  "\" (expected read or write)");
  b.writes = a == "write";

  int64_t align;
  if (!getInt(v, path, "align", 1, 256, align))
    return false;
  if ((align & (align - 1)) != 0)
    return failAt(JsonDocument::childPath(path, "align"),
                  std::to_string(align) + " is not a power of two");
  b.align = (int32_t)align;
  return true;
}

/// q, k, v and o are required; a role other than input and output belongs to
/// one buffer at most (else a tensor given by role would be ambiguous).
bool DescReader::checkRoleCounts(const attn_kernel_desc &d) {
  int owner[ATTN_NUM_ROLES];
  std::fill(std::begin(owner), std::end(owner), -1);
  for (int32_t i = 0; i < d.num_buffers; ++i)
    for (int32_t j = 0; j < d.buffers[i].num_roles; ++j) {
      int role = d.buffers[i].roles[j];
      if (role != ATTN_ROLE_INPUT && role != ATTN_ROLE_OUTPUT &&
          owner[role] >= 0)
        return failAt(JsonDocument::childPath(
                          JsonDocument::childPath("buffers", (size_t)i),
                          "roles"),
                      std::string("role \"") + kRoleNames[role] +
                          "\" is also on buffers[" +
                          std::to_string(owner[role]) +
                          "] (only input and output may repeat)");
      owner[role] = i;
    }
  for (int role : {ATTN_ROLE_Q, ATTN_ROLE_K, ATTN_ROLE_V, ATTN_ROLE_O})
    if (owner[role] < 0)
      return failAt("buffers", std::string("no buffer has role \"") +
                                   kRoleNames[role] +
                                   "\" (a kernel needs q, k, v and o)");
  return true;
}

bool DescReader::readBuffers(attn_kernel_desc &d) {
  const Json *v = get(doc.root(), "", "buffers");
  if (!v)
    return false;
  if (!v->is_array())
    return wrongType(*v, "buffers", "an array of objects");
  if (v->size() > ATTN_MAX_BUFFERS)
    return failAt("buffers", std::to_string(v->size()) +
                                 " buffers, more than this runtime holds (" +
                                 std::to_string(ATTN_MAX_BUFFERS) + ")");
  for (size_t i = 0; i < v->size(); ++i)
    if (!readBuffer((*v)[i], JsonDocument::childPath("buffers", i),
                    d.buffers[i]))
      return false;
  d.num_buffers = (int32_t)v->size();
  return checkRoleCounts(d);
}

/// "<buffer name>.size<dim>", e.g. "k+v.size2".
bool DescReader::readSizeRef(const Json &v, const std::string &path,
                             const attn_kernel_desc &d, attn_size_ref &ref) {
  if (!v.is_string())
    return wrongType(v, path, "a string");
  const std::string &s = v.get_ref<const std::string &>();
  size_t dot = s.find('.');
  std::string dim = dot == std::string::npos ? "" : s.substr(dot + 1);
  bool wellFormed = dim.size() > 4 && dim.compare(0, 4, "size") == 0 &&
                    dim.size() <= 6 &&
                    dim.find_first_not_of("0123456789", 4) == std::string::npos &&
                    (dim.size() == 5 || dim[4] != '0');
  if (!wellFormed)
    return failAt(path, "\"" + s + "\" is not <buffer>.size<dim>");
  std::string buffer = s.substr(0, dot), names;
  ref.dim = 0;
  for (size_t i = 4; i < dim.size(); ++i) // one or two digits
    ref.dim = ref.dim * 10 + (dim[i] - '0');
  for (int32_t i = 0; i < d.num_buffers; ++i) {
    names += std::string(i ? ", " : "") + d.buffers[i].name;
    if (buffer != d.buffers[i].name)
      continue;
    if (ref.dim >= d.buffers[i].rank)
      return failAt(path, "\"" + s + "\": buffer " + buffer + " has rank " +
                              std::to_string(d.buffers[i].rank));
    ref.buffer = i;
    return true;
  }
  return failAt(path, "\"" + s + "\" names no buffer (the buffers are " +
                          names + ")");
}

bool DescReader::readSizePairs(const char *key, const attn_kernel_desc &d,
                               attn_size_pair *pairs, int32_t &count,
                               bool optional) {
  count = 0;
  if (optional && !doc.root().contains(key))
    return true;
  const Json *v = get(doc.root(), "", key);
  if (!v)
    return false;
  if (!v->is_array())
    return wrongType(*v, key, "an array of [size, size] pairs");
  if (v->size() > ATTN_MAX_SIZE_PAIRS)
    return failAt(key, std::to_string(v->size()) +
                           " entries, more than this runtime holds (" +
                           std::to_string(ATTN_MAX_SIZE_PAIRS) + ")");
  for (size_t i = 0; i < v->size(); ++i) {
    const Json &pair = (*v)[i];
    std::string path = JsonDocument::childPath(key, i);
    if (!pair.is_array())
      return wrongType(pair, path, "a [size, size] pair");
    if (pair.size() != 2)
      return failAt(path, std::to_string(pair.size()) +
                              " entries, expected 2 ([size, size])");
    if (!readSizeRef(pair[0], JsonDocument::childPath(path, 0), d,
                     pairs[i].first) ||
        !readSizeRef(pair[1], JsonDocument::childPath(path, 1), d,
                     pairs[i].second))
      return false;
  }
  count = (int32_t)v->size();
  return true;
}

/// The box of a tensor map: one extent per dim of its buffer, innermost
/// first, that a TMA copy can move (each in [1, 256]; the innermost a whole
/// number of 16-byte units and, when swizzled, within the swizzle span).
bool DescReader::readBox(const Json &v, const std::string &path,
                         const attn_buffer_desc &b, attn_tensor_map_desc &m) {
  if (!v.is_array())
    return wrongType(v, path, "an array of integers");
  if (v.size() != (size_t)b.rank)
    return failAt(path, std::to_string(v.size()) + " entries for buffer " +
                            b.name + " of rank " + std::to_string(b.rank) +
                            " (one per dim, innermost first)");
  for (int32_t i = 0; i < b.rank; ++i) {
    int64_t extent;
    if (!toInt(v[i], JsonDocument::childPath(path, (size_t)i), 1, 256,
               extent))
      return false;
    m.box[i] = (int32_t)extent;
  }
  int64_t innerBytes = m.box[0] * (int64_t)attn_dtype_size(b.element_type);
  std::string inner = std::to_string(m.box[0]) + " elements of " +
                      attn_dtype_name(b.element_type) + " are " +
                      std::to_string(innerBytes) + " bytes";
  if (innerBytes % 16 != 0)
    return failAt(JsonDocument::childPath(path, 0),
                  inner + ", not a multiple of 16 (TMA copies 16-byte "
                          "units)");
  if (m.swizzle != 0 && innerBytes > m.swizzle)
    return failAt(JsonDocument::childPath(path, 0),
                  inner + ", more than the swizzle span of " +
                      std::to_string(m.swizzle) + " bytes");
  return true;
}

/// {"buffer": index, "box": [...], "swizzle": bytes}: a buffer of rank >= 2
/// (every element type a buffer can have has a TMA data type) that the
/// kernel reads with TMA copies or, an output, writes with TMA stores.
bool DescReader::readTensorMap(const Json &v, const std::string &path,
                               const attn_kernel_desc &d,
                               attn_tensor_map_desc &m) {
  if (!v.is_object())
    return wrongType(v, path, "an object");
  // As for buffers: an unknown key could be a requirement left unchecked.
  for (auto it = v.begin(); it != v.end(); ++it)
    if (it.key() != "buffer" && it.key() != "box" && it.key() != "swizzle")
      return failAt(JsonDocument::childPath(path, it.key()),
                    "unknown tensor map key (a tensor map has buffer, box "
                    "and swizzle)");
  int64_t buffer, swizzle;
  if (!getInt(v, path, "buffer", 0, d.num_buffers - 1, buffer) ||
      !getInt(v, path, "swizzle", INT64_MIN, INT64_MAX, swizzle))
    return false;
  if (swizzle != 0 && swizzle != 32 && swizzle != 64 && swizzle != 128)
    return failAt(JsonDocument::childPath(path, "swizzle"),
                  "unknown swizzle " + std::to_string(swizzle) +
                      " (expected 0, 32, 64 or 128 bytes)");
  m.buffer = (int32_t)buffer;
  m.swizzle = (int32_t)swizzle;
  const attn_buffer_desc &b = d.buffers[buffer];
  std::string bufferPath = JsonDocument::childPath(path, "buffer");
  std::string which =
      "buffers[" + std::to_string(buffer) + "] (" + b.name + ")";
  if (b.rank < 2)
    return failAt(bufferPath, which + " has rank " + std::to_string(b.rank) +
                                  "; a tensor map needs rank 2 or more");
  const Json *box = get(v, path, "box");
  return box && readBox(*box, JsonDocument::childPath(path, "box"), b, m);
}

/// format_version 3's "tensor_maps" (required there, refused before).
bool DescReader::readTensorMaps(attn_kernel_desc &d) {
  if (d.format_version < 3) {
    if (doc.root().contains("tensor_maps"))
      return failAt("tensor_maps", "needs format_version 3 (a format_version " +
                                       std::to_string(d.format_version) +
                                       " kernel takes no tensor maps)");
    return true;
  }
  const Json *v = get(doc.root(), "", "tensor_maps");
  if (!v)
    return false;
  if (!v->is_array())
    return wrongType(*v, "tensor_maps", "an array of objects");
  if (v->size() > ATTN_MAX_TENSOR_MAPS)
    return failAt("tensor_maps",
                  std::to_string(v->size()) +
                      " tensor maps, more than this runtime holds (" +
                      std::to_string(ATTN_MAX_TENSOR_MAPS) + ")");
  for (size_t i = 0; i < v->size(); ++i) {
    std::string path = JsonDocument::childPath("tensor_maps", i);
    attn_tensor_map_desc &m = d.tensor_maps[i];
    if (!readTensorMap((*v)[i], path, d, m))
      return false;
    // Its parameter is named after its buffer: one map per buffer.
    for (size_t j = 0; j < i; ++j)
      if (d.tensor_maps[j].buffer == m.buffer)
        return failAt(JsonDocument::childPath(path, "buffer"),
                      std::string("buffer ") + d.buffers[m.buffer].name +
                          " has a tensor map already (tensor_maps[" +
                          std::to_string(j) +
                          "]); params name a map by its buffer");
  }
  d.num_tensor_maps = (int32_t)v->size();
  return true;
}

/// "params" must be exactly what the buffers imply: per buffer its name,
/// then "<name>.size<d>" and "<name>.stride<d>" for each dim; then
/// "<name>.tensor_map" for each tensor map.
bool DescReader::checkParamsV2(const attn_kernel_desc &d) {
  std::vector<std::string> want;
  for (int32_t i = 0; i < d.num_buffers; ++i) {
    const attn_buffer_desc &b = d.buffers[i];
    want.push_back(b.name);
    for (const char *what : {".size", ".stride"})
      for (int32_t dim = 0; dim < b.rank; ++dim)
        want.push_back(b.name + std::string(what) + std::to_string(dim));
  }
  for (int32_t i = 0; i < d.num_tensor_maps; ++i)
    want.push_back(d.buffers[d.tensor_maps[i].buffer].name +
                   std::string(".tensor_map"));
  const Json *v = get(doc.root(), "", "params");
  if (!v)
    return false;
  if (!v->is_array())
    return wrongType(*v, "params", "an array of strings");
  const bool maps = d.num_tensor_maps > 0;
  const char *owners = maps ? " the buffers and tensor maps have"
                            : " the buffers have";
  const char *rule = maps ? " (each buffer's name, then its sizes, then its "
                            "strides, in buffer order; then "
                            "<buffer>.tensor_map for each tensor map, in "
                            "tensor_maps order)"
                          : " (each buffer's name, then its sizes, then its "
                            "strides, in buffer order)";
  for (size_t i = 0; i < v->size(); ++i) {
    std::string path = JsonDocument::childPath("params", i);
    if (!(*v)[i].is_string())
      return wrongType((*v)[i], path, "a string");
    const std::string &got = (*v)[i].get_ref<const std::string &>();
    if (i >= want.size())
      return failAt(path, "\"" + got + "\" is past the " +
                              std::to_string(want.size()) + " parameters" +
                              owners + rule);
    if (got != want[i])
      return failAt(path, "\"" + got + "\", expected \"" + want[i] + "\"" +
                              rule);
  }
  if (v->size() < want.size())
    return failAt("params", std::to_string(v->size()) + " entries," +
                                owners + " " + std::to_string(want.size()) +
                                " parameters" + rule);
  return true;
}

//===----------------------------------------------------------------------===//
// dispatch (format_version 2 and 3, optional)
//===----------------------------------------------------------------------===//

/// Refuses a key of object `v` (at `path`) that is not in `keys`: in the
/// objects that say what to launch, an unknown key could be a rule this
/// runtime would then not follow.
bool DescReader::onlyKeys(const Json &v, const std::string &path,
                          std::initializer_list<const char *> keys,
                          const char *what) {
  for (auto it = v.begin(); it != v.end(); ++it)
    if (std::find_if(keys.begin(), keys.end(), [&](const char *k) {
          return it.key() == k;
        }) == keys.end())
      return failAt(JsonDocument::childPath(path, it.key()),
                    std::string("unknown ") + what);
  return true;
}

/// "on": the extent L that picks a variant. Only the key length, size 2 of
/// the tensor in role k, for now.
bool DescReader::readDispatchOn(const Json &v, const attn_kernel_desc &d,
                                attn_kernel_desc &out) {
  if (!v.is_string())
    return wrongType(v, "dispatch.on", "a string");
  const std::string &on = v.get_ref<const std::string &>();
  if (on != "k.size2")
    return failAt("dispatch.on",
                  "unsupported \"" + on + "\" (this runtime dispatches "
                  "on \"k.size2\", the key length, only)");
  for (int32_t i = 0; i < d.num_buffers; ++i)
    for (int32_t j = 0; j < d.buffers[i].num_roles; ++j)
      if (d.buffers[i].roles[j] == ATTN_ROLE_K && d.buffers[i].rank < 3)
        return failAt("dispatch.on",
                      "\"k.size2\", but buffers[" + std::to_string(i) + "] (" +
                          d.buffers[i].name + ") has rank " +
                          std::to_string(d.buffers[i].rank));
  out.dispatch_on = ATTN_DISPATCH_K_SIZE2;
  return true;
}

/// {"max": L, "kernel": name}: a kernel of the same directory, loaded by
/// attn_kernel_load as dir/<name>.json.
bool DescReader::readVariant(const Json &v, const std::string &path,
                             const attn_kernel_desc &d,
                             attn_variant_desc &out) {
  if (!v.is_object())
    return wrongType(v, path, "an object");
  if (!onlyKeys(v, path, {"max", "kernel"},
                "dispatch variant key (a variant has max and kernel)"))
    return false;
  // No launch has a larger extent (kMaxExtent): a larger max would only
  // hide the main kernel.
  if (!getInt(v, path, "max", 1, kMaxExtent, out.max) ||
      !getString(v, path, "kernel", out.kernel, sizeof out.kernel, true))
    return false;
  std::string kernelPath = JsonDocument::childPath(path, "kernel");
  if (std::strchr(out.kernel, '/'))
    return failAt(kernelPath, "\"" + std::string(out.kernel) +
                                  "\" is not a file name (it has a '/'); a "
                                  "variant is dir/<kernel>.json of the same "
                                  "directory");
  if (std::strcmp(out.kernel, d.name) == 0)
    return failAt(kernelPath, "\"" + std::string(out.kernel) +
                                  "\" is this kernel itself (it runs when no "
                                  "variant does)");
  return true;
}

/// "dispatch": {"on": "k.size2", "variants": [{"max", "kernel"}, ...]}.
/// Optional; refused in format_version 1, whose launch path has no choice.
bool DescReader::readDispatch(attn_kernel_desc &d) {
  const Json *v = find(doc.root(), "dispatch");
  if (!v)
    return true;
  if (d.format_version < 2)
    return failAt("dispatch", "needs format_version 2 or 3 (a format_version "
                              "1 kernel has no dispatch table)");
  if (!v->is_object())
    return wrongType(*v, "dispatch", "an object");
  if (!onlyKeys(*v, "dispatch", {"on", "variants"},
                "dispatch key (dispatch has on and variants)"))
    return false;
  const Json *on = get(*v, "dispatch", "on");
  if (!on || !readDispatchOn(*on, d, d))
    return false;
  const Json *list = get(*v, "dispatch", "variants");
  if (!list)
    return false;
  if (!list->is_array())
    return wrongType(*list, "dispatch.variants", "an array of objects");
  if (list->empty())
    return failAt("dispatch.variants", "no variants (leave \"dispatch\" out "
                                       "for a kernel without any)");
  if (list->size() > ATTN_MAX_VARIANTS)
    return failAt("dispatch.variants",
                  std::to_string(list->size()) +
                      " variants, more than this runtime holds (" +
                      std::to_string(ATTN_MAX_VARIANTS) + ")");
  for (size_t i = 0; i < list->size(); ++i) {
    std::string path = JsonDocument::childPath("dispatch.variants", i);
    attn_variant_desc &var = d.variants[i];
    if (!readVariant((*list)[i], path, d, var))
      return false;
    // The first variant with L <= max runs: a max not above the one before
    // would never be chosen.
    if (i > 0 && var.max <= d.variants[i - 1].max)
      return failAt(JsonDocument::childPath(path, "max"),
                    std::to_string(var.max) + " is not larger than " +
                        "dispatch.variants[" + std::to_string(i - 1) +
                        "].max (" + std::to_string(d.variants[i - 1].max) +
                        "); the maxima must increase");
    for (size_t j = 0; j < i; ++j)
      if (std::strcmp(d.variants[j].kernel, var.kernel) == 0)
        return failAt(JsonDocument::childPath(path, "kernel"),
                      "\"" + std::string(var.kernel) +
                          "\" is dispatch.variants[" + std::to_string(j) +
                          "] already");
  }
  d.num_variants = (int32_t)list->size();
  return true;
}

//===----------------------------------------------------------------------===//
// persistent (format_version 3, optional)
//===----------------------------------------------------------------------===//

/// "persistent": {"ctas_per_sm": N}: the kernel loops over its tiles
/// itself and is launched on at most N CTAs per SM (attn_validate_args_sm).
/// Refused before format_version 3 (the compiler writes it for sm_90a
/// kernels only) and with another key inside: it says how to launch, so an
/// unknown key could be a rule this runtime would then not follow.
bool DescReader::readPersistent(attn_kernel_desc &d) {
  const Json *v = find(doc.root(), "persistent");
  if (!v)
    return true;
  if (d.format_version < 3)
    return failAt("persistent",
                  "needs format_version 3 (a format_version " +
                      std::to_string(d.format_version) +
                      " kernel is not persistent)");
  if (!v->is_object())
    return wrongType(*v, "persistent", "an object");
  if (!onlyKeys(*v, "persistent", {"ctas_per_sm"},
                "persistent key (persistent has ctas_per_sm)"))
    return false;
  // More CTAs per SM than 32 is more than an SM holds (sm_90: 32 blocks).
  int64_t ctas;
  if (!getInt(*v, "persistent", "ctas_per_sm", 1, 32, ctas))
    return false;
  d.persistent = 1;
  d.ctas_per_sm = (int32_t)ctas;
  return true;
}

/// "tma_fallback": NAME, a kernel of the same directory (dir/NAME.json)
/// that a launch runs where one of this kernel's tensor maps cannot
/// describe its argument. Refused without tensor maps (format_version 3
/// with "tma_fallback" naming nothing to fall back from).
bool DescReader::readTmaFallback(attn_kernel_desc &d) {
  if (!find(doc.root(), "tma_fallback"))
    return true;
  if (d.num_tensor_maps == 0)
    return failAt("tma_fallback",
                  "names a fallback for a kernel without tensor maps "
                  "(format_version 3 with \"tensor_maps\": it falls back "
                  "where TMA cannot describe an argument)");
  if (!getString(doc.root(), "", "tma_fallback", d.tma_fallback,
                 sizeof d.tma_fallback, true))
    return false;
  if (std::strchr(d.tma_fallback, '/'))
    return failAt("tma_fallback",
                  "\"" + std::string(d.tma_fallback) +
                      "\" is not a file name (it has a '/'); the fallback "
                      "is dir/<kernel>.json of the same directory");
  if (std::strcmp(d.tma_fallback, d.name) == 0)
    return failAt("tma_fallback", "\"" + std::string(d.tma_fallback) +
                                      "\" is this kernel itself");
  for (int32_t i = 0; i < d.num_variants; ++i)
    if (std::strcmp(d.tma_fallback, d.variants[i].kernel) == 0)
      return failAt("tma_fallback",
                    "\"" + std::string(d.tma_fallback) +
                        "\" is a dispatch variant of this kernel");
  return true;
}

/// The version-1 fields that describe the kernel, for attn_kernel_info and
/// for attn_kernel_launch's (q, k, v, o, lse) form.
void DescReader::deriveV1Fields(attn_kernel_desc &d) {
  auto bufferOf = [&](int role) -> const attn_buffer_desc * {
    for (int32_t i = 0; i < d.num_buffers; ++i)
      for (int32_t j = 0; j < d.buffers[i].num_roles; ++j)
        if (d.buffers[i].roles[j] == role)
          return &d.buffers[i];
    return nullptr;
  };
  auto dim3 = [](const attn_buffer_desc *b) -> int64_t {
    return b->rank == 4 && b->static_shape[3] >= 0 ? b->static_shape[3] : 0;
  };
  d.element_type = bufferOf(ATTN_ROLE_Q)->element_type;
  d.head_dim = dim3(bufferOf(ATTN_ROLE_Q));
  d.value_head_dim = dim3(bufferOf(ATTN_ROLE_V));
  d.has_lse = bufferOf(ATTN_ROLE_LSE) != nullptr;
}

bool DescReader::readV2(attn_kernel_desc &d) {
  if (!readBuffers(d) ||
      !readSizePairs("equal_sizes", d, d.equal_sizes, d.num_equal_sizes) ||
      !readSizePairs("divisible_sizes", d, d.divisible_sizes,
                     d.num_divisible_sizes) ||
      !readSizePairs("broadcast_sizes", d, d.broadcast_sizes,
                     d.num_broadcast_sizes, /*optional=*/true) ||
      !checkStringArray("grid", kExpectedGridV2, 3, /*ignoreSpaces=*/true) ||
      !readTensorMaps(d) || !checkParamsV2(d))
    return false;
  for (int32_t i = 0; i < d.num_buffers; ++i)
    for (int32_t j = 0; j < d.buffers[i].num_roles; ++j)
      if (d.buffers[i].roles[j] == ATTN_ROLE_Q && d.buffers[i].rank < 3)
        return failAt("grid", "uses q.size2, but q has rank " +
                                  std::to_string(d.buffers[i].rank));
  deriveV1Fields(d);

  // Informational in version 2 (what the kernel computes), so optional; but
  // when present they must be what version 1 allows.
  const Json &root = doc.root();
  if (const Json *scale = find(root, "scale_log2e")) {
    if (!readScale(*scale, d))
      return false;
    d.has_scale = 1;
  }
  if (const Json *mask = find(root, "mask")) {
    if (!readMask(*mask, d))
      return false;
    d.has_mask_info = 1;
  }
  return true;
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
  if (version < 1 || version > 3)
    return fail("unsupported format_version " + std::to_string(version) +
                " (this runtime reads versions 1, 2 and 3)");
  d.format_version = (int32_t)version;
  if (version == 1) {
    d.has_mask_info = d.has_scale = 1;
    return readCommon(d) && readV1(d) && readDispatch(d) &&
           readPersistent(d);
  }
  return readCommon(d) && readV2(d) && readDispatch(d) && readPersistent(d) &&
         readTmaFallback(d);
}

} // namespace

bool readDescription(const JsonDocument &doc, attn_kernel_desc &out,
                     std::string &error) {
  return DescReader(doc, error).read(out);
}

} // namespace attn_rt
