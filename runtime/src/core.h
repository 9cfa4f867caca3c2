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

/// `s` without blanks (grid formulas are compared that way).
std::string noSpaces(const std::string &s);

class JsonDocument;

/// Reads a parsed metadata document (metadata.cpp); messages name the key.
bool readDescription(const JsonDocument &doc, attn_kernel_desc &out,
                     std::string &error);

} // namespace attn_rt

#endif // ATTN_RUNTIME_CORE_H
