//===- runtime_test_v2.cpp - format_version 2 metadata and launches -----===//
//
// Device-free tests of format_version 2: the real document the compiler
// writes, every corruption class of the metadata, every launch rule of
// attn_validate_args and the parameters it packs.
//
//===----------------------------------------------------------------------===//

#include "attn_runtime.h"
#include "strict_json.h"
#include "test_support.h"
#include "v2_documents.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

namespace attn_rt_test {
namespace {

//===----------------------------------------------------------------------===//
// Good documents
//===----------------------------------------------------------------------===//

void testRealDocument() {
  attn_kernel_desc d;
  std::string msg;
  int rc = parse(text(realV2()), d, msg);
  CHECK(rc == 0, "the real v2 document parses: " + msg);
  if (rc != 0)
    return;
  CHECK(d.format_version == 2, "v2: format_version");
  CHECK(!std::strcmp(d.name, "k") && !std::strcmp(d.entry, "k") &&
            !std::strcmp(d.target, "sm_90a") &&
            !std::strcmp(d.ptx, "k.sm_90a.ptx") && d.cubin[0] == '\0' &&
            !std::strcmp(d.compiler, "attn (git 98dcae8), LLVM 22.1.8"),
        "v2: strings");
  CHECK(d.block_m == 128 && d.block_n == 64 && d.warps == 4 &&
            d.stages == 2 && d.threads == 128 && d.shared_bytes == 98304,
        "v2: tile configuration");
  CHECK(d.num_buffers == 5, "v2: five buffers");
  const char *names[] = {"q", "k", "v", "o", "lse"};
  const int align[] = {16, 16, 16, 4, 4};
  bool buffersOk = true;
  for (int i = 0; i < 5 && d.num_buffers == 5; ++i) {
    const attn_buffer_desc &b = d.buffers[i];
    int rank = i == 4 ? 3 : 4;
    buffersOk &= !std::strcmp(b.name, names[i]) && b.num_roles == 1 &&
                 b.roles[0] == i && b.rank == rank &&
                 b.element_type == (i == 4 ? ATTN_F32 : ATTN_F16) &&
                 b.writes == (i >= 3) && b.align == align[i];
    for (int k = 0; k < rank; ++k)
      buffersOk &= b.static_shape[k] == (k == 3 ? 128 : -1);
  }
  CHECK(buffersOk, "v2: every buffer's roles, type, rank, shape, access, align");
  CHECK(d.num_equal_sizes == 10 && d.equal_sizes[0].first.buffer == 0 &&
            d.equal_sizes[0].first.dim == 0 &&
            d.equal_sizes[0].second.buffer == 1 &&
            d.equal_sizes[0].second.dim == 0 &&
            d.equal_sizes[9].first.buffer == 0 &&
            d.equal_sizes[9].first.dim == 2 &&
            d.equal_sizes[9].second.buffer == 4 &&
            d.equal_sizes[9].second.dim == 2,
        "v2: equal_sizes resolved to (buffer, dim)");
  CHECK(d.num_divisible_sizes == 1 && d.divisible_sizes[0].first.buffer == 1 &&
            d.divisible_sizes[0].first.dim == 1 &&
            d.divisible_sizes[0].second.buffer == 0 &&
            d.divisible_sizes[0].second.dim == 1,
        "v2: divisible_sizes [k.size1 divides q.size1]");
  CHECK(d.head_dim == 128 && d.value_head_dim == 128 &&
            d.element_type == ATTN_F16 && d.has_lse == 1 &&
            d.has_mask_info == 0 && d.has_scale == 0,
        "v2: the version-1 fields derived from the buffers");

  CHECK(info(d, "format_version") == "2", "info format_version");
  CHECK(info(d, "dtype") == "f16" && info(d, "element_type") == "f16",
        "info dtype");
  CHECK(info(d, "head_dim") == "128" && info(d, "value_head_dim") == "128",
        "info head dims");
  CHECK(info(d, "has_lse") == "1", "info has_lse");
  CHECK(info(d, "cubin").empty(), "info cubin");
  CHECK(info(d, "shared_bytes") == "98304", "info shared_bytes");
  CHECK(info(d, "mask") == "?" && info(d, "alignment") == "?" &&
            info(d, "window_left") == "?" && info(d, "window_right") == "?" &&
            info(d, "scale_log2e") == "?",
        "info: no mask / scale in the document gives ?");
  CHECK(info(d, "buffers") ==
            "q:f16[?,?,?,128] k:f16[?,?,?,128] v:f16[?,?,?,128] "
            "o:f16[?,?,?,128](write) lse:f32[?,?,?](write)",
        "info buffers: " + info(d, "buffers"));
  char buf[8];
  CHECK(attn_desc_info(&d, "nonsense", buf, sizeof buf) == -1,
        "info: unknown key");
  CHECK(attn_desc_info(&d, "buffers", buf, sizeof buf) == 1 &&
            std::strlen(buf) == sizeof buf - 1,
        "info: truncated value");

  // Without access and align (as written before they existed): refused.
  expectRejected(kRealDocument, "the document without access",
                 {"missing key \"buffers[0].access\""});
}

void testOtherGoodDocuments() {
  Json g = realV2();
  attn_kernel_desc d;
  std::string msg;

  // Optional, informational keys.
  Json m = g;
  m["mask"] = parsed(R"({"kind": "causal", "alignment": "bottom_right",
                         "left": 0, "right": 0})");
  m["scale_log2e"] = 0.18033688;
  m["score_mod"] = "none";
  CHECK(parse(text(m), d, msg) == 0 && d.has_mask_info && d.has_scale &&
            info(d, "mask") == "causal" &&
            info(d, "alignment") == "bottom_right" &&
            info(d, "window_left") == "inf" && info(d, "window_right") == "0" &&
            info(d, "scale_log2e") == "0.18033688",
        "v2 with mask and scale: " + msg);
  m = g;
  m["mask"] = parsed(R"({"kind": "window", "alignment": "top_left",
                         "left": 255, "right": 0})");
  CHECK(parse(text(m), d, msg) == 0 && info(d, "mask") == "window" &&
            info(d, "window_left") == "255",
        "v2 window mask: " + msg);

  // K and V as one buffer.
  CHECK(parse(text(kvV2()), d, msg) == 0 && d.num_buffers == 4 &&
            !std::strcmp(d.buffers[1].name, "k+v") &&
            d.buffers[1].num_roles == 2 && d.buffers[1].roles[0] == ATTN_ROLE_K &&
            d.buffers[1].roles[1] == ATTN_ROLE_V,
        "v2 with a k+v buffer: " + msg);
  CHECK(info(d, "buffers") ==
            "q:f16[?,?,?,128] k+v:f16[?,?,?,128] o:f16[?,?,?,128](write) "
            "lse:f32[?,?,?](write)",
        "info buffers with k+v: " + info(d, "buffers"));

  // No LSE; dynamic head dims; bf16; other roles.
  Json b = g["buffers"];
  b.erase(4);
  Json noLse = withBuffers(g, b);
  noLse["equal_sizes"] = parsed(R"([["q.size0","k.size0"]])");
  CHECK(parse(text(noLse), d, msg) == 0 && d.has_lse == 0 &&
            info(d, "has_lse") == "0",
        "v2 without lse: " + msg);
  b = g["buffers"];
  for (Json &x : b)
    if (x["rank"] == 4) {
      x["static_shape"] = {-1, -1, -1, -1};
      x["element_type"] = "bf16";
    }
  CHECK(parse(text(withBuffers(g, b)), d, msg) == 0 && d.head_dim == 0 &&
            info(d, "head_dim") == "?" && info(d, "dtype") == "bf16",
        "v2 with dynamic head dims: " + msg);
  b = g["buffers"];
  b.push_back(buffer({"bias"}, "f32", 4, {-1, -1, -1, -1}, "read", 4));
  b.push_back(buffer({"alibi_slopes"}, "f32", 1, {-1}, "read", 4));
  b.push_back(buffer({"input"}, "f16", 2, {-1, 64}, "read", 2));
  b.push_back(buffer({"input"}, "f32", 1, {7}, "read", 4));
  b.push_back(buffer({"output"}, "f32", 2, {-1, -1}, "write", 4));
  CHECK(parse(text(withBuffers(g, b)), d, msg) == 0 && d.num_buffers == 10 &&
            d.buffers[8].roles[0] == ATTN_ROLE_INPUT,
        "v2 with bias, alibi_slopes, two inputs and an output: " + msg);

  // Sixteen buffers (the cap), grid spacing, a cubin, unknown top-level keys.
  b = g["buffers"];
  while (b.size() < ATTN_MAX_BUFFERS)
    b.push_back(buffer({"input"}, "f32", 4, {-1, -1, -1, -1}, "read", 4));
  CHECK(parse(text(withBuffers(g, b)), d, msg) == 0 &&
            d.num_buffers == ATTN_MAX_BUFFERS,
        "v2 with 16 buffers of rank 4: " + msg);
  m = g;
  m["grid"] = {"ceildiv(q.size2,block_m)", "q.size0*q.size1", " 1 "};
  expectParses(text(m), "v2 grid without spaces");
  m = g;
  m["cubin"] = "k.sm_90a.cubin";
  m["future_key"] = {{"a", {1, 2}}};
  CHECK(parse(text(m), d, msg) == 0 && info(d, "cubin") == "k.sm_90a.cubin",
        "v2 with a cubin and an unknown top-level key: " + msg);
  m.erase("cubin");
  expectParses(text(m), "v2 without cubin");
  m = g;
  m["equal_sizes"] = Json::array();
  m["divisible_sizes"] = Json::array();
  expectParses(text(m), "v2 with an empty contract");

  // The version-1 text of "buffers" and "format_version".
  attn_kernel_desc v1;
  const char *v1doc =
      R"json({"format_version": 1, "name": "a", "target": "sm_90a", "compiler": "",
      "ptx": "a.ptx", "entry": "a", "block_m": 64, "block_n": 64, "warps": 4,
      "stages": 2, "threads": 128, "shared_bytes": 0, "head_dim": 64,
      "value_head_dim": 32, "element_type": "bf16", "has_lse": true,
      "scale_log2e": 0.2, "mask": {"kind": "none"},
      "grid": ["ceildiv(Nq, block_m)", "B * Hq", "1"],
      "params": ["q","k","v","o","lse","B","Hq","Hkv","Nq","Nk","q_sb","q_sh",
      "q_sr","k_sb","k_sh","k_sr","v_sb","v_sh","v_sr","o_sb","o_sh","o_sr",
      "lse_sb","lse_sh"]})json";
  CHECK(parse(v1doc, v1, msg) == 0 && info(v1, "format_version") == "1" &&
            info(v1, "buffers") ==
                "q:bf16[?,?,?,64] k:bf16[?,?,?,64] v:bf16[?,?,?,32] "
                "o:bf16[?,?,?,32](write) lse:f32[?,?,?](write)" &&
            info(v1, "mask") == "none",
        "v1 info buffers: " + info(v1, "buffers") + " " + msg);
}

//===----------------------------------------------------------------------===//
// Corrupt documents
//===----------------------------------------------------------------------===//

void testMissingAndMistypedKeys() {
  Json g = realV2();
  for (const char *key :
       {"format_version", "name", "entry", "target", "compiler", "ptx",
        "block_m", "block_n", "warps", "stages", "threads", "shared_bytes",
        "buffers", "equal_sizes", "divisible_sizes", "grid", "params"}) {
    Json m = g;
    m.erase(key);
    expectRejected(text(m), std::string("v2 without ") + key,
                   {"missing key \"" + std::string(key) + "\""});
  }
  for (const char *key :
       {"roles", "element_type", "rank", "static_shape", "access", "align"}) {
    Json m = g;
    m["buffers"][3].erase(key);
    expectRejected(text(m), std::string("v2 buffer without ") + key,
                   {"missing key \"buffers[3]." + std::string(key) + "\""});
  }

  struct Case {
    const char *what;
    std::function<void(Json &)> mutate;
    std::vector<std::string> needles;
  };
  const std::vector<Case> cases = {
      {"format_version 4", [](Json &j) { j["format_version"] = 4; },
       {"unsupported format_version 4", "versions 1, 2 and 3"}},
      {"name a number", [](Json &j) { j["name"] = 5; },
       {"key \"name\"", "expected a string, got a number"}},
      {"block_m 0", [](Json &j) { j["block_m"] = 0; },
       {"key \"block_m\"", "out of range"}},
      {"threads 2.5", [](Json &j) { j["threads"] = 2.5; },
       {"key \"threads\"", "non-integral"}},
      {"shared_bytes too large", [](Json &j) { j["shared_bytes"] = 1 << 25; },
       {"key \"shared_bytes\"", "out of range"}},
      {"buffers an object", [](Json &j) { j["buffers"] = Json::object(); },
       {"key \"buffers\"", "expected an array"}},
      {"buffers empty", [](Json &j) { j["buffers"] = Json::array(); },
       {"no buffer has role \"q\""}},
      {"buffer a number", [](Json &j) { j["buffers"][1] = 5; },
       {"key \"buffers[1]\"", "expected an object"}},
      {"unknown buffer key",
       [](Json &j) { j["buffers"][2]["offset"] = 0; },
       {"key \"buffers[2].offset\"", "unknown buffer key"}},
      {"roles a string", [](Json &j) { j["buffers"][0]["roles"] = "q"; },
       {"key \"buffers[0].roles\"", "expected an array"}},
      {"roles empty",
       [](Json &j) { j["buffers"][0]["roles"] = Json::array(); },
       {"buffers[0].roles", "at least one role"}},
      {"role a number", [](Json &j) { j["buffers"][0]["roles"] = {7}; },
       {"key \"buffers[0].roles[0]\"", "expected a string"}},
      {"unknown role", [](Json &j) { j["buffers"][1]["roles"] = {"key"}; },
       {"buffers[1].roles[0]", "unknown role \"key\""}},
      {"role listed twice",
       [](Json &j) { j["buffers"][1]["roles"] = {"k", "k"}; },
       {"buffers[1].roles[1]", "listed twice"}},
      {"role on two buffers",
       [](Json &j) { j["buffers"][2]["roles"] = {"v", "k"}; },
       {"buffers[2].roles", "role \"k\" is also on buffers[1]"}},
      {"no o buffer",
       [](Json &j) { j["buffers"][3]["roles"] = {"output"}; },
       {"key \"buffers\"", "no buffer has role \"o\""}},
      {"element type f64",
       [](Json &j) { j["buffers"][0]["element_type"] = "f64"; },
       {"buffers[0].element_type", "unknown element type \"f64\""}},
      {"element type i32",
       [](Json &j) { j["buffers"][4]["element_type"] = "i32"; },
       {"buffers[4].element_type", "expected f16, bf16 or f32"}},
      {"element type a number",
       [](Json &j) { j["buffers"][0]["element_type"] = 1; },
       {"buffers[0].element_type", "expected a string"}},
      {"rank 0", [](Json &j) { j["buffers"][0]["rank"] = 0; },
       {"buffers[0].rank", "out of range [1, 4]"}},
      {"rank 5", [](Json &j) { j["buffers"][0]["rank"] = 5; },
       {"buffers[0].rank", "out of range"}},
      {"rank a string", [](Json &j) { j["buffers"][0]["rank"] = "4"; },
       {"buffers[0].rank", "expected an integer"}},
      {"static_shape too short",
       [](Json &j) { j["buffers"][1]["static_shape"] = {-1, -1, 128}; },
       {"buffers[1].static_shape", "3 extents for a buffer of rank 4"}},
      {"static_shape -2",
       [](Json &j) { j["buffers"][1]["static_shape"][0] = -2; },
       {"buffers[1].static_shape[0]", "out of range"}},
      {"static_shape 2^31",
       [](Json &j) { j["buffers"][1]["static_shape"][3] = 1ll << 31; },
       {"buffers[1].static_shape[3]", "out of range"}},
      {"static_shape a string",
       [](Json &j) { j["buffers"][1]["static_shape"] = "128"; },
       {"buffers[1].static_shape", "expected an array"}},
      {"access rw", [](Json &j) { j["buffers"][3]["access"] = "rw"; },
       {"buffers[3].access", "unknown access \"rw\""}},
      {"access a boolean", [](Json &j) { j["buffers"][3]["access"] = true; },
       {"buffers[3].access", "expected a string, got a boolean"}},
      {"align 3", [](Json &j) { j["buffers"][0]["align"] = 3; },
       {"buffers[0].align", "not a power of two"}},
      {"align 0", [](Json &j) { j["buffers"][0]["align"] = 0; },
       {"buffers[0].align", "out of range [1, 256]"}},
      {"align 512", [](Json &j) { j["buffers"][0]["align"] = 512; },
       {"buffers[0].align", "out of range"}},
      {"q of rank 2",
       [](Json &j) {
         j["buffers"][0]["rank"] = 2;
         j["buffers"][0]["static_shape"] = {-1, 128};
         j["params"] = paramsOf(j["buffers"]);
         j["equal_sizes"] = Json::array();
         j["divisible_sizes"] = Json::array();
       },
       {"key \"grid\"", "q has rank 2"}},
      // grid
      {"v1 grid", [](Json &j) { j["grid"] = {"ceildiv(Nq, block_m)", "B * Hq", "1"}; },
       {"key \"grid\"", "not the kernel ABI"}},
      {"grid of 4", [](Json &j) { j["grid"].push_back("1"); },
       {"key \"grid\"", "not the kernel ABI"}},
      {"grid entry a number", [](Json &j) { j["grid"][2] = 1; },
       {"key \"grid[2]\"", "expected a string"}},
      // params
      {"params missing the last",
       [](Json &j) { j["params"].erase(j["params"].size() - 1); },
       {"key \"params\"", "42 entries, the buffers have 43 parameters"}},
      {"params with an extra entry",
       [](Json &j) { j["params"].push_back("lse.stride3"); },
       {"key \"params[43]\"", "past the 43 parameters"}},
      {"params swapped",
       [](Json &j) {
         j["params"][1] = "q.size1";
         j["params"][2] = "q.size0";
       },
       {"key \"params[1]\"", "\"q.size1\", expected \"q.size0\""}},
      {"params of a k+v buffer named kv",
       [](Json &j) {
         j["buffers"][1]["roles"] = {"k", "v"};
         j["buffers"].erase(2);
         j["params"] = paramsOf(j["buffers"]);
         j["params"][9] = "kv";
         j["equal_sizes"] = Json::array();
         j["divisible_sizes"] = Json::array();
       },
       {"key \"params[9]\"", "\"kv\", expected \"k+v\""}},
      {"params v1", [](Json &j) { j["params"] = {"q", "k", "v", "o", "lse", "B"}; },
       {"key \"params[1]\"", "expected \"q.size0\""}},
      {"params entry a number", [](Json &j) { j["params"][4] = 4; },
       {"key \"params[4]\"", "expected a string"}},
      {"params a string", [](Json &j) { j["params"] = "q"; },
       {"key \"params\"", "expected an array"}},
      // contract
      {"equal_sizes an object",
       [](Json &j) { j["equal_sizes"] = Json::object(); },
       {"key \"equal_sizes\"", "expected an array"}},
      {"equal_sizes entry a string",
       [](Json &j) { j["equal_sizes"][2] = "q.size0"; },
       {"key \"equal_sizes[2]\"", "expected a [size, size] pair"}},
      {"equal_sizes triple",
       [](Json &j) { j["equal_sizes"][0].push_back("v.size0"); },
       {"key \"equal_sizes[0]\"", "3 entries, expected 2"}},
      {"equal_sizes unknown buffer",
       [](Json &j) { j["equal_sizes"][3][1] = "x.size1"; },
       {"key \"equal_sizes[3][1]\"", "\"x.size1\" names no buffer",
        "q, k, v, o, lse"}},
      {"equal_sizes dim past the rank",
       [](Json &j) { j["equal_sizes"][9][1] = "lse.size3"; },
       {"key \"equal_sizes[9][1]\"", "buffer lse has rank 3"}},
      {"equal_sizes dim 10",
       [](Json &j) { j["equal_sizes"][0][0] = "q.size10"; },
       {"equal_sizes[0][0]", "buffer q has rank 4"}},
      {"equal_sizes malformed name",
       [](Json &j) { j["equal_sizes"][0][0] = "q.sz0"; },
       {"key \"equal_sizes[0][0]\"", "\"q.sz0\" is not <buffer>.size<dim>"}},
      {"equal_sizes without a dim",
       [](Json &j) { j["equal_sizes"][0][0] = "q.size"; },
       {"equal_sizes[0][0]", "is not <buffer>.size<dim>"}},
      {"equal_sizes leading zero",
       [](Json &j) { j["equal_sizes"][0][0] = "q.size01"; },
       {"equal_sizes[0][0]", "is not <buffer>.size<dim>"}},
      {"equal_sizes a stride",
       [](Json &j) { j["equal_sizes"][0][0] = "q.stride0"; },
       {"equal_sizes[0][0]", "is not <buffer>.size<dim>"}},
      {"equal_sizes a bare buffer",
       [](Json &j) { j["equal_sizes"][0][0] = "q"; },
       {"equal_sizes[0][0]", "is not <buffer>.size<dim>"}},
      {"equal_sizes entry a number",
       [](Json &j) { j["equal_sizes"][0][1] = 0; },
       {"key \"equal_sizes[0][1]\"", "expected a string"}},
      {"divisible_sizes unknown buffer",
       [](Json &j) { j["divisible_sizes"][0][0] = "kv.size1"; },
       {"key \"divisible_sizes[0][0]\"", "names no buffer"}},
      {"divisible_sizes a number",
       [](Json &j) { j["divisible_sizes"] = 1; },
       {"key \"divisible_sizes\"", "expected an array"}},
      // caps
      {"17 buffers",
       [](Json &j) {
         while (j["buffers"].size() < ATTN_MAX_BUFFERS + 1)
           j["buffers"].push_back(
               buffer({"input"}, "f32", 1, {-1}, "read", 4));
         j["params"] = paramsOf(j["buffers"]);
       },
       {"key \"buffers\"", "17 buffers, more than this runtime holds (16)"}},
      {"65 equal sizes",
       [](Json &j) {
         while (j["equal_sizes"].size() < ATTN_MAX_SIZE_PAIRS + 1)
           j["equal_sizes"].push_back({"q.size0", "k.size0"});
       },
       {"key \"equal_sizes\"", "65 entries, more than this runtime holds (64)"}},
      {"65 divisible sizes",
       [](Json &j) {
         while (j["divisible_sizes"].size() < ATTN_MAX_SIZE_PAIRS + 1)
           j["divisible_sizes"].push_back({"k.size1", "q.size1"});
       },
       {"key \"divisible_sizes\"", "65 entries"}},
      {"name past its field",
       [](Json &j) { j["name"] = std::string(128, 'n'); },
       {"key \"name\"", "longer than 127 bytes"}},
      // optional keys, when present
      {"mask a string", [](Json &j) { j["mask"] = "causal"; },
       {"key \"mask\"", "expected an object"}},
      {"mask without alignment",
       [](Json &j) { j["mask"] = {{"kind", "causal"}}; },
       {"mask.alignment"}},
      {"scale_log2e 0", [](Json &j) { j["scale_log2e"] = 0; },
       {"key \"scale_log2e\"", "finite and non-zero"}},
      {"scale_log2e a string", [](Json &j) { j["scale_log2e"] = "0.1"; },
       {"key \"scale_log2e\"", "expected a number"}},
  };
  for (const Case &c : cases) {
    Json m = g;
    c.mutate(m);
    expectRejected(text(m), "v2 " + std::string(c.what), c.needles);
  }

  // Positions: the real document is one line; the message gives the column
  // of the offending value.
  Json m = g;
  m["buffers"][4]["align"] = 6;
  std::string doc = text(m);
  size_t column = doc.find("\"align\":6") + std::strlen("\"align\":") + 1;
  expectRejected(doc, "v2 position of a bad value",
                 {"line 1, column " + std::to_string(column)});
}

void testCorruptText() {
  std::string good = text(realV2());
  // A duplicate key inside a buffer (nlohmann cannot write one).
  std::string dup = good;
  dup.replace(dup.find("\"rank\":4"), 8, "\"rank\":4,\"rank\":4");
  expectRejected(dup, "v2 duplicate key in a buffer",
                 {"duplicate key \"buffers[0].rank\""});
  std::string dupTop = "{\"format_version\":2," + good.substr(1);
  expectRejected(dupTop, "v2 duplicate top-level key",
                 {"duplicate key \"format_version\""});

  // Every proper prefix is refused, with a message.
  int accepted = 0, silent = 0;
  for (size_t len = 0; len < good.size(); ++len) {
    attn_kernel_desc d;
    char err[512] = {0};
    if (attn_desc_parse_string(good.data(), len, "meta.json", &d, err,
                               sizeof err) == 0)
      ++accepted;
    else if (!err[0])
      ++silent;
  }
  CHECK(accepted == 0 && silent == 0,
        "v2: every truncation is refused with a message (" +
            std::to_string(accepted) + " accepted, " + std::to_string(silent) +
            " silent)");
  expectRejected(good.substr(0, good.size() - 1), "v2 missing the last brace",
                 {"malformed JSON", "unexpected end of input"});

  // Garbage.
  expectRejected("\x7f" "ELF\x02\x01\x01", "an ELF header", {"malformed JSON"});
  expectRejected("format_version: 2", "YAML", {"malformed JSON"});
  expectRejected("{\"format_version\": 2} {}", "two objects",
                 {"expected end of input"});

  // Random corruption never crashes; refusals always have a message.
  uint64_t state = 0x2545F4914F6CDD1Dull;
  auto next = [&]() {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
  };
  int refused = 0, noMessage = 0;
  for (int i = 0; i < 5000; ++i) {
    std::string doc = good;
    int edits = 1 + (int)(next() % 3);
    for (int e = 0; e < edits; ++e) {
      size_t pos = next() % doc.size();
      switch (next() % 3) {
      case 0:
        doc[pos] = (char)(next() & 0xFF);
        break;
      case 1:
        doc.erase(pos, 1);
        break;
      default:
        doc.insert(pos, 1, (char)(next() & 0xFF));
      }
    }
    attn_kernel_desc d;
    char err[512] = {0};
    if (attn_desc_parse_string(doc.data(), doc.size(), "fuzz.json", &d, err,
                               sizeof err) != 0) {
      ++refused;
      noMessage += err[0] == '\0';
    }
  }
  CHECK(noMessage == 0, "v2: every refused corruption has a message");
  CHECK(refused > 2500, "v2: most corruptions are refused (" +
                            std::to_string(refused) + " of 5000)");
}

//===----------------------------------------------------------------------===//
// Launches
//===----------------------------------------------------------------------===//

void expectValid(const attn_kernel_desc &d, const Args &a,
                 const std::string &what, attn_plan_action action) {
  attn_launch_plan_v2 plan;
  std::string msg;
  int rc = validate(d, a, &plan, msg);
  CHECK(rc == 0 && plan.action == action,
        "v2 launch '" + what + "': expected valid, action " +
            std::to_string(action) + "; got rc " + std::to_string(rc) +
            ", action " + std::to_string(plan.action) + ": " + msg);
}

void expectInvalid(const attn_kernel_desc &d, const Args &a,
                   const std::string &what,
                   const std::vector<std::string> &needles) {
  attn_launch_plan_v2 plan;
  std::string msg;
  if (validate(d, a, &plan, msg) == 0) {
    CHECK(false, "v2 launch '" + what + "': expected a rejection");
    return;
  }
  for (const std::string &n : needles)
    CHECK(contains(msg, n),
          "v2 launch '" + what + "': message lacks \"" + n + "\": " + msg);
}

void testPlan() {
  const attn_kernel_desc d = descOf(realV2());
  attn_launch_plan_v2 plan;
  std::string msg;
  Args a = goodArgs();
  CHECK(validate(d, a, &plan, msg) == 0, "v2 good launch: " + msg);
  CHECK(plan.action == ATTN_PLAN_LAUNCH, "v2 good launch launches");
  CHECK(plan.grid[0] == 1 && plan.grid[1] == 16 && plan.grid[2] == 1,
        "v2 grid (ceil(100 / 128), 2 * 8, 1)");
  CHECK(plan.block[0] == 128 && plan.block[1] == 1 && plan.block[2] == 1,
        "v2 block (128, 1, 1)");
  CHECK(plan.shared_bytes == 98304, "v2 shared bytes");
  const uint64_t want[] = {
      0x10000000, 2, 8, 100, 128, 8 * 100 * 128, 100 * 128, 128, 1, // q
      0x20000000, 2, 2, 300, 128, 2 * 300 * 128, 300 * 128, 128, 1, // k
      0x30000000, 2, 2, 300, 128, 2 * 300 * 128, 300 * 128, 128, 1, // v
      0x40000000, 2, 8, 100, 128, 8 * 100 * 128, 100 * 128, 128, 1, // o
      0x50000000, 2, 8, 100, 8 * 100, 100, 1};                       // lse
  bool same = plan.num_words == sizeof want / sizeof want[0];
  for (uint32_t i = 0; same && i < plan.num_words; ++i)
    same = plan.words[i] == want[i];
  CHECK(same, "v2 parameters: per buffer pointer, sizes, strides (" +
                  std::to_string(plan.num_words) + " words)");

  // Argument order does not matter; the plan may be NULL.
  Args shuffled;
  for (const char *role : {"lse", "v", "o", "q", "k"})
    shuffled.add(role, a[role]);
  attn_launch_plan_v2 plan2;
  CHECK(validate(d, shuffled, &plan2, msg) == 0 &&
            plan2.num_words == plan.num_words &&
            std::memcmp(plan2.words, plan.words, 8 * plan.num_words) == 0,
        "v2 arguments in another order give the same parameters: " + msg);
  CHECK(validate(d, a, nullptr, msg) == 0, "v2 plan may be NULL: " + msg);
  CHECK(attn_validate_args(nullptr, a.list.data(), a.list.size(), &plan,
                           nullptr, 0) != 0,
        "v2 NULL description");
  CHECK(attn_validate_args(&d, nullptr, 5, &plan, nullptr, 0) != 0,
        "v2 NULL args");

  // Grid x rounds up; y is B * Hq.
  Args big = goodArgs(3, 4, 4, 1000, 10);
  CHECK(validate(d, big, &plan, msg) == 0 && plan.grid[0] == 8 &&
            plan.grid[1] == 12,
        "v2 grid (ceil(1000 / 128), 3 * 4): " + msg);

  // K and V as one buffer: one set of parameters.
  const attn_kernel_desc kv = descOf(kvV2());
  Args self = goodArgs();
  self["v"] = self["k"];
  CHECK(validate(kv, self, &plan, msg) == 0 && plan.num_words == 34 &&
            plan.words[9] == 0x20000000 && plan.words[18] == 0x40000000,
        "v2 k+v buffer: k's tensor once, then o: " + msg);
}

void testLaunchRules() {
  const attn_kernel_desc d = descOf(realV2());
  struct Rule {
    std::string what;
    std::function<void(Args &)> mutate;
    std::vector<std::string> needles;
  };
  const std::vector<Rule> rules = {
      // Arguments and roles.
      {"no q", [](Args &a) { a.remove("q"); }, {"no q argument"}},
      {"no lse", [](Args &a) { a.remove("lse"); },
       {"no lse argument", "buffer lse"}},
      {"q twice", [](Args &a) { a.add("q", a["q"]); },
       {"args[5]", "a second q argument"}},
      {"unknown role", [](Args &a) { a.list[2].role = "value"; },
       {"args[2]", "unknown role \"value\""}},
      {"NULL role", [](Args &a) { a.list[1].role = nullptr; },
       {"args[1]", "no role"}},
      {"a role the kernel lacks",
       [](Args &a) { a.add("bias", a["q"]); },
       {"args[5]", "the kernel has no bias buffer"}},
      {"an input the kernel lacks",
       [](Args &a) { a.add("input", a["q"]); },
       {"the kernel has no input buffer"}},
      // Types and ranks.
      {"q bf16", [](Args &a) { a["q"].dtype = ATTN_BF16; },
       {"q: element type bf16, expected f16"}},
      {"lse f16", [](Args &a) { a["lse"].dtype = ATTN_F16; },
       {"lse: element type f16, expected f32"}},
      {"bad dtype value",
       [](Args &a) {
         int bad = 9;
         std::memcpy(&a["k"].dtype, &bad, sizeof bad);
       },
       {"k: element type ?9"}},
      {"q rank 3", [](Args &a) { a["q"].rank = 3; },
       {"q: rank 3, expected 4"}},
      {"lse rank 4", [](Args &a) { a["lse"].rank = 4; },
       {"lse: rank 4, expected 3"}},
      {"v rank 99", [](Args &a) { a["v"].rank = 99; }, {"v: rank 99"}},
      // Shapes.
      {"static dim", [](Args &a) { a["k"].shape[3] = 64; },
       {"k: dim 3 is 64", "the kernel needs 128"}},
      {"negative extent", [](Args &a) { a["o"].shape[0] = -1; },
       {"o: negative extent -1 of dim 0"}},
      {"extent over the 32-bit limit",
       [](Args &a) { a["k"].shape[2] = (1ll << 31) - 1024; },
       {"k: extent 2147482624 of dim 2", "over 2147482623", "32 bits"}},
      {"negative stride", [](Args &a) { a["v"].strides[1] = -38400; },
       {"v: negative stride -38400 of dim 1"}},
      {"innermost stride 2", [](Args &a) { a["q"].strides[3] = 2; },
       {"q: innermost stride 2, expected 1"}},
      {"lse innermost stride 0", [](Args &a) { a["lse"].strides[2] = 0; },
       {"lse: innermost stride 0"}},
      // The contract.
      {"k batch 3", [](Args &a) { a["k"].shape[0] = 3; },
       {"equal_sizes: q.size0 = 2 but k.size0 = 3"}},
      {"v rows 299", [](Args &a) { a["v"].shape[2] = 299; },
       {"equal_sizes: k.size2 = 300 but v.size2 = 299"}},
      {"lse rows 99", [](Args &a) { a["lse"].shape[2] = 99; },
       {"equal_sizes: q.size2 = 100 but lse.size2 = 99"}},
      {"Hq % Hkv != 0",
       [](Args &a) {
         a["k"].shape[1] = 3;
         a["v"].shape[1] = 3;
       },
       {"divisible_sizes: q.size1 = 8 is not a multiple of k.size1 = 3"}},
      {"Hkv = 0",
       [](Args &a) {
         a["k"].shape[1] = 0;
         a["v"].shape[1] = 0;
       },
       {"divisible_sizes: k.size1 = 0, must be > 0"}},
      // Pointers and alignment.
      {"q null", [](Args &a) { a["q"].ptr = 0; },
       {"q: null data pointer", "without elements"}},
      {"q 8-byte aligned", [](Args &a) { a["q"].ptr += 8; },
       {"q: data pointer 0x10000008 is not 16-byte aligned"}},
      {"o 2-byte aligned", [](Args &a) { a["o"].ptr += 2; },
       {"o: data pointer 0x40000002 is not 4-byte aligned"}},
      {"lse 2-byte aligned", [](Args &a) { a["lse"].ptr += 2; },
       {"lse", "4-byte aligned"}},
      {"q row stride of 264 bytes", [](Args &a) { a["q"].strides[2] = 132; },
       {"q: stride 132 of dim 2 (264 bytes) is not a multiple of 16 bytes"}},
      {"k head stride odd",
       [](Args &a) { a["k"].strides[1] = 300 * 128 + 4; },
       {"k: stride 38404 of dim 1"}},
      {"o row stride of 258 bytes", [](Args &a) { a["o"].strides[2] = 129; },
       {"o: stride 129 of dim 2 (258 bytes) is not a multiple of 4 bytes"}},
      // Outputs.
      {"o head stride 0", [](Args &a) { a["o"].strides[1] = 0; },
       {"o: stride 0 on dim 1 of extent 8", "overlap"}},
      {"lse batch stride 0", [](Args &a) { a["lse"].strides[0] = 0; },
       {"lse: stride 0 on dim 0 of extent 2"}},
      {"o over q", [](Args &a) { a["o"].ptr = a["q"].ptr; },
       {"o overlaps q", "[0x10000000, 0x10064000)"}},
      {"o inside k", [](Args &a) { a["o"].ptr = a["k"].ptr + 4096; },
       {"o overlaps k"}},
      {"lse inside o", [](Args &a) { a["lse"].ptr = a["o"].ptr + 1024; },
       {"o overlaps lse"}},
      {"o 4 bytes into the end of v",
       [](Args &a) { a["o"].ptr = a["v"].ptr + 2 * 2 * 300 * 128 * 2 - 4; },
       {"o overlaps v"}},
      // Address arithmetic.
      {"element offsets past 2^63",
       [](Args &a) { a["k"].strides[0] = 1ll << 62; },
       {"k:", "beyond 2^63"}},
      {"byte stride past 2^63",
       [](Args &a) {
         a["q"].shape[0] = 1;
         a["o"].shape[0] = 1;
         a["lse"].shape[0] = 1;
         a["k"].shape[0] = 1;
         a["v"].shape[0] = 1;
         a["v"].strides[1] = 1ll << 62;
       },
       {"v: stride 4611686018427387904 of dim 1 is beyond 2^63 bytes"}},
      {"range past 2^64",
       [](Args &a) { a["v"].ptr = 0xFFFFFFFFFFFFF000ull; },
       {"v: data pointer 0xfffffffffffff000", "64-bit address space"}},
  };
  for (const Rule &r : rules) {
    Args a = goodArgs();
    r.mutate(a);
    expectInvalid(d, a, r.what, r.needles);
  }

  // What is allowed.
  Args a = goodArgs();
  a["o"].ptr += 4;
  expectValid(d, a, "o 4-byte aligned (its align is 4)", ATTN_PLAN_LAUNCH);
  a = goodArgs();
  a["o"].strides[2] = 130;
  a["o"].strides[1] = 100 * 130;
  a["o"].strides[0] = 8 * 100 * 130;
  expectValid(d, a, "o row stride of 260 bytes", ATTN_PLAN_LAUNCH);
  a = goodArgs();
  a["q"].strides[2] = 136;
  a["q"].strides[1] = 100 * 136;
  a["q"].strides[0] = 8 * 100 * 136;
  expectValid(d, a, "q row stride of 272 bytes", ATTN_PLAN_LAUNCH);
  a = goodArgs();
  a["k"].strides[1] = 0;
  a["v"].strides[1] = 0;
  expectValid(d, a, "inputs may broadcast (stride 0)", ATTN_PLAN_LAUNCH);
  a = goodArgs();
  a["v"] = a["k"];
  expectValid(d, a, "K and V given one tensor (inputs may overlap)",
              ATTN_PLAN_LAUNCH);
  a = goodArgs();
  a["o"].ptr = a["v"].ptr + 2 * 2 * 300 * 128 * 2;
  expectValid(d, a, "o right after the end of v", ATTN_PLAN_LAUNCH);
  a = goodArgs(1, 8, 2, 1, 300);
  a["q"].strides[0] = 3; // extent 1: never used
  a["q"].strides[2] = 5;
  a["o"].strides[0] = 0;
  a["lse"].strides[2] = 7; // innermost extent 1
  expectValid(d, a, "strides of extent-1 dims are not checked",
              ATTN_PLAN_LAUNCH);
  a = goodArgs(1, 1, 1, 10, (1ll << 31) - 1025);
  a["o"].ptr = 0x1000000000000ull; // past K's 550 GB
  a["lse"].ptr = 0x1000100000000ull;
  expectValid(d, a, "Nk = 2^31 - 1025, the largest extent", ATTN_PLAN_LAUNCH);

  // Grid y.
  a = goodArgs(2, 32768, 1, 10, 10);
  expectInvalid(d, a, "B * Hq = 65536",
                {"grid y = q.size0 * q.size1 = 2 * 32768 = 65536",
                 "over the limit of 65535"});
  a = goodArgs(1, 65535, 1, 1, 1);
  attn_launch_plan_v2 plan;
  std::string msg;
  CHECK(validate(d, a, &plan, msg) == 0 && plan.grid[1] == 65535,
        "v2 B * Hq = 65535 is allowed: " + msg);
}

void testEmptyProblems() {
  const attn_kernel_desc d = descOf(realV2());
  attn_launch_plan_v2 plan;
  std::string msg;

  Args a = goodArgs(2, 8, 2, 0, 300);
  a["q"].ptr = a["o"].ptr = a["lse"].ptr = 0;
  CHECK(validate(d, a, &plan, msg) == 0 && plan.action == ATTN_PLAN_NOTHING &&
            plan.grid[0] == 0,
        "v2 Nq = 0 launches nothing (null q, o, lse allowed): " + msg);
  a = goodArgs(0, 8, 2, 100, 300);
  for (const char *role : {"q", "k", "v", "o", "lse"})
    a[role].ptr = 0;
  CHECK(validate(d, a, &plan, msg) == 0 && plan.action == ATTN_PLAN_NOTHING,
        "v2 B = 0 launches nothing: " + msg);

  // Nk = 0: the kernel runs (it writes O = 0, LSE = -inf); K and V are
  // never read, so any pointer will do.
  a = goodArgs(2, 8, 2, 100, 0);
  a["k"].ptr = 0;
  a["v"].ptr = 0x30000002; // misaligned, but nothing is read
  CHECK(validate(d, a, &plan, msg) == 0 && plan.action == ATTN_PLAN_LAUNCH &&
            plan.grid[0] == 1 && plan.grid[1] == 16 && plan.words[9] == 0 &&
            plan.words[12] == 0,
        "v2 Nk = 0 launches the kernel: " + msg);
  a["o"].ptr = 0;
  expectInvalid(d, a, "Nk = 0 with a null o", {"o: null data pointer"});
  a = goodArgs(2, 8, 2, 100, 0);
  a["o"].strides[1] = 0;
  expectInvalid(d, a, "Nk = 0 still checks the outputs", {"o: stride 0"});
  a = goodArgs(2, 8, 2, 100, 0);
  a["k"].shape[0] = 1;
  expectInvalid(d, a, "Nk = 0 still checks the contract",
                {"q.size0 = 2 but k.size0 = 1"});
}

/// A bias [B or 1, Hq or 1, Nq, Nk]: its batch and head extents broadcast
/// (broadcast_sizes), the others are the contract's equalities.
void testBroadcastSizes() {
  Json j = realV2();
  Json b = j["buffers"];
  b.push_back(buffer({"bias"}, "f16", 4, {-1, -1, -1, -1}, "read", 2));
  j = withBuffers(j, b);
  Json eq = j["equal_sizes"];
  eq.push_back({"q.size2", "bias.size2"});
  eq.push_back({"k.size2", "bias.size3"});
  j["equal_sizes"] = eq;
  j["broadcast_sizes"] = parsed(R"([["bias.size0","q.size0"],["bias.size1","q.size1"]])");
  const attn_kernel_desc d = descOf(j);
  CHECK(d.num_broadcast_sizes == 2 && d.broadcast_sizes[1].first.buffer == 5 &&
            d.broadcast_sizes[1].first.dim == 1 &&
            d.broadcast_sizes[1].second.buffer == 0,
        "broadcast_sizes parsed");
  for (auto [bb, hb, ok] : {std::tuple{1, 1, true}, std::tuple{2, 8, true},
                            std::tuple{1, 8, true}, std::tuple{2, 1, true},
                            std::tuple{3, 8, false}, std::tuple{2, 4, false}}) {
    Args a = goodArgs();
    a.add("bias", contiguous(0x60000000, {bb, hb, 100, 300}, ATTN_F16));
    std::string msg;
    int rc = validate(d, a, nullptr, msg);
    std::string what = "bias [" + std::to_string(bb) + ", " +
                       std::to_string(hb) + ", Nq, Nk] with B = 2, Hq = 8";
    CHECK((rc == 0) == ok, what + (ok ? " is accepted" : " is refused") +
                               (msg.empty() ? "" : ": " + msg));
    if (!ok)
      CHECK(msg.find("broadcast_sizes: bias.size") != std::string::npos &&
                msg.find("is neither 1 nor q.size") != std::string::npos,
            what + ": the message names the broadcast rule: " + msg);
  }
  // The key is optional (no broadcast dimensions), but not malformed.
  Json bad = j;
  bad["broadcast_sizes"] = parsed(R"([["bias.size0"]])");
  std::string msg;
  attn_kernel_desc out;
  CHECK(parse(text(bad), out, msg) != 0 &&
            msg.find("broadcast_sizes[0]") != std::string::npos,
        "a one-element broadcast_sizes entry is refused: " + msg);
}

void testKVAndRepeatedRoles() {
  const attn_kernel_desc kv = descOf(kvV2());
  Args a = goodArgs();
  a["v"] = a["k"];
  expectValid(kv, a, "k+v with one tensor", ATTN_PLAN_LAUNCH);
  a["v"].ptr += 0x1000000;
  expectInvalid(kv, a, "k+v with two pointers",
                {"k+v: the k and v arguments are one buffer",
                 "data pointers 0x20000000 and 0x21000000 differ"});
  a = goodArgs();
  a["v"] = a["k"];
  a["v"].strides[2] = 256;
  expectInvalid(kv, a, "k+v with other strides", {"k+v", "strides"});
  a = goodArgs();
  a["v"] = a["k"];
  a["v"].shape[2] = 299;
  expectInvalid(kv, a, "k+v with other shapes", {"k+v", "shapes"});
  a = goodArgs();
  a["v"] = a["k"];
  a["v"].dtype = ATTN_BF16;
  expectInvalid(kv, a, "k+v with other types", {"k+v", "element types"});
  a = goodArgs();
  a.remove("v");
  expectInvalid(kv, a, "k+v without v",
                {"no v argument", "the kernel's buffer k+v"});
  a = goodArgs();
  a["v"] = a["k"];
  a["o"].ptr = a["k"].ptr;
  expectInvalid(kv, a, "o over the k+v buffer", {"o overlaps k+v"});

  // Several input buffers take the input arguments in order.
  Json j = realV2();
  Json b = j["buffers"];
  b.push_back(buffer({"input"}, "f32", 1, {-1}, "read", 4));
  b.push_back(buffer({"input"}, "f32", 2, {-1, 3}, "read", 4));
  b.push_back(buffer({"output"}, "f32", 1, {-1}, "write", 4));
  const attn_kernel_desc io = descOf(withBuffers(j, b));
  a = goodArgs();
  a.add("input", contiguous(0x60000000, {5}, ATTN_F32));
  a.add("output", contiguous(0x80000000, {4}, ATTN_F32));
  a.add("input", contiguous(0x70000000, {2, 3}, ATTN_F32));
  attn_launch_plan_v2 plan;
  std::string msg;
  CHECK(validate(io, a, &plan, msg) == 0 && plan.num_words == 43 + 3 + 5 + 3 &&
            plan.words[43] == 0x60000000 && plan.words[44] == 5 &&
            plan.words[46] == 0x70000000 && plan.words[47] == 2 &&
            plan.words[51] == 0x80000000,
        "v2 inputs and outputs by order of their role: " + msg);
  Args extra = a;
  extra.add("input", contiguous(0x90000000, {5}, ATTN_F32));
  expectInvalid(io, extra, "a third input",
                {"args[8]", "more input arguments than the 2 input buffers"});
  Args missing = a;
  missing.remove("input");
  missing.remove("input");
  missing.add("input", contiguous(0x60000000, {5}, ATTN_F32));
  expectInvalid(io, missing, "one input of two",
                {"no input argument for buffers[6] (1 given)"});
  Args badShape = a;
  badShape.list[7].tensor.shape[1] = 4;
  expectInvalid(io, badShape, "second input's static dim",
                {"input: dim 1 is 4", "needs 3"});
  Args overlap = a;
  overlap.list[6].tensor.ptr = 0x60000008;
  expectInvalid(io, overlap, "output over an input", {"output overlaps input"});

  // A kernel without LSE takes no lse argument.
  Json n = realV2();
  Json nb = n["buffers"];
  nb.erase(4);
  n = withBuffers(n, nb);
  n["equal_sizes"] = Json::array();
  const attn_kernel_desc noLse = descOf(n);
  a = goodArgs();
  expectInvalid(noLse, a, "lse for a kernel without",
                {"the kernel has no lse buffer"});
  a.remove("lse");
  expectValid(noLse, a, "no lse for a kernel without", ATTN_PLAN_LAUNCH);
}

void testVersionCrossing() {
  // format_version 1 kernels through attn_validate_args.
  const char *v1doc =
      R"json({"format_version": 1, "name": "a", "target": "sm_90a", "compiler": "",
      "ptx": "a.ptx", "entry": "a", "block_m": 64, "block_n": 64, "warps": 4,
      "stages": 2, "threads": 128, "shared_bytes": 24576, "head_dim": 128,
      "value_head_dim": 128, "element_type": "f16", "has_lse": true,
      "scale_log2e": 0.2, "mask": {"kind": "none"},
      "grid": ["ceildiv(Nq, block_m)", "B * Hq", "1"],
      "params": ["q","k","v","o","lse","B","Hq","Hkv","Nq","Nk","q_sb","q_sh",
      "q_sr","k_sb","k_sh","k_sr","v_sb","v_sh","v_sr","o_sb","o_sh","o_sr",
      "lse_sb","lse_sh"]})json";
  attn_kernel_desc v1;
  std::string msg;
  CHECK(parse(v1doc, v1, msg) == 0, "v1 document for args: " + msg);
  Args a = goodArgs();
  attn_launch_plan_v2 plan;
  CHECK(validate(v1, a, &plan, msg) == 0 && plan.action == ATTN_PLAN_LAUNCH &&
            plan.num_words == 24 && plan.words[0] == 0x10000000 &&
            plan.words[4] == 0x50000000 && plan.words[5] == 2 &&
            plan.words[9] == 300 && plan.words[23] == 100 &&
            plan.grid[0] == 2 && plan.grid[1] == 16,
        "v1 kernel through attn_validate_args: its 24 parameters: " + msg);
  a = goodArgs(2, 8, 2, 100, 0);
  CHECK(validate(v1, a, &plan, msg) == 0 &&
            plan.action == ATTN_PLAN_FILL_EMPTY,
        "v1 kernel, Nk = 0: memsets instead of the kernel: " + msg);
  a = goodArgs();
  a.add("bias", a["q"]);
  expectInvalid(v1, a, "v1 kernel with a bias",
                {"args[5]", "not one of a format_version 1 kernel"});
  a = goodArgs();
  a.add("k", a["k"]);
  expectInvalid(v1, a, "v1 kernel with k twice", {"a second k argument"});
  a = goodArgs();
  a.remove("o");
  expectInvalid(v1, a, "v1 kernel without o", {"no o argument"});
  a = goodArgs();
  a.remove("lse");
  expectInvalid(v1, a, "v1 kernel without lse", {"lse is NULL"});

  // A v2 description does not fit attn_validate_launch's plan.
  const attn_kernel_desc d = descOf(realV2());
  a = goodArgs();
  attn_launch_plan p1;
  char err[512];
  CHECK(attn_validate_launch(&d, &a["q"], &a["k"], &a["v"], &a["o"], &a["lse"],
                             &p1, err, sizeof err) != 0 &&
            contains(err, "format_version 2") &&
            contains(err, "attn_validate_args"),
        std::string("attn_validate_launch refuses v2: ") + err);

  // A description made by hand with counts past the arrays.
  attn_kernel_desc bad = d;
  bad.num_buffers = ATTN_MAX_BUFFERS + 1;
  expectInvalid(bad, goodArgs(), "hand-made description, 17 buffers",
                {"built by hand"});
  bad = d;
  bad.equal_sizes[0].second.dim = 4; // lse has rank 3
  bad.equal_sizes[0].second.buffer = 4;
  expectInvalid(bad, goodArgs(), "hand-made description, bad size ref",
                {"built by hand"});
  bad = d;
  bad.buffers[0].align = 0;
  expectInvalid(bad, goodArgs(), "hand-made description, align 0",
                {"built by hand"});

  // Struct sizes for ctypes mirrors.
  CHECK(attn_struct_size("attn_kernel_desc") == sizeof(attn_kernel_desc) &&
            attn_struct_size("attn_launch_plan_v2") ==
                sizeof(attn_launch_plan_v2) &&
            attn_struct_size("attn_arg") == sizeof(attn_arg) &&
            attn_struct_size("attn_tensor") == sizeof(attn_tensor) &&
            attn_struct_size("attn_buffer_desc") == sizeof(attn_buffer_desc) &&
            attn_struct_size("attn_launch_plan") == sizeof(attn_launch_plan) &&
            attn_struct_size("attn_nothing") == 0 &&
            attn_struct_size(nullptr) == 0,
        "attn_struct_size");
  CHECK(offsetof(attn_kernel_desc, mask_right) == 2696 &&
            ATTN_MAX_PARAM_WORDS >= 16 * 9,
        "the version-1 fields keep their offsets; 16 buffers of rank 4 fit");
}

} // namespace

void testFormatVersion2() {
  testRealDocument();
  testOtherGoodDocuments();
  testMissingAndMistypedKeys();
  testCorruptText();
  testPlan();
  testLaunchRules();
  testEmptyProblems();
  testBroadcastSizes();
  testKVAndRepeatedRoles();
  testVersionCrossing();
}

} // namespace attn_rt_test
