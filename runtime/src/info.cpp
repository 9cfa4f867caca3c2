//===- info.cpp - attn_desc_info: a kernel description as text ----------===//
//
// The keys of attn_kernel_info that come from the metadata alone; the
// runtime adds the device's (loaded_from, load_note, device, device_arch,
// sm_count) and the handle's (last_variant, last_grid, last_persistent).
//
//===----------------------------------------------------------------------===//

#include "core.h"

#include <cstdio>
#include <cstring>
#include <string>

namespace attn_rt {
namespace {

std::string num(int64_t v) { return std::to_string(v); }

/// "f16[?,?,?,128]": element type and static shape.
std::string bufferType(attn_dtype type, const int64_t *shape, int32_t rank) {
  std::string s = std::string(attn_dtype_name(type)) + "[";
  for (int32_t i = 0; i < rank; ++i)
    s += (i ? "," : "") + (shape[i] < 0 ? std::string("?") : num(shape[i]));
  return s + "]";
}

/// "q:f16[?,?,?,128] ... o:f16[?,?,?,128](write)".
std::string buffersText(const attn_kernel_desc &d) {
  std::string s;
  auto add = [&](const std::string &name, const std::string &type,
                 bool writes) {
    s += (s.empty() ? "" : " ") + name + ":" + type + (writes ? "(write)" : "");
  };
  if (d.format_version >= 2) {
    for (int32_t i = 0; i < d.num_buffers; ++i) {
      const attn_buffer_desc &b = d.buffers[i];
      add(b.name, bufferType(b.element_type, b.static_shape, b.rank),
          b.writes);
    }
    return s;
  }
  // format_version 1: the fixed ABI.
  const int64_t qk[4] = {-1, -1, -1, d.head_dim};
  const int64_t vo[4] = {-1, -1, -1, d.value_head_dim};
  add("q", bufferType(d.element_type, qk, 4), false);
  add("k", bufferType(d.element_type, qk, 4), false);
  add("v", bufferType(d.element_type, vo, 4), false);
  add("o", bufferType(d.element_type, vo, 4), true);
  if (d.has_lse)
    add("lse", bufferType(ATTN_F32, vo, 3), true);
  return s;
}

/// "k:box[64,128,1,1]:swizzle128 ...": per tensor map its buffer, box
/// (innermost first) and swizzle bytes; "" when the kernel has none.
std::string tensorMapsText(const attn_kernel_desc &d) {
  std::string s;
  for (int32_t i = 0; i < d.num_tensor_maps; ++i) {
    const attn_tensor_map_desc &m = d.tensor_maps[i];
    const attn_buffer_desc &b = d.buffers[m.buffer];
    s += (i ? " " : "") + std::string(b.name) + ":box[";
    for (int32_t j = 0; j < b.rank; ++j)
      s += (j ? "," : "") + num(m.box[j]);
    s += "]:swizzle" + num(m.swizzle);
  }
  return s;
}

std::string maskText(const attn_kernel_desc &d, const std::string &key) {
  if (key == "mask" || key == "mask_kind")
    return d.mask_kind == ATTN_MASK_NONE     ? "none"
           : d.mask_kind == ATTN_MASK_CAUSAL ? "causal"
                                             : "window";
  if (key == "alignment")
    return d.mask_alignment == ATTN_BOTTOM_RIGHT ? "bottom_right" : "top_left";
  if (key == "window_left" || key == "left")
    return d.mask_kind == ATTN_MASK_WINDOW ? num(d.mask_left) : "inf";
  // window_right
  return d.mask_kind == ATTN_MASK_WINDOW   ? num(d.mask_right)
         : d.mask_kind == ATTN_MASK_CAUSAL ? "0"
                                           : "inf";
}

} // namespace

bool descInfo(const attn_kernel_desc &d, const std::string &key,
              std::string &value) {
  // A head dim of 0 is a dynamic one (format_version 2).
  auto dimText = [](int64_t v) { return v > 0 ? num(v) : std::string("?"); };
  if (key == "name")
    value = d.name;
  else if (key == "entry")
    value = d.entry;
  else if (key == "target")
    value = d.target;
  else if (key == "compiler")
    value = d.compiler;
  else if (key == "ptx")
    value = d.ptx;
  else if (key == "cubin")
    value = d.cubin;
  else if (key == "format_version")
    value = num(d.format_version);
  else if (key == "head_dim")
    value = dimText(d.head_dim);
  else if (key == "value_head_dim")
    value = dimText(d.value_head_dim);
  else if (key == "dtype" || key == "element_type")
    value = attn_dtype_name(d.element_type);
  else if (key == "block_m")
    value = num(d.block_m);
  else if (key == "block_n")
    value = num(d.block_n);
  else if (key == "warps")
    value = num(d.warps);
  else if (key == "stages")
    value = num(d.stages);
  else if (key == "threads")
    value = num(d.threads);
  else if (key == "shared_bytes")
    value = num(d.shared_bytes);
  else if (key == "has_lse")
    value = d.has_lse ? "1" : "0";
  else if (key == "buffers")
    value = buffersText(d);
  else if (key == "tensor_maps")
    value = tensorMapsText(d);
  else if (key == "dispatch")
    value = dispatchText(d);
  else if (key == "tma_fallback")
    value = std::string(d.tma_fallback,
                        strnlen(d.tma_fallback, sizeof d.tma_fallback));
  else if (key == "persistent")
    value = d.persistent ? "1" : "0";
  else if (key == "ctas_per_sm")
    value = num(d.persistent ? d.ctas_per_sm : 0);
  else if (key == "scale_log2e") {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.9g", d.scale_log2e);
    value = d.has_scale ? buf : "?";
  } else if (key == "mask" || key == "mask_kind" || key == "alignment" ||
             key == "window_left" || key == "left" || key == "window_right" ||
             key == "right")
    value = d.has_mask_info ? maskText(d, key) : "?";
  else
    return false;
  return true;
}

} // namespace attn_rt

extern "C" int attn_desc_info(const attn_kernel_desc *desc, const char *key,
                              char *out, size_t out_len) {
  if (!desc || !key) {
    attn_rt::setError(out, out_len, "attn_desc_info: no description or key");
    return -1;
  }
  std::string value;
  if (!attn_rt::descInfo(*desc, key, value)) {
    attn_rt::setError(out, out_len, std::string("unknown key \"") + key + "\"");
    return -1;
  }
  attn_rt::setError(out, out_len, value);
  return out && value.size() < out_len ? 0 : 1;
}
