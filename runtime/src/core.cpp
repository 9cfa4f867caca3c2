//===- core.cpp - metadata parsing and launch validation ----------------===//
//
// Everything of the runtime that needs no GPU: the metadata file format and
// the checks a launch must pass. Built into a static library that both the
// shared runtime and the device-free test link.
//
//===----------------------------------------------------------------------===//

#include "core.h"
#include "strict_json.h"

#include <cerrno>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>

namespace attn_rt {

void setError(char *err, size_t errLen, const std::string &msg) {
  if (!err || errLen == 0)
    return;
  size_t n = msg.size() < errLen - 1 ? msg.size() : errLen - 1;
  std::memcpy(err, msg.data(), n);
  err[n] = '\0';
}

bool readFile(const std::string &path, size_t maxBytes, std::string &out,
              std::string &error) {
  out.clear();
  FILE *f = std::fopen(path.c_str(), "rb");
  if (!f) {
    error = path + ": cannot open: " + std::strerror(errno);
    return false;
  }
  char buf[65536];
  for (;;) {
    size_t n = std::fread(buf, 1, sizeof buf, f);
    if (n > 0) {
      if (out.size() + n > maxBytes) {
        std::fclose(f);
        error = path + ": larger than " + std::to_string(maxBytes) +
                " bytes; not a file this runtime reads";
        return false;
      }
      out.append(buf, n);
    }
    if (n < sizeof buf) {
      bool bad = std::ferror(f) != 0;
      int e = errno;
      std::fclose(f);
      if (bad) {
        error = path + ": read error: " + std::strerror(e);
        return false;
      }
      return true;
    }
  }
}

std::string joinPath(const std::string &dir, const std::string &file) {
  if (!file.empty() && file[0] == '/')
    return file;
  if (dir.empty())
    return file;
  return dir.back() == '/' ? dir + file : dir + "/" + file;
}

int dtypeValue(const attn_tensor &t) {
  static_assert(sizeof(attn_dtype) == sizeof(int), "attn_dtype is an int");
  int v;
  std::memcpy(&v, &t.dtype, sizeof v);
  return v;
}

const char *dtypeName(int v) {
  return v == ATTN_F16 ? "f16" : v == ATTN_BF16 ? "bf16" : v == ATTN_F32 ? "f32" : "?";
}

} // namespace attn_rt

using namespace attn_rt;

namespace {
/// Metadata documents are a few KiB; anything much larger is not one.
constexpr size_t kMaxMetadataBytes = 1 << 20;
} // namespace

//===----------------------------------------------------------------------===//
// Launch validation
//===----------------------------------------------------------------------===//

namespace {

const char *const kRoleName[5] = {"q", "k", "v", "o", "lse"};

class Validator {
public:
  Validator(const attn_kernel_desc &desc, std::string &message)
      : d(desc), error(message) {}

  bool run(const attn_tensor *const t[5], attn_launch_plan &plan);

private:
  const attn_kernel_desc &d;
  std::string &error;

  bool fail(const std::string &msg) {
    error = msg;
    return false;
  }

  static std::string shapeString(const attn_tensor &t) {
    std::string s = "[";
    int rank = t.rank >= 0 && t.rank <= 4 ? t.rank : 0;
    for (int i = 0; i < rank; ++i)
      s += (i ? ", " : "") + std::to_string(t.shape[i]);
    return s + "]";
  }

  bool checkAccess(int role, const attn_tensor &t, int64_t elemSize,
                   bool isOutput);
};

bool Validator::checkAccess(int role, const attn_tensor &t, int64_t elemSize,
                            bool isOutput) {
  const char *name = kRoleName[role];
  bool isLse = role == 4;
  int rank = isLse ? 3 : 4;
  if (t.ptr == 0)
    return fail(std::string(name) + ": null data pointer");
  // cp.async copies 16-byte chunks of Q, K and V rows; O is held to the same
  // rule. LSE is stored one f32 at a time.
  uint64_t ptrAlign = isLse ? 4 : 16;
  if (t.ptr % ptrAlign != 0) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "0x%" PRIx64, t.ptr);
    return fail(std::string(name) + ": data pointer " + buf + " is not " +
                std::to_string(ptrAlign) + "-byte aligned");
  }
  if (t.strides[rank - 1] != 1)
    return fail(std::string(name) + ": the " +
                (isLse ? "row" : "last") + " stride is " +
                std::to_string(t.strides[rank - 1]) +
                ", expected 1 (rows must be contiguous)");
  static const char *dimName[4] = {"batch", "head", "row", "column"};
  int64_t maxOffset = 0;
  for (int i = 0; i < rank; ++i) {
    if (t.strides[i] < 0)
      return fail(std::string(name) + ": negative " + dimName[i] +
                  " stride " + std::to_string(t.strides[i]));
    int64_t term;
    if (__builtin_mul_overflow(t.shape[i] - 1, t.strides[i], &term) ||
        __builtin_add_overflow(maxOffset, term, &maxOffset) ||
        __builtin_mul_overflow(maxOffset, elemSize, &term))
      return fail(std::string(name) + ": shape " + shapeString(t) +
                  " with these strides addresses beyond 2^63 bytes");
    if (i == rank - 1 || t.shape[i] <= 1)
      continue; // a dim of extent 1 never moves by its stride
    if (isOutput && t.strides[i] == 0)
      return fail(std::string(name) + ": " + dimName[i] +
                  " stride 0 on a dim of extent " +
                  std::to_string(t.shape[i]) +
                  " would make different outputs overlap");
    if (!isLse && (t.strides[i] * elemSize) % 16 != 0)
      return fail(std::string(name) + ": " + dimName[i] + " stride " +
                  std::to_string(t.strides[i]) + " elements (" +
                  std::to_string(t.strides[i] * elemSize) +
                  " bytes) is not a multiple of 16 bytes");
  }
  return true;
}

bool Validator::run(const attn_tensor *const t[5], attn_launch_plan &plan) {
  std::memset(&plan, 0, sizeof plan);
  // A description the caller built (the parser bounds these): nothing
  // below may divide by a block size or launch a shape no kernel has.
  if (d.block_m < 1 || d.block_m > 1024)
    return fail("the kernel description's block_m is " +
                std::to_string(d.block_m) + "; it must be in [1, 1024]");
  if (d.threads < 1 || d.threads > 1024)
    return fail("the kernel description's threads is " +
                std::to_string(d.threads) + "; it must be in [1, 1024]");
  if (d.shared_bytes < 0)
    return fail("the kernel description's shared_bytes is negative (" +
                std::to_string(d.shared_bytes) + ")");
  // Its grid is the tiles' (no format_version 1 kernel loops over them).
  if (d.persistent)
    return fail("the kernel description is persistent, which no "
                "format_version 1 kernel is (built by hand?)");
  int elementType; // read as an int: the caller may have stored any value
  std::memcpy(&elementType, &d.element_type, sizeof elementType);
  if (elementType != ATTN_F16 && elementType != ATTN_BF16 &&
      elementType != ATTN_F32)
    return fail("the kernel description's element type is unknown (" +
                std::to_string(elementType) + ")");
  if (d.head_dim < 1 || d.value_head_dim < 1)
    return fail("the kernel description's head_dim / value_head_dim (" +
                std::to_string(d.head_dim) + ", " +
                std::to_string(d.value_head_dim) + ") must be positive");
  for (int r = 0; r < 4; ++r)
    if (!t[r])
      return fail(std::string(kRoleName[r]) + " is NULL");
  if (d.has_lse && !t[4])
    return fail("lse is NULL, but the kernel writes an LSE output");
  if (!d.has_lse && t[4])
    return fail("an lse tensor was given, but the kernel has no LSE output");
  const int numTensors = d.has_lse ? 5 : 4;

  // Ranks and element types.
  for (int r = 0; r < numTensors; ++r) {
    int want = r == 4 ? 3 : 4;
    if (t[r]->rank != want)
      return fail(std::string(kRoleName[r]) + ": rank " +
                  std::to_string(t[r]->rank) + ", expected " +
                  std::to_string(want) +
                  (r == 4 ? " ([B, Hq, Nq])" : " ([B, H, N, D])"));
    int wantType = r == 4 ? (int)ATTN_F32 : (int)d.element_type;
    int gotType = dtypeValue(*t[r]);
    if (gotType != wantType)
      return fail(std::string(kRoleName[r]) + ": element type " +
                  (std::strcmp(dtypeName(gotType), "?")
                       ? std::string(dtypeName(gotType))
                       : "?" + std::to_string(gotType)) +
                  ", expected " + dtypeName(wantType) +
                  (r == 4 ? " (LSE is always f32)" : " (the kernel's)"));
    for (int i = 0; i < want; ++i)
      if (t[r]->shape[i] < 0)
        return fail(std::string(kRoleName[r]) + ": negative extent in shape " +
                    shapeString(*t[r]));
  }

  const attn_tensor &q = *t[0], &k = *t[1], &v = *t[2], &o = *t[3];
  auto s = [&](const attn_tensor &x) { return shapeString(x); };
  if (q.shape[3] != d.head_dim)
    return fail("q: head dim " + std::to_string(q.shape[3]) +
                " (shape " + s(q) + "), the kernel's head_dim is " +
                std::to_string(d.head_dim));
  if (k.shape[3] != d.head_dim)
    return fail("k: head dim " + std::to_string(k.shape[3]) +
                " (shape " + s(k) + "), the kernel's head_dim is " +
                std::to_string(d.head_dim));
  if (v.shape[3] != d.value_head_dim)
    return fail("v: head dim " + std::to_string(v.shape[3]) +
                " (shape " + s(v) + "), the kernel's value_head_dim is " +
                std::to_string(d.value_head_dim));
  if (o.shape[3] != d.value_head_dim)
    return fail("o: head dim " + std::to_string(o.shape[3]) +
                " (shape " + s(o) + "), the kernel's value_head_dim is " +
                std::to_string(d.value_head_dim));

  const int64_t B = q.shape[0], Hq = q.shape[1], Nq = q.shape[2];
  const int64_t Hkv = k.shape[1], Nk = k.shape[2];
  for (int r = 1; r < numTensors; ++r)
    if (t[r]->shape[0] != B)
      return fail(std::string(kRoleName[r]) + ": batch " +
                  std::to_string(t[r]->shape[0]) + " (shape " + s(*t[r]) +
                  ") differs from q's " + std::to_string(B));
  for (int r : {3, 4}) {
    if (r >= numTensors)
      continue;
    if (t[r]->shape[1] != Hq)
      return fail(std::string(kRoleName[r]) + ": " +
                  std::to_string(t[r]->shape[1]) + " heads (shape " +
                  s(*t[r]) + "), q has " + std::to_string(Hq));
    if (t[r]->shape[2] != Nq)
      return fail(std::string(kRoleName[r]) + ": " +
                  std::to_string(t[r]->shape[2]) + " rows (shape " + s(*t[r]) +
                  "), q has " + std::to_string(Nq));
  }
  if (v.shape[1] != Hkv)
    return fail("v: " + std::to_string(v.shape[1]) + " heads (shape " + s(v) +
                "), k has " + std::to_string(Hkv));
  if (v.shape[2] != Nk)
    return fail("v: " + std::to_string(v.shape[2]) + " rows (shape " + s(v) +
                "), k has " + std::to_string(Nk));
  if (Hkv <= 0)
    return fail("k: " + std::to_string(Hkv) +
                " key/value heads; at least one is needed");
  if (Hq % Hkv != 0)
    return fail("q has " + std::to_string(Hq) + " heads, not a multiple of "
                "the " + std::to_string(Hkv) + " key/value heads");
  // The kernel computes row indices in 32 bits.
  if (Nq > (int64_t)INT32_MAX - d.block_m)
    return fail("q: " + std::to_string(Nq) +
                " rows; the kernel indexes rows in 32 bits (at most " +
                std::to_string((int64_t)INT32_MAX - d.block_m) + ")");
  if (Nk > (int64_t)INT32_MAX - d.block_n)
    return fail("k: " + std::to_string(Nk) +
                " rows; the kernel indexes rows in 32 bits (at most " +
                std::to_string((int64_t)INT32_MAX - d.block_n) + ")");

  // Grid limits.
  if (B > 0 && Hq > 65535 / B)
    return fail("B * Hq = " + std::to_string(B) + " * " + std::to_string(Hq) +
                " is over the grid's y limit of 65535");
  int64_t blocksX = (Nq + d.block_m - 1) / d.block_m;
  if (blocksX > INT32_MAX)
    return fail("ceil(Nq / block_m) = " + std::to_string(blocksX) +
                " is over the grid's x limit of 2^31 - 1");

  if (Nq == 0 || B * Hq == 0) {
    plan.action = ATTN_PLAN_NOTHING;
    return true;
  }

  // Memory access rules, for the tensors that are read or written.
  const int64_t es = (int64_t)attn_dtype_size(d.element_type);
  if (Nk > 0)
    for (int r = 0; r < 3; ++r)
      if (!checkAccess(r, *t[r], es, false))
        return false;
  if (!checkAccess(3, o, es, true))
    return false;
  if (d.has_lse && !checkAccess(4, *t[4], 4, true))
    return false;

  plan.action = Nk == 0 ? ATTN_PLAN_FILL_EMPTY : ATTN_PLAN_LAUNCH;
  plan.grid[0] = (uint32_t)blocksX;
  plan.grid[1] = (uint32_t)(B * Hq);
  plan.grid[2] = 1;
  plan.block[0] = (uint32_t)d.threads;
  plan.block[1] = plan.block[2] = 1;
  plan.shared_bytes = (uint32_t)d.shared_bytes;
  for (int r = 0; r < 4; ++r)
    plan.ptrs[r] = t[r]->ptr;
  plan.ptrs[4] = d.has_lse ? t[4]->ptr : 0;
  int64_t *p = plan.ints;
  *p++ = B;
  *p++ = Hq;
  *p++ = Hkv;
  *p++ = Nq;
  *p++ = Nk;
  for (int r = 0; r < 4; ++r)
    for (int i = 0; i < 3; ++i)
      *p++ = t[r]->strides[i];
  *p++ = d.has_lse ? t[4]->strides[0] : 0;
  *p++ = d.has_lse ? t[4]->strides[1] : 0;
  return true;
}

} // namespace

bool attn_rt::validateV1(const attn_kernel_desc &d,
                         const attn_tensor *const t[5],
                         attn_launch_plan &plan, std::string &error) {
  return Validator(d, error).run(t, plan);
}

//===----------------------------------------------------------------------===//
// C API
//===----------------------------------------------------------------------===//

namespace {

/// attn_validate_args and attn_validate_args_sm; `fn` names the entry point.
int validateArgsEntry(const char *fn, const attn_kernel_desc *desc,
                      const attn_arg *args, size_t num_args, int32_t sm_count,
                      attn_launch_plan_v2 *plan, char *err, size_t err_len) {
  if (!desc) {
    setError(err, err_len, std::string(fn) + ": no kernel description");
    return 1;
  }
  if (!args && num_args > 0) {
    setError(err, err_len, std::string(fn) + ": args is NULL");
    return 1;
  }
  attn_launch_plan_v2 local;
  std::string error;
  if (!validateArgs(*desc, args, num_args, sm_count, plan ? *plan : local,
                    error)) {
    setError(err, err_len, error);
    return 1;
  }
  return 0;
}

} // namespace

extern "C" {

const char *attn_dtype_name(attn_dtype t) {
  int v;
  std::memcpy(&v, &t, sizeof v);
  return dtypeName(v);
}

size_t attn_dtype_size(attn_dtype t) {
  int v;
  std::memcpy(&v, &t, sizeof v);
  return v == ATTN_F16 || v == ATTN_BF16 ? 2 : v == ATTN_F32 ? 4 : 0;
}

int attn_desc_parse_string(const char *json, size_t len,
                           const char *source_name, attn_kernel_desc *out,
                           char *err, size_t err_len) {
  std::string source = source_name ? source_name : "<metadata>";
  if (!json || !out) {
    setError(err, err_len, source + ": no document or no output given");
    return 1;
  }
  if (len > kMaxMetadataBytes) {
    setError(err, err_len, source + ": " + std::to_string(len) +
                               " bytes, larger than " +
                               std::to_string(kMaxMetadataBytes) +
                               "; not a document this runtime reads");
    return 1;
  }
  JsonDocument doc;
  std::string error;
  if (!parseJson(json, len, doc, error)) {
    setError(err, err_len, source + ": malformed JSON: " + error);
    return 1;
  }
  attn_kernel_desc d;
  if (!readDescription(doc, d, error)) {
    setError(err, err_len, source + ": " + error);
    return 1;
  }
  *out = d;
  return 0;
}

int attn_desc_parse_file(const char *path, attn_kernel_desc *out, char *err,
                         size_t err_len) {
  if (!path) {
    setError(err, err_len, "attn_desc_parse_file: no path given");
    return 1;
  }
  std::string text, error;
  if (!readFile(path, kMaxMetadataBytes, text, error)) {
    setError(err, err_len, error);
    return 1;
  }
  return attn_desc_parse_string(text.data(), text.size(), path, out, err,
                                err_len);
}

int attn_validate_launch(const attn_kernel_desc *desc, const attn_tensor *q,
                         const attn_tensor *key, const attn_tensor *v,
                         const attn_tensor *o, const attn_tensor *lse,
                         attn_launch_plan *plan, char *err, size_t err_len) {
  if (!desc) {
    setError(err, err_len, "attn_validate_launch: no kernel description");
    return 1;
  }
  if (desc->format_version != 1) {
    setError(err, err_len,
             std::string("attn_validate_launch: ") + desc->name +
                 " is a format_version " +
                 std::to_string(desc->format_version) +
                 " kernel, whose parameters do not fit attn_launch_plan; "
                 "use attn_validate_args");
    return 1;
  }
  const attn_tensor *t[5] = {q, key, v, o, lse};
  attn_launch_plan local;
  std::string error;
  if (!validateV1(*desc, t, plan ? *plan : local, error)) {
    setError(err, err_len, error);
    return 1;
  }
  return 0;
}

// Without a device the SM count is unknown (0): a persistent kernel's plan
// then has one CTA per tile, which is correct for it too.
int attn_validate_args(const attn_kernel_desc *desc, const attn_arg *args,
                       size_t num_args, attn_launch_plan_v2 *plan, char *err,
                       size_t err_len) {
  return validateArgsEntry("attn_validate_args", desc, args, num_args, 0,
                           plan, err, err_len);
}

int attn_validate_args_sm(const attn_kernel_desc *desc, const attn_arg *args,
                          size_t num_args, int32_t sm_count,
                          attn_launch_plan_v2 *plan, char *err,
                          size_t err_len) {
  return validateArgsEntry("attn_validate_args_sm", desc, args, num_args,
                           sm_count, plan, err, err_len);
}

size_t attn_struct_size(const char *type_name) {
  if (!type_name)
    return 0;
  std::string n = type_name;
  return n == "attn_tensor"            ? sizeof(attn_tensor)
         : n == "attn_arg"             ? sizeof(attn_arg)
         : n == "attn_kernel_desc"     ? sizeof(attn_kernel_desc)
         : n == "attn_buffer_desc"     ? sizeof(attn_buffer_desc)
         : n == "attn_tensor_map_desc" ? sizeof(attn_tensor_map_desc)
         : n == "attn_variant_desc"    ? sizeof(attn_variant_desc)
         : n == "attn_launch_plan"     ? sizeof(attn_launch_plan)
         : n == "attn_launch_plan_v2"  ? sizeof(attn_launch_plan_v2)
         : n == "attn_tensor_map_args" ? sizeof(attn_tensor_map_args)
                                       : 0;
}

} // extern "C"
