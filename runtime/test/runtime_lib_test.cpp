//===- runtime_lib_test.cpp - libattn_runtime.so on a fake driver --------===//
//
// attn_kernel_load, the launches, attn_kernel_info and attn_kernel_unload
// through the shared library, run against test/fake_cuda.cpp (a libcuda.so.1
// that answers as one sm_90 device and records the launches instead of
// running them; CTest puts it first on LD_LIBRARY_PATH). Covers dispatch
// tables: refused before the device (missing, unparsable or mismatched
// variants, bad tables), failures on the device (a variant's PTX missing,
// not compiling, without its entry), which kernel each launch entry point
// runs for k.size2 below, at and above each max and 0, with that kernel's
// grid and shared memory, last_variant, and that every context and module
// is given back after a load fails and after unload (in the sanitized
// build LeakSanitizer also checks the host memory). Persistent kernels:
// modules with launch contracts (version 1 and 2, of the fake driver's
// FAKE_CONTRACT lines) compared with the JSON, the small grid a persistent
// kernel launches on (132 SMs times ctas_per_sm), the full grid of the
// others, and of a persistent kernel when the SM count is unknown; a
// dispatch table whose variant alone is persistent. TMA fallbacks: the
// kernel where its tensor map takes the argument, the fallback where it
// does not (last_variant, last_fallback), the fallback's refusal, no
// fallback for other refusals, and the loads refused for a missing,
// mismatched or nested fallback or one without its entry.
// Usage: attn_runtime_lib_test [TMPDIR].
//
//===----------------------------------------------------------------------===//

#include "attn_runtime.h"
#include "test_support.h"
#include "v2_documents.h"

#include <dlfcn.h>
#include <sys/stat.h>

#include <cstdio>
#include <string>
#include <vector>

using namespace attn_rt_test;

extern "C" {
/// fake_cuda.cpp's record (the same layout).
struct fake_cuda_state {
  int retained_contexts;
  int loaded_modules;
  int launches;
  int tensor_maps;
  char last_function[128];
  unsigned grid[3], block[3], shared_bytes;
  uint64_t first_param;
  int sm_count;
};
}

namespace {

fake_cuda_state *fake = nullptr;

std::string dirOf(const std::string &tmp) { return tmp + "/lib-dispatch"; }

void writeText(const std::string &path, const std::string &text) {
  FILE *f = std::fopen(path.c_str(), "wb");
  if (!f) {
    std::printf("FAIL: cannot write %s\n", path.c_str());
    return;
  }
  std::fwrite(text.data(), 1, text.size(), f);
  std::fclose(f);
}

/// dir/<name>.json and, unless `ptx` is NULL, the PTX it names (by default
/// one that has its entry).
void writeKernel(const std::string &dir, const Json &j,
                 const char *ptx = "") {
  std::string name = j["name"].get<std::string>();
  writeText(dir + "/" + name + ".json", text(j));
  std::string ptxPath = dir + "/" + j["ptx"].get<std::string>();
  if (!ptx) {
    std::remove(ptxPath.c_str());
    return;
  }
  writeText(ptxPath, *ptx ? std::string(ptx)
                          : ".visible .entry " +
                                j["entry"].get<std::string>() + "(\n)\n");
}

/// The real kernel "k" with variants k__n512 and k__n2048.
Json mainKernel() {
  Json j = realV2();
  j["ptx"] = "k.sm_90a.ptx";
  j["dispatch"] = parsed(R"({"on": "k.size2", "variants": [
      {"max": 512, "kernel": "k__n512"}, {"max": 2048, "kernel": "k__n2048"}]})");
  return j;
}

/// A variant: the real kernel with other tiles (so another grid x for
/// Nq = 100: 2 for block_m 64, 4 for 32; the kernel's is 1) and shared
/// memory.
Json variantKernel(const std::string &name, int blockM, int sharedBytes) {
  Json j = realV2();
  j["name"] = name;
  j["entry"] = name;
  j["ptx"] = name + ".sm_90a.ptx";
  j["block_m"] = blockM;
  j["shared_bytes"] = sharedBytes;
  return j;
}

/// The kernel and both variants, all loadable.
void writeGoodTable(const std::string &dir) {
  mkdir(dir.c_str(), 0755);
  writeKernel(dir, mainKernel());
  writeKernel(dir, variantKernel("k__n512", 64, 40960));
  writeKernel(dir, variantKernel("k__n2048", 32, 65536));
}

bool nothingHeld() {
  return fake->retained_contexts == 0 && fake->loaded_modules == 0;
}

/// attn_kernel_load(dir, "k"): the handle or NULL, and the message.
attn_kernel *load(const std::string &dir, std::string &msg) {
  char err[4096] = {0};
  static char sentinel;
  attn_kernel *k = reinterpret_cast<attn_kernel *>(&sentinel); // not NULL
  int rc = attn_kernel_load(dir.c_str(), "k", &k, err, sizeof err);
  msg = err;
  CHECK(rc == 0 ? k != nullptr && k != (attn_kernel *)&sentinel
                : k == nullptr,
        "attn_kernel_load sets *out to the handle, or to NULL on failure");
  return rc == 0 ? k : nullptr;
}

std::string info(attn_kernel *k, const char *key) {
  char buf[1024];
  return attn_kernel_info(k, key, buf, sizeof buf) == 0 ? buf : "<error>";
}

/// The load fails with a message holding every needle, and gives back
/// whatever it had taken of the device.
void expectLoadFails(const std::string &dir, const std::string &what,
                     const std::vector<std::string> &needles,
                     bool beforeDevice) {
  std::string msg;
  attn_kernel *k = load(dir, msg);
  CHECK(k == nullptr, what + ": expected the load to fail");
  attn_kernel_unload(k);
  CHECK(contains(msg, "attn_kernel_load(" + dir + ", k): "),
        what + ": the message names the call: " + msg);
  for (const std::string &n : needles)
    CHECK(contains(msg, n), what + ": message lacks \"" + n + "\": " + msg);
  CHECK(nothingHeld(), what + ": " + std::to_string(fake->retained_contexts) +
                           " contexts and " +
                           std::to_string(fake->loaded_modules) +
                           " modules still held after the failed load");
  if (beforeDevice)
    CHECK(!contains(msg, ".ptx"), what + ": refused before the device: " + msg);
}

//===----------------------------------------------------------------------===//
// Loading
//===----------------------------------------------------------------------===//

void testRefusedBeforeTheDevice(const std::string &tmp) {
  const std::string dir = dirOf(tmp);
  writeGoodTable(dir);
  std::remove((dir + "/k__n2048.json").c_str());
  expectLoadFails(dir, "a missing variant",
                  {"dispatch variant \"k__n2048\" (dispatch.variants[1] of k)",
                   dir + "/k__n2048.json: cannot open"},
                  true);

  Json bad = variantKernel("k__n2048", 32, 65536);
  bad["buffers"][2]["static_shape"][3] = 64;
  writeKernel(dir, bad);
  expectLoadFails(dir, "a variant with another value head dim",
                  {"dispatch variant \"k__n2048\"",
                   "value_head_dim is 64, k's is 128"},
                  true);

  writeText(dir + "/k__n2048.json", text(mainKernel()));
  expectLoadFails(
      dir, "a variant file that is the main kernel's",
      {"k__n2048.json: describes kernel \"k\", not \"k__n2048\""}, true);

  bad = variantKernel("k__n2048", 32, 65536);
  bad["dispatch"] = parsed(
      R"({"on": "k.size2", "variants": [{"max": 64, "kernel": "k__n64"}]})");
  writeKernel(dir, bad);
  expectLoadFails(dir, "a variant with a table of its own",
                  {"dispatch variant \"k__n2048\"",
                   "has a dispatch table itself"},
                  true);

  writeGoodTable(dir);
  Json badMain = mainKernel();
  badMain["dispatch"]["variants"][1]["max"] = 100;
  writeKernel(dir, badMain);
  expectLoadFails(dir, "a table whose maxima do not increase",
                  {"k.json", "key \"dispatch.variants[1].max\"",
                   "100 is not larger than dispatch.variants[0].max (512)"},
                  true);
}

void testFailuresOnTheDevice(const std::string &tmp) {
  const std::string dir = dirOf(tmp);
  writeGoodTable(dir);
  writeKernel(dir, variantKernel("k__n2048", 32, 65536), nullptr);
  expectLoadFails(dir, "a variant without its PTX",
                  {"dispatch variant \"k__n2048\" (dispatch.variants[1]): ",
                   "k__n2048.sm_90a.ptx: cannot open"},
                  false);
  writeKernel(dir, variantKernel("k__n2048", 32, 65536), "FAKE_JIT_FAILS");
  expectLoadFails(dir, "a variant whose PTX does not compile",
                  {"dispatch variant \"k__n2048\"", "cuModuleLoadDataEx",
                   "CUDA_ERROR_INVALID_PTX"},
                  false);
  writeKernel(dir, variantKernel("k__n512", 64, 40960), ".entry other\n");
  expectLoadFails(dir, "a variant whose PTX lacks its entry",
                  {"dispatch variant \"k__n512\" (dispatch.variants[0])",
                   "cuModuleGetFunction", "entry \"k__n512\""},
                  false);
  writeGoodTable(dir);
  writeKernel(dir, mainKernel(), nullptr);
  std::string msg;
  attn_kernel *k = load(dir, msg);
  attn_kernel_unload(k);
  CHECK(k == nullptr && contains(msg, "k.sm_90a.ptx: cannot open") &&
            !contains(msg, "dispatch variant") && nothingHeld(),
        "the kernel's own PTX missing: refused before the variants load: " +
            msg);
}

//===----------------------------------------------------------------------===//
// Launching
//===----------------------------------------------------------------------===//

struct Expected {
  const char *function;
  unsigned gridX, sharedBytes;
};

/// One launch: attn_kernel_launch (or, `byRole`, attn_kernel_launch_args)
/// with Nq = 100 and Nk keys runs `want`.
void expectLaunch(attn_kernel *k, int64_t nk, const Expected &want,
                  bool byRole = false) {
  Args a = goodArgs(2, 8, 2, 100, nk);
  char err[1024] = {0};
  int before = fake->launches;
  int rc = byRole ? attn_kernel_launch_args(k, a.list.data(), a.list.size(),
                                            nullptr, err, sizeof err)
                  : attn_kernel_launch(k, &a["q"], &a["k"], &a["v"], &a["o"],
                                       &a["lse"], nullptr, err, sizeof err);
  std::string what = std::string(byRole ? "attn_kernel_launch_args"
                                        : "attn_kernel_launch") +
                     " with k.size2 = " + std::to_string(nk);
  CHECK(rc == 0 && fake->launches == before + 1,
        what + ": one launch: " + err);
  CHECK(std::string(fake->last_function) == want.function &&
            fake->grid[0] == want.gridX && fake->grid[1] == 16 &&
            fake->shared_bytes == want.sharedBytes &&
            fake->first_param == 0x10000000,
        what + ": runs " + want.function + " (grid x " +
            std::to_string(want.gridX) + ", " +
            std::to_string(want.sharedBytes) + " bytes), got " +
            fake->last_function + " (grid x " + std::to_string(fake->grid[0]) +
            ", " + std::to_string(fake->shared_bytes) + " bytes)");
  CHECK(info(k, "last_variant") == want.function,
        what + ": last_variant " + info(k, "last_variant"));
  std::string grid = std::to_string(want.gridX) + "x16x1";
  CHECK(info(k, "last_grid") == grid && info(k, "last_persistent") == "0",
        what + ": last_grid " + info(k, "last_grid") + ", expected " + grid +
            "; last_persistent " + info(k, "last_persistent"));
}

void testLaunches(const std::string &tmp) {
  const std::string dir = dirOf(tmp);
  writeGoodTable(dir);
  std::string msg;
  attn_kernel *k = load(dir, msg);
  CHECK(k != nullptr, "the kernel and its two variants load: " + msg);
  if (!k)
    return;
  CHECK(fake->retained_contexts == 3 && fake->loaded_modules == 3,
        "three kernels: three modules, three context references");
  CHECK(info(k, "dispatch") ==
            "k.size2<=512:k__n512 k.size2<=2048:k__n2048 else:k",
        "info dispatch: " + info(k, "dispatch"));
  CHECK(info(k, "last_variant").empty() && info(k, "block_m") == "128" &&
            info(k, "name") == "k",
        "before a launch: last_variant \"\"; the other keys are k's");

  const Expected n512 = {"k__n512", 2, 40960}, n2048 = {"k__n2048", 4, 65536},
                 main = {"k", 1, 98304};
  expectLaunch(k, 300, n512);
  expectLaunch(k, 0, n512); // launched for Nk = 0 (format 2 writes O itself)
  expectLaunch(k, 1, n512);
  expectLaunch(k, 512, n512);
  expectLaunch(k, 513, n2048);
  expectLaunch(k, 2048, n2048);
  expectLaunch(k, 2049, main);
  expectLaunch(k, 100000, main);
  expectLaunch(k, 511, n512, /*byRole=*/true);
  expectLaunch(k, 1000, n2048, true);
  expectLaunch(k, 4096, main, true);
  expectLaunch(k, 0, n512, true);

  // A refused launch names the variant whose checks refused it, launches
  // nothing and leaves last_variant.
  Args a = goodArgs(2, 8, 2, 100, 1000);
  a["o"].dtype = ATTN_BF16;
  char err[1024] = {0};
  int before = fake->launches;
  CHECK(attn_kernel_launch_args(k, a.list.data(), a.list.size(), nullptr, err,
                                sizeof err) != 0 &&
            contains(err, "attn_kernel_launch_args(k, variant k__n2048 for "
                          "k.size2 = 1000): ") &&
            contains(err, "o") && fake->launches == before &&
            info(k, "last_variant") == "k__n512",
        std::string("a refused launch through a variant: ") + err);
  a = goodArgs(2, 8, 2, 100, 3000);
  a["o"].dtype = ATTN_BF16;
  CHECK(attn_kernel_launch(k, &a["q"], &a["k"], &a["v"], &a["o"], &a["lse"],
                           nullptr, err, sizeof err) != 0 &&
            contains(err, "attn_kernel_launch(k): ") &&
            fake->launches == before,
        std::string("a refused launch of the kernel itself: ") + err);
  // An empty problem: checked against the chosen variant, nothing to run.
  a = goodArgs(2, 8, 2, 0, 1000);
  CHECK(attn_kernel_launch_args(k, a.list.data(), a.list.size(), nullptr, err,
                                sizeof err) == 0 &&
            fake->launches == before &&
            info(k, "last_variant") == "k__n2048",
        std::string("Nq = 0: nothing launched, last_variant the variant "
                    "checked: ") +
            err);

  attn_kernel_unload(k);
  CHECK(nothingHeld(), "unload gives back the three modules and contexts");
}

/// format_version 2 and 3 in one table: a TMA variant for short rows.
void testMixedFormats(const std::string &tmp) {
  const std::string dir = dirOf(tmp);
  writeGoodTable(dir);
  Json tma = variantKernel("k__n512", 64, 40960);
  tma["format_version"] = 3;
  tma["tensor_maps"] = parsed(
      R"([{"buffer": 1, "box": [64, 64, 1, 1], "swizzle": 128}])");
  tma["params"].push_back("k.tensor_map");
  writeKernel(dir, tma);
  std::string msg;
  attn_kernel *k = load(dir, msg);
  CHECK(k != nullptr, "a format 2 kernel with a format 3 variant: " + msg);
  if (!k)
    return;
  int maps = fake->tensor_maps;
  expectLaunch(k, 300, {"k__n512", 2, 40960});
  CHECK(fake->tensor_maps == maps + 1,
        "the format 3 variant's launch encodes its tensor map");
  expectLaunch(k, 5000, {"k", 1, 98304});
  CHECK(fake->tensor_maps == maps + 1, "the format 2 kernel's encodes none");
  attn_kernel_unload(k);
  CHECK(nothingHeld(), "unload (mixed formats)");
}

/// A kernel without a table and a format_version 1 one: last_variant is
/// the kernel.
void testWithoutTable(const std::string &tmp) {
  const std::string dir = dirOf(tmp);
  writeGoodTable(dir);
  Json plain = realV2();
  plain["ptx"] = "k.sm_90a.ptx";
  writeKernel(dir, plain);
  std::string msg;
  attn_kernel *k = load(dir, msg);
  CHECK(k != nullptr && fake->loaded_modules == 1,
        "a kernel without a table loads alone: " + msg);
  if (!k)
    return;
  CHECK(info(k, "dispatch").empty(), "no table: info dispatch \"\"");
  expectLaunch(k, 300, {"k", 1, 98304});
  expectLaunch(k, 0, {"k", 1, 98304}, true);
  attn_kernel_unload(k);

  Json v1 = v1Document("k.v1.ptx");
  writeKernel(dir, v1);
  k = load(dir, msg);
  CHECK(k != nullptr, "a format_version 1 kernel loads: " + msg);
  if (!k)
    return;
  expectLaunch(k, 300, {"k", 2, 24576}); // last_variant: k
  // Nk = 0: memsets instead of the kernel.
  Args a = goodArgs(2, 8, 2, 100, 0);
  char err[1024] = {0};
  int before = fake->launches;
  CHECK(attn_kernel_launch(k, &a["q"], &a["k"], &a["v"], &a["o"], &a["lse"],
                           nullptr, err, sizeof err) == 0 &&
            fake->launches == before && info(k, "last_grid") == "none" &&
            info(k, "last_variant") == "k",
        std::string("format_version 1, Nk = 0: no kernel, last_grid none: ") +
            err + " " + info(k, "last_grid"));
  attn_kernel_unload(k);
  CHECK(nothingHeld(), "unload (no table)");
}

//===----------------------------------------------------------------------===//
// TMA fallbacks
//===----------------------------------------------------------------------===//

/// "k" as a format 3 kernel that reads k through a tensor map, with the
/// TMA fallback "k__unstaged": the real kernel (format 2, no maps) with 64
/// rows a tile and k's pointer only 4-byte aligned, so that it takes what
/// the map does not.
void writeFallbackPair(const std::string &dir) {
  mkdir(dir.c_str(), 0755);
  Json main = realV2();
  main["format_version"] = 3;
  main["ptx"] = "k.sm_90a.ptx";
  main["tensor_maps"] =
      parsed(R"([{"buffer": 1, "box": [64, 64, 1, 1], "swizzle": 128}])");
  main["params"].push_back("k.tensor_map");
  main["tma_fallback"] = "k__unstaged";
  writeKernel(dir, main);
  Json fallback = variantKernel("k__unstaged", 64, 40960);
  fallback["buffers"][1]["align"] = 4;
  writeKernel(dir, fallback);
}

void testTmaFallback(const std::string &tmp) {
  const std::string dir = tmp + "/lib-fallback";
  writeFallbackPair(dir);
  std::string msg;
  attn_kernel *k = load(dir, msg);
  CHECK(k != nullptr && fake->loaded_modules == 2,
        "a kernel and its TMA fallback load (two modules): " + msg);
  if (!k)
    return;
  CHECK(info(k, "tma_fallback") == "k__unstaged" &&
            info(k, "last_fallback").empty(),
        "info tma_fallback: " + info(k, "tma_fallback"));
  // k's pointer 16-byte aligned: the kernel itself, its map encoded.
  int maps = fake->tensor_maps;
  expectLaunch(k, 300, {"k", 1, 98304}, true);
  CHECK(fake->tensor_maps == maps + 1 && info(k, "last_fallback").empty(),
        "an aligned k runs the TMA kernel: last_fallback \"" +
            info(k, "last_fallback") + "\"");
  // 8-byte aligned: the map cannot describe k; the fallback runs.
  Args a = goodArgs(2, 8, 2, 100, 300);
  a["k"].ptr += 8;
  char err[1024] = {0};
  int before = fake->launches;
  CHECK(attn_kernel_launch_args(k, a.list.data(), a.list.size(), nullptr, err,
                                sizeof err) == 0 &&
            fake->launches == before + 1 &&
            std::string(fake->last_function) == "k__unstaged" &&
            fake->grid[0] == 2 && fake->tensor_maps == maps + 1 &&
            info(k, "last_variant") == "k__unstaged" &&
            contains(info(k, "last_fallback"),
                     "k.tensor_map: data pointer 0x20000008 is not 16-byte "
                     "aligned"),
        std::string("an 8-byte aligned k runs the fallback: ") + err +
            "; last_variant " + info(k, "last_variant") + ", last_fallback " +
            info(k, "last_fallback"));
  // The next aligned launch runs the kernel again and clears the reason.
  expectLaunch(k, 300, {"k", 1, 98304}, true);
  CHECK(info(k, "last_fallback").empty(), "last_fallback cleared");
  // k's rows broadcast (stride 0 along the box's 64 rows): TMA could copy
  // it, but the fallback, which takes it, is preferred.
  a = goodArgs(2, 8, 2, 100, 300);
  a["k"].strides[2] = 0;
  before = fake->launches;
  CHECK(attn_kernel_launch_args(k, a.list.data(), a.list.size(), nullptr, err,
                                sizeof err) == 0 &&
            fake->launches == before + 1 &&
            std::string(fake->last_function) == "k__unstaged" &&
            contains(info(k, "last_fallback"),
                     "k.tensor_map: stride 0 of dim 2 with a box of 64 along "
                     "it: every copy of the box reads one row 64 times"),
        std::string("a k with broadcast rows runs the fallback: ") + err +
            "; last_fallback " + info(k, "last_fallback"));
  expectLaunch(k, 300, {"k", 1, 98304}, true);
  a = goodArgs(2, 8, 2, 100, 300);
  // 2-byte aligned: refused by the map and by the fallback's align; the
  // message is the fallback's, and says that it is the fallback.
  a["k"].ptr = 0x2000000a;
  before = fake->launches;
  CHECK(attn_kernel_launch_args(k, a.list.data(), a.list.size(), nullptr, err,
                                sizeof err) != 0 &&
            fake->launches == before &&
            contains(err, "TMA fallback k__unstaged") &&
            info(k, "last_variant") == "k",
        std::string("a k the fallback cannot take either: ") + err);
  // Refused for another reason (o's type): no fallback; the kernel's message.
  a = goodArgs(2, 8, 2, 100, 300);
  a["o"].dtype = ATTN_BF16;
  CHECK(attn_kernel_launch_args(k, a.list.data(), a.list.size(), nullptr, err,
                                sizeof err) != 0 &&
            !contains(err, "fallback") && fake->launches == before,
        std::string("a launch refused for o: no fallback: ") + err);
  attn_kernel_unload(k);
  CHECK(nothingHeld(), "unload gives back the kernel's and the fallback's");

  // A fallback that does not take the broadcast rows (k 32-byte aligned
  // there, 16 here): the kernel itself runs, TMA copying the one row.
  const std::string strict = tmp + "/lib-fallback-strict";
  writeFallbackPair(strict);
  Json fb32 = variantKernel("k__unstaged", 64, 40960);
  fb32["buffers"][1]["align"] = 32;
  writeKernel(strict, fb32);
  k = load(strict, msg);
  CHECK(k != nullptr, "a kernel with a 32-byte-aligned fallback loads: " + msg);
  if (k) {
    a = goodArgs(2, 8, 2, 100, 300);
    a["k"].ptr += 16;
    a["k"].strides[2] = 0;
    before = fake->launches;
    CHECK(attn_kernel_launch_args(k, a.list.data(), a.list.size(), nullptr, err,
                                  sizeof err) == 0 &&
              fake->launches == before + 1 &&
              std::string(fake->last_function) == "k" &&
              info(k, "last_fallback").empty(),
          std::string("broadcast rows the fallback refuses: the kernel: ") +
              err + "; ran " + fake->last_function);
    attn_kernel_unload(k);
  }
  CHECK(nothingHeld(), "unload (strict fallback)");

  // Refused before the device: a missing fallback, one with another
  // interface, one with a fallback of its own.
  std::remove((dir + "/k__unstaged.json").c_str());
  expectLoadFails(dir, "missing fallback",
                  {"TMA fallback \"k__unstaged\" (tma_fallback of k)",
                   "k__unstaged.json"},
                  true);
  Json other = variantKernel("k__unstaged", 64, 40960);
  other["buffers"][1]["element_type"] = "bf16";
  writeKernel(dir, other);
  expectLoadFails(dir, "fallback with another interface",
                  {"TMA fallback \"k__unstaged\"", "element_type is bf16"},
                  true);
  Json nested = variantKernel("k__unstaged", 64, 40960);
  nested["format_version"] = 3;
  nested["tensor_maps"] =
      parsed(R"([{"buffer": 1, "box": [64, 64, 1, 1], "swizzle": 128}])");
  nested["params"].push_back("k.tensor_map");
  nested["tma_fallback"] = "k__other";
  writeKernel(dir, nested);
  expectLoadFails(dir, "fallback with a fallback",
                  {"has a TMA fallback itself"}, true);
  // On the device: the fallback's PTX without its entry.
  Json fallback = variantKernel("k__unstaged", 64, 40960);
  writeKernel(dir, fallback, ".visible .entry other(\n)\n");
  expectLoadFails(dir, "fallback without its entry",
                  {"TMA fallback \"k__unstaged\" of k"}, false);
}

//===----------------------------------------------------------------------===//
// Persistent kernels and launch contracts
//===----------------------------------------------------------------------===//

/// The real kernel as format_version 3 (no tensor maps), persistent with
/// `ctas` CTAs per SM unless 0.
Json v3Kernel(const std::string &name, int ctas) {
  Json j = realV2();
  j["format_version"] = 3;
  j["tensor_maps"] = Json::array();
  j["name"] = name;
  j["entry"] = name;
  j["ptx"] = name + ".sm_90a.ptx";
  if (ctas)
    j["persistent"]["ctas_per_sm"] = ctas;
  return j;
}

/// The launch contract the compiler writes for `j` (attn_contract.h's
/// order; no mask in these documents), of `version` 1 (18 words) or 2 (19,
/// with `persistent`); `words` cuts or pads it.
std::vector<int64_t> contractOf(const Json &j, int version, int persistent,
                                size_t words = 0) {
  auto dim3 = [](const Json &b) {
    return b["static_shape"][3].get<int64_t>() < 0
               ? 0
               : b["static_shape"][3].get<int64_t>();
  };
  std::vector<int64_t> c = {0x6e747461,
                            version,
                            j["format_version"].get<int64_t>(),
                            j["block_m"].get<int64_t>(),
                            j["block_n"].get<int64_t>(),
                            j["warps"].get<int64_t>(),
                            j["stages"].get<int64_t>(),
                            j["threads"].get<int64_t>(),
                            j["shared_bytes"].get<int64_t>(),
                            dim3(j["buffers"][0]),
                            dim3(j["buffers"][2]),
                            0, // f16
                            1, // the lse buffer
                            0, 0, 0, 0,
                            (int64_t)j["buffers"].size()};
  if (version >= 2)
    c.push_back(persistent);
  if (words)
    c.resize(words, 0);
  return c;
}

/// dir/<name>.json and a PTX that has its entry and, unless `contract` is
/// empty, a FAKE_CONTRACT line with the launch contract of those words.
void writeWithContract(const std::string &dir, const Json &j,
                       const std::vector<int64_t> &contract) {
  std::string entry = j["entry"].get<std::string>();
  std::string ptx = ".visible .entry " + entry + "(\n)\n";
  if (!contract.empty()) {
    ptx += "// FAKE_CONTRACT attn_contract_" + entry;
    for (int64_t w : contract)
      ptx += " " + std::to_string(w);
    ptx += "\n";
  }
  writeKernel(dir, j, ptx.c_str());
}

/// A launch of `k` (by role unless `byTensors`) with Nq query rows and
/// k.size2 = nk runs `function` on grid `grid`.
void expectGrid(attn_kernel *k, int64_t nq, int64_t nk, const char *function,
                const std::string &grid, const std::string &what,
                bool byTensors = false) {
  Args a = goodArgs(2, 8, 2, nq, nk);
  char err[1024] = {0};
  int before = fake->launches;
  int rc = byTensors ? attn_kernel_launch(k, &a["q"], &a["k"], &a["v"],
                                          &a["o"], &a["lse"], nullptr, err,
                                          sizeof err)
                     : attn_kernel_launch_args(k, a.list.data(), a.list.size(),
                                               nullptr, err, sizeof err);
  std::string got = std::to_string(fake->grid[0]) + "x" +
                    std::to_string(fake->grid[1]) + "x" +
                    std::to_string(fake->grid[2]);
  CHECK(rc == 0 && fake->launches == before + 1 &&
            std::string(fake->last_function) == function && got == grid &&
            info(k, "last_grid") == grid,
        what + ": expected " + function + " on grid " + grid + ", got " +
            fake->last_function + " on " + got + " (last_grid " +
            info(k, "last_grid") + "): " + err);
}

void testPersistentLaunches(const std::string &tmp) {
  const std::string dir = tmp + "/lib-persistent";
  mkdir(dir.c_str(), 0755);
  Json p = v3Kernel("k", 2);
  writeWithContract(dir, p, contractOf(p, 2, 1));
  std::string msg;
  attn_kernel *k = load(dir, msg);
  CHECK(k != nullptr, "a persistent kernel with a version 2 contract: " + msg);
  if (!k)
    return;
  CHECK(info(k, "persistent") == "1" && info(k, "ctas_per_sm") == "2" &&
            info(k, "sm_count") == "132" &&
            !contains(info(k, "load_note"), "contract") &&
            info(k, "last_grid").empty() &&
            info(k, "last_persistent").empty(),
        "info: persistent 1, ctas_per_sm 2, sm_count 132, the contract "
        "read (note: " +
            info(k, "load_note") + "), no launch yet");
  // Nq = 4096: 32 x-tiles of block_m 128, times B * Hq = 16: 512 tiles.
  expectGrid(k, 4096, 300, "k", "264x1x1",
             "512 tiles on 132 SMs x 2 CTAs");
  CHECK(info(k, "last_persistent") == "1" && info(k, "last_variant") == "k",
        "last_persistent 1");
  expectGrid(k, 4096, 300, "k", "264x1x1", "the same by tensors", true);
  expectGrid(k, 100, 300, "k", "16x1x1", "16 tiles: one CTA each");
  expectGrid(k, 100, 0, "k", "16x1x1", "Nk = 0 is launched");
  Args empty = goodArgs(2, 8, 2, 0, 300);
  char err[1024] = {0};
  int before = fake->launches;
  CHECK(attn_kernel_launch_args(k, empty.list.data(), empty.list.size(),
                                nullptr, err, sizeof err) == 0 &&
            fake->launches == before && info(k, "last_grid") == "none",
        std::string("Nq = 0: nothing launched, last_grid none: ") + err);
  attn_kernel_unload(k);

  // Not persistent: the full grid, whatever the SMs.
  Json plain = v3Kernel("k", 0);
  writeWithContract(dir, plain, contractOf(plain, 2, 0));
  k = load(dir, msg);
  CHECK(k != nullptr && info(k, "persistent") == "0" &&
            info(k, "ctas_per_sm") == "0",
        "a plain kernel with a version 2 contract: " + msg);
  if (k) {
    expectGrid(k, 4096, 300, "k", "32x16x1", "not persistent: the tiles");
    CHECK(info(k, "last_persistent") == "0", "last_persistent 0");
  }
  attn_kernel_unload(k);
  writeWithContract(dir, plain, contractOf(plain, 1, 0));
  k = load(dir, msg);
  CHECK(k != nullptr && !contains(info(k, "load_note"), "contract"),
        "a plain kernel with a version 1 contract (18 words): " + msg);
  if (k)
    expectGrid(k, 4096, 300, "k", "32x16x1", "version 1: the tiles");
  attn_kernel_unload(k);

  // Unknown SM count: one CTA per tile, with a note.
  fake->sm_count = 0;
  writeWithContract(dir, p, contractOf(p, 2, 1));
  k = load(dir, msg);
  fake->sm_count = 132;
  CHECK(k != nullptr && info(k, "sm_count") == "0" &&
            contains(info(k, "load_note"),
                     "multiprocessor count is unknown") &&
            contains(info(k, "load_note"), "one CTA per tile"),
        "SM count unknown: loads with a note (" + info(k, "load_note") +
            "): " + msg);
  if (k)
    expectGrid(k, 4096, 300, "k", "512x1x1",
               "SM count unknown: one CTA per tile");
  attn_kernel_unload(k);
  CHECK(nothingHeld(), "unload (persistent kernels)");

  // Refused: persistence on one side only, no contract to confirm it,
  // sizes and versions this runtime does not read.
  const std::string where = "attn_kernel_load(" + dir + ", k): ";
  struct Refusal {
    const char *what;
    const Json *doc;
    std::vector<int64_t> contract;
    std::vector<std::string> needles;
  };
  const std::vector<Refusal> refusals = {
      {"a persistent JSON, a version 1 contract", &p, contractOf(p, 1, 0),
       {"persistent (the \"persistent\" key; a version 1 contract is never "
        "persistent) = 1, the module's launch contract 0"}},
      {"a persistent JSON, a module that is not", &p, contractOf(p, 2, 0),
       {"persistent", "= 1, the module's launch contract 0"}},
      {"a plain JSON, a persistent module", &plain, contractOf(plain, 2, 1),
       {"persistent", "= 0, the module's launch contract 1"}},
      {"a persistent JSON without a contract", &p, {},
       {"the metadata says the kernel is persistent, but the module has no "
        "launch contract (attn_contract_k) to confirm it"}},
      {"a contract of 17 words", &plain, contractOf(plain, 1, 0, 17),
       {"attn_contract_k has 136 bytes, this runtime reads 144 (version 1) "
        "or 152 (version 2)"}},
      {"a contract of 20 words", &plain, contractOf(plain, 2, 0, 20),
       {"attn_contract_k has 160 bytes"}},
      {"version 1 in 19 words", &plain, contractOf(plain, 1, 0, 19),
       {"says version 1 but has 152 bytes; version 1 has 144"}},
      {"version 2 in 18 words", &plain, contractOf(plain, 2, 0, 18),
       {"says version 2 but has 144 bytes; version 2 has 152"}},
      {"version 3", &plain, contractOf(plain, 3, 0, 19),
       {"is not one this runtime reads", "version 3"}},
  };
  for (const Refusal &r : refusals) {
    writeWithContract(dir, *r.doc, r.contract);
    expectLoadFails(dir, std::string("persistent: ") + r.what, r.needles,
                    false);
  }
}

/// A dispatch table whose variant for short keys is persistent: each
/// kernel launches on its own grid.
void testPersistentVariant(const std::string &tmp) {
  const std::string dir = tmp + "/lib-persistent-dispatch";
  mkdir(dir.c_str(), 0755);
  Json mainDoc = v3Kernel("k", 0);
  mainDoc["dispatch"] = parsed(
      R"({"on": "k.size2", "variants": [{"max": 512, "kernel": "k__n512"}]})");
  writeWithContract(dir, mainDoc, contractOf(mainDoc, 2, 0));
  Json var = v3Kernel("k__n512", 2);
  var["block_m"] = 64;
  var["shared_bytes"] = 40960;
  writeWithContract(dir, var, contractOf(var, 2, 1));
  std::string msg;
  attn_kernel *k = load(dir, msg);
  CHECK(k != nullptr, "a plain kernel with a persistent variant: " + msg);
  if (!k)
    return;
  CHECK(info(k, "persistent") == "0",
        "info persistent describes the main kernel");
  // Nq = 4096: 64 x-tiles of block_m 64 (1024 tiles) for the variant.
  expectGrid(k, 4096, 300, "k__n512", "264x1x1",
             "k.size2 = 300: the persistent variant on 264 CTAs");
  CHECK(info(k, "last_variant") == "k__n512" &&
            info(k, "last_persistent") == "1",
        "last_persistent is the variant's: " + info(k, "last_persistent"));
  expectGrid(k, 4096, 5000, "k", "32x16x1",
             "k.size2 = 5000: the main kernel on its tiles", true);
  CHECK(info(k, "last_variant") == "k" && info(k, "last_persistent") == "0",
        "last_persistent is the main kernel's: " +
            info(k, "last_persistent"));
  attn_kernel_unload(k);
  CHECK(nothingHeld(), "unload (persistent variant)");
}

void testNoHandle() {
  char out[256] = {0};
  CHECK(attn_kernel_info(nullptr, "last_variant", out, sizeof out) == -1,
        "last_variant of no handle: an error, no crash");
  CHECK(attn_kernel_launch_args(nullptr, nullptr, 0, nullptr, out,
                                sizeof out) != 0 &&
            contains(out, "no loaded kernel"),
        std::string("launch through no handle: ") + out);
  attn_kernel_unload(nullptr);
  attn_kernel_desc d;
  std::string error;
  CHECK(parse(text(mainKernel()), d, error) == 0 &&
            attn_desc_select_variant(&d, nullptr, 0) == -1,
        "the library exports attn_desc_select_variant: " + error);
}

} // namespace

int main(int argc, char **argv) {
  std::string tmp = argc > 1 ? argv[1] : "/tmp/attn_runtime_lib_test";
  mkdir(tmp.c_str(), 0755);
  using GetState = fake_cuda_state *(*)();
  auto get = reinterpret_cast<GetState>(dlsym(RTLD_DEFAULT,
                                               "fake_cuda_state_get"));
  if (!get) {
    std::printf("FAIL: libcuda.so.1 is not the fake driver (test/"
                "fake_cuda.cpp; run through CTest, which sets "
                "LD_LIBRARY_PATH)\n");
    return 1;
  }
  fake = get();
  testRefusedBeforeTheDevice(tmp);
  testFailuresOnTheDevice(tmp);
  testLaunches(tmp);
  testMixedFormats(tmp);
  testWithoutTable(tmp);
  testPersistentLaunches(tmp);
  testPersistentVariant(tmp);
  testTmaFallback(tmp);
  testNoHandle();
  std::printf("attn_runtime_lib_test: %d checks, %d failed\n", checks,
              failures);
  return failures == 0 ? 0 : 1;
}
