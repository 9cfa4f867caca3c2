//===- runtime_test_dispatch.cpp - per-length kernel variants ------------===//
//
// Device-free tests of the dispatch table: the "dispatch" key (every rule),
// the comparison of each variant's metadata with the main kernel's (every
// field, read from files as attn_kernel_load reads them), the choice of the
// kernel for a launch (below, at and above each max, L = 0, arguments
// without a usable k, hand-made tables) and the appended struct fields.
//
//===----------------------------------------------------------------------===//

#include "attn_runtime.h"
#include "core.h"
#include "strict_json.h"
#include "test_support.h"
#include "v2_documents.h"

#include <sys/stat.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace attn_rt_test {
namespace {

//===----------------------------------------------------------------------===//
// Documents
//===----------------------------------------------------------------------===//

Json variant(int64_t max, const std::string &kernel) {
  Json v;
  v["max"] = max;
  v["kernel"] = kernel;
  return v;
}

/// `j` with a dispatch table on k.size2 of these (max, kernel) entries.
Json withDispatch(Json j, const std::vector<std::pair<int64_t, std::string>> &t) {
  Json list = Json::array();
  for (const auto &e : t)
    list.push_back(variant(e.first, e.second));
  j["dispatch"]["on"] = "k.size2";
  j["dispatch"]["variants"] = list;
  return j;
}

/// The real kernel ("k") with variants k__n512 and k__n2048.
Json mainV2() {
  return withDispatch(realV2(), {{512, "k__n512"}, {2048, "k__n2048"}});
}

/// The real kernel as another tile configuration, named `name`: what the
/// compiler writes for a variant (its tiles differ, its interface not).
Json variantOf(const Json &main, const std::string &name) {
  Json j = main;
  j.erase("dispatch");
  j["name"] = name;
  j["entry"] = name;
  j["ptx"] = name + ".sm_90a.ptx";
  j["block_m"] = 64;
  j["block_n"] = 32;
  j["shared_bytes"] = 40960;
  return j;
}

/// A format_version 1 document (runtime_test.cpp's good one, abridged).
Json v1Document() {
  return parsed(R"json({"format_version": 1, "name": "attn_fwd",
    "target": "sm_90a", "compiler": "attn", "ptx": "attn_fwd.ptx",
    "cubin": null, "entry": "attn_fwd", "block_m": 64, "block_n": 64,
    "warps": 4, "stages": 2, "threads": 128, "shared_bytes": 24576,
    "head_dim": 128, "value_head_dim": 128, "element_type": "f16",
    "has_lse": true, "scale_log2e": 0.18033688,
    "mask": {"kind": "none"},
    "grid": ["ceildiv(Nq, block_m)", "B * Hq", "1"],
    "params": ["q","k","v","o","lse","B","Hq","Hkv","Nq","Nk","q_sb","q_sh",
               "q_sr","k_sb","k_sh","k_sr","v_sb","v_sh","v_sr","o_sb",
               "o_sh","o_sr","lse_sb","lse_sh"]})json");
}

/// The real kernel with a k buffer of rank 2 (and no size contract on
/// k.size2, which it lacks).
Json rank2K() {
  Json j = realV2();
  Json b = j["buffers"];
  b[1]["rank"] = 2;
  b[1]["static_shape"] = {-1, 128};
  j = withBuffers(j, b);
  Json eq = Json::array();
  for (const Json &pair : j["equal_sizes"])
    if (pair[0] != "k.size2" && pair[1] != "k.size2")
      eq.push_back(pair);
  j["equal_sizes"] = eq;
  return j;
}

//===----------------------------------------------------------------------===//
// The dispatch key
//===----------------------------------------------------------------------===//

void testGoodTables() {
  attn_kernel_desc d;
  std::string msg;
  int rc = parse(text(mainV2()), d, msg);
  CHECK(rc == 0, "a v2 document with a dispatch table parses: " + msg);
  if (rc != 0)
    return;
  CHECK(d.dispatch_on == ATTN_DISPATCH_K_SIZE2 && d.num_variants == 2 &&
            d.variants[0].max == 512 &&
            std::strcmp(d.variants[0].kernel, "k__n512") == 0 &&
            d.variants[1].max == 2048 &&
            std::strcmp(d.variants[1].kernel, "k__n2048") == 0,
        "dispatch: on k.size2, two variants in the listed order");
  CHECK(info(d, "dispatch") ==
            "k.size2<=512:k__n512 k.size2<=2048:k__n2048 else:k",
        "info dispatch: " + info(d, "dispatch"));
  CHECK(d.num_buffers == 5 && d.head_dim == 128 && d.block_m == 128,
        "the rest of the document is read as without a table");

  char buf[64];
  CHECK(attn_desc_info(&d, "last_variant", buf, sizeof buf) == -1,
        "last_variant is the handle's, not the description's");
  d = descOf(realV2());
  CHECK(d.dispatch_on == ATTN_DISPATCH_NONE && d.num_variants == 0 &&
            info(d, "dispatch").empty(),
        "without dispatch: no table, info dispatch \"\"");

  // Format 3, one variant, the most variants, the largest max.
  Json j = realV2();
  j["format_version"] = 3;
  j["tensor_maps"] = Json::array();
  j = withDispatch(j, {{1, "k_short"}});
  CHECK(parse(text(j), d, msg) == 0 && d.format_version == 3 &&
            d.num_variants == 1 && d.variants[0].max == 1 &&
            info(d, "dispatch") == "k.size2<=1:k_short else:k",
        "a v3 document with a one-entry table (max 1): " + msg);
  std::vector<std::pair<int64_t, std::string>> eight;
  for (int i = 0; i < ATTN_MAX_VARIANTS; ++i)
    eight.push_back({int64_t(64) << i, "k__" + std::to_string(i)});
  eight.back().first = attn_rt::kMaxExtent;
  CHECK(parse(text(withDispatch(realV2(), eight)), d, msg) == 0 &&
            d.num_variants == ATTN_MAX_VARIANTS &&
            d.variants[7].max == attn_rt::kMaxExtent &&
            std::strcmp(d.variants[7].kernel, "k__7") == 0,
        "8 variants, the last with max 2^31 - 1025: " + msg);
  // A name as long as the field holds, with dots and dashes.
  std::string longName(127, 'n');
  CHECK(parse(text(withDispatch(realV2(), {{512, longName}, {600, "k.v-2"}})),
              d, msg) == 0 &&
            d.variants[0].kernel == longName,
        "a 127-byte variant name and one with '.' and '-': " + msg);
  // K and V as one buffer: "k.size2" is the k role's, on buffer k+v.
  CHECK(parse(text(withDispatch(kvV2(), {{512, "kv__n512"}})), d, msg) == 0 &&
            d.num_variants == 1,
        "a table on a k+v kernel: " + msg);
}

void testRefusedTables() {
  struct Case {
    const char *what;
    std::function<void(Json &)> mutate;
    std::vector<std::string> needles;
  };
  const std::vector<Case> cases = {
      // The key.
      {"dispatch an array", [](Json &j) { j["dispatch"] = Json::array(); },
       {"key \"dispatch\"", "expected an object, got an array"}},
      {"dispatch null", [](Json &j) { j["dispatch"] = nullptr; },
       {"key \"dispatch\"", "expected an object, got null"}},
      {"an unknown dispatch key",
       [](Json &j) { j["dispatch"]["default"] = "k"; },
       {"key \"dispatch.default\"", "unknown dispatch key",
        "dispatch has on and variants"}},
      // on
      {"no on", [](Json &j) { j["dispatch"].erase("on"); },
       {"missing key \"dispatch.on\""}},
      {"on a number", [](Json &j) { j["dispatch"]["on"] = 2; },
       {"key \"dispatch.on\"", "expected a string, got a number"}},
      {"on q.size2", [](Json &j) { j["dispatch"]["on"] = "q.size2"; },
       {"key \"dispatch.on\"", "unsupported \"q.size2\"",
        "dispatches on \"k.size2\", the key length, only"}},
      {"on k.size3", [](Json &j) { j["dispatch"]["on"] = "k.size3"; },
       {"dispatch.on", "unsupported \"k.size3\""}},
      {"on with a blank", [](Json &j) { j["dispatch"]["on"] = "k.size2 "; },
       {"dispatch.on", "unsupported \"k.size2 \""}},
      {"on empty", [](Json &j) { j["dispatch"]["on"] = ""; },
       {"dispatch.on", "unsupported \"\""}},
      // variants
      {"no variants", [](Json &j) { j["dispatch"].erase("variants"); },
       {"missing key \"dispatch.variants\""}},
      {"variants an object",
       [](Json &j) { j["dispatch"]["variants"] = Json::object(); },
       {"key \"dispatch.variants\"", "expected an array"}},
      {"no entries",
       [](Json &j) { j["dispatch"]["variants"] = Json::array(); },
       {"key \"dispatch.variants\"", "no variants",
        "leave \"dispatch\" out"}},
      {"9 variants",
       [](Json &j) {
         for (int i = 2; i < ATTN_MAX_VARIANTS + 1; ++i)
           j["dispatch"]["variants"].push_back(
               variant(4096 << i, "k__" + std::to_string(i)));
       },
       {"key \"dispatch.variants\"",
        "9 variants, more than this runtime holds (8)"}},
      {"an entry a string",
       [](Json &j) { j["dispatch"]["variants"][1] = "k__n2048"; },
       {"key \"dispatch.variants[1]\"", "expected an object, got a string"}},
      {"an unknown entry key",
       [](Json &j) { j["dispatch"]["variants"][0]["min"] = 0; },
       {"key \"dispatch.variants[0].min\"", "unknown dispatch variant key",
        "a variant has max and kernel"}},
      // max
      {"no max", [](Json &j) { j["dispatch"]["variants"][1].erase("max"); },
       {"missing key \"dispatch.variants[1].max\""}},
      {"max 0", [](Json &j) { j["dispatch"]["variants"][0]["max"] = 0; },
       {"key \"dispatch.variants[0].max\"", "0 is out of range [1, "}},
      {"max -1", [](Json &j) { j["dispatch"]["variants"][0]["max"] = -1; },
       {"dispatch.variants[0].max", "-1 is out of range"}},
      {"max past the extent limit",
       [](Json &j) {
         j["dispatch"]["variants"][1]["max"] = attn_rt::kMaxExtent + 1;
       },
       {"dispatch.variants[1].max", "out of range [1, 2147482623]"}},
      {"max 512.5",
       [](Json &j) { j["dispatch"]["variants"][0]["max"] = 512.5; },
       {"dispatch.variants[0].max", "non-integral"}},
      {"max a string",
       [](Json &j) { j["dispatch"]["variants"][0]["max"] = "512"; },
       {"dispatch.variants[0].max", "expected an integer, got a string"}},
      {"max equal to the one before",
       [](Json &j) { j["dispatch"]["variants"][1]["max"] = 512; },
       {"key \"dispatch.variants[1].max\"",
        "512 is not larger than dispatch.variants[0].max (512)",
        "the maxima must increase"}},
      {"max decreasing",
       [](Json &j) { j["dispatch"]["variants"][1]["max"] = 256; },
       {"dispatch.variants[1].max", "256 is not larger than"}},
      // kernel
      {"no kernel",
       [](Json &j) { j["dispatch"]["variants"][0].erase("kernel"); },
       {"missing key \"dispatch.variants[0].kernel\""}},
      {"kernel empty",
       [](Json &j) { j["dispatch"]["variants"][0]["kernel"] = ""; },
       {"key \"dispatch.variants[0].kernel\"", "must not be empty"}},
      {"kernel a number",
       [](Json &j) { j["dispatch"]["variants"][0]["kernel"] = 512; },
       {"dispatch.variants[0].kernel", "expected a string"}},
      {"kernel too long",
       [](Json &j) {
         j["dispatch"]["variants"][0]["kernel"] = std::string(128, 'n');
       },
       {"dispatch.variants[0].kernel", "longer than 127 bytes"}},
      {"kernel a path",
       [](Json &j) { j["dispatch"]["variants"][1]["kernel"] = "sub/k"; },
       {"key \"dispatch.variants[1].kernel\"",
        "\"sub/k\" is not a file name (it has a '/')"}},
      {"kernel an absolute path",
       [](Json &j) { j["dispatch"]["variants"][0]["kernel"] = "/tmp/k"; },
       {"dispatch.variants[0].kernel", "is not a file name"}},
      {"kernel the main kernel",
       [](Json &j) { j["dispatch"]["variants"][1]["kernel"] = "k"; },
       {"key \"dispatch.variants[1].kernel\"",
        "\"k\" is this kernel itself"}},
      {"kernel twice",
       [](Json &j) { j["dispatch"]["variants"][1]["kernel"] = "k__n512"; },
       {"key \"dispatch.variants[1].kernel\"",
        "\"k__n512\" is dispatch.variants[0] already"}},
  };
  for (const Case &c : cases) {
    Json j = mainV2();
    c.mutate(j);
    expectRejected(text(j), std::string("dispatch: ") + c.what, c.needles);
  }

  // k of rank 2 has no size 2. (The document parses without the table.)
  expectParses(text(rank2K()), "a rank-2 k without a table");
  expectRejected(text(withDispatch(rank2K(), {{512, "k__n512"}})),
                 "dispatch on k.size2 with a rank-2 k",
                 {"key \"dispatch.on\"", "buffers[1] (k) has rank 2"});
  // Format 1 has no dispatch table (its launch path has no choice).
  expectParses(text(v1Document()), "the v1 document without a table");
  Json v1 = v1Document();
  v1["dispatch"] = mainV2()["dispatch"];
  expectRejected(text(v1), "dispatch in a format_version 1 document",
                 {"key \"dispatch\"", "needs format_version 2 or 3"});
  // Located: the line and column of the value.
  std::string doc = "{\"dispatch\": {\"on\": \"k.size2\", \"variants\":\n"
                    "  [{\"max\": 0, \"kernel\": \"a\"}]}";
  Json rest = realV2();
  std::string tail = text(rest).substr(1); // the real keys, then "}"
  expectRejected(doc + ", " + tail, "dispatch messages give the position",
                 {"dispatch.variants[0].max", "line 2, column 12"});
}

//===----------------------------------------------------------------------===//
// Variants: their metadata against the main kernel's
//===----------------------------------------------------------------------===//

std::string writeFile(const std::string &dir, const std::string &name,
                      const std::string &text) {
  std::string path = dir + "/" + name;
  FILE *f = std::fopen(path.c_str(), "wb");
  if (!f) {
    std::printf("FAIL: cannot write %s\n", path.c_str());
    return path;
  }
  std::fwrite(text.data(), 1, text.size(), f);
  std::fclose(f);
  return path;
}

/// Writes `main` as dir/<its name>.json and the variants its table names
/// (variantOf, then `edit` applied to variant `which`), and reads the
/// variants as attn_kernel_load does. 0 when they are accepted.
int readTable(const std::string &dir, const Json &main,
              const std::function<void(Json &)> &edit, size_t which,
              std::string &msg, attn_kernel_desc *out = nullptr) {
  mkdir(dir.c_str(), 0755);
  std::string mainName = main["name"].get<std::string>();
  writeFile(dir, mainName + ".json", text(main));
  const Json &list = main["dispatch"]["variants"];
  for (size_t i = 0; i < list.size(); ++i) {
    std::string name = list[i]["kernel"].get<std::string>();
    Json v = variantOf(main, name);
    if (i == which && edit)
      edit(v);
    writeFile(dir, name + ".json", text(v));
  }
  attn_kernel_desc d;
  std::vector<attn_kernel_desc> variants(ATTN_MAX_VARIANTS);
  msg.clear();
  if (!attn_rt::readKernelFile(dir, mainName, d, msg))
    return 2;
  if (out)
    *out = d;
  if (!attn_rt::readVariants(dir, d, variants.data(), msg))
    return 1;
  for (size_t i = 0; out && i < list.size(); ++i)
    out[i + 1] = variants[i];
  return 0;
}

void expectVariantRefused(const std::string &dir, const Json &main,
                          const std::function<void(Json &)> &edit,
                          size_t which, const std::string &what,
                          const std::vector<std::string> &needles) {
  std::string msg;
  int rc = readTable(dir, main, edit, which, msg);
  CHECK(rc == 1, what + ": expected the variant to be refused (rc " +
                     std::to_string(rc) + "): " + msg);
  std::string name =
      main["dispatch"]["variants"][which]["kernel"].get<std::string>();
  CHECK(contains(msg, "dispatch variant \"" + name + "\" (dispatch.variants[" +
                          std::to_string(which) + "] of "),
        what + ": the message names the variant: " + msg);
  for (const std::string &n : needles)
    CHECK(contains(msg, n), what + ": message lacks \"" + n + "\": " + msg);
}

/// The main kernel with a causal mask and a scale, for the fields a variant
/// must repeat.
Json maskedMain() {
  Json j = mainV2();
  j["mask"] = parsed(
      R"({"kind": "causal", "alignment": "bottom_right", "left": 0, "right": 0})");
  j["scale_log2e"] = 0.12751743074941076;
  return j;
}

void testVariantFiles(const std::string &tmp) {
  const std::string dir = tmp + "/dispatch";
  std::string msg;
  attn_kernel_desc descs[1 + ATTN_MAX_VARIANTS];
  CHECK(readTable(dir, mainV2(), nullptr, 0, msg, descs) == 0 &&
            descs[1].block_m == 64 && descs[2].block_m == 64 &&
            std::strcmp(descs[1].name, "k__n512") == 0 &&
            std::strcmp(descs[2].name, "k__n2048") == 0 &&
            std::strcmp(descs[2].ptx, "k__n2048.sm_90a.ptx") == 0,
        "variants with other tiles are read, in table order: " + msg);
  CHECK(readTable(dir, maskedMain(), nullptr, 0, msg) == 0,
        "variants with the kernel's mask and scale: " + msg);
  // Not part of the interface: tiles and launch geometry (above), the
  // format (2 or 3), alignment needs, target, entry.
  CHECK(readTable(dir, mainV2(),
                  [](Json &v) {
                    v["format_version"] = 3;
                    v["tensor_maps"] = parsed(
                        R"([{"buffer": 1, "box": [64, 32, 1, 1], "swizzle": 128}])");
                    v["params"].push_back("k.tensor_map");
                  },
                  1, msg, descs) == 0 &&
            descs[2].format_version == 3 && descs[2].num_tensor_maps == 1,
        "a format_version 3 (TMA) variant of a format_version 2 kernel: " +
            msg);
  CHECK(readTable(dir, mainV2(),
                  [](Json &v) {
                    v["buffers"][3]["align"] = 16;
                    v["target"] = "sm_80";
                    v["entry"] = "other_entry";
                    v["warps"] = 8;
                    v["threads"] = 256;
                    v["stages"] = 3;
                  },
                  0, msg) == 0,
        "a variant with other align, target, entry, warps, threads, "
        "stages: " +
            msg);
  Json v3Main = realV2();
  v3Main["format_version"] = 3;
  v3Main["tensor_maps"] = Json::array();
  v3Main = withDispatch(v3Main, {{1024, "k__n1024"}});
  CHECK(readTable(dir, v3Main, [](Json &v) { v["format_version"] = 2;
                                             v.erase("tensor_maps"); },
                  0, msg) == 0,
        "a format_version 2 variant of a format_version 3 kernel: " + msg);

  // Missing, unreadable, or not the variant.
  {
    mkdir(dir.c_str(), 0755);
    writeFile(dir, "k.json", text(mainV2()));
    writeFile(dir, "k__n512.json", text(variantOf(mainV2(), "k__n512")));
    std::remove((dir + "/k__n2048.json").c_str());
    attn_kernel_desc d, v[ATTN_MAX_VARIANTS];
    CHECK(attn_rt::readKernelFile(dir, "k", d, msg) &&
              !attn_rt::readVariants(dir, d, v, msg) &&
              contains(msg, "dispatch variant \"k__n2048\" "
                            "(dispatch.variants[1] of k)") &&
              contains(msg, dir + "/k__n2048.json: cannot open"),
          "a missing variant file is named: " + msg);
  }
  expectVariantRefused(dir, mainV2(), [](Json &v) { v["name"] = "other"; },
                       0, "a variant file that describes another kernel",
                       {"k__n512.json: describes kernel \"other\", not "
                        "\"k__n512\""});
  expectVariantRefused(dir, mainV2(), [](Json &v) { v["block_m"] = "64"; },
                       1, "a variant that does not parse",
                       {"k__n2048.json", "key \"block_m\"",
                        "expected an integer"});
  expectVariantRefused(
      dir, mainV2(),
      [](Json &v) { v = withDispatch(v, {{128, "k__n128"}}); }, 0,
      "a variant with a dispatch table of its own",
      {"k__n512.json", "has a dispatch table itself"});
  expectVariantRefused(
      dir, mainV2(),
      [](Json &v) {
        Json one = v1Document();
        one["name"] = "k__n2048";
        v = one;
      },
      1, "a format_version 1 variant",
      {"format_version 1; a variant is a format_version 2 or 3 kernel"});

  // The interface, field by field.
  struct Case {
    const char *what;
    std::function<void(Json &)> edit;
    std::vector<std::string> needles;
  };
  auto lseless = [](Json &v) {
    Json b = v["buffers"];
    b.erase(4);
    v = withBuffers(v, b);
    Json eq = Json::array();
    for (const Json &pair : v["equal_sizes"])
      if (pair[1].get<std::string>().rfind("lse", 0) != 0)
        eq.push_back(pair);
    v["equal_sizes"] = eq;
  };
  const std::vector<Case> cases = {
      {"no LSE", lseless, {"has_lse is 0, k's is 1"}},
      {"another head dim",
       [](Json &v) { v["buffers"][0]["static_shape"][3] = 64; },
       {"head_dim is 64, k's is 128",
        "a variant must have the interface of the kernel it stands in for"}},
      {"a dynamic head dim",
       [](Json &v) { v["buffers"][0]["static_shape"][3] = -1; },
       {"head_dim is ?, k's is 128"}},
      {"another value head dim",
       [](Json &v) { v["buffers"][2]["static_shape"][3] = 64; },
       {"value_head_dim is 64, k's is 128"}},
      {"another element type",
       [](Json &v) { v["buffers"][0]["element_type"] = "bf16"; },
       {"element_type is bf16, k's is f16"}},
      {"one more buffer",
       [](Json &v) {
         Json b = v["buffers"];
         b.push_back(buffer({"bias"}, "f16", 4, {-1, -1, -1, -1}, "read", 2));
         v = withBuffers(v, b);
       },
       {"the number of buffers is 6, k's is 5"}},
      {"buffers in another order",
       [](Json &v) {
         Json b = v["buffers"];
         std::swap(b[1], b[2]);
         v = withBuffers(v, b);
       },
       {"buffers[1].roles is v, k's is k"}},
      {"a buffer's element type",
       [](Json &v) { v["buffers"][1]["element_type"] = "bf16"; },
       {"buffers[1] (k) element_type is bf16, k's is f16"}},
      {"a buffer's rank",
       [](Json &v) {
         v["buffers"][4]["rank"] = 4;
         v["buffers"][4]["static_shape"] = {-1, -1, -1, 1};
         v = withBuffers(v, v["buffers"]);
       },
       {"buffers[4] (lse) rank is 4, k's is 3"}},
      {"a buffer's static shape",
       [](Json &v) { v["buffers"][1]["static_shape"][0] = 2; },
       {"buffers[1] (k) static_shape is [2,?,?,128], k's is [?,?,?,128]"}},
      {"a buffer's access",
       [](Json &v) { v["buffers"][4]["access"] = "read"; },
       {"buffers[4] (lse) access is read, k's is write"}},
  };
  for (const Case &c : cases)
    expectVariantRefused(dir, mainV2(), c.edit, 1,
                         std::string("variant: ") + c.what, c.needles);

  const std::vector<Case> maskCases = {
      {"no mask", [](Json &v) { v.erase("mask"); },
       {"mask.kind is absent, k's is causal"}},
      {"no mask (kind none)",
       [](Json &v) { v["mask"] = parsed(R"({"kind": "none"})"); },
       {"mask.kind is none, k's is causal"}},
      {"another alignment",
       [](Json &v) { v["mask"]["alignment"] = "top_left"; },
       {"mask.alignment is top_left, k's is bottom_right"}},
      {"no scale", [](Json &v) { v.erase("scale_log2e"); },
       {"scale_log2e is absent, k's is 0.127517430749410"}},
      {"another scale", [](Json &v) { v["scale_log2e"] = 0.125; },
       {"scale_log2e is 0.125, k's is 0.127517430749410"}},
  };
  for (const Case &c : maskCases)
    expectVariantRefused(dir, maskedMain(), c.edit, 0,
                         std::string("variant: ") + c.what, c.needles);
  // A window's extents; a mask on a variant of a kernel without one.
  Json windowed = maskedMain();
  windowed["mask"] = parsed(
      R"({"kind": "window", "alignment": "top_left", "left": 128, "right": 0})");
  CHECK(readTable(dir, windowed, nullptr, 0, msg) == 0,
        "variants with the kernel's window: " + msg);
  expectVariantRefused(dir, windowed,
                       [](Json &v) { v["mask"]["left"] = 64; }, 1,
                       "variant: another window left",
                       {"mask.left is 64, k's is 128"});
  expectVariantRefused(dir, windowed,
                       [](Json &v) { v["mask"]["right"] = 1; }, 0,
                       "variant: another window right",
                       {"mask.right is 1, k's is 0"});
  expectVariantRefused(
      dir, mainV2(),
      [](Json &v) { v["mask"] = parsed(R"({"kind": "none"})"); }, 0,
      "variant: a mask where the kernel has none",
      {"mask.kind is none, k's is absent"});
}

//===----------------------------------------------------------------------===//
// The choice of the kernel
//===----------------------------------------------------------------------===//

/// attn_desc_select_variant for the real kernel's arguments with Nk keys.
int selected(const attn_kernel_desc &d, int64_t nk) {
  Args a = goodArgs(2, 8, 2, 100, nk);
  return attn_desc_select_variant(&d, a.list.data(), a.list.size());
}

void testSelection(const std::string &tmp) {
  const attn_kernel_desc d = descOf(mainV2());
  const struct {
    int64_t nk;
    int want;
  } cases[] = {{0, 0},    {1, 0},    {300, 0},  {511, 0},    {512, 0},
               {513, 1},  {1000, 1}, {2047, 1}, {2048, 1},   {2049, -1},
               {4096, -1}, {attn_rt::kMaxExtent, -1}};
  for (const auto &c : cases)
    CHECK(selected(d, c.nk) == c.want,
          "k.size2 = " + std::to_string(c.nk) + " picks " +
              std::to_string(c.want) + ", got " +
              std::to_string(selected(d, c.nk)));

  // The choice is the k argument's size 2 alone, wherever it is listed.
  Args a = goodArgs(2, 8, 2, 4000, 700);
  CHECK(attn_desc_select_variant(&d, a.list.data(), a.list.size()) == 1,
        "q's rows (4000) do not pick: k's (700) do");
  std::swap(a.list.front(), a.list.back());
  CHECK(attn_desc_select_variant(&d, a.list.data(), a.list.size()) == 1,
        "the k argument anywhere in the list");
  // Without a table, or without a usable k: the kernel itself (whose
  // checks then refuse what is wrong).
  CHECK(selected(descOf(realV2()), 100) == -1 &&
            selected(descOf(realV2()), 0) == -1,
        "without a table: the kernel itself");
  a = goodArgs(2, 8, 2, 100, 300);
  a.remove("k");
  CHECK(attn_desc_select_variant(&d, a.list.data(), a.list.size()) == -1,
        "no k argument: the kernel itself");
  a = goodArgs(2, 8, 2, 100, 300);
  a["k"].rank = 2;
  CHECK(attn_desc_select_variant(&d, a.list.data(), a.list.size()) == -1,
        "a k argument of rank 2: the kernel itself");
  a["k"].rank = 5;
  CHECK(attn_desc_select_variant(&d, a.list.data(), a.list.size()) == -1,
        "a k argument of rank 5: the kernel itself");
  a = goodArgs(2, 8, 2, 100, 300);
  a["k"].shape[2] = -5;
  CHECK(attn_desc_select_variant(&d, a.list.data(), a.list.size()) == -1,
        "a negative k extent: the kernel itself");
  a = goodArgs(2, 8, 2, 100, 300);
  a.list.push_back({nullptr, a["q"]});
  CHECK(attn_desc_select_variant(&d, a.list.data(), a.list.size()) == 0,
        "an argument with a NULL role is skipped");
  CHECK(attn_desc_select_variant(&d, nullptr, 5) == -1 &&
            attn_desc_select_variant(&d, nullptr, 0) == -1 &&
            attn_desc_select_variant(nullptr, a.list.data(), a.list.size()) ==
                -1,
        "NULL arguments or description: the kernel itself");
  // A k+v kernel: the k argument is the shared tensor.
  attn_kernel_desc kv = descOf(withDispatch(kvV2(), {{512, "kv__n512"}}));
  a = goodArgs(2, 8, 2, 100, 300);
  a.remove("v");
  a.add("v", a["k"]);
  CHECK(attn_desc_select_variant(&kv, a.list.data(), a.list.size()) == 0,
        "a k+v kernel picks by the k argument");

  // Hand-made tables never read past variants[].
  attn_kernel_desc bad = d;
  bad.num_variants = 1000;
  for (int i = 2; i < ATTN_MAX_VARIANTS; ++i)
    bad.variants[i].max = 4096 * i;
  CHECK(selected(bad, 4096 * 7) == 7 && selected(bad, 4096 * 8) == -1,
        "num_variants 1000 is read as 8");
  std::memset(bad.variants[0].kernel, 'x', sizeof bad.variants[0].kernel);
  CHECK(info(bad, "dispatch").find(std::string(128, 'x') + " ") !=
            std::string::npos,
        "a variant name without its NUL is read up to the field's end");
  bad = d;
  bad.num_variants = -1;
  CHECK(selected(bad, 0) == -1 && info(bad, "dispatch").empty(),
        "num_variants -1: no table");
  bad = d;
  bad.dispatch_on = 7;
  CHECK(selected(bad, 0) == -1 && info(bad, "dispatch").empty(),
        "an unknown dispatch_on: no table");

  // The chosen variant's description plans the launch: its grid is its
  // block_m's.
  std::string msg;
  attn_kernel_desc variants[1 + ATTN_MAX_VARIANTS];
  readTable(tmp + "/dispatch", mainV2(), nullptr, 0, msg, variants);
  a = goodArgs(2, 8, 2, 1000, 300);
  int i = attn_desc_select_variant(&variants[0], a.list.data(), a.list.size());
  attn_launch_plan_v2 plan, mainPlan;
  CHECK(i == 0 && validate(variants[1 + i], a, &plan, msg) == 0 &&
            validate(variants[0], a, &mainPlan, msg) == 0 &&
            plan.grid[0] == 16 && plan.shared_bytes == 40960 &&
            mainPlan.grid[0] == 8 && mainPlan.shared_bytes == 98304,
        "the variant's plan has its tiles (grid x 16 of block_m 64, 40960 "
        "bytes), the kernel's its own (8, 98304): " +
            msg);
}

void testStructLayout() {
  CHECK(attn_struct_size("attn_variant_desc") == sizeof(attn_variant_desc) &&
            sizeof(attn_variant_desc) == 136,
        "attn_struct_size(\"attn_variant_desc\") is 136");
  // Appended: every older field keeps its offset.
  CHECK(offsetof(attn_kernel_desc, dispatch_on) ==
                offsetof(attn_kernel_desc, tensor_maps) +
                    sizeof(attn_kernel_desc::tensor_maps) &&
            offsetof(attn_kernel_desc, dispatch_on) == 8176,
        "the dispatch fields are appended to attn_kernel_desc (at 8176)");
  CHECK(offsetof(attn_kernel_desc, persistent) ==
                offsetof(attn_kernel_desc, variants) +
                    sizeof(attn_kernel_desc::variants) &&
            offsetof(attn_kernel_desc, persistent) == 9272,
        "the persistent fields are appended to attn_kernel_desc (at 9272)");
}

} // namespace

void testDispatch(const std::string &tmp) {
  testGoodTables();
  testRefusedTables();
  testVariantFiles(tmp);
  testSelection(tmp);
  testStructLayout();
}

} // namespace attn_rt_test
