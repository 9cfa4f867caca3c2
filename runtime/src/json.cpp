//===- json.cpp - a small strict JSON parser ----------------------------===//

#include "json.h"

#include <charconv>
#include <cmath>
#include <system_error>
#include <cstdio>
#include <locale>
#include <sstream>

namespace attn_rt {

const JsonValue *JsonValue::find(const std::string &key) const {
  if (kind != Object)
    return nullptr;
  for (const auto &member : object)
    if (member.first == key)
      return &member.second;
  return nullptr;
}

const char *jsonKindName(JsonValue::Kind k) {
  switch (k) {
  case JsonValue::Null:
    return "null";
  case JsonValue::Bool:
    return "a boolean";
  case JsonValue::Number:
    return "a number";
  case JsonValue::String:
    return "a string";
  case JsonValue::Array:
    return "an array";
  case JsonValue::Object:
    return "an object";
  }
  return "?";
}

namespace {

constexpr int kMaxDepth = 64;

/// Converts a validated JSON number, independently of the C locale.
bool toDouble(const std::string &text, double &value) {
#if defined(__cpp_lib_to_chars) && __cpp_lib_to_chars >= 201611L
  auto [end, ec] =
      std::from_chars(text.data(), text.data() + text.size(), value);
  return ec == std::errc() && end == text.data() + text.size();
#else
  std::istringstream in(text);
  in.imbue(std::locale::classic());
  in >> value;
  return !in.fail();
#endif
}

class Parser {
public:
  Parser(const char *text, size_t len)
      : p(text), end(text + len), lineStart(text) {}

  bool parseDocument(JsonValue &out, std::string &error) {
    skipSpace();
    if (p == end)
      return fail("the document is empty", error);
    if (!parseValue(out, 0))
      return fail(msg, error);
    skipSpace();
    if (p != end)
      return fail(describeHere("unexpected ") + " after the top-level value",
                  error);
    return true;
  }

private:
  const char *p, *end;
  const char *lineStart; // first byte of the current line
  int line = 1;
  std::string msg;       // the first error

  const char *lineBegin() const { return lineStart; }

  std::string where() const {
    char buf[64];
    std::snprintf(buf, sizeof buf, "line %d, column %d", line,
                  (int)(p - lineBegin()) + 1);
    return buf;
  }

  bool fail(const std::string &what, std::string &error) {
    error = what;
    return false;
  }

  bool error(const std::string &what) {
    if (msg.empty())
      msg = where() + ": " + what;
    return false;
  }

  std::string describeHere(const char *prefix) const {
    std::string s = prefix;
    if (p == end)
      return s + "end of file";
    unsigned char c = (unsigned char)*p;
    char buf[32];
    if (c >= 0x20 && c < 0x7f)
      std::snprintf(buf, sizeof buf, "'%c'", c);
    else
      std::snprintf(buf, sizeof buf, "byte 0x%02x", c);
    return s + buf;
  }

  bool unexpected(const char *expected) {
    return error(describeHere("unexpected ") + ", expected " + expected);
  }

  void advance() {
    if (*p == '\n') {
      ++line;
      lineStart = p + 1;
    }
    ++p;
  }

  void skipSpace() {
    while (p != end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
      advance();
  }

  bool literal(const char *word) {
    const char *q = p;
    for (const char *w = word; *w; ++w, ++q)
      if (q == end || *q != *w)
        return error(std::string("invalid literal, expected '") + word + "'");
    p = q;
    return true;
  }

  bool parseValue(JsonValue &out, int depth) {
    skipSpace();
    out.line = line;
    out.column = (int)(p - lineBegin()) + 1;
    if (p == end)
      return unexpected("a value");
    switch (*p) {
    case '{':
      return parseObject(out, depth);
    case '[':
      return parseArray(out, depth);
    case '"':
      out.kind = JsonValue::String;
      return parseString(out.str);
    case 't':
      out.kind = JsonValue::Bool;
      out.boolean = true;
      return literal("true");
    case 'f':
      out.kind = JsonValue::Bool;
      out.boolean = false;
      return literal("false");
    case 'n':
      out.kind = JsonValue::Null;
      return literal("null");
    default:
      if (*p == '-' || (*p >= '0' && *p <= '9'))
        return parseNumber(out);
      return unexpected("a value");
    }
  }

  bool parseObject(JsonValue &out, int depth) {
    if (depth >= kMaxDepth)
      return error("nesting deeper than 64 levels");
    out.kind = JsonValue::Object;
    advance(); // '{'
    skipSpace();
    if (p != end && *p == '}') {
      advance();
      return true;
    }
    for (;;) {
      skipSpace();
      if (p == end || *p != '"')
        return unexpected("a string key");
      std::string key;
      int keyLine = line, keyCol = (int)(p - lineBegin()) + 1;
      if (!parseString(key))
        return false;
      for (const auto &member : out.object)
        if (member.first == key) {
          char buf[64];
          std::snprintf(buf, sizeof buf, "line %d, column %d", keyLine, keyCol);
          if (msg.empty())
            msg = std::string(buf) + ": duplicate key \"" + key + "\"";
          return false;
        }
      skipSpace();
      if (p == end || *p != ':')
        return unexpected("':' after an object key");
      advance();
      out.object.emplace_back(std::move(key), JsonValue());
      if (!parseValue(out.object.back().second, depth + 1))
        return false;
      skipSpace();
      if (p == end)
        return unexpected("',' or '}'");
      if (*p == ',') {
        advance();
        continue;
      }
      if (*p == '}') {
        advance();
        return true;
      }
      return unexpected("',' or '}'");
    }
  }

  bool parseArray(JsonValue &out, int depth) {
    if (depth >= kMaxDepth)
      return error("nesting deeper than 64 levels");
    out.kind = JsonValue::Array;
    advance(); // '['
    skipSpace();
    if (p != end && *p == ']') {
      advance();
      return true;
    }
    for (;;) {
      out.array.emplace_back();
      if (!parseValue(out.array.back(), depth + 1))
        return false;
      skipSpace();
      if (p == end)
        return unexpected("',' or ']'");
      if (*p == ',') {
        advance();
        continue;
      }
      if (*p == ']') {
        advance();
        return true;
      }
      return unexpected("',' or ']'");
    }
  }

  static int hexValue(char c) {
    if (c >= '0' && c <= '9')
      return c - '0';
    if (c >= 'a' && c <= 'f')
      return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
      return c - 'A' + 10;
    return -1;
  }

  bool parseHex4(unsigned &out) {
    out = 0;
    for (int i = 0; i < 4; ++i) {
      if (p == end)
        return unexpected("4 hex digits after \\u");
      int h = hexValue(*p);
      if (h < 0)
        return unexpected("4 hex digits after \\u");
      out = out * 16 + (unsigned)h;
      ++p;
    }
    return true;
  }

  static void appendUtf8(std::string &s, unsigned cp) {
    if (cp < 0x80) {
      s += (char)cp;
    } else if (cp < 0x800) {
      s += (char)(0xC0 | (cp >> 6));
      s += (char)(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      s += (char)(0xE0 | (cp >> 12));
      s += (char)(0x80 | ((cp >> 6) & 0x3F));
      s += (char)(0x80 | (cp & 0x3F));
    } else {
      s += (char)(0xF0 | (cp >> 18));
      s += (char)(0x80 | ((cp >> 12) & 0x3F));
      s += (char)(0x80 | ((cp >> 6) & 0x3F));
      s += (char)(0x80 | (cp & 0x3F));
    }
  }

  // Checks one UTF-8 sequence starting at p and copies it to s.
  bool copyUtf8(std::string &s) {
    unsigned char c = (unsigned char)*p;
    int extra;
    unsigned cp;
    if (c < 0x80) {
      s += (char)c;
      ++p;
      return true;
    } else if ((c & 0xE0) == 0xC0) {
      extra = 1;
      cp = c & 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
      extra = 2;
      cp = c & 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
      extra = 3;
      cp = c & 0x07;
    } else {
      return error(describeHere("invalid UTF-8: ") + " in a string");
    }
    if (end - p <= extra)
      return error("invalid UTF-8: truncated sequence in a string");
    for (int i = 1; i <= extra; ++i) {
      unsigned char cc = (unsigned char)p[i];
      if ((cc & 0xC0) != 0x80)
        return error("invalid UTF-8 continuation byte in a string");
      cp = (cp << 6) | (cc & 0x3F);
    }
    static const unsigned minimum[4] = {0, 0x80, 0x800, 0x10000};
    if (cp < minimum[extra] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
      return error("invalid UTF-8 (overlong, surrogate or out of range) in a "
                   "string");
    s.append(p, (size_t)extra + 1);
    p += extra + 1;
    return true;
  }

  bool parseString(std::string &out) {
    advance(); // opening quote
    out.clear();
    for (;;) {
      if (p == end)
        return error("unterminated string");
      char c = *p;
      if (c == '"') {
        ++p;
        return true;
      }
      if ((unsigned char)c < 0x20)
        return error(describeHere("control character ") +
                     " in a string (must be escaped)");
      if (c != '\\') {
        if (!copyUtf8(out))
          return false;
        continue;
      }
      ++p; // backslash
      if (p == end)
        return error("unterminated escape sequence");
      char e = *p++;
      switch (e) {
      case '"':
        out += '"';
        break;
      case '\\':
        out += '\\';
        break;
      case '/':
        out += '/';
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 't':
        out += '\t';
        break;
      case 'u': {
        unsigned cp;
        if (!parseHex4(cp))
          return false;
        if (cp >= 0xD800 && cp <= 0xDBFF) {
          unsigned low;
          if (end - p < 2 || p[0] != '\\' || p[1] != 'u')
            return error("unpaired UTF-16 surrogate in \\u escape");
          p += 2;
          if (!parseHex4(low))
            return false;
          if (low < 0xDC00 || low > 0xDFFF)
            return error("unpaired UTF-16 surrogate in \\u escape");
          cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
        } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
          return error("unpaired UTF-16 surrogate in \\u escape");
        }
        if (cp == 0)
          return error("\\u0000 is not allowed in strings here");
        appendUtf8(out, cp);
        break;
      }
      default:
        --p;
        return error(describeHere("invalid escape ") + " after '\\'");
      }
    }
  }

  static bool isDigit(const char *q, const char *e) {
    return q != e && *q >= '0' && *q <= '9';
  }

  bool parseNumber(JsonValue &out) {
    out.kind = JsonValue::Number;
    const char *start = p;
    const char *q = p;
    bool negative = false;
    if (*q == '-') {
      negative = true;
      ++q;
    }
    if (!isDigit(q, end)) {
      p = q;
      return unexpected("a digit");
    }
    // Integer part: 0 or [1-9][0-9]*; accumulate as a negative number so that
    // INT64_MIN fits.
    bool fits = true;
    int64_t acc = 0; // <= 0
    if (*q == '0') {
      ++q;
      if (isDigit(q, end)) {
        p = q;
        return error("leading zeros are not allowed in numbers");
      }
    } else {
      while (isDigit(q, end)) {
        int d = *q - '0';
        if (acc < (INT64_MIN + d) / 10)
          fits = false;
        else
          acc = acc * 10 - d;
        ++q;
      }
    }
    bool integral = true;
    if (q != end && *q == '.') {
      integral = false;
      ++q;
      if (!isDigit(q, end)) {
        p = q;
        return unexpected("a digit after the decimal point");
      }
      while (isDigit(q, end))
        ++q;
    }
    if (q != end && (*q == 'e' || *q == 'E')) {
      integral = false;
      ++q;
      if (q != end && (*q == '+' || *q == '-'))
        ++q;
      if (!isDigit(q, end)) {
        p = q;
        return unexpected("a digit in the exponent");
      }
      while (isDigit(q, end))
        ++q;
    }
    if (integral && fits && !negative && acc == INT64_MIN)
      fits = false; // 9223372036854775808 does not fit
    std::string text(start, q);
    p = q;
    double value = 0;
    if (!toDouble(text, value) || !std::isfinite(value)) {
      // JSON allows numbers beyond double's range, but no field of ours
      // needs them.
      return error("number '" + text + "' is out of range");
    }
    out.number = value;
    if (integral && fits) {
      out.isInteger = true;
      out.integer = negative ? acc : -acc;
    }
    return true;
  }
};

} // namespace

bool parseJson(const char *text, size_t len, JsonValue &out,
               std::string &error) {
  out = JsonValue();
  if (!text) {
    error = "no text";
    return false;
  }
  Parser parser(text, len);
  return parser.parseDocument(out, error);
}

} // namespace attn_rt
