//===- strict_json.cpp - strict JSON documents over nlohmann::json -------===//

#include "strict_json.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <utility>

namespace attn_rt {

namespace {

/// A pointer into the text that records how far the parser has read. The
/// SAX callbacks carry no position; this lets them know where they are.
class TrackingIterator {
public:
  using iterator_category = std::input_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char *;
  using reference = const char &;

  TrackingIterator(const char *p, const char **furthest)
      : p(p), furthest(furthest) {}
  reference operator*() const { return *p; }
  TrackingIterator &operator++() {
    *furthest = ++p;
    return *this;
  }
  TrackingIterator operator++(int) {
    TrackingIterator old = *this;
    ++*this;
    return old;
  }
  bool operator==(const TrackingIterator &o) const { return p == o.p; }
  bool operator!=(const TrackingIterator &o) const { return p != o.p; }

private:
  const char *p;
  const char **furthest;
};

bool isSeparator(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',' ||
         c == ':';
}

} // namespace

/// Builds the DOM from SAX events, with the checks nlohmann does not make.
/// Containers under construction are kept as pointers: a container's parent
/// gets no new member while the container is open, so the pointers stay
/// valid (as in nlohmann's own DOM parser).
class JsonDomBuilder {
public:
  JsonDomBuilder(const char *text, size_t len, const char **furthest,
                 JsonDocument &doc, std::string &error)
      : text(text), len(len), furthest(furthest), doc(doc), error(error) {}

  bool null() { return addValue(Json(nullptr)); }
  bool boolean(bool b) { return addValue(Json(b)); }
  bool number_integer(Json::number_integer_t v) { return addValue(Json(v)); }
  bool number_unsigned(Json::number_unsigned_t v) { return addValue(Json(v)); }
  bool number_float(Json::number_float_t v, const Json::string_t &literal) {
    // JSON allows numbers beyond double's range; no field of ours needs them.
    if (!std::isfinite(v))
      return failAtValue("number " + literal + " is out of range");
    return addValue(Json(v));
  }
  bool string(Json::string_t &s) {
    if (s.find('\0') != Json::string_t::npos)
      return failAtValue("a string holds \\u0000, which no field allows");
    return addValue(Json(std::move(s)));
  }
  bool binary(Json::binary_t &) {
    // JSON text has no binary values; the SAX interface asks for it anyway.
    return failAtValue("binary value");
  }
  bool start_object(std::size_t) { return open(Json::object()); }
  bool start_array(std::size_t) { return open(Json::array()); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }

  bool key(Json::string_t &k) {
    size_t start = nextTokenStart();
    Frame &top = stack.back();
    std::string path = JsonDocument::childPath(top.path, k);
    if (k.find('\0') != Json::string_t::npos)
      return fail(start, "a key holds \\u0000");
    if (top.value->contains(k))
      return fail(start, "duplicate key \"" + path + "\"");
    top.key = std::move(k);
    doc.startOffsets[path] = start;
    return true;
  }

  bool parse_error(std::size_t position, const std::string &,
                   const nlohmann::detail::exception &ex) {
    // `position` counts the bytes read, the offending one included.
    size_t offset = position > 0 ? position - 1 : 0;
    return fail(std::min(offset, len), cleanMessage(ex.what()));
  }

private:
  struct Frame {
    Json *value;
    std::string path;
    std::string key; // the member being read, for objects
  };

  const char *text;
  size_t len;
  const char **furthest;
  JsonDocument &doc;
  std::string &error;
  std::vector<Frame> stack;
  size_t consumed = 0; // bytes read by the previous event

  /// Where the token of the current event starts: between two events the
  /// parser reads only white space, ',' and ':' besides the token.
  size_t nextTokenStart() {
    size_t start = consumed;
    while (start < len && isSeparator(text[start]))
      ++start;
    consumed = (size_t)(*furthest - text);
    return start;
  }

  bool fail(size_t offset, const std::string &what) {
    error = doc.whereOffset(offset) + ": " + what;
    return false;
  }
  bool failAtValue(const std::string &what) {
    return fail(nextTokenStart(), what);
  }

  /// nlohmann's message without its "[json.exception.parse_error.101] parse
  /// error at line 1, column 2: " prefix (the position is given separately)
  /// and with the excerpt of what it last read kept short: after an
  /// unterminated string that excerpt is the rest of the file.
  static std::string cleanMessage(std::string m) {
    if (m.compare(0, 16, "[json.exception.") == 0) {
      size_t close = m.find("] ");
      if (close != std::string::npos)
        m.erase(0, close + 2);
    }
    if (m.compare(0, 15, "parse error at ") == 0) {
      size_t colon = m.find(": ");
      if (colon != std::string::npos)
        m.erase(0, colon + 2);
    }
    const std::string lastRead = "; last read: '";
    size_t from = m.find(lastRead);
    if (from != std::string::npos) {
      from += lastRead.size();
      size_t to = m.find("'", from);
      const size_t keep = 40;
      if (to != std::string::npos && to - from > keep)
        m.replace(from + keep, to - from - keep, "...");
    }
    return m;
  }

  /// Places `v` in the open container (or as the root) and records where it
  /// starts; returns the placed value and sets `path` to its path.
  Json *place(Json &&v, size_t start, std::string &path) {
    Json *slot;
    if (stack.empty()) {
      path.clear();
      doc.rootValue = std::move(v);
      slot = &doc.rootValue;
    } else if (stack.back().value->is_array()) {
      Json &array = *stack.back().value;
      path = JsonDocument::childPath(stack.back().path, array.size());
      array.push_back(std::move(v));
      slot = &array.back();
    } else {
      path = JsonDocument::childPath(stack.back().path, stack.back().key);
      slot = &(*stack.back().value)[stack.back().key];
      *slot = std::move(v);
    }
    doc.startOffsets[path] = start;
    return slot;
  }

  bool addValue(Json &&v) {
    std::string path;
    place(std::move(v), nextTokenStart(), path);
    return true;
  }

  bool open(Json &&container) {
    size_t start = nextTokenStart();
    if ((int)stack.size() >= kMaxJsonDepth)
      return fail(start, "nesting deeper than " +
                             std::to_string(kMaxJsonDepth) + " levels");
    std::string path;
    Json *slot = place(std::move(container), start, path);
    stack.push_back({slot, std::move(path), std::string()});
    return true;
  }

  bool close() {
    consumed = (size_t)(*furthest - text);
    stack.pop_back();
    return true;
  }
};

std::string JsonDocument::whereOffset(size_t offset) const {
  // The last line that starts at or before `offset`.
  auto it = std::upper_bound(lineStarts.begin(), lineStarts.end(), offset);
  size_t line = (size_t)(it - lineStarts.begin());
  size_t column = offset - lineStarts[line - 1] + 1;
  char buf[64];
  std::snprintf(buf, sizeof buf, "line %zu, column %zu", line, column);
  return buf;
}

std::string JsonDocument::where(const std::string &path) const {
  auto it = startOffsets.find(path);
  return it == startOffsets.end() ? std::string() : whereOffset(it->second);
}

std::string JsonDocument::childPath(const std::string &parent,
                                    const std::string &key) {
  return parent.empty() ? key : parent + "." + key;
}

std::string JsonDocument::childPath(const std::string &parent, size_t index) {
  return parent + "[" + std::to_string(index) + "]";
}

const char *jsonKindName(const Json &v) {
  switch (v.type()) {
  case Json::value_t::null:
    return "null";
  case Json::value_t::boolean:
    return "a boolean";
  case Json::value_t::number_integer:
  case Json::value_t::number_unsigned:
  case Json::value_t::number_float:
    return "a number";
  case Json::value_t::string:
    return "a string";
  case Json::value_t::array:
    return "an array";
  case Json::value_t::object:
    return "an object";
  default:
    return "a value JSON text cannot hold";
  }
}

bool parseJson(const char *text, size_t len, JsonDocument &out,
               std::string &error) {
  out = JsonDocument();
  if (!text) {
    error = "no text";
    return false;
  }
  out.lineStarts.push_back(0);
  for (size_t i = 0; i < len; ++i)
    if (text[i] == '\n')
      out.lineStarts.push_back(i + 1);
  if (std::all_of(text, text + len, [](char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r';
      })) {
    error = "the document is empty";
    return false;
  }
  // nlohmann takes a NUL byte for the end of the input and would ignore what
  // follows it; JSON text has none (not even in strings, unescaped).
  if (const void *nul = std::memchr(text, 0, len)) {
    error = out.whereOffset((size_t)((const char *)nul - text)) +
            ": byte 0x00 (JSON text has no NUL bytes)";
    return false;
  }
  const char *furthest = text;
  JsonDomBuilder builder(text, len, &furthest, out, error);
  bool ok = Json::sax_parse(TrackingIterator(text, &furthest),
                            TrackingIterator(text + len, &furthest), &builder,
                            Json::input_format_t::json, /*strict=*/true,
                            /*ignore_comments=*/false);
  return ok; // every callback that stops the parser has set `error`
}

} // namespace attn_rt
