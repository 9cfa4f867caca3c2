//===- runtime_test_v3.cpp - format_version 3: TMA tensor maps ----------===//
//
// Device-free tests of format_version 3: the tensor_maps key and its
// params (every rule), the cuTensorMapEncodeTiled arguments that
// attn_validate_args prepares for a launch, what TMA cannot describe, the
// launch contract of a version-3 module, and the appended struct fields.
//
//===----------------------------------------------------------------------===//

#include "attn_runtime.h"
#include "core.h"
#include "contract.h"
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
// Documents
//===----------------------------------------------------------------------===//

Json tensorMap(int buffer, std::vector<int> box, int swizzle) {
  Json m;
  m["buffer"] = buffer;
  m["box"] = box;
  m["swizzle"] = swizzle;
  return m;
}

/// "params" of the buffers, then "<buffer>.tensor_map" per tensor map.
Json withMapParams(Json j) {
  Json params = paramsOf(j["buffers"]);
  for (const Json &m : j["tensor_maps"]) {
    std::string name;
    for (const Json &r : j["buffers"][m["buffer"].get<size_t>()]["roles"])
      name += (name.empty() ? "" : "+") + r.get<std::string>();
    params.push_back(name + ".tensor_map");
  }
  j["params"] = params;
  return j;
}

/// The real kernel as a TMA kernel: q, k and v read through tensor maps, in
/// boxes of 64 columns (128 bytes of f16: one 128-byte swizzle span) by 128
/// rows (q) or 64 (k, v).
Json realV3() {
  Json j = realV2();
  j["format_version"] = 3;
  j["tensor_maps"] = {tensorMap(0, {64, 128, 1, 1}, 128),
                      tensorMap(1, {64, 64, 1, 1}, 128),
                      tensorMap(2, {64, 64, 1, 1}, 128)};
  return withMapParams(j);
}

/// realV3 with one more (read) buffer, and a tensor map over it when
/// `box` is not empty.
Json withExtraBuffer(const Json &extra, std::vector<int> box, int swizzle) {
  Json j = realV3();
  j["buffers"].push_back(extra);
  if (!box.empty())
    j["tensor_maps"].push_back(
        tensorMap((int)j["buffers"].size() - 1, box, swizzle));
  return withMapParams(j);
}

//===----------------------------------------------------------------------===//
// Good documents
//===----------------------------------------------------------------------===//

void testGoodDocuments() {
  attn_kernel_desc d;
  std::string msg;
  int rc = parse(text(realV3()), d, msg);
  CHECK(rc == 0, "the v3 document parses: " + msg);
  if (rc != 0)
    return;
  CHECK(d.format_version == 3 && d.num_buffers == 5 && d.num_tensor_maps == 3,
        "v3: format_version, five buffers, three tensor maps");
  const int boxRows[] = {128, 64, 64};
  bool mapsOk = true;
  for (int i = 0; i < 3; ++i) {
    const attn_tensor_map_desc &m = d.tensor_maps[i];
    mapsOk &= m.buffer == i && m.swizzle == 128 && m.box[0] == 64 &&
              m.box[1] == boxRows[i] && m.box[2] == 1 && m.box[3] == 1;
  }
  CHECK(mapsOk, "v3: every tensor map's buffer, box and swizzle");
  CHECK(info(d, "format_version") == "3", "v3 info format_version");
  CHECK(info(d, "tensor_maps") == "q:box[64,128,1,1]:swizzle128 "
                                  "k:box[64,64,1,1]:swizzle128 "
                                  "v:box[64,64,1,1]:swizzle128",
        "v3 info tensor_maps: " + info(d, "tensor_maps"));
  CHECK(info(d, "buffers") ==
            "q:f16[?,?,?,128] k:f16[?,?,?,128] v:f16[?,?,?,128] "
            "o:f16[?,?,?,128](write) lse:f32[?,?,?](write)",
        "v3 info buffers: " + info(d, "buffers"));
  CHECK(d.head_dim == 128 && d.has_lse == 1 && d.element_type == ATTN_F16,
        "v3: the version-1 fields derived from the buffers");
  CHECK(info(descOf(realV2()), "tensor_maps").empty(),
        "v2 info tensor_maps is empty");

  // Other boxes and swizzles within the rules.
  Json j = realV3();
  j["tensor_maps"][0] = tensorMap(0, {128, 256, 1, 1}, 0); // 256 bytes
  j["tensor_maps"][1] = tensorMap(1, {16, 64, 2, 1}, 32);
  j["tensor_maps"][2] = tensorMap(2, {32, 8, 1, 2}, 64);
  CHECK(parse(text(j), d, msg) == 0 && d.tensor_maps[0].box[0] == 128 &&
            d.tensor_maps[1].swizzle == 32 && d.tensor_maps[2].box[3] == 2,
        "v3 with swizzle 0 (no span limit), 32 and 64: " + msg);
  j = realV3();
  j["tensor_maps"] = Json::array();
  CHECK(parse(text(withMapParams(j)), d, msg) == 0 && d.num_tensor_maps == 0,
        "v3 without tensor maps (the format-2 ABI): " + msg);
  j = realV3();
  j["tensor_maps"] = {tensorMap(2, {64, 64, 1, 1}, 128),
                      tensorMap(0, {64, 128, 1, 1}, 128)};
  CHECK(parse(text(withMapParams(j)), d, msg) == 0 &&
            d.tensor_maps[0].buffer == 2 && d.tensor_maps[1].buffer == 0,
        "v3 tensor maps in any buffer order: " + msg);
  CHECK(parse(text(withExtraBuffer(buffer({"input"}, "f16", 2, {-1, 64},
                                          "read", 16),
                                   {64, 32}, 128)),
              d, msg) == 0 &&
            d.num_tensor_maps == 4 && d.tensor_maps[3].buffer == 5 &&
            d.tensor_maps[3].box[1] == 32 && d.tensor_maps[3].box[2] == 0,
        "v3 with a map over a rank-2 input: " + msg);

  // An output written with TMA stores (attn-stage-stores): o's map, a
  // consumer warpgroup's 64 rows of 64-column boxes.
  j = realV3();
  j["tensor_maps"].push_back(tensorMap(3, {64, 64, 1, 1}, 128));
  j = withMapParams(j);
  CHECK(j["params"].back() == "o.tensor_map" && parse(text(j), d, msg) == 0 &&
            d.num_tensor_maps == 4 && d.tensor_maps[3].buffer == 3 &&
            d.buffers[3].writes &&
            info(d, "tensor_maps") == "q:box[64,128,1,1]:swizzle128 "
                                      "k:box[64,64,1,1]:swizzle128 "
                                      "v:box[64,64,1,1]:swizzle128 "
                                      "o:box[64,64,1,1]:swizzle128",
        "v3 with a map over the output o: " + msg);

  // K and V as one buffer: its map is named after it.
  j = kvV2();
  j["format_version"] = 3;
  j["tensor_maps"] = {tensorMap(1, {64, 64, 1, 1}, 128)};
  j = withMapParams(j);
  CHECK(j["params"].back() == "k+v.tensor_map" && parse(text(j), d, msg) == 0 &&
            info(d, "tensor_maps") == "k+v:box[64,64,1,1]:swizzle128",
        "v3 with a k+v buffer's map: " + msg);
}

//===----------------------------------------------------------------------===//
// Refused documents
//===----------------------------------------------------------------------===//

void testRefusedDocuments() {
  for (const char *key : {"buffer", "box", "swizzle"}) {
    Json m = realV3();
    m["tensor_maps"][2].erase(key);
    expectRejected(text(m), std::string("v3 tensor map without ") + key,
                   {"missing key \"tensor_maps[2]." + std::string(key) + "\""});
  }
  struct Case {
    const char *what;
    std::function<void(Json &)> mutate;
    std::vector<std::string> needles;
  };
  const std::vector<Case> cases = {
      // The key and the version.
      {"no tensor_maps", [](Json &j) { j.erase("tensor_maps"); },
       {"missing key \"tensor_maps\""}},
      {"tensor_maps in a v2 document",
       [](Json &j) { j["format_version"] = 2; },
       {"key \"tensor_maps\"", "needs format_version 3",
        "a format_version 2 kernel takes no tensor maps"}},
      {"format_version 4", [](Json &j) { j["format_version"] = 4; },
       {"unsupported format_version 4", "versions 1, 2 and 3"}},
      {"tensor_maps an object",
       [](Json &j) { j["tensor_maps"] = Json::object(); },
       {"key \"tensor_maps\"", "expected an array"}},
      {"a tensor map a number", [](Json &j) { j["tensor_maps"][1] = 1; },
       {"key \"tensor_maps[1]\"", "expected an object"}},
      {"unknown tensor map key",
       [](Json &j) { j["tensor_maps"][0]["stride"] = 16; },
       {"key \"tensor_maps[0].stride\"", "unknown tensor map key"}},
      {"9 tensor maps",
       [](Json &j) {
         while (j["tensor_maps"].size() < ATTN_MAX_TENSOR_MAPS + 1)
           j["tensor_maps"].push_back(tensorMap(0, {64, 1, 1, 1}, 0));
       },
       {"key \"tensor_maps\"",
        "9 tensor maps, more than this runtime holds (8)"}},
      // buffer
      {"buffer 5", [](Json &j) { j["tensor_maps"][0]["buffer"] = 5; },
       {"key \"tensor_maps[0].buffer\"", "5 is out of range [0, 4]"}},
      {"buffer -1", [](Json &j) { j["tensor_maps"][0]["buffer"] = -1; },
       {"tensor_maps[0].buffer", "out of range"}},
      {"buffer a name", [](Json &j) { j["tensor_maps"][0]["buffer"] = "q"; },
       {"tensor_maps[0].buffer", "expected an integer, got a string"}},
      {"a map per buffer", [](Json &j) { j["tensor_maps"][2]["buffer"] = 1; },
       {"key \"tensor_maps[2].buffer\"",
        "buffer k has a tensor map already (tensor_maps[1])"}},
      // box
      {"box of 3 for rank 4",
       [](Json &j) { j["tensor_maps"][0]["box"] = {64, 128, 1}; },
       {"key \"tensor_maps[0].box\"", "3 entries for buffer q of rank 4",
        "innermost first"}},
      {"box of 5", [](Json &j) { j["tensor_maps"][1]["box"].push_back(1); },
       {"tensor_maps[1].box", "5 entries for buffer k of rank 4"}},
      {"box a number", [](Json &j) { j["tensor_maps"][0]["box"] = 64; },
       {"tensor_maps[0].box", "expected an array"}},
      {"box 0", [](Json &j) { j["tensor_maps"][0]["box"][1] = 0; },
       {"key \"tensor_maps[0].box[1]\"", "0 is out of range [1, 256]"}},
      {"box 257", [](Json &j) { j["tensor_maps"][1]["box"][3] = 257; },
       {"key \"tensor_maps[1].box[3]\"", "257 is out of range [1, 256]"}},
      {"box 1.5", [](Json &j) { j["tensor_maps"][1]["box"][2] = 1.5; },
       {"tensor_maps[1].box[2]", "non-integral"}},
      {"box[0] * 2 bytes over the 128-byte swizzle",
       [](Json &j) { j["tensor_maps"][0]["box"][0] = 128; },
       {"key \"tensor_maps[0].box[0]\"", "128 elements of f16 are 256 bytes",
        "more than the swizzle span of 128 bytes"}},
      {"box[0] * 2 bytes over the 64-byte swizzle",
       [](Json &j) { j["tensor_maps"][1]["swizzle"] = 64; },
       {"tensor_maps[1].box[0]", "64 elements of f16 are 128 bytes",
        "swizzle span of 64 bytes"}},
      {"box[0] * 2 bytes over the 32-byte swizzle",
       [](Json &j) { j["tensor_maps"][1] = tensorMap(1, {32, 8, 1, 1}, 32); },
       {"tensor_maps[1].box[0]", "64 bytes, more than the swizzle span of "
                                 "32 bytes"}},
      {"box[0] of 8 bytes",
       [](Json &j) { j["tensor_maps"][2]["box"][0] = 4; },
       {"tensor_maps[2].box[0]", "4 elements of f16 are 8 bytes",
        "not a multiple of 16"}},
      // swizzle
      {"swizzle 16", [](Json &j) { j["tensor_maps"][0]["swizzle"] = 16; },
       {"key \"tensor_maps[0].swizzle\"",
        "unknown swizzle 16 (expected 0, 32, 64 or 128 bytes)"}},
      {"swizzle 256", [](Json &j) { j["tensor_maps"][0]["swizzle"] = 256; },
       {"tensor_maps[0].swizzle", "unknown swizzle 256"}},
      {"swizzle a string",
       [](Json &j) { j["tensor_maps"][0]["swizzle"] = "128B"; },
       {"tensor_maps[0].swizzle", "expected an integer"}},
      // params
      {"params without the tensor maps",
       [](Json &j) { j["params"] = paramsOf(j["buffers"]); },
       {"key \"params\"",
        "43 entries, the buffers and tensor maps have 46 parameters",
        "then <buffer>.tensor_map for each tensor map"}},
      {"params without the last tensor map",
       [](Json &j) { j["params"].erase(j["params"].size() - 1); },
       {"key \"params\"", "45 entries"}},
      {"params of the maps in another order",
       [](Json &j) {
         j["params"][43] = "k.tensor_map";
         j["params"][44] = "q.tensor_map";
       },
       {"key \"params[43]\"", "\"k.tensor_map\", expected \"q.tensor_map\""}},
      {"params of a map misnamed",
       [](Json &j) { j["params"][44] = "k.tma"; },
       {"key \"params[44]\"", "\"k.tma\", expected \"k.tensor_map\""}},
      {"params of a map before the buffers' words",
       [](Json &j) {
         Json p = j["params"];
         p.erase(p.size() - 3);
         p.insert(p.begin() + 9, "q.tensor_map");
         j["params"] = p;
       },
       {"key \"params[9]\"", "\"q.tensor_map\", expected \"k\""}},
      {"params with one more", [](Json &j) { j["params"].push_back("x"); },
       {"key \"params[46]\"", "past the 46 parameters"}},
  };
  for (const Case &c : cases) {
    Json m = realV3();
    c.mutate(m);
    expectRejected(text(m), "v3 " + std::string(c.what), c.needles);
  }

  // A read-only buffer of rank 1 takes no tensor map.
  expectRejected(text(withExtraBuffer(buffer({"alibi_slopes"}, "f32", 1, {-1},
                                             "read", 16),
                                      {4}, 0)),
                 "v3 map over a rank-1 buffer",
                 {"tensor_maps[3].buffer",
                  "buffers[5] (alibi_slopes) has rank 1",
                  "a tensor map needs rank 2 or more"});

  // Every proper prefix of the document is refused, with a message.
  std::string good = text(realV3());
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
        "v3: every truncation is refused with a message (" +
            std::to_string(accepted) + " accepted, " + std::to_string(silent) +
            " silent)");
}

//===----------------------------------------------------------------------===//
// Launches: the tensor maps' arguments
//===----------------------------------------------------------------------===//

/// q [2, 3, 333, 128] with padded rows (136), heads (45296) and batches;
/// GQA k and v [2, 1, 500, 128] (their head stride is never used: extent
/// 1), v with padded rows (192). o and lse far beyond k and v, so that the
/// tests may give k strides of up to 2^40 bytes.
Args stridedArgs() {
  Args a;
  attn_tensor q = contiguous(0x10000000, {2, 3, 333, 128}, ATTN_F16);
  q.strides[2] = 136;
  q.strides[1] = 45296;
  q.strides[0] = 3 * 45296 + 64;
  attn_tensor k = contiguous(0x20000000, {2, 1, 500, 128}, ATTN_F16);
  k.strides[1] = 7;
  attn_tensor v = contiguous(0x30000000, {2, 1, 500, 128}, ATTN_F16);
  v.strides[2] = 192;
  v.strides[1] = 500 * 192;
  v.strides[0] = 500 * 192;
  a.add("q", q);
  a.add("k", k);
  a.add("v", v);
  a.add("o", contiguous(0x200000000000, {2, 3, 333, 128}, ATTN_F16));
  a.add("lse", contiguous(0x200040000000, {2, 3, 333}, ATTN_F32));
  return a;
}

/// The arguments a tensor map of rank `rank` should get (TMA order).
attn_tensor_map_args mapArgs(int32_t buffer, uint64_t address,
                             std::vector<uint64_t> dims,
                             std::vector<uint64_t> strides,
                             std::vector<uint32_t> box, uint32_t dataType,
                             uint32_t swizzle) {
  attn_tensor_map_args a;
  std::memset(&a, 0, sizeof a);
  a.buffer = buffer;
  a.encode = 1;
  a.data_type = dataType;
  a.rank = (uint32_t)dims.size();
  a.global_address = address;
  for (size_t i = 0; i < dims.size(); ++i) {
    a.global_dim[i] = dims[i];
    a.box_dim[i] = box[i];
    a.element_strides[i] = 1;
  }
  for (size_t i = 0; i < strides.size(); ++i)
    a.global_strides[i] = strides[i];
  a.interleave = ATTN_TMA_INTERLEAVE_NONE;
  a.swizzle = swizzle;
  a.l2_promotion = ATTN_TMA_L2_PROMOTION_L2_256B;
  a.oob_fill = ATTN_TMA_FLOAT_OOB_FILL_NONE;
  return a;
}

std::string mapText(const attn_tensor_map_args &a) {
  std::string s = "buffer " + std::to_string(a.buffer) + " encode " +
                  std::to_string(a.encode) + " type " +
                  std::to_string(a.data_type) + " rank " +
                  std::to_string(a.rank) + " address " +
                  std::to_string(a.global_address) + " dims";
  for (uint64_t v : a.global_dim)
    s += " " + std::to_string(v);
  s += " strides";
  for (uint64_t v : a.global_strides)
    s += " " + std::to_string(v);
  s += " box";
  for (uint32_t v : a.box_dim)
    s += " " + std::to_string(v);
  return s + " swizzle " + std::to_string(a.swizzle);
}

/// The plan's map i is exactly `want` (every field, padding past the rank
/// included).
void expectMap(const attn_launch_plan_v2 &plan, uint32_t i,
               const attn_tensor_map_args &want, const std::string &what) {
  CHECK(i < plan.num_tensor_maps &&
            std::memcmp(&plan.tensor_maps[i], &want, sizeof want) == 0,
        what + ": got " +
            (i < plan.num_tensor_maps ? mapText(plan.tensor_maps[i])
                                      : std::string("no map")) +
            ", expected " + mapText(want));
}

void expectLaunchRefused(const attn_kernel_desc &d, const Args &a,
                         const std::string &what,
                         const std::vector<std::string> &needles) {
  std::string msg;
  if (validate(d, a, nullptr, msg) == 0) {
    CHECK(false, "v3 launch '" + what + "': expected a refusal");
    return;
  }
  for (const std::string &n : needles)
    CHECK(contains(msg, n),
          "v3 launch '" + what + "': message lacks \"" + n + "\": " + msg);
}

void testPlan() {
  const attn_kernel_desc d = descOf(realV3());
  Args a = stridedArgs();
  attn_launch_plan_v2 plan;
  std::string msg;
  CHECK(validate(d, a, &plan, msg) == 0 && plan.action == ATTN_PLAN_LAUNCH,
        "v3 launch on strided tensors: " + msg);
  CHECK(plan.grid[0] == 3 && plan.grid[1] == 6 && plan.block[0] == 128 &&
            plan.shared_bytes == 98304,
        "v3 grid (ceil(333 / 128), 2 * 3), block, shared bytes");
  expectMap(plan, 0,
            mapArgs(0, 0x10000000, {128, 333, 3, 2},
                    {136 * 2, 45296 * 2, (3 * 45296 + 64) * 2},
                    {64, 128, 1, 1}, ATTN_TMA_DATA_TYPE_FLOAT16,
                    ATTN_TMA_SWIZZLE_128B),
            "v3 q's map: dims innermost first, byte strides");
  expectMap(plan, 1,
            mapArgs(1, 0x20000000, {128, 500, 1, 2}, {256, 0, 500 * 256},
                    {64, 64, 1, 1}, ATTN_TMA_DATA_TYPE_FLOAT16,
                    ATTN_TMA_SWIZZLE_128B),
            "v3 k's map (GQA: one head, whose stride 7 becomes 0)");
  expectMap(plan, 2,
            mapArgs(2, 0x30000000, {128, 500, 1, 2}, {384, 0, 500 * 384},
                    {64, 64, 1, 1}, ATTN_TMA_DATA_TYPE_FLOAT16,
                    ATTN_TMA_SWIZZLE_128B),
            "v3 v's map (padded rows)");
  CHECK(plan.num_tensor_maps == 3, "v3: three tensor maps in the plan");

  // The words are format 2's: the maps come after them.
  attn_launch_plan_v2 v2plan;
  CHECK(validate(descOf(realV2()), a, &v2plan, msg) == 0 &&
            plan.num_words == 43 && v2plan.num_words == 43 &&
            std::memcmp(plan.words, v2plan.words, 43 * 8) == 0 &&
            v2plan.num_tensor_maps == 0,
        "v3 words are the v2 words of the same tensors: " + msg);

  // K and V broadcast over the heads (stride 0): TMA takes it (the H200's
  // driver encodes it and the copies read head 0 for every head,
  // results/h200/2026-12-01-tma-runtime.txt).
  Args b = stridedArgs();
  for (const char *role : {"k", "v"}) {
    b[role].shape[1] = 3;
    b[role].strides[1] = 0;
  }
  CHECK(validate(d, b, &plan, msg) == 0 &&
            plan.tensor_maps[1].global_dim[2] == 3 &&
            plan.tensor_maps[1].global_strides[1] == 0 &&
            plan.tensor_maps[1].encode == 1,
        "v3 k and v with head stride 0 (broadcast) are mapped: " + msg);

  // Element types and swizzles.
  Json j = realV3();
  for (Json &buf : j["buffers"])
    if (buf["rank"] == 4)
      buf["element_type"] = "bf16";
  j["tensor_maps"][0]["swizzle"] = 0;
  j["tensor_maps"][1] = tensorMap(1, {32, 64, 1, 1}, 64);
  j["tensor_maps"][2] = tensorMap(2, {16, 64, 1, 1}, 32);
  const attn_kernel_desc bf = descOf(j);
  b = stridedArgs();
  for (const char *role : {"q", "k", "v", "o"})
    b[role].dtype = ATTN_BF16;
  CHECK(validate(bf, b, &plan, msg) == 0 &&
            plan.tensor_maps[0].data_type == ATTN_TMA_DATA_TYPE_BFLOAT16 &&
            plan.tensor_maps[0].swizzle == ATTN_TMA_SWIZZLE_NONE &&
            plan.tensor_maps[1].swizzle == ATTN_TMA_SWIZZLE_64B &&
            plan.tensor_maps[2].swizzle == ATTN_TMA_SWIZZLE_32B &&
            plan.tensor_maps[2].box_dim[0] == 16,
        "v3 bf16 maps, swizzles 0, 64 and 32 bytes: " + msg);
  j = realV3();
  for (Json &buf : j["buffers"])
    buf["element_type"] = "f32";
  for (Json &m : j["tensor_maps"])
    m["box"][0] = 32; // 128 bytes of f32
  const attn_kernel_desc f32 = descOf(j);
  b = stridedArgs();
  for (const char *role : {"q", "k", "v", "o"})
    b[role].dtype = ATTN_F32;
  CHECK(validate(f32, b, &plan, msg) == 0 &&
            plan.tensor_maps[0].data_type == ATTN_TMA_DATA_TYPE_FLOAT32 &&
            plan.tensor_maps[0].global_strides[0] == 136 * 4 &&
            plan.tensor_maps[2].global_strides[2] == 500 * 192 * 4,
        "v3 f32 maps: 4-byte elements: " + msg);

  // A rank-2 tensor: one stride, nothing past it. With rows broadcast
  // (stride 0 on a dim of extent 10: a bias broadcast over its rows) it is
  // mapped with a zero stride, every row of a box copied from the one row;
  // no TMA rule refuses it (the runtime prefers a fallback: wantsTmaFallback).
  const attn_kernel_desc in2 = descOf(withExtraBuffer(
      buffer({"input"}, "f16", 2, {-1, 64}, "read", 16), {64, 32}, 128));
  for (int64_t rowStride : {72, 0}) {
    b = stridedArgs();
    attn_tensor x = contiguous(0x60000000, {10, 64}, ATTN_F16);
    x.strides[0] = rowStride;
    b.add("input", x);
    std::string what = "v3 rank-2 map, row stride " + std::to_string(rowStride);
    CHECK(validate(in2, b, &plan, msg) == 0 && plan.num_tensor_maps == 4,
          what + ": " + msg);
    expectMap(plan, 3,
              mapArgs(5, 0x60000000, {64, 10}, {(uint64_t)rowStride * 2},
                      {64, 32}, ATTN_TMA_DATA_TYPE_FLOAT16,
                      ATTN_TMA_SWIZZLE_128B),
              what);
  }
}

void testTmaRules() {
  const attn_kernel_desc d = descOf(realV3());
  struct Rule {
    const char *what;
    std::function<void(Args &)> mutate;
    std::vector<std::string> needles;
  };
  const std::vector<Rule> rules = {
      {"q 8-byte aligned", [](Args &a) { a["q"].ptr += 8; },
       {"q.tensor_map: data pointer 0x10000008 is not 16-byte aligned",
        "TMA cannot describe the tensor"}},
      {"k 2-byte aligned", [](Args &a) { a["k"].ptr += 2; },
       {"k.tensor_map: data pointer 0x20000002", "TMA cannot describe"}},
      {"k rows of 264 bytes", [](Args &a) { a["k"].strides[2] = 132; },
       {"k.tensor_map: stride 132 of dim 2 (264 bytes) is not a multiple of "
        "16 bytes",
        "TMA cannot describe the tensor"}},
      {"v batches of 192008 bytes",
       [](Args &a) { a["v"].strides[0] = 96004; },
       {"v.tensor_map: stride 96004 of dim 0 (192008 bytes)",
        "not a multiple of 16"}},
      {"q heads of 90584 bytes",
       [](Args &a) { a["q"].strides[1] = 45292; },
       {"q.tensor_map: stride 45292 of dim 1"}},
      {"k batches of 2^40 bytes",
       [](Args &a) { a["k"].strides[0] = int64_t(1) << 39; },
       {"k.tensor_map: stride 549755813888 of dim 0 is 2^40 bytes or more",
        "TMA cannot describe"}},
      {"k stride past 2^63 bytes",
       [](Args &a) { a["k"].strides[0] = int64_t(1) << 62; },
       {"k.tensor_map: stride 4611686018427387904 of dim 0", "2^40"}},
  };
  for (const Rule &r : rules) {
    Args a = stridedArgs();
    r.mutate(a);
    expectLaunchRefused(d, a, r.what, r.needles);
  }
  Args a = stridedArgs();
  a["k"].strides[0] = (int64_t(1) << 39) - 8; // 2^40 - 16 bytes
  std::string msg;
  attn_launch_plan_v2 plan;
  CHECK(validate(d, a, &plan, msg) == 0 &&
            plan.tensor_maps[1].global_strides[2] ==
                (uint64_t(1) << 40) - 16,
        "v3 a stride of 2^40 - 16 bytes is mapped: " + msg);

  // TMA's 16 bytes where the buffer's align would take less: refused for
  // the map alone.
  Json j = realV3();
  j["buffers"][0]["align"] = 2;
  Json j2 = realV2();
  j2["buffers"][0]["align"] = 2;
  a = stridedArgs();
  a["q"].ptr += 2;
  a["q"].strides[2] = 129;
  a["q"].strides[1] = 333 * 129;
  a["q"].strides[0] = 3 * 333 * 129;
  CHECK(validate(descOf(j2), a, nullptr, msg) == 0,
        "v2 with align 2 takes q at +2 with rows of 258 bytes: " + msg);
  expectLaunchRefused(descOf(j), a, "align 2, q at +2",
                      {"q.tensor_map: data pointer 0x10000002"});
  a["q"].ptr -= 2;
  expectLaunchRefused(descOf(j), a, "align 2, rows of 258 bytes",
                      {"q.tensor_map: stride 129 of dim 2 (258 bytes)"});
}

/// Tensors without elements are never read, and TMA has no extent 0: no
/// map is encoded for them (the kernel gets zero bytes).
void testEmptyTensors() {
  const attn_kernel_desc d = descOf(realV3());
  attn_launch_plan_v2 plan;
  std::string msg;
  Args a = stridedArgs();
  for (const char *role : {"k", "v"})
    a[role].shape[2] = 0;
  a["k"].ptr = 0;
  a["v"].ptr = 0x30000002; // misaligned, but never read
  CHECK(validate(d, a, &plan, msg) == 0 && plan.action == ATTN_PLAN_LAUNCH &&
            plan.num_tensor_maps == 3 && plan.tensor_maps[0].encode == 1 &&
            plan.tensor_maps[1].encode == 0 &&
            plan.tensor_maps[2].encode == 0 &&
            plan.tensor_maps[2].global_address == 0,
        "v3 Nk = 0: launched, no map for k and v: " + msg);
  a = stridedArgs();
  for (const char *role : {"q", "o", "lse"}) {
    a[role].shape[2] = 0;
    a[role].ptr = 0;
  }
  CHECK(validate(d, a, &plan, msg) == 0 && plan.action == ATTN_PLAN_NOTHING &&
            plan.tensor_maps[0].encode == 0 &&
            plan.tensor_maps[1].encode == 1,
        "v3 Nq = 0: nothing launched, no map for q: " + msg);
  a["k"].ptr += 8;
  expectLaunchRefused(d, a, "Nq = 0 still checks k's map",
                      {"k.tensor_map: data pointer"});
}

//===----------------------------------------------------------------------===//
// Launch contract, hand-made descriptions, struct layout
//===----------------------------------------------------------------------===//

void testContract() {
  using namespace attn_rt;
  const attn_kernel_desc v3 = descOf(realV3());
  const attn_kernel_desc v2 = descOf(realV2());
  // What the compiler wrote for the real kernel (block_m 128, ..., five
  // buffers) before persistent kernels: version 1, 18 words (the 19th, not
  // read, 0); format 3 for a TMA kernel. runtime_test_persistent.cpp has
  // version 2.
  int64_t c[kContractFields] = {0x6e747461, 1, 3,   128, 64, 4, 2, 128, 98304,
                                128,        128, 0, 1,   0,  0, 0, 0,   5};
  const size_t v1 = contractBytes(1);
  std::string error;
  CHECK(checkContract(v3, c, v1, "attn_contract_k", error),
        "a v3 JSON with a format-3 contract loads: " + error);
  CHECK(!checkContract(v2, c, v1, "attn_contract_k", error) &&
            contains(error, "format_version = 2, the module's launch "
                            "contract 3"),
        "a v2 JSON with a format-3 contract is refused: " + error);
  c[kContractFormat] = 2;
  CHECK(checkContract(v2, c, v1, "attn_contract_k", error),
        "a v2 JSON with a format-2 contract loads: " + error);
  CHECK(!checkContract(v3, c, v1, "attn_contract_k", error) &&
            contains(error, "format_version = 3, the module's launch "
                            "contract 2") &&
            contains(error, "the JSON does not describe this kernel"),
        "a v3 JSON with a format-2 contract is refused: " + error);
  c[kContractFormat] = 3;
  c[kContractNumBuffers] = 4;
  CHECK(!checkContract(v3, c, v1, "attn_contract_k", error) &&
            contains(error, "number of buffers = 5"),
        "v3: the number of buffers is still compared: " + error);
  c[kContractNumBuffers] = 5;
  c[kContractVersion] = 3;
  CHECK(!checkContract(v3, c, v1, "attn_contract_k", error) &&
            contains(error, "attn_contract_k is not one this runtime reads"),
        "an unknown contract version is refused: " + error);
}

void testHandMadeDescriptions() {
  const attn_kernel_desc d = descOf(realV3());
  const Args a = stridedArgs();
  struct Case {
    const char *what;
    std::function<void(attn_kernel_desc &)> mutate;
  };
  const std::vector<Case> cases = {
      {"9 tensor maps", [](attn_kernel_desc &x) { x.num_tensor_maps = 9; }},
      {"-1 tensor maps", [](attn_kernel_desc &x) { x.num_tensor_maps = -1; }},
      {"a map of buffer 7",
       [](attn_kernel_desc &x) { x.tensor_maps[1].buffer = 7; }},
      {"a box of 0",
       [](attn_kernel_desc &x) { x.tensor_maps[1].box[2] = 0; }},
      {"swizzle 3", [](attn_kernel_desc &x) { x.tensor_maps[0].swizzle = 3; }},
      {"a v2 description with a tensor map",
       [](attn_kernel_desc &x) { x.format_version = 2; }},
  };
  for (const Case &c : cases) {
    attn_kernel_desc bad = d;
    c.mutate(bad);
    expectLaunchRefused(bad, a, std::string("hand-made: ") + c.what,
                        {"built by hand"});
  }
  attn_launch_plan p1;
  Args g = goodArgs();
  char err[512];
  CHECK(attn_validate_launch(&d, &g["q"], &g["k"], &g["v"], &g["o"],
                             &g["lse"], &p1, err, sizeof err) != 0 &&
            contains(err, "format_version 3") &&
            contains(err, "attn_validate_args"),
        std::string("attn_validate_launch refuses v3: ") + err);
}

void testStructLayout() {
  CHECK(attn_struct_size("attn_tensor_map_desc") ==
                sizeof(attn_tensor_map_desc) &&
            attn_struct_size("attn_tensor_map_args") ==
                sizeof(attn_tensor_map_args) &&
            sizeof(attn_tensor_map_desc) == 24 &&
            sizeof(attn_tensor_map_args) == 128,
        "attn_struct_size of the tensor map structs (24 and 128 bytes)");
  // Appended: every older field keeps its offset.
  CHECK(offsetof(attn_kernel_desc, num_tensor_maps) ==
                offsetof(attn_kernel_desc, broadcast_sizes) +
                    sizeof(attn_kernel_desc::broadcast_sizes) &&
            offsetof(attn_launch_plan_v2, num_tensor_maps) ==
                offsetof(attn_launch_plan_v2, words) +
                    sizeof(attn_launch_plan_v2::words) &&
            offsetof(attn_launch_plan_v2, words) == 40,
        "the tensor map fields are appended to attn_kernel_desc and "
        "attn_launch_plan_v2");
  CHECK(sizeof(attn_launch_plan_v2) == 2224 &&
            attn_struct_size("attn_launch_plan_v2") == 2224,
        "attn_launch_plan_v2 is 2224 bytes");
}

} // namespace

/// "tma_fallback": the key's rules, and which refusals it falls back from
/// (wantsTmaFallback: a tensor map's, not another check's).
void testTmaFallbackKey() {
  Json j = realV3();
  j["tma_fallback"] = "k__unstaged";
  expectParses(text(j), "a TMA kernel with a fallback");
  CHECK(info(descOf(j), "tma_fallback") == "k__unstaged" &&
            info(descOf(realV3()), "tma_fallback").empty(),
        "info tma_fallback: the key's kernel, \"\" without");
  struct Case {
    const char *what;
    Json doc;
    std::vector<std::string> needles;
  };
  Json v2 = realV2();
  v2["tma_fallback"] = "k__unstaged";
  Json noMaps = realV3();
  noMaps["tensor_maps"] = Json::array();
  noMaps = withMapParams(noMaps);
  noMaps["tma_fallback"] = "k__unstaged";
  Json table = realV3();
  table["dispatch"] = parsed(
      R"({"on": "k.size2", "variants": [{"max": 512, "kernel": "k__n512"}]})");
  table["tma_fallback"] = "k__n512";
  auto with = [&](Json value) {
    Json d = realV3();
    d["tma_fallback"] = value;
    return d;
  };
  const std::vector<Case> cases = {
      {"format 2", v2,
       {"key \"tma_fallback\"", "a kernel without tensor maps"}},
      {"format 3 without maps", noMaps, {"a kernel without tensor maps"}},
      {"a number", with(3), {"key \"tma_fallback\"", "expected a string"}},
      {"empty", with(""), {"key \"tma_fallback\""}},
      {"a path", with("d/k__unstaged"),
       {"\"d/k__unstaged\" is not a file name"}},
      {"itself", with("k"), {"\"k\" is this kernel itself"}},
      {"a variant", table, {"\"k__n512\" is a dispatch variant"}},
  };
  for (const Case &c : cases)
    expectRejected(text(c.doc), std::string("tma_fallback: ") + c.what,
                   c.needles);

  const attn_kernel_desc d = descOf(realV3());
  std::string why;
  bool preferred = true;
  Args a = goodArgs();
  CHECK(!attn_rt::wantsTmaFallback(d, a.list.data(), a.list.size(), 0, why,
                                   preferred),
        "wantsTmaFallback: not for a launch that passes");
  a["k"].ptr += 8;
  CHECK(attn_rt::wantsTmaFallback(d, a.list.data(), a.list.size(), 0, why,
                                  preferred) &&
            !preferred &&
            contains(why, "k.tensor_map: data pointer 0x20000008"),
        "wantsTmaFallback: k's pointer 8-byte aligned: " + why);
  a = goodArgs();
  a["k"].strides[2] = 132;
  a["k"].strides[1] = 132 * 300;
  a["k"].strides[0] = 2 * 132 * 300;
  CHECK(attn_rt::wantsTmaFallback(d, a.list.data(), a.list.size(), 0, why,
                                  preferred) &&
            contains(why, "k.tensor_map: stride 132 of dim 2 (264 bytes)"),
        "wantsTmaFallback: rows of 264 bytes: " + why);
  // K's rows broadcast (stride 0 along the box's 64 rows): the launch
  // passes, but the fallback is preferred, with the map and dim named.
  a = goodArgs();
  a["k"].strides[2] = 0;
  CHECK(attn_rt::wantsTmaFallback(d, a.list.data(), a.list.size(), 0, why,
                                  preferred) &&
            preferred &&
            contains(why, "k.tensor_map: stride 0 of dim 2 with a box of 64 "
                          "along it"),
        "wantsTmaFallback: rows of a box that are one row (preferred): " + why);
  // A zero stride along a dim the box does not span (K over the heads,
  // box extent 1): TMA as usual.
  a = goodArgs();
  a["k"].strides[1] = 0;
  CHECK(!attn_rt::wantsTmaFallback(d, a.list.data(), a.list.size(), 0, why,
                                   preferred),
        "wantsTmaFallback: a zero head stride (a box of one head) keeps TMA");
  a = goodArgs();
  a["o"].dtype = ATTN_BF16;
  a["k"].ptr += 8; // the type is checked first
  CHECK(!attn_rt::wantsTmaFallback(d, a.list.data(), a.list.size(), 0, why,
                                   preferred),
        "wantsTmaFallback: not for a launch refused before the tensor maps");
  CHECK(!attn_rt::wantsTmaFallback(descOf(realV2()), goodArgs().list.data(),
                                   goodArgs().list.size(), 0, why, preferred),
        "wantsTmaFallback: never for a kernel without tensor maps");
}

void testFormatVersion3() {
  testGoodDocuments();
  testTmaFallbackKey();
  testRefusedDocuments();
  testPlan();
  testTmaRules();
  testEmptyTensors();
  testContract();
  testHandMadeDescriptions();
  testStructLayout();
}

} // namespace attn_rt_test
