//===- metadata_fuzz.cpp - mutation fuzzing of kernel metadata ------------===//
//
// The runtime reads JSON that a user's disk, cache or download may have
// corrupted, and checks launches whose tensors a caller describes. The
// device-free test feeds it the corruptions someone thought of; this driver
// feeds it mutants of real kernel descriptions (what attn-compile wrote, in
// the lit test) and requires what the runtime promises for any input: a
// parse either succeeds or fails with a message that names the file, and
// whatever it accepted can be queried (attn_desc_info), dispatched
// (attn_desc_select_variant), have its variant and fallback files read and
// checked, and have random launches checked (attn_validate_args_sm), each
// either passing with a plan within the header's capacities or refused with
// a message. Built with ASan + UBSan (no recovery), so a memory error or
// undefined behaviour on the way aborts the run.
//
// Mutations work on the parsed tree (replace a value by one from a palette
// of boundary numbers, role names, formulas and shapes, or by another value
// of any seed; delete, duplicate or swap members and elements; add a known
// key; nudge a number; edit a string), and one run in eight also on the
// text (truncate, overwrite or repeat bytes). Deterministic for a seed.
//
//   attn_runtime_metadata_fuzz SEED ITERATIONS TMPDIR seed.json...
//
// libFuzzer would need Clang; the project builds with GCC, as utils/fuzz.py
// explains for the compiler's tools.
//
//===----------------------------------------------------------------------===//

#include "attn_runtime.h"
#include "core.h"
#include "strict_json.h"
#include "test_support.h"

#include <sys/stat.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <random>
#include <set>
#include <string>
#include <vector>

using attn_rt::Json;
using attn_rt_test::contains;

namespace {

std::mt19937_64 rng;
bool verbose = false; // ATTN_FUZZ_VERBOSE=1: print every refusal

uint64_t below(uint64_t n) { return n ? rng() % n : 0; }
bool chance(int oneIn) { return below(oneIn) == 0; }

std::vector<Json> seeds;
std::vector<std::string> knownKeys; // every object key of every seed

/// A boundary value: numbers at the limits the header and the kernels
/// state, the vocabulary of the format, shapes of the wrong kind.
Json palette() {
  // clang-format off
  static const int64_t ints[] = {
      0, 1, -1, 2, 3, 7, 8, 16, 32, 64, 128, 255, 256, 1024, 65535, 65536,
      (int64_t(1) << 31) - 1025, (int64_t(1) << 31) - 1, int64_t(1) << 31,
      -(int64_t(1) << 31), int64_t(1) << 40, int64_t(1) << 53,
      std::numeric_limits<int64_t>::max(), std::numeric_limits<int64_t>::min()};
  static const char *const strings[] = {
      "", "q", "k", "v", "o", "lse", "bias", "k+v", "q+k+v+o+lse", "input",
      "output", "alibi_slopes", "f16", "bf16", "f32", "f64", "read", "write",
      "none", "causal", "window", "top_left", "bottom_right", "k.size2",
      "q.size0", "q.size9", "o.size3", "ceildiv(q.size2, block_m)",
      "q.size0 * q.size1", "1", "sm_90a", "sm_80", "../up", "/abs", "a/b",
      "x.json"};
  // clang-format on
  switch (below(6)) {
  case 0:
  case 1:
    return ints[below(std::size(ints))];
  case 2:
    return strings[below(std::size(strings))];
  case 3: {
    static const double reals[] = {
        0.5, -0.0, 1e308, -1e308, 1e-300, 3.0, 0.08838834764831843};
    return reals[below(std::size(reals))];
  }
  case 4: {
    static const uint64_t big[] = {std::numeric_limits<uint64_t>::max(),
                                   uint64_t(1) << 63};
    return big[below(2)];
  }
  default:
    switch (below(5)) {
    case 0:
      return nullptr;
    case 1:
      return chance(2);
    case 2:
      return Json::array();
    case 3:
      return Json::object();
    default:
      return std::string(below(2) ? 127 : 300, 'a');
    }
  }
}

/// Every value of `v` (itself included).
void collect(Json &v, std::vector<Json *> &out) {
  out.push_back(&v);
  if (v.is_object() || v.is_array())
    for (auto &child : v)
      collect(child, out);
}

/// A random value of a random seed.
Json anySeedValue() {
  std::vector<Json *> all;
  collect(seeds[below(seeds.size())], all);
  return *all[below(all.size())];
}

void mutateTree(Json &root) {
  std::vector<Json *> nodes;
  collect(root, nodes);
  Json &n = *nodes[below(nodes.size())];
  switch (below(8)) {
  case 0:
  case 1:
    n = palette();
    break;
  case 2:
    n = anySeedValue();
    break;
  case 3: // delete a member or an element
    if (n.is_object() && !n.empty()) {
      auto it = n.begin();
      std::advance(it, below(n.size()));
      std::string key = it.key();
      n.erase(key);
    } else if (n.is_array() && !n.empty()) {
      n.erase(n.begin() + below(n.size()));
    }
    break;
  case 4: // duplicate or swap elements
    if (n.is_array() && !n.empty()) {
      size_t i = below(n.size()), j = below(n.size());
      if (chance(2))
        n.insert(n.begin() + j, Json(n[i]));
      else
        std::swap(n[i], n[j]);
    }
    break;
  case 5: // a known key, perhaps where it does not belong
    if (n.is_object() && !knownKeys.empty())
      n[knownKeys[below(knownKeys.size())]] =
          chance(2) ? palette() : anySeedValue();
    break;
  case 6: // nudge a number
    if (n.is_number_integer()) {
      int64_t x = n.get<int64_t>();
      static const int64_t deltas[] = {1, -1, 8, -8, 1024};
      // Wrapping, as the document's own numbers may sit at the limits.
      uint64_t y = chance(3) ? 0 - uint64_t(x)
                             : uint64_t(x) + deltas[below(std::size(deltas))];
      n = int64_t(y);
    } else if (n.is_number()) {
      n = n.get<double>() * (chance(2) ? -1.0 : 2.0);
    }
    break;
  default: // edit a string
    if (n.is_string()) {
      std::string s = n.get<std::string>();
      if (!s.empty() && chance(2))
        s.resize(below(s.size()));
      else
        s += "+-.*/0x ("[below(9)];
      n = s;
    }
    break;
  }
}

void mutateText(std::string &t) {
  if (t.empty())
    return;
  switch (below(3)) {
  case 0:
    t.resize(below(t.size()));
    break;
  case 1: {
    static const char bytes[] = "{}[]\",:-0123456789.eE \\\x01\x7f\xff";
    t[below(t.size())] = bytes[below(sizeof bytes - 1)];
    break;
  }
  default: {
    size_t at = below(t.size()), len = below(64);
    t.insert(at, t.substr(at, len));
    break;
  }
  }
}

/// A mutant of a random seed, as text.
std::string mutant() {
  Json doc = seeds[below(seeds.size())];
  for (uint64_t i = 0, n = 1 + below(4); i < n; ++i)
    mutateTree(doc);
  std::string text = doc.dump(chance(2) ? -1 : 1);
  if (chance(8))
    mutateText(text);
  return text;
}

struct Counts {
  long accepted = 0, refused = 0, fileReads = 0, fileRefusals = 0, launches = 0,
       launchRefusals = 0;
} counts;

/// Parses `text` as `source`; checks the refusal's message.
bool parse(const std::string &text, const char *source, attn_kernel_desc &d) {
  char err[2048];
  err[0] = '\0';
  std::memset(&d, 0xAB, sizeof d);
  if (attn_desc_parse_string(text.data(), text.size(), source, &d, err,
                             sizeof err) == 0)
    return true;
  CHECK(contains(err, source),
        std::string("a refusal that does not name the file: ") + err +
            "\n--- document ---\n" + text);
  return false;
}

std::string fieldString(const char *field, size_t size) {
  return std::string(field, strnlen(field, size));
}

/// Writes a mutant (or a seed) named `name` to dir/<name>.json.
void writeNamed(const std::string &dir, const std::string &name) {
  Json doc = seeds[below(seeds.size())];
  if (chance(2))
    mutateTree(doc);
  if (doc.is_object() && !chance(8)) {
    doc["name"] = name;
    doc["entry"] = name;
  }
  std::ofstream(dir + "/" + name + ".json") << doc.dump(1);
}

/// The variant and fallback files `d` names, written from seeds and read
/// back as attn_kernel_load reads them (no device involved).
void checkFiles(const attn_kernel_desc &d, const std::string &dir) {
  std::string why;
  if (d.num_variants > 0 && d.num_variants <= ATTN_MAX_VARIANTS) {
    for (int i = 0; i < d.num_variants; ++i)
      writeNamed(
          dir, fieldString(d.variants[i].kernel, sizeof d.variants[i].kernel));
    static attn_kernel_desc variants[ATTN_MAX_VARIANTS];
    ++counts.fileReads;
    if (!attn_rt::readVariants(dir, d, variants, why)) {
      ++counts.fileRefusals;
      CHECK(!why.empty(), "a variant refused without a message");
    }
  }
  std::string fallback = fieldString(d.tma_fallback, sizeof d.tma_fallback);
  if (!fallback.empty()) {
    writeNamed(dir, fallback);
    attn_kernel_desc f;
    ++counts.fileReads;
    if (!attn_rt::readTmaFallback(dir, d, f, why)) {
      ++counts.fileRefusals;
      CHECK(!why.empty(), "a fallback refused without a message");
    }
  }
}

int64_t randomExtent() {
  // clang-format off
  static const int64_t extents[] = {
      0, 1, 2, 7, 64, 100, 128, 333, 1000, 16384, -1,
      (int64_t(1) << 31) - 1025, int64_t(1) << 31};
  // clang-format on
  return extents[below(std::size(extents))];
}

/// The extents a buffer of role `role` has in a launch of batch b, Hq and
/// Hkv heads, Nq queries and Nk keys (head dims come from static shapes).
void roleShape(int role, const int64_t (&e)[5], int64_t (&shape)[4]) {
  const int64_t b = e[0], hq = e[1], hkv = e[2], nq = e[3], nk = e[4];
  const int64_t byRole[][4] = {
      {b, hq, nq, 64}, {b, hkv, nk, 64}, {b, hkv, nk, 64}, {b, hq, nq, 64},
      {b, hq, nq, 0},  {b, hq, nq, nk},  {hq, 0, 0, 0}};
  for (int i = 0; i < 4; ++i)
    shape[i] = role >= 0 && role < 7 ? byRole[role][i] : e[i];
}

/// Random launches of `d`: tensors that mostly follow the buffers' static
/// shapes and the extents their roles give them, with strides, pointers,
/// dtypes and ranks that are sometimes wrong.
void checkLaunches(const attn_kernel_desc &d) {
  for (int round = 0; round < 4; ++round) {
    int64_t e[5]; // B, Hq, Hkv, Nq, Nk
    for (int64_t &x : e)
      x = chance(8) ? randomExtent() : 1 + below(300);
    if (!chance(4))
      e[2] = e[1];
    if (!chance(4))
      e[4] = e[3];
    std::vector<attn_arg> args;
    int numBuffers = d.format_version == 1 ? 5 : d.num_buffers;
    for (int b = 0; b < numBuffers && b < ATTN_MAX_BUFFERS; ++b) {
      attn_tensor t{};
      const attn_buffer_desc *buf =
          d.format_version == 1 ? nullptr : &d.buffers[b];
      t.rank = buf ? buf->rank : (b == 4 ? 3 : 4);
      if (chance(16))
        t.rank = int32_t(below(6));
      t.dtype = static_cast<attn_dtype>(
          chance(16) ? int(below(5)) - 1
                     : (buf ? int(buf->element_type)
                            : (b == 4 ? int(ATTN_F32) : int(d.element_type))));
      int64_t elems = 1, common[4];
      static const int v1Roles[] = {ATTN_ROLE_Q, ATTN_ROLE_K, ATTN_ROLE_V,
                                    ATTN_ROLE_O, ATTN_ROLE_LSE};
      roleShape(buf ? buf->roles[0] : v1Roles[b], e, common);
      if (!buf && b != 4)
        common[3] = d.head_dim > 0 ? d.head_dim : 64;
      for (int i = 0; i < ATTN_MAX_RANK && i < t.rank; ++i) {
        int64_t s = buf && buf->static_shape[i] >= 0 && !chance(16)
                        ? buf->static_shape[i]
                        : common[i];
        t.shape[i] = chance(32) ? randomExtent() : s;
      }
      for (int i = (t.rank < ATTN_MAX_RANK ? t.rank : ATTN_MAX_RANK) - 1;
           i >= 0; --i) {
        t.strides[i] = elems;
        if (t.shape[i] > 0 && __builtin_mul_overflow(elems, t.shape[i], &elems))
          elems = std::numeric_limits<int64_t>::max();
      }
      if (chance(16) && t.rank > 0)
        t.strides[below(t.rank < ATTN_MAX_RANK ? t.rank : ATTN_MAX_RANK)] =
            chance(2) ? 0 : randomExtent();
      t.ptr = (uint64_t(b) + 1) << 36;
      if (chance(16))
        t.ptr = chance(2) ? 0 : t.ptr + 2 + below(14);
      if (chance(32))
        t.ptr = std::numeric_limits<uint64_t>::max() - below(1 << 20);
      int roles = buf ? buf->num_roles : 1;
      for (int r = 0; r < roles && r < ATTN_NUM_ROLES; ++r) {
        int role = buf ? buf->roles[r] : -1;
        const char *name = buf ? (role >= 0 && role < ATTN_NUM_ROLES
                                      ? attn_rt::kRoleNames[role]
                                      : "input")
                               : attn_rt::kRoleNames[v1Roles[b]];
        args.push_back(attn_arg{name, t});
      }
    }
    if (!args.empty() && chance(16))
      args.pop_back();
    if (!args.empty() && chance(16))
      args.push_back(args[below(args.size())]);
    static const int32_t sms[] = {0, 1, 132, -3, 1 << 30};
    static attn_launch_plan_v2 plan;
    std::memset(&plan, 0xCD, sizeof plan);
    char err[1024];
    err[0] = '\0';
    attn_desc_select_variant(&d, args.data(), args.size());
    ++counts.launches;
    if (attn_validate_args_sm(&d, args.data(), args.size(),
                              sms[below(std::size(sms))], &plan, err,
                              sizeof err) != 0) {
      ++counts.launchRefusals;
      if (verbose)
        std::printf("launch refused: %s\n", err);
      CHECK(err[0] != '\0', "a launch refused without a message");
      continue;
    }
    CHECK(plan.num_words <= ATTN_MAX_PARAM_WORDS &&
              plan.num_tensor_maps <= ATTN_MAX_TENSOR_MAPS,
          "a plan beyond the header's capacities");
    CHECK(plan.action != ATTN_PLAN_LAUNCH ||
              (plan.grid[0] >= 1 && plan.grid[1] >= 1 && plan.grid[2] >= 1 &&
               plan.block[0] >= 1),
          "a launch plan with an empty grid or block");
  }
}

void checkAccepted(const attn_kernel_desc &d, const std::string &dir) {
  static const char *const keys[] = {
      "name",           "entry",       "target",
      "compiler",       "ptx",         "cubin",
      "format_version", "head_dim",    "value_head_dim",
      "dtype",          "block_m",     "block_n",
      "warps",          "stages",      "threads",
      "shared_bytes",   "has_lse",     "buffers",
      "tensor_maps",    "dispatch",    "tma_fallback",
      "persistent",     "ctas_per_sm", "scale_log2e",
      "mask",           "alignment",   "window_left",
      "window_right",   "no_such_key"};
  char out[64];
  for (const char *key : keys)
    attn_desc_info(&d, key, out, sizeof out); // a short buffer on purpose
  checkFiles(d, dir);
  checkLaunches(d);
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 5) {
    std::fprintf(stderr, "usage: %s SEED ITERATIONS TMPDIR seed.json...\n",
                 argv[0]);
    return 2;
  }
  rng.seed(std::strtoull(argv[1], nullptr, 10));
  verbose = std::getenv("ATTN_FUZZ_VERBOSE") != nullptr;
  long iterations = std::strtol(argv[2], nullptr, 10);
  std::string dir = argv[3];
  mkdir(dir.c_str(), 0755);
  std::set<std::string> keys;
  for (int i = 4; i < argc; ++i) {
    std::ifstream in(argv[i]);
    std::string text((std::istreambuf_iterator<char>(in)),
                     std::istreambuf_iterator<char>());
    Json doc = Json::parse(text, nullptr, /*allow_exceptions=*/false);
    attn_kernel_desc d;
    if (doc.is_discarded() || !parse(text, argv[i], d)) {
      std::fprintf(stderr, "%s: not a kernel description the runtime reads\n",
                   argv[i]);
      return 2;
    }
    std::vector<Json *> all;
    collect(doc, all);
    for (Json *v : all)
      if (v->is_object())
        for (auto it = v->begin(); it != v->end(); ++it)
          keys.insert(it.key());
    seeds.push_back(std::move(doc));
  }
  knownKeys.assign(keys.begin(), keys.end());
  for (long i = 0; i < iterations; ++i) {
    std::string text = mutant();
    attn_kernel_desc d;
    if (parse(text, "fuzz.json", d)) {
      ++counts.accepted;
      checkAccepted(d, dir);
    } else {
      ++counts.refused;
    }
    if (attn_rt_test::failures > 20)
      break;
  }
  std::printf("%ld documents: %ld accepted, %ld refused; %ld variant or "
              "fallback reads (%ld refused); %ld launches checked (%ld "
              "refused)\n",
              counts.accepted + counts.refused, counts.accepted, counts.refused,
              counts.fileReads, counts.fileRefusals, counts.launches,
              counts.launchRefusals);
  std::printf("%d checks, %d failed\n", attn_rt_test::checks,
              attn_rt_test::failures);
  return attn_rt_test::failures ? 1 : 0;
}
