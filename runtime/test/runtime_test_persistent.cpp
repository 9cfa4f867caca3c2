//===- runtime_test_persistent.cpp - persistent kernels, contract v2 ----===//
//
// Device-free tests of persistent kernels: the "persistent" key (every
// rule), the grid attn_validate_args_sm plans for them (capped at sm_count
// * ctas_per_sm, one CTA per tile when the SM count is unknown, no y limit
// but 2^31 - 1 tiles, empty problems as before), the launch contract of
// version 2 against version 1 (sizes, versions, the persistent field in
// both directions), and dispatch variants that differ in persistence.
//
//===----------------------------------------------------------------------===//

#include "attn_runtime.h"
#include "contract.h"
#include "core.h"
#include "strict_json.h"
#include "test_support.h"
#include "v2_documents.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

namespace attn_rt_test {
namespace {

//===----------------------------------------------------------------------===//
// Documents and launches
//===----------------------------------------------------------------------===//

/// The real kernel as format_version 3 (k read through a tensor map), not
/// persistent.
Json plainV3() {
  Json j = realV2();
  j["format_version"] = 3;
  j["tensor_maps"] = parsed(
      R"([{"buffer": 1, "box": [64, 64, 1, 1], "swizzle": 128}])");
  j["params"].push_back("k.tensor_map");
  return j;
}

/// plainV3 as a persistent kernel of `ctas` CTAs per SM.
Json persistentV3(int ctas = 2) {
  Json j = plainV3();
  j["persistent"]["ctas_per_sm"] = ctas;
  return j;
}

/// goodArgs with the tensors 2^47 bytes apart, so that large shapes do not
/// overlap.
Args spacedArgs(int64_t B, int64_t Hq, int64_t Hkv, int64_t Nq, int64_t Nk) {
  Args a = goodArgs(B, Hq, Hkv, Nq, Nk);
  uint64_t base = uint64_t(1) << 47;
  for (size_t i = 0; i < a.list.size(); ++i)
    a.list[i].tensor.ptr = base * (i + 1);
  return a;
}

int validateSm(const attn_kernel_desc &d, const Args &a, int32_t sms,
               attn_launch_plan_v2 *plan, std::string &msg) {
  char err[1024];
  err[0] = '\0';
  int rc = attn_validate_args_sm(&d, a.list.data(), a.list.size(), sms, plan,
                                 err, sizeof err);
  msg = err;
  return rc;
}

std::string gridText(const attn_launch_plan_v2 &p) {
  return std::to_string(p.grid[0]) + "x" + std::to_string(p.grid[1]) + "x" +
         std::to_string(p.grid[2]);
}

/// The launch with `sms` multiprocessors plans `action` on grid `want`.
void expectGrid(const attn_kernel_desc &d, const Args &a, int32_t sms,
                const std::string &want, const std::string &what,
                attn_plan_action action = ATTN_PLAN_LAUNCH) {
  attn_launch_plan_v2 plan;
  std::string msg;
  int rc = validateSm(d, a, sms, &plan, msg);
  CHECK(rc == 0 && plan.action == action && gridText(plan) == want,
        what + ": expected grid " + want + " (action " +
            std::to_string(action) + "), got rc " + std::to_string(rc) +
            ", grid " + gridText(plan) + ", action " +
            std::to_string(plan.action) + ": " + msg);
}

void expectRefusedSm(const attn_kernel_desc &d, const Args &a, int32_t sms,
                     const std::string &what,
                     const std::vector<std::string> &needles) {
  std::string msg;
  if (validateSm(d, a, sms, nullptr, msg) == 0) {
    CHECK(false, what + ": expected a refusal");
    return;
  }
  for (const std::string &n : needles)
    CHECK(contains(msg, n), what + ": message lacks \"" + n + "\": " + msg);
}

//===----------------------------------------------------------------------===//
// The key
//===----------------------------------------------------------------------===//

void testGoodKeys() {
  attn_kernel_desc d;
  std::string msg;
  CHECK(parse(text(persistentV3(2)), d, msg) == 0 && d.persistent == 1 &&
            d.ctas_per_sm == 2 && info(d, "persistent") == "1" &&
            info(d, "ctas_per_sm") == "2",
        "a persistent v3 kernel of 2 CTAs per SM: " + msg);
  CHECK(parse(text(plainV3()), d, msg) == 0 && d.persistent == 0 &&
            d.ctas_per_sm == 0 && info(d, "persistent") == "0" &&
            info(d, "ctas_per_sm") == "0",
        "without the key: not persistent, ctas_per_sm 0: " + msg);
  CHECK(parse(text(realV2()), d, msg) == 0 && d.persistent == 0 &&
            info(d, "persistent") == "0",
        "a v2 kernel is not persistent: " + msg);
  for (int n : {1, 32})
    CHECK(parse(text(persistentV3(n)), d, msg) == 0 && d.ctas_per_sm == n,
          "ctas_per_sm " + std::to_string(n) + " (a bound): " + msg);
  Json noMaps = persistentV3(4);
  noMaps["tensor_maps"] = Json::array();
  noMaps["params"].erase(noMaps["params"].size() - 1);
  CHECK(parse(text(noMaps), d, msg) == 0 && d.persistent == 1 &&
            d.num_tensor_maps == 0,
        "a persistent v3 kernel without tensor maps: " + msg);
}

void testRefusedKeys() {
  struct Case {
    const char *what;
    std::function<void(Json &)> edit;
    std::vector<std::string> needles;
  };
  const std::vector<Case> cases = {
      {"ctas_per_sm 0",
       [](Json &j) { j["persistent"]["ctas_per_sm"] = 0; },
       {"key \"persistent.ctas_per_sm\"", "0 is out of range [1, 32]"}},
      {"ctas_per_sm 33",
       [](Json &j) { j["persistent"]["ctas_per_sm"] = 33; },
       {"key \"persistent.ctas_per_sm\"", "33 is out of range [1, 32]"}},
      {"ctas_per_sm -1",
       [](Json &j) { j["persistent"]["ctas_per_sm"] = -1; },
       {"persistent.ctas_per_sm", "-1 is out of range"}},
      {"ctas_per_sm 2.0",
       [](Json &j) { j["persistent"]["ctas_per_sm"] = 2.0; },
       {"persistent.ctas_per_sm", "non-integral"}},
      {"ctas_per_sm \"2\"",
       [](Json &j) { j["persistent"]["ctas_per_sm"] = "2"; },
       {"persistent.ctas_per_sm", "expected an integer, got a string"}},
      {"ctas_per_sm null",
       [](Json &j) { j["persistent"]["ctas_per_sm"] = nullptr; },
       {"persistent.ctas_per_sm", "expected an integer, got null"}},
      {"no ctas_per_sm",
       [](Json &j) { j["persistent"] = Json::object(); },
       {"missing key \"persistent.ctas_per_sm\""}},
      {"an unknown key",
       [](Json &j) { j["persistent"]["max_ctas"] = 4; },
       {"key \"persistent.max_ctas\"", "unknown persistent key"}},
      {"persistent true", [](Json &j) { j["persistent"] = true; },
       {"key \"persistent\"", "expected an object, got a boolean"}},
      {"persistent null", [](Json &j) { j["persistent"] = nullptr; },
       {"key \"persistent\"", "expected an object, got null"}},
      {"persistent 2", [](Json &j) { j["persistent"] = 2; },
       {"key \"persistent\"", "expected an object"}},
      {"persistent [2]", [](Json &j) { j["persistent"] = {2}; },
       {"key \"persistent\"", "expected an object, got an array"}},
      {"format_version 2",
       [](Json &j) {
         j["format_version"] = 2;
         j.erase("tensor_maps");
         j["params"].erase(j["params"].size() - 1);
       },
       {"key \"persistent\"", "needs format_version 3",
        "a format_version 2 kernel is not persistent"}},
  };
  for (const Case &c : cases) {
    Json j = persistentV3();
    c.edit(j);
    expectRejected(text(j), std::string("persistent: ") + c.what, c.needles);
  }
  // format_version 1 ignores unknown keys, but not this one.
  Json v1 = v1Document();
  expectParses(text(v1), "the format_version 1 document without the key");
  v1["persistent"]["ctas_per_sm"] = 2;
  expectRejected(text(v1), "persistent in format_version 1",
                 {"key \"persistent\"", "needs format_version 3"});
}

//===----------------------------------------------------------------------===//
// The grid
//===----------------------------------------------------------------------===//

void testGrid() {
  const attn_kernel_desc p2 = descOf(persistentV3(2));
  const attn_kernel_desc p1 = descOf(persistentV3(1));
  const attn_kernel_desc plain = descOf(plainV3());
  // Nq = 4096, block_m 128: 32 x-tiles, B * Hq = 16: 512 tiles.
  const Args many = goodArgs(2, 8, 2, 4096, 300);
  expectGrid(p2, many, 132, "264x1x1", "512 tiles, 132 SMs, 2 CTAs per SM");
  expectGrid(p1, many, 132, "132x1x1", "512 tiles, 132 SMs, 1 CTA per SM");
  expectGrid(p2, many, 1, "2x1x1", "512 tiles, 1 SM, 2 CTAs per SM");
  expectGrid(p2, many, 256, "512x1x1", "512 tiles, 256 SMs: one CTA a tile");
  expectGrid(p2, many, 0, "512x1x1",
             "SM count unknown (0): one CTA per tile");
  expectGrid(p2, many, -3, "512x1x1", "SM count negative: unknown");
  expectGrid(plain, many, 132, "32x16x1",
             "not persistent: the tiles are the grid, whatever the SMs");
  expectGrid(plain, many, 0, "32x16x1", "not persistent, SMs unknown");
  // Fewer tiles than CTAs: one each.
  const Args few = goodArgs(2, 8, 2, 100, 300);
  expectGrid(p2, few, 132, "16x1x1", "16 tiles: 16 CTAs");
  attn_launch_plan_v2 viaPlain, viaSm;
  std::string msg;
  CHECK(validate(p2, many, &viaPlain, msg) == 0 &&
            gridText(viaPlain) == "512x1x1",
        "attn_validate_args does not know the SMs: one CTA per tile: " +
            gridText(viaPlain) + " " + msg);
  CHECK(validateSm(p2, many, 132, &viaSm, msg) == 0 &&
            viaSm.num_words == viaPlain.num_words &&
            std::memcmp(viaSm.words, viaPlain.words,
                        sizeof(uint64_t) * viaSm.num_words) == 0 &&
            viaSm.num_tensor_maps == 1 && viaSm.block[0] == 128 &&
            viaSm.shared_bytes == 98304,
        "only the grid depends on the SM count: " + msg);
  attn_launch_plan_v2 plainPlan;
  CHECK(validateSm(plain, many, 132, &plainPlan, msg) == 0 &&
            plainPlan.num_words == viaSm.num_words &&
            std::memcmp(plainPlan.words, viaSm.words,
                        sizeof(uint64_t) * viaSm.num_words) == 0,
        "a persistent kernel takes the same parameters: " + msg);
}

void testGridLimits() {
  const attn_kernel_desc p2 = descOf(persistentV3(2));
  const attn_kernel_desc plain = descOf(plainV3());
  // B * Hq = 70000: over grid y's 65535, but a persistent kernel has one
  // grid dimension.
  const Args wide = spacedArgs(2, 35000, 2, 100, 300);
  expectGrid(p2, wide, 132, "264x1x1", "B * Hq = 70000, persistent");
  expectGrid(p2, wide, 0, "70000x1x1",
             "B * Hq = 70000, persistent, SMs unknown");
  expectRefusedSm(plain, wide, 132, "B * Hq = 70000, not persistent",
                  {"grid y = q.size0 * q.size1 = 2 * 35000 = 70000",
                   "over the limit of 65535"});
  // 2^31 - 1 tiles at most: 16777208 x-tiles (Nq = 2^31 - 1025) times 128
  // heads fit, times 129 do not.
  const int64_t nq = (int64_t(1) << 31) - 1025;
  expectGrid(p2, spacedArgs(1, 64, 1, nq, 300), 132, "264x1x1",
             "16777208 * 64 = 1073741312 tiles");
  expectGrid(p2, spacedArgs(1, 128, 1, nq, 300), 0, "2147482624x1x1",
             "16777208 * 128 = 2147482624 tiles, SMs unknown: all of them");
  expectRefusedSm(p2, spacedArgs(1, 129, 1, nq, 300), 132,
                  "2^31 tiles and more",
                  {"persistent kernel: tiles = ceildiv(q.size2, block_m) * "
                   "q.size0 * q.size1 = 16777208 * 1 * 129 = 2164259832 is "
                   "over the limit of 2^31 - 1"});
  // x * y beyond int64: block_m 1, B, Hq and Nq at the limit (the strides
  // do not matter: the tiles are checked before the memory accesses).
  Json j = persistentV3(2);
  j["block_m"] = 1;
  Args huge = spacedArgs(1, 1, 1, 1, 300);
  for (const char *role : {"q", "k", "v", "o", "lse"}) {
    huge[role].shape[0] = nq;
    if (role != std::string("k") && role != std::string("v"))
      huge[role].shape[1] = huge[role].shape[2] = nq;
  }
  expectRefusedSm(descOf(j), huge, 132,
                  "tiles beyond int64",
                  {"persistent kernel: tiles = ", "* 2147482623 * "
                   "2147482623 is over the limit of 2^31 - 1"});
}

/// tiles == 0 is the empty problem of today: nothing launched, the other
/// checks still made. Nk = 0 is launched (the kernel writes O and LSE).
void testEmpty() {
  const attn_kernel_desc p2 = descOf(persistentV3(2));
  const attn_kernel_desc plain = descOf(plainV3());
  for (const attn_kernel_desc *d : {&p2, &plain}) {
    std::string which = d->persistent ? "persistent" : "not persistent";
    expectGrid(*d, goodArgs(2, 8, 2, 0, 300), 132,
               d->persistent ? "0x1x1" : "0x16x1", which + ", Nq = 0",
               ATTN_PLAN_NOTHING);
    expectGrid(*d, goodArgs(0, 8, 2, 100, 300), 132,
               d->persistent ? "0x1x1" : "1x0x1", which + ", B = 0",
               ATTN_PLAN_NOTHING);
    expectGrid(*d, goodArgs(2, 8, 2, 100, 0), 132,
               d->persistent ? "16x1x1" : "1x16x1", which + ", Nk = 0");
    Args bad = goodArgs(2, 8, 2, 0, 300);
    bad["k"].ptr += 2;
    expectRefusedSm(*d, bad, 132, which + ", Nq = 0 still checks k",
                    {"data pointer 0x20000002"});
  }
  // No tiles: no y limit either (as for every persistent launch).
  expectGrid(p2, spacedArgs(2, 35000, 2, 0, 300), 132, "0x1x1",
             "persistent, Nq = 0 and B * Hq = 70000", ATTN_PLAN_NOTHING);
}

/// Descriptions made by hand (ctypes) with persistent fields no parse
/// gives.
void testHandMade() {
  const attn_kernel_desc p2 = descOf(persistentV3(2));
  const Args a = goodArgs();
  struct Case {
    const char *what;
    std::function<void(attn_kernel_desc &)> mutate;
  };
  const std::vector<Case> cases = {
      {"ctas_per_sm 0", [](attn_kernel_desc &x) { x.ctas_per_sm = 0; }},
      {"ctas_per_sm 33", [](attn_kernel_desc &x) { x.ctas_per_sm = 33; }},
      {"persistent 2", [](attn_kernel_desc &x) { x.persistent = 2; }},
      {"persistent -1", [](attn_kernel_desc &x) { x.persistent = -1; }},
      {"a persistent format_version 2 description",
       [](attn_kernel_desc &x) {
         x.format_version = 2;
         x.num_tensor_maps = 0;
       }},
  };
  for (const Case &c : cases) {
    attn_kernel_desc bad = p2;
    c.mutate(bad);
    expectRefusedSm(bad, a, 132, std::string("hand-made: ") + c.what,
                    {"built by hand"});
  }
  attn_kernel_desc v1;
  std::string msg;
  Json doc = v1Document();
  CHECK(parse(text(doc), v1, msg) == 0, "the v1 document parses: " + msg);
  v1.persistent = 1;
  v1.ctas_per_sm = 2;
  expectRefusedSm(v1, a, 132, "hand-made: a persistent format_version 1 "
                  "description",
                  {"persistent, which no format_version 1 kernel is"});
  char err[256];
  CHECK(attn_validate_args_sm(nullptr, nullptr, 0, 132, nullptr, err,
                              sizeof err) != 0 &&
            contains(err, "attn_validate_args_sm: no kernel description"),
        std::string("attn_validate_args_sm without a description: ") + err);
  CHECK(attn_validate_args_sm(&p2, nullptr, 2, 132, nullptr, err,
                              sizeof err) != 0 &&
            contains(err, "attn_validate_args_sm: args is NULL"),
        std::string("attn_validate_args_sm without args: ") + err);
}

//===----------------------------------------------------------------------===//
// Launch contract version 2
//===----------------------------------------------------------------------===//

/// What the compiler writes for plainV3's module: version 2, format 3,
/// block_m 128, ..., five buffers, the persistent field last.
struct Contract {
  int64_t c[attn_rt::kContractFields] = {0x6e747461, 2,   3,   128, 64,
                                         4,          2,   128, 98304, 128,
                                         128,        0,   1,   0,   0,
                                         0,          0,   5,   0};
  size_t bytes = sizeof c;

  /// As version 1: 18 words, the persistent field not there.
  Contract &v1() {
    c[attn_rt::kContractVersion] = 1;
    c[attn_rt::kContractPersistent] = 0;
    bytes = attn_rt::kContractFieldsV1 * sizeof(int64_t);
    return *this;
  }
  Contract &persistent(int64_t p) {
    c[attn_rt::kContractPersistent] = p;
    return *this;
  }
};

bool compare(const attn_kernel_desc &d, const Contract &k,
             std::string &error) {
  error.clear();
  return attn_rt::checkContract(d, k.c, k.bytes, "attn_contract_k", error);
}

void testContractV2() {
  using namespace attn_rt;
  const attn_kernel_desc plain = descOf(plainV3());
  const attn_kernel_desc p2 = descOf(persistentV3(2));
  std::string error;
  CHECK(contractBytes(1) == 144 && contractBytes(2) == 152 &&
            contractBytes(3) == 0 && contractBytes(0) == 0 &&
            kContractFields == 19 && kContractFieldsV1 == 18,
        "a version 1 contract has 18 words (144 bytes), version 2 19 (152)");
  CHECK(compare(plain, Contract(), error),
        "version 2, not persistent, a plain JSON: " + error);
  CHECK(compare(p2, Contract().persistent(1), error),
        "version 2, persistent, a persistent JSON: " + error);
  CHECK(!compare(p2, Contract(), error) &&
            contains(error, "the metadata says persistent (the \"persistent\" "
                            "key; 1: the kernel loops over its tiles) = 1, "
                            "the module's launch contract 0") &&
            contains(error, "the JSON does not describe this kernel"),
        "a persistent JSON, a module that is not: refused: " + error);
  CHECK(!compare(plain, Contract().persistent(1), error) &&
            contains(error, "persistent (the \"persistent\" key; 1: the "
                            "kernel loops over its tiles) = 0, the module's "
                            "launch contract 1"),
        "a plain JSON, a persistent module: refused: " + error);
  CHECK(!compare(p2, Contract().persistent(2), error) &&
            contains(error, "persistent") &&
            contains(error, "launch contract 2"),
        "a persistent field of 2: refused: " + error);
  // Version 1: never persistent; its 19th word is not read.
  CHECK(compare(plain, Contract().v1(), error),
        "version 1 (18 words), a plain JSON: " + error);
  Contract stale = Contract().v1();
  stale.c[kContractPersistent] = 1;
  CHECK(compare(plain, stale, error),
        "version 1: the word past its 18 is not read: " + error);
  CHECK(!compare(p2, Contract().v1(), error) &&
            contains(error, "persistent (the \"persistent\" key; a version 1 "
                            "contract is never persistent) = 1, the "
                            "module's launch contract 0"),
        "version 1, a persistent JSON: refused: " + error);
  // The other fields are still compared in version 2.
  Contract other;
  other.c[kContractBlockM] = 64;
  CHECK(!compare(plain, other, error) &&
            contains(error, "block_m = 128, the module's launch contract 64"),
        "version 2: block_m still compared: " + error);
  // Versions and sizes.
  Contract mixed;
  mixed.c[kContractVersion] = 1; // 19 words
  CHECK(!compare(plain, mixed, error) &&
            contains(error, "attn_contract_k says version 1 but has 152 "
                            "bytes; version 1 has 144"),
        "version 1 in 19 words: refused: " + error);
  mixed = Contract();
  mixed.bytes = 144; // version 2 in 18 words
  CHECK(!compare(plain, mixed, error) &&
            contains(error, "says version 2 but has 144 bytes; version 2 "
                            "has 152"),
        "version 2 in 18 words: refused: " + error);
  for (int64_t version : {0, 3, -1}) {
    Contract unknown;
    unknown.c[kContractVersion] = version;
    CHECK(!compare(plain, unknown, error) &&
              contains(error, "attn_contract_k is not one this runtime "
                              "reads (magic 1853125729, version " +
                                  std::to_string(version) +
                                  "; it reads versions 1 and 2)"),
          "contract version " + std::to_string(version) + ": refused: " +
              error);
  }
  Contract badMagic;
  badMagic.c[kContractMagic] = 1;
  CHECK(!compare(plain, badMagic, error) &&
            contains(error, "is not one this runtime reads (magic 1,"),
        "another magic: refused: " + error);
  for (size_t bytes : {size_t(0), size_t(8), size_t(136), size_t(144),
                       size_t(152), size_t(160), size_t(1024)}) {
    error.clear();
    bool ok = checkContractSize(bytes, "attn_contract_k", error);
    CHECK(ok == (bytes == 144 || bytes == 152) &&
              (ok || contains(error, "attn_contract_k has " +
                                         std::to_string(bytes) +
                                         " bytes, this runtime reads 144 "
                                         "(version 1) or 152 (version 2)")),
          "a contract of " + std::to_string(bytes) + " bytes: " +
              (ok ? "read" : "refused") + ": " + error);
  }
}

//===----------------------------------------------------------------------===//
// Dispatch variants
//===----------------------------------------------------------------------===//

/// A variant `name` of the real kernel with other tiles (block_m 64).
Json variantNamed(Json j, const std::string &name) {
  j["name"] = name;
  j["entry"] = name;
  j["ptx"] = name + ".sm_90a.ptx";
  j["block_m"] = 64;
  j["shared_bytes"] = 40960;
  return j;
}

void testVariants() {
  Json mainDoc = plainV3();
  mainDoc["dispatch"] = parsed(R"({"on": "k.size2", "variants": [
      {"max": 512, "kernel": "k__n512"}]})");
  const attn_kernel_desc m = descOf(mainDoc);
  const attn_kernel_desc persistentVariant =
      descOf(variantNamed(persistentV3(2), "k__n512"));
  const attn_kernel_desc plainVariant =
      descOf(variantNamed(plainV3(), "k__n512"));
  std::string error;
  CHECK(attn_rt::checkVariant(m, persistentVariant, error),
        "a persistent variant of a kernel that is not: " + error);
  Json pm = persistentV3(1);
  pm["dispatch"] = mainDoc["dispatch"];
  const attn_kernel_desc persistentMain = descOf(pm);
  CHECK(attn_rt::checkVariant(persistentMain, plainVariant, error),
        "a plain variant of a persistent kernel: " + error);
  CHECK(attn_rt::checkVariant(persistentMain, persistentVariant, error),
        "a variant of another ctas_per_sm: " + error);
  // Each plans its own grid: Nq = 4096 is 64 x-tiles of block_m 64.
  Args a = goodArgs(2, 8, 2, 4096, 300);
  CHECK(attn_desc_select_variant(&m, a.list.data(), a.list.size()) == 0,
        "k.size2 = 300 picks the variant");
  expectGrid(persistentVariant, a, 132, "264x1x1",
             "the persistent variant: 1024 tiles on 264 CTAs");
  expectGrid(m, a, 132, "32x16x1", "the main kernel: its tiles");
  expectGrid(persistentMain, a, 132, "132x1x1",
             "a persistent main kernel of 1 CTA per SM");
}

void testStructLayout() {
  CHECK(offsetof(attn_kernel_desc, ctas_per_sm) ==
                offsetof(attn_kernel_desc, persistent) + 4 &&
            offsetof(attn_kernel_desc, tma_fallback) ==
                offsetof(attn_kernel_desc, ctas_per_sm) + 4 &&
            sizeof(attn_kernel_desc) == 9408 &&
            attn_struct_size("attn_kernel_desc") == 9408,
        "attn_kernel_desc is 9408 bytes, ctas_per_sm then tma_fallback "
        "(appended) last");
}

} // namespace

void testPersistent() {
  testGoodKeys();
  testRefusedKeys();
  testGrid();
  testGridLimits();
  testEmpty();
  testHandMade();
  testContractV2();
  testVariants();
  testStructLayout();
}

} // namespace attn_rt_test
