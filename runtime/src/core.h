//===- core.h - runtime internals shared by the library and tests -*- C++ -*-===//

#ifndef ATTN_RUNTIME_CORE_H
#define ATTN_RUNTIME_CORE_H

#include "attn_runtime.h"

#include <cstddef>
#include <string>

namespace attn_rt {

/// Copies `msg` into the caller's buffer (truncated, NUL-terminated); a NULL
/// buffer is fine.
void setError(char *err, size_t errLen, const std::string &msg);

/// Reads a whole file of at most `maxBytes` bytes; messages name the path.
bool readFile(const std::string &path, size_t maxBytes, std::string &out,
              std::string &error);

/// The "params" and "grid" lists of format_version 1.
extern const char *const kExpectedParams[24];
extern const char *const kExpectedGrid[3];

/// The grid of format_version 2.
extern const char *const kExpectedGridV2[3];

/// The role names of format_version 2, indexed by attn_role.
extern const char *const kRoleNames[ATTN_NUM_ROLES];

/// The attn_role of `name`, or -1. NULL is no role.
int roleFromName(const char *name);

/// The largest extent a format_version 2 kernel takes: it indexes in 32
/// bits and adds up to a tile (<= 1024) to an index.
constexpr int64_t kMaxExtent = (int64_t(1) << 31) - 1025;

/// The dtype field as the integer the caller stored: a C or ctypes caller may
/// store any int there, which is not a valid value of the C++ enum.
int dtypeValue(const attn_tensor &t);

/// "f16", "bf16", "f32", or "?" for another value.
const char *dtypeName(int value);

/// Format-version-1 launch checks (core.cpp): t = q, k, v, o, lse.
bool validateV1(const attn_kernel_desc &d, const attn_tensor *const t[5],
                attn_launch_plan &plan, std::string &error);

/// attn_validate_args_sm (validate_args.cpp); smCount <= 0: unknown.
bool validateArgs(const attn_kernel_desc &d, const attn_arg *args,
                  size_t numArgs, int32_t smCount, attn_launch_plan_v2 &plan,
                  std::string &error);

/// The value of an attn_kernel_info key that the description alone gives
/// (info.cpp); false for another key.
bool descInfo(const attn_kernel_desc &d, const std::string &key,
              std::string &value);

/// `s` without blanks (grid formulas are compared that way).
std::string noSpaces(const std::string &s);

/// `file` in directory `dir` (a path that starts with '/' as it is).
std::string joinPath(const std::string &dir, const std::string &file);

/// Reads dir/<name>.json into `d` and checks that it describes kernel
/// `name`; messages name the file (dispatch.cpp).
bool readKernelFile(const std::string &dir, const std::string &name,
                    attn_kernel_desc &d, std::string &error);

/// Reads the descriptions of the variants of `main`'s dispatch table
/// (dir/<variant>.json, in table order) and checks each against `main`
/// (checkVariant); messages name the variant. Nothing is loaded on a device.
bool readVariants(const std::string &dir, const attn_kernel_desc &main,
                  attn_kernel_desc *variants, std::string &error);

/// Whether `variant` (dispatch.variants[index] of `main`) can stand in for
/// `main`: no dispatch table of its own, format_version 2 or 3, and the
/// same interface (buffers: roles, element types, ranks, static shapes,
/// access; LSE, head dims, mask, scale). Else the message names the field.
bool checkVariant(const attn_kernel_desc &main, const attn_kernel_desc &variant,
                  std::string &error);

/// Reads the description of `main`'s TMA fallback (dir/<tma_fallback>.json)
/// into `fallback` and checks it as a variant of `main` (checkVariant) that
/// has no fallback of its own; messages name it. Nothing is loaded.
bool readTmaFallback(const std::string &dir, const attn_kernel_desc &main,
                     attn_kernel_desc &fallback, std::string &error);

/// Whether `desc`'s launch with these arguments should go to its TMA
/// fallback, with the reason in `why`: because one of its tensor maps
/// cannot describe its argument (a pointer or a stride TMA cannot take;
/// `preferred` false), or, for a launch that passes, because a map's box
/// would copy one row many times (a zero stride along a dim the box spans;
/// `preferred` true: the fallback runs only where it takes the launch).
/// False for a launch that passes otherwise or that is refused for
/// anything else (validate_args.cpp).
bool wantsTmaFallback(const attn_kernel_desc &desc, const attn_arg *args,
                      size_t numArgs, int32_t smCount, std::string &why,
                      bool &preferred);

/// The extent that picks a variant: size 2 of the first "k" argument, or -1
/// when there is none of rank >= 3 or it is negative.
int64_t dispatchExtent(const attn_arg *args, size_t numArgs);

/// The variant of d's table for extent `extent` (an index into
/// d.variants), or -1 for the kernel itself.
int selectVariant(const attn_kernel_desc &d, int64_t extent);

/// "k.size2<=512:a k.size2<=2048:b else:main", "" without a table.
std::string dispatchText(const attn_kernel_desc &d);

class JsonDocument;

/// Reads a parsed metadata document (metadata.cpp); messages name the key.
bool readDescription(const JsonDocument &doc, attn_kernel_desc &out,
                     std::string &error);

} // namespace attn_rt

#endif // ATTN_RUNTIME_CORE_H
