//===- strict_json.h - strict JSON documents over nlohmann::json -*- C++ -*-===//
//
// The metadata files are read with nlohmann::json (Debian's
// nlohmann-json3-dev, header only) through its SAX interface, which adds
// what the runtime needs on top of RFC 8259 syntax: duplicate keys are an
// error, nesting is limited, strings hold no NUL (they end up in C char
// arrays), numbers are finite, and every value remembers where it starts so
// that messages about it can give a line and column.
//
// No exceptions: JSON_NOEXCEPTION turns nlohmann's throws into aborts, and
// this code only calls what cannot throw (sax_parse with a handler that
// reports errors itself, is_*() checks before get<>(), find()). That holds
// whatever exception flags a parent project compiles with (LLVM builds with
// -fno-exceptions), and no exception can cross the C API.
//
// Include nlohmann only through this header, so that every translation unit
// sees the same configuration macros.
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_RUNTIME_STRICT_JSON_H
#define ATTN_RUNTIME_STRICT_JSON_H

#ifndef JSON_NOEXCEPTION
#define JSON_NOEXCEPTION 1
#endif
// `int x = value;` would convert (and, for a string, abort); conversions
// must be spelled get<T>() after a type check.
#ifndef JSON_USE_IMPLICIT_CONVERSIONS
#define JSON_USE_IMPLICIT_CONVERSIONS 0
#endif
#include <nlohmann/json.hpp>

#include <cstddef>
#include <map>
#include <string>
#include <vector>

namespace attn_rt {

using Json = nlohmann::json;

/// The deepest nesting of arrays and objects a document may have.
constexpr int kMaxJsonDepth = 64;

/// A parsed document and where each of its values starts.
class JsonDocument {
public:
  const Json &root() const { return rootValue; }

  /// "line L, column C" of the value at `path` (as JsonDocument::childPath
  /// builds them: "" for the root, "buffers[2].align"), or "" if unknown.
  std::string where(const std::string &path) const;

  /// "line L, column C" of a byte offset of the text.
  std::string whereOffset(size_t offset) const;

  /// The path of member `key` of the value at `parent`, and of element
  /// `index`.
  static std::string childPath(const std::string &parent,
                               const std::string &key);
  static std::string childPath(const std::string &parent, size_t index);

private:
  friend bool parseJson(const char *, size_t, JsonDocument &, std::string &);
  friend class JsonDomBuilder;
  Json rootValue;
  std::map<std::string, size_t> startOffsets; // path -> first byte
  std::vector<size_t> lineStarts;             // byte offset of each line
};

/// Parses `len` bytes of `text` into `out`. On failure returns false and sets
/// `error` to "line L, column C: what went wrong".
bool parseJson(const char *text, size_t len, JsonDocument &out,
               std::string &error);

/// "null", "a boolean", "a number", "a string", "an array", "an object".
const char *jsonKindName(const Json &value);

} // namespace attn_rt

#endif // ATTN_RUNTIME_STRICT_JSON_H
