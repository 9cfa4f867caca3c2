//===- v2_documents.h - format_version 2 documents, arguments -*- C++ -*-===//
//
// The real format_version 2 document, the ways the tests vary it, and the
// tensors of one launch of it, shared by the format_version 2 and 3 tests
// (runtime_test_v2.cpp, runtime_test_v3.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_RUNTIME_V2_DOCUMENTS_H
#define ATTN_RUNTIME_V2_DOCUMENTS_H

#include "attn_runtime.h"
#include "strict_json.h"
#include "test_support.h"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace attn_rt_test {

using attn_rt::Json;

// Written by attn-compile (git 98dcae8), before "access" and "align".
inline const char *const kRealDocument =
    R"json({"block_m":128,"block_n":64,"buffers":[{"element_type":"f16","rank":4,"roles":["q"],"static_shape":[-1,-1,-1,128]},{"element_type":"f16","rank":4,"roles":["k"],"static_shape":[-1,-1,-1,128]},{"element_type":"f16","rank":4,"roles":["v"],"static_shape":[-1,-1,-1,128]},{"element_type":"f16","rank":4,"roles":["o"],"static_shape":[-1,-1,-1,128]},{"element_type":"f32","rank":3,"roles":["lse"],"static_shape":[-1,-1,-1]}],"compiler":"attn (git 98dcae8), LLVM 22.1.8","cubin":null,"divisible_sizes":[["k.size1","q.size1"]],"entry":"k","equal_sizes":[["q.size0","k.size0"],["q.size0","v.size0"],["q.size0","o.size0"],["q.size1","o.size1"],["k.size1","v.size1"],["q.size2","o.size2"],["k.size2","v.size2"],["q.size0","lse.size0"],["q.size1","lse.size1"],["q.size2","lse.size2"]],"format_version":2,"grid":["ceildiv(q.size2, block_m)","q.size0 * q.size1","1"],"lazy_rescale":true,"loop_local_ids":true,"name":"k","params":["q","q.size0","q.size1","q.size2","q.size3","q.stride0","q.stride1","q.stride2","q.stride3","k","k.size0","k.size1","k.size2","k.size3","k.stride0","k.stride1","k.stride2","k.stride3","v","v.size0","v.size1","v.size2","v.size3","v.stride0","v.stride1","v.stride2","v.stride3","o","o.size0","o.size1","o.size2","o.size3","o.stride0","o.stride1","o.stride2","o.stride3","lse","lse.size0","lse.size1","lse.size2","lse.stride0","lse.stride1","lse.stride2"],"ptx":"k.sm_90a.ptx","reverse_kv":true,"shared_bytes":98304,"split_kv":true,"stages":2,"target":"sm_90a","threads":128,"warps":4})json";

inline Json parsed(const std::string &text) {
  Json j = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded())
    std::printf("FAIL: test document does not parse: %s\n", text.c_str());
  return j;
}

/// "params" as the compiler derives it from "buffers".
inline Json paramsOf(const Json &buffers) {
  Json params = Json::array();
  for (const Json &b : buffers) {
    std::string name;
    for (const Json &r : b["roles"])
      name += (name.empty() ? "" : "+") + r.get<std::string>();
    params.push_back(name);
    int rank = b["rank"].get<int>();
    for (const char *what : {".size", ".stride"})
      for (int d = 0; d < rank; ++d)
        params.push_back(name + what + std::to_string(d));
  }
  return params;
}

/// The real document with access and align as the compiler now writes them.
/// A format_version 1 document of kernel "k" (PTX in `ptx`).
inline Json v1Document(const std::string &ptx = "k.ptx") {
  Json j = parsed(R"json({"format_version": 1, "name": "k",
    "target": "sm_90a", "compiler": "attn", "ptx": "k.ptx",
    "cubin": null, "entry": "k", "block_m": 64, "block_n": 64,
    "warps": 4, "stages": 2, "threads": 128, "shared_bytes": 24576,
    "head_dim": 128, "value_head_dim": 128, "element_type": "f16",
    "has_lse": true, "scale_log2e": 0.18033688, "mask": {"kind": "none"},
    "grid": ["ceildiv(Nq, block_m)", "B * Hq", "1"],
    "params": ["q","k","v","o","lse","B","Hq","Hkv","Nq","Nk","q_sb","q_sh",
               "q_sr","k_sb","k_sh","k_sr","v_sb","v_sh","v_sr","o_sb",
               "o_sh","o_sr","lse_sb","lse_sh"]})json");
  j["ptx"] = ptx;
  return j;
}

inline Json realV2() {
  Json j = parsed(kRealDocument);
  const char *access[] = {"read", "read", "read", "write", "write"};
  const int align[] = {16, 16, 16, 4, 4};
  for (int i = 0; i < 5; ++i) {
    j["buffers"][i]["access"] = access[i];
    j["buffers"][i]["align"] = align[i];
  }
  return j;
}

/// Replaces the buffers (and params to match).
inline Json withBuffers(Json j, const Json &buffers) {
  j["buffers"] = buffers;
  j["params"] = paramsOf(buffers);
  return j;
}

inline Json buffer(std::vector<std::string> roles, const char *type,
                   int rank, std::vector<int> shape, const char *access,
                   int align) {
  Json b;
  b["roles"] = roles;
  b["element_type"] = type;
  b["rank"] = rank;
  b["static_shape"] = shape;
  b["access"] = access;
  b["align"] = align;
  return b;
}

/// K and V as one buffer "k+v" (self-attention over one tensor).
inline Json kvV2() {
  Json j = realV2();
  Json b = j["buffers"];
  b[1]["roles"] = {"k", "v"};
  b.erase(2);
  j = withBuffers(j, b);
  j["equal_sizes"] = parsed(R"([["q.size0","k+v.size0"],["q.size0","o.size0"],
      ["q.size1","o.size1"],["q.size2","o.size2"],["q.size0","lse.size0"],
      ["q.size1","lse.size1"],["q.size2","lse.size2"]])");
  j["divisible_sizes"] = parsed(R"([["k+v.size1","q.size1"]])");
  return j;
}

inline std::string text(const Json &j) { return j.dump(); }

inline attn_kernel_desc descOf(const Json &j) {
  attn_kernel_desc d;
  std::string msg;
  if (parse(text(j), d, msg) != 0)
    std::printf("FAIL: cannot build the test description: %s\n", msg.c_str());
  return d;
}

inline std::string info(const attn_kernel_desc &d, const char *key) {
  char buf[512];
  return attn_desc_info(&d, key, buf, sizeof buf) == 0 ? buf : "<error>";
}

inline attn_tensor contiguous(uint64_t ptr, std::vector<int64_t> shape,
                              attn_dtype dtype) {
  attn_tensor t;
  std::memset(&t, 0, sizeof t);
  t.ptr = ptr;
  t.rank = (int32_t)shape.size();
  t.dtype = dtype;
  int64_t stride = 1;
  for (int i = t.rank - 1; i >= 0; --i) {
    t.shape[i] = shape[i];
    t.strides[i] = stride;
    stride *= shape[i] > 0 ? shape[i] : 1;
  }
  return t;
}

/// The tensors of one launch of the real kernel, by role.
struct Args {
  std::vector<attn_arg> list;
  attn_tensor &operator[](const std::string &role) {
    for (attn_arg &a : list)
      if (role == a.role)
        return a.tensor;
    std::printf("FAIL: test has no %s argument\n", role.c_str());
    return list[0].tensor;
  }
  void add(const char *role, const attn_tensor &t) { list.push_back({role, t}); }
  void remove(const std::string &role) {
    for (size_t i = 0; i < list.size(); ++i)
      if (role == list[i].role) {
        list.erase(list.begin() + (long)i);
        return;
      }
  }
};

// Tensors 256 MiB apart: none overlaps another unless a test moves it.
inline Args goodArgs(int64_t B = 2, int64_t Hq = 8, int64_t Hkv = 2,
                     int64_t Nq = 100, int64_t Nk = 300) {
  Args a;
  a.add("q", contiguous(0x10000000, {B, Hq, Nq, 128}, ATTN_F16));
  a.add("k", contiguous(0x20000000, {B, Hkv, Nk, 128}, ATTN_F16));
  a.add("v", contiguous(0x30000000, {B, Hkv, Nk, 128}, ATTN_F16));
  a.add("o", contiguous(0x40000000, {B, Hq, Nq, 128}, ATTN_F16));
  a.add("lse", contiguous(0x50000000, {B, Hq, Nq}, ATTN_F32));
  return a;
}

inline int validate(const attn_kernel_desc &d, const Args &a,
                    attn_launch_plan_v2 *plan, std::string &msg) {
  char err[1024];
  err[0] = '\0';
  int rc = attn_validate_args(&d, a.list.data(), a.list.size(), plan, err,
                              sizeof err);
  msg = err;
  return rc;
}

} // namespace attn_rt_test

#endif // ATTN_RUNTIME_V2_DOCUMENTS_H
