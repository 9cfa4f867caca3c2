//===- validate_args.cpp - launch checks for tensors given by role ------===//
//
// attn_validate_args: matches the caller's (role, tensor) arguments to the
// buffers of a format_version 2 or 3 kernel, checks every tensor against
// its buffer and the launch contract, and packs the kernel parameters (for
// format_version 3 also the arguments of each tensor map's
// cuTensorMapEncodeTiled call). A format_version 1 kernel takes the roles
// q, k, v, o, lse and the checks of attn_validate_launch. Nothing here needs
// a device: the SM count that sizes a persistent kernel's grid is the
// caller's (the loaded kernel's, read at load).
//
//===----------------------------------------------------------------------===//

#include "core.h"

#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <string>

namespace attn_rt {
namespace {

std::string hex(uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%" PRIx64, v);
  return buf;
}

std::string listString(const int64_t *v, int32_t n) {
  std::string s = "[";
  for (int32_t i = 0; i < n; ++i)
    s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

/// The rank to print a tensor's fields with: what the caller stored, if
/// attn_tensor can hold it.
int32_t printableRank(const attn_tensor &t) {
  return t.rank >= 0 && t.rank <= ATTN_MAX_RANK ? t.rank : 0;
}

/// "same" when two arguments describe one tensor, else what differs.
std::string differenceOf(const attn_tensor &a, const attn_tensor &b) {
  if (a.ptr != b.ptr)
    return "data pointers " + hex(a.ptr) + " and " + hex(b.ptr);
  if (a.rank != b.rank)
    return "ranks " + std::to_string(a.rank) + " and " +
           std::to_string(b.rank);
  if (dtypeValue(a) != dtypeValue(b))
    return std::string("element types ") + dtypeName(dtypeValue(a)) +
           " and " + dtypeName(dtypeValue(b));
  int32_t r = printableRank(a);
  if (std::memcmp(a.shape, b.shape, sizeof(int64_t) * (size_t)r) != 0)
    return "shapes " + listString(a.shape, r) + " and " +
           listString(b.shape, r);
  if (std::memcmp(a.strides, b.strides, sizeof(int64_t) * (size_t)r) != 0)
    return "strides " + listString(a.strides, r) + " and " +
           listString(b.strides, r);
  return "same";
}

/// A tensor with an extent of 0 is never accessed.
bool hasElements(const attn_tensor &t) {
  for (int32_t i = 0; i < t.rank; ++i)
    if (t.shape[i] == 0)
      return false;
  return true;
}

uint32_t tmaDataType(attn_dtype t) {
  return t == ATTN_F16    ? ATTN_TMA_DATA_TYPE_FLOAT16
         : t == ATTN_BF16 ? ATTN_TMA_DATA_TYPE_BFLOAT16
                          : ATTN_TMA_DATA_TYPE_FLOAT32;
}

/// The swizzle of a tensor map's description (bytes; checked) as TMA's.
uint32_t tmaSwizzle(int32_t bytes) {
  return bytes == 32    ? ATTN_TMA_SWIZZLE_32B
         : bytes == 64  ? ATTN_TMA_SWIZZLE_64B
         : bytes == 128 ? ATTN_TMA_SWIZZLE_128B
                        : ATTN_TMA_SWIZZLE_NONE;
}

/// What TMA takes of a tensor (the driver refuses the rest): a pointer and
/// global strides that are multiples of 16 bytes, strides below 2^40.
constexpr int64_t kTmaAlign = 16, kTmaStrideLimit = int64_t(1) << 40;

// TMA takes extents up to 2^32; the kernels' 32-bit indexing bounds them
// more tightly, so no launch that passed checkShape exceeds it.
static_assert(kMaxExtent <= (int64_t(1) << 32),
              "TMA can describe every extent");

/// The bytes a tensor with elements spans: [begin, end).
struct ByteRange {
  uint64_t begin = 0, end = 0;
  bool empty() const { return begin == end; }
  bool overlaps(const ByteRange &o) const {
    return !empty() && !o.empty() && begin < o.end && o.begin < end;
  }
};

class ArgsValidator {
public:
  ArgsValidator(const attn_kernel_desc &desc, int32_t sms,
                std::string &message)
      : d(desc), smCount(sms), error(message) {}

  bool run(const attn_arg *args, size_t numArgs, attn_launch_plan_v2 &plan);
  /// After a run that failed: whether a tensor map refused its argument
  /// (and everything checked before the tensor maps passed).
  bool refusedByTensorMap() const { return tmaRefused; }
  /// After any run: the first tensor map whose box has rows that are one
  /// row (a zero stride on a dim the box spans: a mask broadcast over its
  /// rows), with the map and dim named; "" if none. TMA copies such a box
  /// correctly, but its copies of the one row ran slower than the TMA
  /// fallback's loads (keypad_time.py on an H100, fifty-first session), so
  /// the fallback is preferred where it takes the launch.
  const std::string &aliasedBox() const { return aliased; }

private:
  const attn_kernel_desc &d;
  bool tmaRefused = false;
  std::string aliased;
  const int32_t smCount; // <= 0: unknown
  std::string &error;
  const attn_tensor *tensorOf[ATTN_MAX_BUFFERS] = {};
  const char *firstRoleOf[ATTN_MAX_BUFFERS] = {}; // the role that bound it
  ByteRange range[ATTN_MAX_BUFFERS];
  attn_tensor_map_args maps[ATTN_MAX_TENSOR_MAPS] = {};

  bool fail(const std::string &msg) {
    error = msg;
    return false;
  }
  const char *name(int b) const { return d.buffers[b].name; }
  int64_t size(const attn_size_ref &r) const {
    return tensorOf[r.buffer]->shape[r.dim];
  }
  std::string sizeName(const attn_size_ref &r) const {
    return std::string(name(r.buffer)) + ".size" + std::to_string(r.dim);
  }

  int bufferFor(int role, int nth) const;
  bool bindArgs(const attn_arg *args, size_t numArgs);
  bool bind(size_t index, const attn_arg &arg, int nthOfRole[]);
  bool checkAllBound();
  bool checkShape(int b);
  bool checkContract();
  bool checkGrid(int64_t &x, int64_t &y);
  bool checkTiles(int64_t x, int64_t y);
  void planGrid(int64_t x, int64_t y, uint32_t grid[3]) const;
  bool checkAccess(int b);
  bool checkStrideAlignment(int b, int32_t dim);
  bool planTensorMap(int i);
  bool checkOverlaps();
  void fillPlan(int64_t x, int64_t y, attn_launch_plan_v2 &plan) const;
};

/// The buffer of the `nth` (0-based) argument of `role`, or -1.
int ArgsValidator::bufferFor(int role, int nth) const {
  for (int32_t b = 0; b < d.num_buffers; ++b)
    for (int32_t j = 0; j < d.buffers[b].num_roles; ++j)
      if (d.buffers[b].roles[j] == role && nth-- == 0)
        return b;
  return -1;
}

bool ArgsValidator::bind(size_t index, const attn_arg &arg, int nthOfRole[]) {
  std::string where = "args[" + std::to_string(index) + "]";
  if (!arg.role)
    return fail(where + ": no role (NULL)");
  int role = roleFromName(arg.role);
  if (role < 0)
    return fail(where + ": unknown role \"" + arg.role +
                "\" (expected q, k, v, o, lse, bias, alibi_slopes, input or "
                "output)");
  int nth = nthOfRole[role]++;
  int b = bufferFor(role, nth);
  bool repeatable = role == ATTN_ROLE_INPUT || role == ATTN_ROLE_OUTPUT;
  if (b < 0 && nth == 0)
    return fail(where + ": the kernel has no " + arg.role + " buffer");
  if (b < 0 && !repeatable)
    return fail(where + ": a second " + arg.role + " argument");
  if (b < 0)
    return fail(where + ": more " + arg.role + " arguments than the " +
                std::to_string(nth) + " " + arg.role +
                " buffers of the kernel");
  if (!tensorOf[b]) {
    tensorOf[b] = &arg.tensor;
    firstRoleOf[b] = kRoleNames[role];
    return true;
  }
  // Another role of the same buffer was bound already: one memory, one
  // tensor.
  std::string diff = differenceOf(*tensorOf[b], arg.tensor);
  if (diff != "same")
    return fail(std::string(name(b)) + ": the " + firstRoleOf[b] + " and " +
                arg.role + " arguments are one buffer of the kernel and must "
                "be the same tensor, but their " + diff + " differ");
  return true;
}

bool ArgsValidator::bindArgs(const attn_arg *args, size_t numArgs) {
  int nthOfRole[ATTN_NUM_ROLES] = {};
  for (size_t i = 0; i < numArgs; ++i)
    if (!bind(i, args[i], nthOfRole))
      return false;
  // Every role of every buffer needs its argument.
  for (int role = 0; role < ATTN_NUM_ROLES; ++role) {
    int b = bufferFor(role, nthOfRole[role]);
    if (b < 0)
      continue;
    bool repeatable = role == ATTN_ROLE_INPUT || role == ATTN_ROLE_OUTPUT;
    return fail(std::string("no ") + kRoleNames[role] + " argument" +
                (repeatable ? " for buffers[" + std::to_string(b) + "] (" +
                                  std::to_string(nthOfRole[role]) +
                                  " given)"
                            : " (the kernel's buffer " +
                                  std::string(name(b)) + ")"));
  }
  return true;
}

bool ArgsValidator::checkShape(int b) {
  const attn_buffer_desc &buf = d.buffers[b];
  const attn_tensor &t = *tensorOf[b];
  std::string n = name(b);
  if (t.rank != buf.rank)
    return fail(n + ": rank " + std::to_string(t.rank) + ", expected " +
                std::to_string(buf.rank));
  int type = dtypeValue(t);
  if (type != (int)buf.element_type)
    return fail(n + ": element type " +
                (std::strcmp(dtypeName(type), "?")
                     ? std::string(dtypeName(type))
                     : "?" + std::to_string(type)) +
                ", expected " + dtypeName(buf.element_type));
  std::string shape = " (shape " + listString(t.shape, t.rank) + ")";
  for (int32_t i = 0; i < t.rank; ++i) {
    if (t.shape[i] < 0)
      return fail(n + ": negative extent " + std::to_string(t.shape[i]) +
                  " of dim " + std::to_string(i) + shape);
    if (t.shape[i] > kMaxExtent)
      return fail(n + ": extent " + std::to_string(t.shape[i]) + " of dim " +
                  std::to_string(i) + shape + " is over " +
                  std::to_string(kMaxExtent) +
                  "; the kernels index in 32 bits");
    if (buf.static_shape[i] >= 0 && t.shape[i] != buf.static_shape[i])
      return fail(n + ": dim " + std::to_string(i) + " is " +
                  std::to_string(t.shape[i]) + shape + ", the kernel needs " +
                  std::to_string(buf.static_shape[i]));
    if (t.strides[i] < 0)
      return fail(n + ": negative stride " + std::to_string(t.strides[i]) +
                  " of dim " + std::to_string(i) + " (strides " +
                  listString(t.strides, t.rank) + ")");
  }
  int32_t inner = t.rank - 1;
  if (t.shape[inner] > 1 && t.strides[inner] != 1)
    return fail(n + ": innermost stride " + std::to_string(t.strides[inner]) +
                ", expected 1 (the innermost dim must be contiguous)");
  return true;
}

bool ArgsValidator::checkContract() {
  for (int32_t i = 0; i < d.num_equal_sizes; ++i) {
    const attn_size_pair &p = d.equal_sizes[i];
    if (size(p.first) != size(p.second))
      return fail("equal_sizes: " + sizeName(p.first) + " = " +
                  std::to_string(size(p.first)) + " but " +
                  sizeName(p.second) + " = " +
                  std::to_string(size(p.second)) +
                  " (the kernel needs them equal)");
  }
  for (int32_t i = 0; i < d.num_divisible_sizes; ++i) {
    const attn_size_pair &p = d.divisible_sizes[i];
    int64_t divisor = size(p.first), dividend = size(p.second);
    if (divisor <= 0)
      return fail("divisible_sizes: " + sizeName(p.first) + " = " +
                  std::to_string(divisor) + ", must be > 0 (it divides " +
                  sizeName(p.second) + ")");
    if (dividend % divisor != 0)
      return fail("divisible_sizes: " + sizeName(p.second) + " = " +
                  std::to_string(dividend) + " is not a multiple of " +
                  sizeName(p.first) + " = " + std::to_string(divisor));
  }
  // A broadcast dimension is read at index 0 when its extent is 1 and at
  // the full dimension's index otherwise: any other extent would read
  // outside it.
  for (int32_t i = 0; i < d.num_broadcast_sizes; ++i) {
    const attn_size_pair &p = d.broadcast_sizes[i];
    if (size(p.first) != 1 && size(p.first) != size(p.second))
      return fail("broadcast_sizes: " + sizeName(p.first) + " = " +
                  std::to_string(size(p.first)) + " is neither 1 nor " +
                  sizeName(p.second) + " = " + std::to_string(size(p.second)));
  }
  return true;
}

/// The tile space (ceildiv(q.size2, block_m), q.size0 * q.size1): the
/// parser checked that q has rank >= 3. It is the grid of a kernel that is
/// not persistent (planGrid).
bool ArgsValidator::checkGrid(int64_t &x, int64_t &y) {
  const attn_tensor &q = *tensorOf[bufferFor(ATTN_ROLE_Q, 0)];
  // Extents are <= kMaxExtent, so neither product nor sum overflows, and
  // x <= kMaxExtent is within the grid's x limit of 2^31 - 1.
  static_assert(kMaxExtent <= INT32_MAX, "grid x always fits");
  x = (q.shape[2] + d.block_m - 1) / d.block_m;
  y = q.shape[0] * q.shape[1];
  if (d.persistent)
    return checkTiles(x, y);
  if (y > 65535)
    return fail("grid y = q.size0 * q.size1 = " + std::to_string(q.shape[0]) +
                " * " + std::to_string(q.shape[1]) + " = " +
                std::to_string(y) + " is over the limit of 65535");
  return true;
}

/// A persistent kernel numbers its tiles t = y * x-tiles + x in 32 bits
/// and is launched on one grid dimension (at most all tiles): the grid's y
/// limit does not apply, 2^31 - 1 tiles does.
bool ArgsValidator::checkTiles(int64_t x, int64_t y) {
  int64_t tiles;
  bool overflow = __builtin_mul_overflow(x, y, &tiles);
  if (!overflow && tiles <= INT32_MAX)
    return true;
  const attn_tensor &q = *tensorOf[bufferFor(ATTN_ROLE_Q, 0)];
  return fail("persistent kernel: tiles = ceildiv(q.size2, block_m) * "
              "q.size0 * q.size1 = " +
              std::to_string(x) + " * " + std::to_string(q.shape[0]) + " * " +
              std::to_string(q.shape[1]) +
              (overflow ? "" : " = " + std::to_string(tiles)) +
              " is over the limit of 2^31 - 1");
}

/// The tiles as the grid, or for a persistent kernel min(tiles, sm_count *
/// ctas_per_sm) CTAs in x, which loop over the tiles. With the SM count
/// unknown, one CTA per tile: a persistent kernel is correct on any grid of
/// at least one CTA, so the full one is right, only not as fast. No tiles:
/// grid x 0 either way, which fillPlan makes "nothing to launch".
void ArgsValidator::planGrid(int64_t x, int64_t y, uint32_t grid[3]) const {
  grid[2] = 1;
  if (!d.persistent) {
    grid[0] = (uint32_t)x;
    grid[1] = (uint32_t)y;
    return;
  }
  int64_t tiles = x * y; // checkTiles: <= 2^31 - 1
  int64_t ctas = smCount > 0 ? (int64_t)smCount * d.ctas_per_sm : tiles;
  grid[0] = (uint32_t)(tiles < ctas ? tiles : ctas);
  grid[1] = 1;
}

bool ArgsValidator::checkStrideAlignment(int b, int32_t dim) {
  const attn_buffer_desc &buf = d.buffers[b];
  const attn_tensor &t = *tensorOf[b];
  std::string n = name(b);
  int64_t bytes;
  if (__builtin_mul_overflow(t.strides[dim],
                             (int64_t)attn_dtype_size(buf.element_type),
                             &bytes))
    return fail(n + ": stride " + std::to_string(t.strides[dim]) +
                " of dim " + std::to_string(dim) + " is beyond 2^63 bytes");
  if (buf.writes && bytes == 0)
    return fail(n + ": stride 0 on dim " + std::to_string(dim) +
                " of extent " + std::to_string(t.shape[dim]) +
                " would make different outputs overlap");
  if (bytes % buf.align != 0)
    return fail(n + ": stride " + std::to_string(t.strides[dim]) +
                " of dim " + std::to_string(dim) + " (" +
                std::to_string(bytes) + " bytes) is not a multiple of " +
                std::to_string(buf.align) + " bytes");
  return true;
}

/// Pointer, strides and byte range of a tensor the kernel accesses.
bool ArgsValidator::checkAccess(int b) {
  const attn_buffer_desc &buf = d.buffers[b];
  const attn_tensor &t = *tensorOf[b];
  std::string n = name(b);
  if (!hasElements(t))
    return true; // nothing is read or written
  if (t.ptr == 0)
    return fail(n + ": null data pointer (allowed only for a tensor without "
                    "elements)");
  if (t.ptr % (uint64_t)buf.align != 0)
    return fail(n + ": data pointer " + hex(t.ptr) + " is not " +
                std::to_string(buf.align) + "-byte aligned");
  const int64_t es = (int64_t)attn_dtype_size(buf.element_type);
  // The last element's offset; extents < 2^31 but strides are arbitrary.
  int64_t last = 0, term;
  for (int32_t i = 0; i < t.rank; ++i) {
    if (__builtin_mul_overflow(t.shape[i] - 1, t.strides[i], &term) ||
        __builtin_add_overflow(last, term, &last))
      return fail(n + ": shape " + listString(t.shape, t.rank) +
                  " with strides " + listString(t.strides, t.rank) +
                  " addresses beyond 2^63 elements");
    // A dim of extent 1 never moves by its stride; the innermost is 1.
    if (i + 1 < t.rank && t.shape[i] > 1 && !checkStrideAlignment(b, i))
      return false;
  }
  int64_t bytes;
  uint64_t end;
  if (__builtin_add_overflow(last, (int64_t)1, &bytes) ||
      __builtin_mul_overflow(bytes, es, &bytes) ||
      __builtin_add_overflow(t.ptr, (uint64_t)bytes, &end))
    return fail(n + ": data pointer " + hex(t.ptr) + " with shape " +
                listString(t.shape, t.rank) + " and strides " +
                listString(t.strides, t.rank) +
                " addresses beyond the 64-bit address space");
  range[b] = {t.ptr, end};
  return true;
}

/// Tensor map i of a format_version 3 kernel: the arguments of its
/// cuTensorMapEncodeTiled call (TMA's dims are innermost first). What TMA
/// cannot describe is refused here, before the driver sees it, with the
/// tensor and the rule named.
bool ArgsValidator::planTensorMap(int i) {
  const attn_tensor_map_desc &m = d.tensor_maps[i];
  const attn_tensor &t = *tensorOf[m.buffer];
  const attn_dtype type = d.buffers[m.buffer].element_type;
  attn_tensor_map_args &a = maps[i];
  a.buffer = m.buffer;
  a.data_type = tmaDataType(type);
  a.rank = (uint32_t)t.rank;
  a.interleave = ATTN_TMA_INTERLEAVE_NONE;
  a.swizzle = tmaSwizzle(m.swizzle);
  a.l2_promotion = ATTN_TMA_L2_PROMOTION_L2_256B;
  a.oob_fill = ATTN_TMA_FLOAT_OOB_FILL_NONE; // the kernels rely on zeros
  for (int32_t j = 0; j < t.rank; ++j) {
    a.box_dim[j] = (uint32_t)m.box[j];
    a.element_strides[j] = 1;
  }
  if (!hasElements(t))
    return true; // never read: no map (TMA has no extent 0)
  std::string n = std::string(name(m.buffer)) + ".tensor_map";
  if (t.ptr % kTmaAlign != 0)
    return fail(n + ": data pointer " + hex(t.ptr) +
                " is not 16-byte aligned; TMA cannot describe the tensor");
  const int64_t es = (int64_t)attn_dtype_size(type);
  for (int32_t j = 0; j < t.rank; ++j) {
    int32_t dim = t.rank - 1 - j;
    a.global_dim[j] = (uint64_t)t.shape[dim];
    // TMA's innermost dim has no stride (contiguous: checkShape); a dim of
    // extent 1 never moves, so its stride stays 0 whatever the caller gave.
    if (j == 0 || t.shape[dim] == 1)
      continue;
    std::string stride = "stride " + std::to_string(t.strides[dim]) +
                         " of dim " + std::to_string(dim);
    int64_t bytes;
    if (__builtin_mul_overflow(t.strides[dim], es, &bytes) ||
        bytes >= kTmaStrideLimit)
      return fail(n + ": " + stride + " is 2^40 bytes or more; TMA cannot "
                  "describe the tensor");
    if (bytes % kTmaAlign != 0)
      return fail(n + ": " + stride + " (" + std::to_string(bytes) +
                  " bytes) is not a multiple of 16 bytes; TMA cannot "
                  "describe the tensor");
    a.global_strides[j - 1] = (uint64_t)bytes;
    if (bytes == 0 && m.box[j] > 1 && aliased.empty())
      aliased = n + ": " + stride + " with a box of " +
                std::to_string(m.box[j]) + " along it: every copy of the " +
                "box reads one row " + std::to_string(m.box[j]) + " times";
  }
  a.global_address = t.ptr;
  a.encode = 1;
  return true;
}

/// An output must share no byte with any other tensor: the kernel's tiles
/// would race with (or read) each other. Byte ranges are conservative:
/// interleaved views of one allocation count as overlapping.
bool ArgsValidator::checkOverlaps() {
  for (int32_t w = 0; w < d.num_buffers; ++w) {
    if (!d.buffers[w].writes)
      continue;
    for (int32_t o = 0; o < d.num_buffers; ++o)
      if (o != w && range[w].overlaps(range[o]))
        return fail(std::string(name(w)) + " overlaps " + name(o) + ": " +
                    name(w) + " spans [" + hex(range[w].begin) + ", " +
                    hex(range[w].end) + "), " + name(o) + " [" +
                    hex(range[o].begin) + ", " + hex(range[o].end) +
                    "); an output must not share memory with another "
                    "tensor");
  }
  return true;
}

void ArgsValidator::fillPlan(int64_t x, int64_t y,
                             attn_launch_plan_v2 &plan) const {
  plan.action = x == 0 || y == 0 ? ATTN_PLAN_NOTHING : ATTN_PLAN_LAUNCH;
  planGrid(x, y, plan.grid);
  plan.block[0] = (uint32_t)d.threads;
  plan.block[1] = plan.block[2] = 1;
  plan.shared_bytes = (uint32_t)d.shared_bytes;
  uint32_t n = 0;
  for (int32_t b = 0; b < d.num_buffers; ++b) {
    const attn_tensor &t = *tensorOf[b];
    plan.words[n++] = t.ptr;
    for (int32_t i = 0; i < t.rank; ++i)
      plan.words[n++] = (uint64_t)t.shape[i];
    for (int32_t i = 0; i < t.rank; ++i)
      plan.words[n++] = (uint64_t)t.strides[i];
  }
  plan.num_words = n;
  plan.num_tensor_maps = (uint32_t)d.num_tensor_maps;
  std::memcpy(plan.tensor_maps, maps,
              sizeof maps[0] * (size_t)d.num_tensor_maps);
}

bool ArgsValidator::run(const attn_arg *args, size_t numArgs,
                        attn_launch_plan_v2 &plan) {
  std::memset(&plan, 0, sizeof plan);
  if (!bindArgs(args, numArgs))
    return false;
  for (int32_t b = 0; b < d.num_buffers; ++b)
    if (!checkShape(b))
      return false;
  int64_t x, y;
  if (!checkContract() || !checkGrid(x, y))
    return false;
  // Before checkAccess: where a tensor map's pointer or stride breaks both
  // TMA's rules and the buffer's align, the message should name TMA.
  for (int32_t i = 0; i < d.num_tensor_maps; ++i)
    if (!planTensorMap(i)) {
      tmaRefused = true;
      return false;
    }
  for (int32_t b = 0; b < d.num_buffers; ++b)
    if (!checkAccess(b))
      return false;
  if (!checkOverlaps())
    return false;
  fillPlan(x, y, plan);
  return true;
}

/// format_version 1 through roles: at most one argument per role of its
/// ABI, then attn_validate_launch's checks; the 24 parameters as words.
bool validateV1Args(const attn_kernel_desc &d, const attn_arg *args,
                    size_t numArgs, attn_launch_plan_v2 &plan,
                    std::string &error) {
  std::memset(&plan, 0, sizeof plan);
  const attn_tensor *t[5] = {};
  for (size_t i = 0; i < numArgs; ++i) {
    std::string where = "args[" + std::to_string(i) + "]";
    int role = roleFromName(args[i].role);
    if (role < 0 || role > ATTN_ROLE_LSE) {
      error = where + ": role \"" + (args[i].role ? args[i].role : "(NULL)") +
              "\" is not one of a format_version 1 kernel (q, k, v, o, lse)";
      return false;
    }
    if (t[role]) {
      error = where + ": a second " + kRoleNames[role] + " argument";
      return false;
    }
    t[role] = &args[i].tensor;
  }
  for (int role = 0; role < 4; ++role)
    if (!t[role]) {
      error = std::string("no ") + kRoleNames[role] + " argument";
      return false;
    }
  attn_launch_plan v1;
  if (!validateV1(d, t, v1, error))
    return false;
  plan.action = v1.action;
  std::memcpy(plan.grid, v1.grid, sizeof plan.grid);
  std::memcpy(plan.block, v1.block, sizeof plan.block);
  plan.shared_bytes = v1.shared_bytes;
  for (uint64_t p : v1.ptrs)
    plan.words[plan.num_words++] = p;
  for (int64_t v : v1.ints)
    plan.words[plan.num_words++] = (uint64_t)v;
  return true;
}

/// A description built by hand (through ctypes, say) rather than parsed
/// could index past the arrays; the parser's other rules are its own.
bool checkDescBounds(const attn_kernel_desc &d, std::string &error) {
  auto inRange = [](int64_t v, int64_t lo, int64_t hi) {
    return v >= lo && v <= hi;
  };
  bool ok = inRange(d.num_buffers, 1, ATTN_MAX_BUFFERS) &&
            inRange(d.num_equal_sizes, 0, ATTN_MAX_SIZE_PAIRS) &&
            inRange(d.num_divisible_sizes, 0, ATTN_MAX_SIZE_PAIRS) &&
            inRange(d.num_broadcast_sizes, 0, ATTN_MAX_SIZE_PAIRS) &&
            inRange(d.num_tensor_maps, 0,
                    d.format_version >= 3 ? ATTN_MAX_TENSOR_MAPS : 0) &&
            inRange(d.block_m, 1, 1024) && inRange(d.threads, 1, 1024) &&
            inRange(d.persistent, 0, d.format_version >= 3 ? 1 : 0) &&
            (!d.persistent || inRange(d.ctas_per_sm, 1, 32));
  int32_t qRank = 0;
  for (int32_t b = 0; ok && b < d.num_buffers; ++b) {
    const attn_buffer_desc &buf = d.buffers[b];
    ok = inRange(buf.rank, 1, ATTN_MAX_RANK) &&
         inRange(buf.num_roles, 1, ATTN_NUM_ROLES) &&
         inRange(buf.align, 1, 256) && attn_dtype_size(buf.element_type) > 0;
    ok = ok && std::memchr(buf.name, 0, sizeof buf.name) != nullptr;
    for (int32_t j = 0; ok && j < buf.num_roles; ++j) {
      ok = inRange(buf.roles[j], 0, ATTN_NUM_ROLES - 1);
      qRank = ok && buf.roles[j] == ATTN_ROLE_Q ? buf.rank : qRank;
    }
  }
  ok = ok && qRank >= 3; // the grid reads q.size0 .. q.size2
  auto refOk = [&](const attn_size_ref &r) {
    return inRange(r.buffer, 0, d.num_buffers - 1) &&
           inRange(r.dim, 0, d.buffers[r.buffer].rank - 1);
  };
  for (int32_t i = 0; ok && i < d.num_equal_sizes; ++i)
    ok = refOk(d.equal_sizes[i].first) && refOk(d.equal_sizes[i].second);
  for (int32_t i = 0; ok && i < d.num_divisible_sizes; ++i)
    ok = refOk(d.divisible_sizes[i].first) &&
         refOk(d.divisible_sizes[i].second);
  for (int32_t i = 0; ok && i < d.num_broadcast_sizes; ++i)
    ok = refOk(d.broadcast_sizes[i].first) &&
         refOk(d.broadcast_sizes[i].second);
  for (int32_t i = 0; ok && i < d.num_tensor_maps; ++i) {
    const attn_tensor_map_desc &m = d.tensor_maps[i];
    ok = inRange(m.buffer, 0, d.num_buffers - 1) &&
         inRange(d.buffers[m.buffer].rank, 2, ATTN_MAX_RANK) &&
         (m.swizzle == 0 || m.swizzle == 32 || m.swizzle == 64 ||
          m.swizzle == 128);
    for (int32_t j = 0; ok && j < d.buffers[m.buffer].rank; ++j)
      ok = inRange(m.box[j], 1, 256);
  }
  if (!ok)
    error = "the kernel description has counts, indices or a q buffer "
            "that no parsed description has (built by hand?)";
  return ok;
}

} // namespace

bool validateArgs(const attn_kernel_desc &d, const attn_arg *args,
                  size_t numArgs, int32_t smCount, attn_launch_plan_v2 &plan,
                  std::string &error) {
  if (d.format_version == 1)
    return validateV1Args(d, args, numArgs, plan, error);
  if (d.format_version != 2 && d.format_version != 3) {
    error = "unsupported format_version " + std::to_string(d.format_version);
    return false;
  }
  return checkDescBounds(d, error) &&
         ArgsValidator(d, smCount, error).run(args, numArgs, plan);
}

bool wantsTmaFallback(const attn_kernel_desc &d, const attn_arg *args,
                      size_t numArgs, int32_t smCount, std::string &why,
                      bool &preferred) {
  preferred = false;
  if (d.format_version != 3 || d.num_tensor_maps == 0)
    return false;
  std::string error;
  if (!checkDescBounds(d, error))
    return false;
  attn_launch_plan_v2 plan;
  ArgsValidator validator(d, smCount, error);
  if (validator.run(args, numArgs, plan)) {
    if (validator.aliasedBox().empty())
      return false;
    why = validator.aliasedBox();
    preferred = true;
    return true;
  }
  if (!validator.refusedByTensorMap())
    return false;
  why = error;
  return true;
}

} // namespace attn_rt
