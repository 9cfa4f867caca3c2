//===- json.h - a small strict JSON parser --------------------*- C++ -*-===//
//
// Just enough JSON for the kernel metadata files: RFC 8259 syntax, no
// extensions (no comments, trailing commas, NaN/Infinity), UTF-8 strings with
// all escapes, a nesting limit, duplicate keys rejected. Never throws on bad
// input (it reports a message with line and column instead) and never reads
// past the given buffer.
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_RUNTIME_JSON_H
#define ATTN_RUNTIME_JSON_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace attn_rt {

struct JsonValue {
  enum Kind { Null, Bool, Number, String, Array, Object };
  Kind kind = Null;
  bool boolean = false;
  double number = 0;      // every number
  bool isInteger = false; // written without fraction/exponent and fits int64
  int64_t integer = 0;
  std::string str;
  std::vector<JsonValue> array;
  std::vector<std::pair<std::string, JsonValue>> object; // in file order
  int line = 0, column = 0; // where the value starts, 1-based

  /// The member `key` of an object, or nullptr.
  const JsonValue *find(const std::string &key) const;
};

const char *jsonKindName(JsonValue::Kind k);

/// Parses `len` bytes of `text` into `out`. On failure returns false and sets
/// `error` to "line L, column C: what went wrong".
bool parseJson(const char *text, size_t len, JsonValue &out,
               std::string &error);

} // namespace attn_rt

#endif // ATTN_RUNTIME_JSON_H
