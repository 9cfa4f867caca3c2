//===- dispatch.cpp - per-length kernel variants: checks and choice -----===//
//
// A kernel's "dispatch" table names sibling kernels of its directory that
// compute the same attention with other tiles, each for key lengths up to
// its max. This file reads and checks their metadata against the main
// kernel's (before runtime.cpp loads anything on the device, so that a bad
// table fails cheaply and the same way with or without a GPU) and picks
// the kernel of a launch. Nothing here needs a device.
//
//===----------------------------------------------------------------------===//

#include "core.h"

#include <cstdio>
#include <cstring>
#include <string>

namespace attn_rt {
namespace {

/// The number of entries of a table, bounded: a description may be built
/// by hand, and nothing may read past variants[].
int32_t variantCount(const attn_kernel_desc &d) {
  if (d.dispatch_on != ATTN_DISPATCH_K_SIZE2 || d.num_variants < 0)
    return 0;
  return d.num_variants < ATTN_MAX_VARIANTS ? d.num_variants
                                            : ATTN_MAX_VARIANTS;
}

/// A variant's name, even when a hand-made description lacks its NUL.
std::string variantName(const attn_variant_desc &v) {
  return std::string(v.kernel, strnlen(v.kernel, sizeof v.kernel));
}

std::string num(int64_t v) { return std::to_string(v); }

/// A head dim of 0 is a dynamic one.
std::string dimText(int64_t v) { return v > 0 ? num(v) : "?"; }

std::string shapeText(const attn_buffer_desc &b) {
  std::string s = "[";
  for (int32_t i = 0; i < b.rank && i < ATTN_MAX_RANK; ++i)
    s += (i ? "," : "") + (b.static_shape[i] < 0 ? std::string("?")
                                                 : num(b.static_shape[i]));
  return s + "]";
}

std::string maskKindText(const attn_kernel_desc &d) {
  if (!d.has_mask_info)
    return "absent";
  return d.mask_kind == ATTN_MASK_NONE     ? "none"
         : d.mask_kind == ATTN_MASK_CAUSAL ? "causal"
                                           : "window";
}

std::string scaleText(const attn_kernel_desc &d) {
  if (!d.has_scale)
    return "absent";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", d.scale_log2e);
  return buf;
}

/// Compares the variant with the main kernel field by field; the first
/// difference is the message. Only the interface: how each kernel is
/// launched (tiles, warps, shared memory, tensor maps, whether it is
/// persistent and its CTAs per SM: a persistent variant for short keys is
/// the point of some tables) is its own, checked and planned per kernel at
/// load and at launch.
class InterfaceCheck {
public:
  InterfaceCheck(const attn_kernel_desc &main, const attn_kernel_desc &variant,
                 std::string &message)
      : m(main), v(variant), error(message) {}

  bool run();

private:
  const attn_kernel_desc &m, &v;
  std::string &error;

  /// false, with the message, when `got` (the variant's) differs from
  /// `want` (the main kernel's).
  bool same(const std::string &field, const std::string &got,
            const std::string &want) {
    if (got == want)
      return true;
    error = field + " is " + got + ", " + m.name + "'s is " + want +
            " (a variant must have the interface of the kernel it stands in "
            "for)";
    return false;
  }

  bool sameBuffer(int32_t i);
  bool sameMask();
};

bool InterfaceCheck::sameBuffer(int32_t i) {
  const attn_buffer_desc &a = v.buffers[i], &b = m.buffers[i];
  std::string at = "buffers[" + num(i) + "]";
  // The roles decide which argument a tensor is; the name spells them out.
  std::string aRoles(a.name, strnlen(a.name, sizeof a.name)),
      bRoles(b.name, strnlen(b.name, sizeof b.name));
  return same(at + ".roles", aRoles, bRoles) &&
         same(at + " (" + bRoles + ") element_type",
              attn_dtype_name(a.element_type),
              attn_dtype_name(b.element_type)) &&
         same(at + " (" + bRoles + ") rank", num(a.rank), num(b.rank)) &&
         same(at + " (" + bRoles + ") static_shape", shapeText(a),
              shapeText(b)) &&
         same(at + " (" + bRoles + ") access", a.writes ? "write" : "read",
              b.writes ? "write" : "read");
}

/// The mask as the contract compares it: the alignment only matters for a
/// mask, the extents only for a window.
bool InterfaceCheck::sameMask() {
  if (!same("mask.kind", maskKindText(v), maskKindText(m)))
    return false;
  if (!m.has_mask_info || m.mask_kind == ATTN_MASK_NONE)
    return true;
  auto alignment = [](const attn_kernel_desc &d) {
    return d.mask_alignment == ATTN_BOTTOM_RIGHT ? "bottom_right"
                                                 : "top_left";
  };
  if (!same("mask.alignment", alignment(v), alignment(m)))
    return false;
  if (m.mask_kind != ATTN_MASK_WINDOW)
    return true;
  return same("mask.left", num(v.mask_left), num(m.mask_left)) &&
         same("mask.right", num(v.mask_right), num(m.mask_right));
}

bool InterfaceCheck::run() {
  if (v.format_version < 2) {
    error = "format_version " + num(v.format_version) +
            "; a variant is a format_version 2 or 3 kernel (as the one it "
            "stands in for)";
    return false;
  }
  if (v.num_variants != 0 || v.dispatch_on != ATTN_DISPATCH_NONE) {
    error = "has a dispatch table itself; a variant is one kernel (nested "
            "tables are not followed)";
    return false;
  }
  if (!same("has_lse", num(v.has_lse), num(m.has_lse)) ||
      !same("head_dim", dimText(v.head_dim), dimText(m.head_dim)) ||
      !same("value_head_dim", dimText(v.value_head_dim),
            dimText(m.value_head_dim)) ||
      !same("element_type", attn_dtype_name(v.element_type),
            attn_dtype_name(m.element_type)) ||
      !same("the number of buffers", num(v.num_buffers), num(m.num_buffers)))
    return false;
  for (int32_t i = 0; i < m.num_buffers && i < ATTN_MAX_BUFFERS; ++i)
    if (!sameBuffer(i))
      return false;
  return sameMask() && same("scale_log2e", scaleText(v), scaleText(m));
}

} // namespace

bool readKernelFile(const std::string &dir, const std::string &name,
                    attn_kernel_desc &d, std::string &error) {
  std::string path = joinPath(dir, name + ".json");
  char msg[2048];
  if (attn_desc_parse_file(path.c_str(), &d, msg, sizeof msg)) {
    error = msg;
    return false;
  }
  if (name != d.name) {
    error = path + ": describes kernel \"" + d.name + "\", not \"" + name +
            "\"";
    return false;
  }
  return true;
}

bool checkVariant(const attn_kernel_desc &main, const attn_kernel_desc &variant,
                  std::string &error) {
  return InterfaceCheck(main, variant, error).run();
}

bool readVariants(const std::string &dir, const attn_kernel_desc &main,
                  attn_kernel_desc *variants, std::string &error) {
  for (int32_t i = 0; i < variantCount(main); ++i) {
    std::string name = variantName(main.variants[i]);
    std::string which = "dispatch variant \"" + name +
                        "\" (dispatch.variants[" + num(i) + "] of " +
                        main.name + ")";
    std::string why;
    if (!readKernelFile(dir, name, variants[i], why)) {
      error = which + ": " + why;
      return false;
    }
    if (!checkVariant(main, variants[i], why)) {
      error = which + ", " + joinPath(dir, name + ".json") + ": " + why;
      return false;
    }
  }
  return true;
}

bool readTmaFallback(const std::string &dir, const attn_kernel_desc &main,
                     attn_kernel_desc &fallback, std::string &error) {
  std::string name(main.tma_fallback,
                   strnlen(main.tma_fallback, sizeof main.tma_fallback));
  std::string which = "TMA fallback \"" + name + "\" (tma_fallback of " +
                      main.name + ")";
  std::string why;
  if (!readKernelFile(dir, name, fallback, why)) {
    error = which + ": " + why;
    return false;
  }
  if (!checkVariant(main, fallback, why)) {
    error = which + ", " + joinPath(dir, name + ".json") + ": " + why;
    return false;
  }
  if (fallback.tma_fallback[0]) {
    error = which + ", " + joinPath(dir, name + ".json") +
            ": has a TMA fallback itself; a fallback is one kernel (nested "
            "fallbacks are not followed)";
    return false;
  }
  return true;
}

int64_t dispatchExtent(const attn_arg *args, size_t numArgs) {
  for (size_t i = 0; args && i < numArgs; ++i) {
    if (!args[i].role || std::strcmp(args[i].role, "k") != 0)
      continue;
    const attn_tensor &t = args[i].tensor;
    return t.rank >= 3 && t.rank <= ATTN_MAX_RANK && t.shape[2] >= 0
               ? t.shape[2]
               : -1;
  }
  return -1;
}

int selectVariant(const attn_kernel_desc &d, int64_t extent) {
  if (extent < 0)
    return -1;
  for (int32_t i = 0; i < variantCount(d); ++i)
    if (extent <= d.variants[i].max)
      return i;
  return -1;
}

std::string dispatchText(const attn_kernel_desc &d) {
  std::string s;
  for (int32_t i = 0; i < variantCount(d); ++i)
    s += "k.size2<=" + num(d.variants[i].max) + ":" +
         variantName(d.variants[i]) + " ";
  return s.empty() ? s
                   : s + "else:" +
                         std::string(d.name, strnlen(d.name, sizeof d.name));
}

} // namespace attn_rt

extern "C" int attn_desc_select_variant(const attn_kernel_desc *desc,
                                        const attn_arg *args,
                                        size_t num_args) {
  if (!desc)
    return -1;
  return attn_rt::selectVariant(*desc,
                                attn_rt::dispatchExtent(args, num_args));
}
