//===- runtime_test.cpp - device-free tests of attn_runtime_core --------===//
//
// Exercises the JSON parser, the metadata reader and the launch validation
// without a GPU. Usage: attn_runtime_test [TMPDIR]  (TMPDIR for test files;
// default /tmp). Prints one line per failed check and a summary; exits
// non-zero if any check failed.
//
//===----------------------------------------------------------------------===//

#include "attn_runtime.h"
#include "strict_json.h"
#include "test_support.h"

#include <sys/stat.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <utility>
#include <vector>

using namespace attn_rt_test;

namespace {

//===----------------------------------------------------------------------===//
// Metadata documents
//===----------------------------------------------------------------------===//

using Members = std::vector<std::pair<std::string, std::string>>;

// The good document, key by key (values are raw JSON).
Members goodMembers() {
  return {
      {"format_version", "1"},
      {"name", "\"attn_fwd\""},
      {"target", "\"sm_90a\""},
      {"compiler", "\"attn 0.1 (git abc1234), LLVM 22.1.8\""},
      {"ptx", "\"attn_fwd.ptx\""},
      {"cubin", "\"attn_fwd.cubin\""},
      {"entry", "\"attn_fwd\""},
      {"block_m", "64"},
      {"block_n", "64"},
      {"warps", "4"},
      {"stages", "2"},
      {"threads", "128"},
      {"shared_bytes", "24576"},
      {"head_dim", "64"},
      {"value_head_dim", "64"},
      {"element_type", "\"f16\""},
      {"has_lse", "true"},
      {"scale_log2e", "0.18033688"},
      {"mask", "{\"kind\": \"causal\", \"alignment\": \"bottom_right\", "
               "\"left\": 0, \"right\": 0}"},
      {"grid", "[\"ceildiv(Nq, block_m)\", \"B * Hq\", \"1\"]"},
      {"params",
       "[\"q\",\"k\",\"v\",\"o\",\"lse\",\"B\",\"Hq\",\"Hkv\",\"Nq\",\"Nk\","
       "\"q_sb\",\"q_sh\",\"q_sr\",\"k_sb\",\"k_sh\",\"k_sr\",\"v_sb\",\"v_sh\","
       "\"v_sr\",\"o_sb\",\"o_sh\",\"o_sr\",\"lse_sb\",\"lse_sh\"]"},
  };
}

std::string render(const Members &m) {
  std::string s = "{";
  for (size_t i = 0; i < m.size(); ++i)
    s += (i ? ",\n " : "") + ("\"" + m[i].first + "\": " + m[i].second);
  return s + "}";
}

Members with(Members m, const std::string &key, const std::string &value) {
  for (auto &kv : m)
    if (kv.first == key) {
      kv.second = value;
      return m;
    }
  m.emplace_back(key, value);
  return m;
}

Members without(Members m, const std::string &key) {
  for (size_t i = 0; i < m.size(); ++i)
    if (m[i].first == key) {
      m.erase(m.begin() + (long)i);
      break;
    }
  return m;
}

void testGoodMetadata() {
  attn_kernel_desc d;
  std::string msg;
  int rc = parse(render(goodMembers()), d, msg);
  CHECK(rc == 0, "good metadata parses: " + msg);
  if (rc != 0)
    return;
  CHECK(d.format_version == 1, "format_version");
  CHECK(std::strcmp(d.name, "attn_fwd") == 0, "name");
  CHECK(std::strcmp(d.entry, "attn_fwd") == 0, "entry");
  CHECK(std::strcmp(d.target, "sm_90a") == 0, "target");
  CHECK(std::strcmp(d.compiler, "attn 0.1 (git abc1234), LLVM 22.1.8") == 0,
        "compiler");
  CHECK(std::strcmp(d.ptx, "attn_fwd.ptx") == 0, "ptx");
  CHECK(std::strcmp(d.cubin, "attn_fwd.cubin") == 0, "cubin");
  CHECK(d.block_m == 64 && d.block_n == 64 && d.warps == 4 && d.stages == 2 &&
            d.threads == 128 && d.shared_bytes == 24576,
        "tile configuration");
  CHECK(d.head_dim == 64 && d.value_head_dim == 64, "head dims");
  CHECK(d.element_type == ATTN_F16, "element_type");
  CHECK(d.has_lse == 1, "has_lse");
  CHECK(d.scale_log2e > 0.1803368 && d.scale_log2e < 0.1803369,
        "scale_log2e");
  CHECK(d.mask_kind == ATTN_MASK_CAUSAL, "mask kind");
  CHECK(d.mask_alignment == ATTN_BOTTOM_RIGHT, "mask alignment");

  // Accepted variants.
  Members g = goodMembers();
  expectParses(render(with(g, "cubin", "null")), "cubin null");
  CHECK(parse(render(with(g, "cubin", "null")), d, msg) == 0 &&
            d.cubin[0] == '\0',
        "cubin null gives an empty cubin path");
  expectParses(render(without(g, "cubin")), "cubin absent");
  expectParses(render(with(g, "mask", "{\"kind\": \"none\"}")),
               "mask none without alignment");
  expectParses(render(with(g, "mask", "{\"kind\": \"none\", \"alignment\": "
                                      "null, \"left\": null, \"right\": null}")),
               "mask none with nulls");
  CHECK(parse(render(with(g, "mask",
                          "{\"kind\": \"window\", \"alignment\": \"top_left\", "
                          "\"left\": 128, \"right\": 3}")),
              d, msg) == 0 &&
            d.mask_kind == ATTN_MASK_WINDOW &&
            d.mask_alignment == ATTN_TOP_LEFT && d.mask_left == 128 &&
            d.mask_right == 3,
        "window mask parses: " + msg);
  CHECK(parse(render(with(g, "element_type", "\"bf16\"")), d, msg) == 0 &&
            d.element_type == ATTN_BF16,
        "bf16 parses");
  expectParses(render(with(g, "future_key", "{\"a\": [1, 2.5e3, null]}")),
               "unknown keys are ignored");
  expectParses(render(with(g, "grid", "[\"ceildiv(Nq,block_m)\", \"B*Hq\", "
                                      "\"1\"]")),
               "grid without spaces");
  expectParses(render(with(g, "compiler", "\"caf\\u00e9 \\ud83d\\ude00 \\\"x\\\" "
                                          "\\\\ \\/ \\n\"")),
               "escapes in strings");
  expectParses(render(with(g, "scale_log2e", "1")), "integral scale");
  expectParses("\n\t " + render(g) + " \r\n", "surrounding whitespace");
}

void testMalformedJson() {
  std::string good = render(goodMembers());
  // Every proper prefix of the document is malformed.
  int accepted = 0;
  std::string firstMsg;
  for (size_t len = 0; len < good.size(); ++len) {
    attn_kernel_desc d;
    char err[512] = {0};
    int rc = attn_desc_parse_string(good.data(), len, "meta.json", &d, err,
                                    sizeof err);
    if (rc == 0)
      ++accepted;
    else if (err[0] == '\0')
      CHECK(false, "truncated at " + std::to_string(len) + ": empty message");
  }
  CHECK(accepted == 0, "every truncation is rejected (" +
                           std::to_string(accepted) + " accepted)");
  expectRejected(good.substr(0, good.size() / 2), "truncated in the middle",
                 {"malformed JSON", "line"});
  expectRejected("", "empty document", {"empty"});
  expectRejected("   \n ", "whitespace only", {"empty"});
  expectRejected(good + " x", "trailing garbage", {"expected end of input"});
  expectRejected(good + "{}", "two documents", {"expected end of input"});
  expectRejected("[1, 2]", "array at top level", {"expected an object"});
  expectRejected("{\"a\": 1,}", "trailing comma", {"malformed"});
  expectRejected("{\"a\": 1 \"b\": 2}", "missing comma", {"expected '}'"});
  expectRejected("{a: 1}", "unquoted key", {"object key"});
  expectRejected("{\"a\" 1}", "missing colon", {"':'"});
  expectRejected("{\"a\": tru}", "bad literal", {"invalid literal"});
  expectRejected("{\"a\": NaN}", "NaN", {"malformed"});
  expectRejected("{\"a\": Infinity}", "Infinity", {"malformed"});
  expectRejected("{\"a\": 01}", "leading zero", {"unexpected number"});
  expectRejected("{\"a\": 1.}", "no digit after the point",
                 {"expected digit after '.'"});
  expectRejected("{\"a\": 1e}", "no exponent digits", {"exponent"});
  expectRejected("{\"a\": -}", "lone minus", {"digit"});
  expectRejected("{\"a\": 1e999}", "number out of range", {"overflow"});
  expectRejected("{\"a\": \"abc}", "unterminated string",
                 {"missing closing quote"});
  expectRejected("{\"a\": \"a\tb\"}", "raw tab in a string",
                 {"control character"});
  expectRejected("{\"a\": \"\\x\"}", "bad escape",
                 {"forbidden character after backslash"});
  expectRejected("{\"a\": \"\\u12\"}", "short \\u escape", {"hex digits"});
  expectRejected("{\"a\": \"\\ud800\"}", "lone surrogate", {"surrogate"});
  expectRejected("{\"a\": \"\\u0000\"}", "NUL escape", {"\\u0000"});
  expectRejected(std::string("{\"a\": \"\xff\"}"), "invalid UTF-8",
                 {"UTF-8"});
  expectRejected(std::string("{\"a\": \"\xc0\xaf\"}"), "overlong UTF-8",
                 {"UTF-8"});
  expectRejected(std::string("{\"a\": \"\xe2\x82\"}"), "truncated UTF-8",
                 {"UTF-8"});
  expectRejected(std::string("{\"a\": 1}\0", 9), "embedded NUL byte",
                 {"byte 0x00"});
  expectRejected("{\"a\": 1, \"a\": 2}", "duplicate key", {"duplicate key"});
  expectRejected("{\"mask\": {\"kind\": \"none\",\n \"kind\": \"none\"}}",
                 "nested duplicate key", {"line 2, column 2", "duplicate key \"mask.kind\""});
  expectRejected(render(goodMembers()) + std::string("\0{\"x\": 1}", 10),
                 "a NUL byte after the document", {"byte 0x00"});
  {
    // The excerpt nlohmann quotes after an unterminated string is bounded.
    std::string doc = "{\"a\": \"" + std::string(5000, 'x');
    attn_kernel_desc d;
    char err[8192] = {0};
    CHECK(attn_desc_parse_string(doc.data(), doc.size(), "meta.json", &d, err,
                                 sizeof err) != 0 &&
              std::strlen(err) < 300 && contains(err, "missing closing quote"),
          std::string("short message for an unterminated long string: ") + err);
    // In-memory documents have the file's size limit too.
    std::string big = render(goodMembers()) + std::string(1 << 20, ' ');
    CHECK(attn_desc_parse_string(big.data(), big.size(), "meta.json", &d, err,
                                 sizeof err) != 0 &&
              contains(err, "larger than"),
          std::string("over-large in-memory document: ") + err);
  }
  expectRejected(std::string(10000, '['), "deep nesting", {"nesting"});
  expectRejected("{\"x\": " + std::string(100, '[') + std::string(100, ']') +
                     "}",
                 "nesting over the limit", {"nesting"});
  // Line/column in messages.
  expectRejected("{\n  \"a\": 1,\n  \"b\": ?\n}", "position in the message",
                 {"line 3, column 8"});

  // Random corruption: never crash; either a clean parse or a message.
  uint64_t state = 0x9E3779B97F4A7C15ull;
  auto next = [&]() {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
  };
  int rejected = 0, noMessage = 0;
  for (int i = 0; i < 5000; ++i) {
    std::string doc = good;
    int edits = 1 + (int)(next() % 3);
    for (int e = 0; e < edits && !doc.empty(); ++e) {
      size_t pos = next() % doc.size();
      switch (next() % 3) {
      case 0:
        doc[pos] = (char)(next() & 0xFF);
        break;
      case 1:
        doc.erase(pos, 1);
        break;
      default:
        doc.insert(pos, 1, (char)(next() & 0xFF));
      }
    }
    attn_kernel_desc d;
    char err[512] = {0};
    if (attn_desc_parse_string(doc.data(), doc.size(), "fuzz.json", &d, err,
                               sizeof err) != 0) {
      ++rejected;
      if (err[0] == '\0')
        ++noMessage;
    }
  }
  CHECK(noMessage == 0, "every rejected corruption has a message");
  CHECK(rejected > 2500, "most corruptions are rejected (" +
                             std::to_string(rejected) + " of 5000)");
}

void testKeys() {
  Members g = goodMembers();
  // Every key but cubin is required.
  for (const auto &kv : g) {
    if (kv.first == "cubin")
      continue;
    expectRejected(render(without(g, kv.first)), "missing " + kv.first,
                   {"missing key \"" + kv.first + "\""});
  }
  expectRejected(render(with(g, "mask", "{\"alignment\": \"top_left\"}")),
                 "missing mask.kind", {"mask.kind"});
  expectRejected(render(with(g, "mask", "{\"kind\": \"causal\"}")),
                 "causal without alignment", {"mask.alignment"});
  expectRejected(render(with(g, "mask", "{\"kind\": \"window\", \"alignment\": "
                                        "\"top_left\", \"left\": 3}")),
                 "window without right", {"mask.right"});

  // Wrong types.
  struct Case {
    const char *key, *value, *needle;
  } cases[] = {
      {"format_version", "\"1\"", "expected an integer, got a string"},
      {"format_version", "4", "unsupported format_version 4"},
      {"format_version", "1.0", "non-integral"},
      {"name", "42", "expected a string, got a number"},
      {"name", "\"\"", "must not be empty"},
      {"entry", "null", "expected a string, got null"},
      {"target", "[\"sm_90a\"]", "expected a string, got an array"},
      {"compiler", "{}", "expected a string, got an object"},
      {"ptx", "false", "expected a string, got a boolean"},
      {"cubin", "7", "expected a string or null"},
      {"cubin", "\"\"", "must not be empty"},
      {"block_m", "\"64\"", "expected an integer"},
      {"block_m", "64.5", "non-integral"},
      {"block_m", "0", "out of range"},
      {"block_n", "true", "expected an integer"},
      {"warps", "-4", "out of range"},
      {"stages", "null", "expected an integer"},
      {"threads", "4096", "out of range"},
      {"shared_bytes", "-1", "out of range"},
      {"shared_bytes", "99999999999999999999", "out-of-range"},
      {"shared_bytes", "9223372036854775808", "out-of-range"},
      {"block_n", "64.0", "non-integral"},
      {"block_n", "6.4e1", "non-integral"},
      {"head_dim", "[64]", "expected an integer"},
      {"value_head_dim", "0", "out of range"},
      {"element_type", "\"f64\"", "unknown element type \"f64\""},
      {"element_type", "2", "expected a string"},
      {"has_lse", "1", "expected a boolean, got a number"},
      {"has_lse", "\"true\"", "expected a boolean"},
      {"scale_log2e", "\"0.18\"", "expected a number"},
      {"scale_log2e", "0", "finite and non-zero"},
      {"mask", "\"causal\"", "expected an object"},
      {"mask", "{\"kind\": \"diagonal\", \"alignment\": \"top_left\"}",
       "unknown kind \"diagonal\""},
      {"mask", "{\"kind\": 1}", "mask.kind"},
      {"mask", "{\"kind\": \"causal\", \"alignment\": \"middle\"}",
       "unknown alignment \"middle\""},
      {"mask", "{\"kind\": \"window\", \"alignment\": \"top_left\", "
               "\"left\": -1, \"right\": 0}",
       "mask.left"},
      {"mask", "{\"kind\": \"window\", \"alignment\": \"top_left\", "
               "\"left\": 1.5, \"right\": 0}",
       "mask.left"},
      {"mask", "{\"kind\": \"causal\", \"alignment\": \"top_left\", "
               "\"left\": \"inf\"}",
       "mask.left"},
      {"grid", "\"ceildiv\"", "expected an array"},
      {"grid", "[\"B * Hq\", \"ceildiv(Nq, block_m)\", \"1\"]",
       "not the kernel ABI"},
      {"grid", "[1, 2, 3]", "grid[0]"},
      {"params", "[\"q\",\"k\",\"v\",\"o\"]", "not the kernel ABI"},
      {"params",
       "[\"k\",\"q\",\"v\",\"o\",\"lse\",\"B\",\"Hq\",\"Hkv\",\"Nq\",\"Nk\","
       "\"q_sb\",\"q_sh\",\"q_sr\",\"k_sb\",\"k_sh\",\"k_sr\",\"v_sb\",\"v_sh\","
       "\"v_sr\",\"o_sb\",\"o_sh\",\"o_sr\",\"lse_sb\",\"lse_sh\"]",
       "not the kernel ABI"},
  };
  for (const Case &c : cases)
    expectRejected(render(with(g, c.key, c.value)),
                   std::string(c.key) + " = " + c.value, {c.key, c.needle});
  expectRejected(render(with(g, "name", "\"" + std::string(200, 'n') + "\"")),
                 "over-long name", {"longer than"});
}

void testFiles(const std::string &tmp) {
  mkdir(tmp.c_str(), 0755);
  attn_kernel_desc d;
  char err[1024];
  std::string missing = tmp + "/does-not-exist.json";
  CHECK(attn_desc_parse_file(missing.c_str(), &d, err, sizeof err) != 0 &&
            contains(err, missing) && contains(err, "cannot open"),
        std::string("missing file is reported with its path: ") + err);

  auto write = [&](const std::string &name, const std::string &text) {
    std::string path = tmp + "/" + name;
    FILE *f = std::fopen(path.c_str(), "wb");
    if (!f)
      return path;
    std::fwrite(text.data(), 1, text.size(), f);
    std::fclose(f);
    return path;
  };
  std::string good = write("good.json", render(goodMembers()) + "\n");
  CHECK(attn_desc_parse_file(good.c_str(), &d, err, sizeof err) == 0,
        std::string("good file parses: ") + err);
  std::string empty = write("empty.json", "");
  CHECK(attn_desc_parse_file(empty.c_str(), &d, err, sizeof err) != 0 &&
            contains(err, empty),
        std::string("empty file rejected with its path: ") + err);
  std::string binary = write("binary.json", std::string("\x7f" "ELF\0\1\2", 7));
  CHECK(attn_desc_parse_file(binary.c_str(), &d, err, sizeof err) != 0 &&
            contains(err, binary),
        std::string("binary file rejected with its path: ") + err);
  std::string big = write("big.json", std::string((1 << 20) + 10, ' '));
  CHECK(attn_desc_parse_file(big.c_str(), &d, err, sizeof err) != 0 &&
            contains(err, "larger than"),
        std::string("huge file rejected: ") + err);
  CHECK(attn_desc_parse_file(tmp.c_str(), &d, err, sizeof err) != 0,
        std::string("a directory is rejected: ") + err);

  // Messages are truncated to the buffer, never overflow it.
  char small[8];
  std::memset(small, 'X', sizeof small);
  attn_desc_parse_file(missing.c_str(), &d, small, 5);
  CHECK(small[4] == '\0' && small[5] == 'X', "message truncated to err_len");
  CHECK(attn_desc_parse_file(missing.c_str(), &d, nullptr, 0) != 0,
        "NULL err buffer is fine");
}

void testJsonParser() {
  using attn_rt::Json;
  attn_rt::JsonDocument doc;
  auto parse = [&](const std::string &s) {
    std::string e;
    return attn_rt::parseJson(s.data(), s.size(), doc, e);
  };
  CHECK(parse("[0, -0, 1e5, 9223372036854775807, 9223372036854775808, "
              "-9223372036854775808, -1.5E-3, 12, 18446744073709551616]") &&
            doc.root().size() == 9,
        "numbers parse");
  if (doc.root().size() == 9) {
    const Json &a = doc.root();
    CHECK(a[0].is_number_integer() && a[0].get<int64_t>() == 0,
          "0 is an integer");
    CHECK(a[1].is_number_integer() && a[1].get<int64_t>() == 0,
          "-0 is an integer");
    CHECK(a[2].is_number_float() && a[2].get<double>() == 1e5,
          "1e5 is a number, not an integer");
    CHECK(a[3].is_number_integer() && a[3].get<int64_t>() == INT64_MAX,
          "INT64_MAX");
    CHECK(a[4].is_number_unsigned() &&
              a[4].get<uint64_t>() == (uint64_t)INT64_MAX + 1,
          "INT64_MAX + 1 is an unsigned integer (the reader refuses it)");
    CHECK(a[5].is_number_integer() && a[5].get<int64_t>() == INT64_MIN,
          "INT64_MIN");
    CHECK(a[6].get<double>() == -1.5e-3, "-1.5E-3");
    CHECK(a[7].get<int64_t>() == 12, "12");
    CHECK(a[8].is_number_float(), "2^64 is no longer an integer");
  }
  CHECK(parse("{\"s\": \"\\u00e9\\ud83d\\ude00\"}") &&
            doc.root()["s"] == "\xc3\xa9\xf0\x9f\x98\x80",
        "\\u escapes decode to UTF-8");
  CHECK(parse(std::string(60, '[') + std::string(60, ']')),
        "60 levels of nesting are fine");
  CHECK(parse("{\"a\": {\"b\": [true, false, null]}}") &&
            doc.root()["a"]["b"][1].is_boolean(),
        "nested values");

  // Every value remembers where it starts.
  CHECK(parse("{\"a\": 1,\n \"b\": [10, {\"c\": \"x\"}],\n\t\"d\" : -2.5}"),
        "positions document parses");
  CHECK(doc.where("") == "line 1, column 1", "root position: " + doc.where(""));
  CHECK(doc.where("a") == "line 1, column 7", "a: " + doc.where("a"));
  CHECK(doc.where("b") == "line 2, column 7", "b: " + doc.where("b"));
  CHECK(doc.where("b[0]") == "line 2, column 8", "b[0]: " + doc.where("b[0]"));
  CHECK(doc.where("b[1]") == "line 2, column 12", "b[1]: " + doc.where("b[1]"));
  CHECK(doc.where("b[1].c") == "line 2, column 18",
        "b[1].c: " + doc.where("b[1].c"));
  CHECK(doc.where("d") == "line 3, column 8", "d: " + doc.where("d"));
  CHECK(doc.where("e").empty(), "no position for a missing key");
}

//===----------------------------------------------------------------------===//
// Launch validation
//===----------------------------------------------------------------------===//

attn_kernel_desc goodDesc(bool hasLse = true) {
  attn_kernel_desc d;
  std::string msg;
  Members g = goodMembers();
  if (!hasLse)
    g = with(g, "has_lse", "false");
  if (parse(render(g), d, msg) != 0)
    std::printf("FAIL: cannot build the test description: %s\n", msg.c_str());
  return d;
}

attn_tensor contiguous(uint64_t ptr, std::vector<int64_t> shape,
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
    stride = (int64_t)((uint64_t)stride * (uint64_t)shape[i]); // may wrap
  }
  return t;
}

struct Launch {
  attn_tensor q, k, v, o, lse;
  bool passLse = true;
};

// B = 2, Hq = 8, Hkv = 2, Nq = 100, Nk = 300, D = Dv = 64, f16.
Launch goodLaunch(int64_t B = 2, int64_t Hq = 8, int64_t Hkv = 2,
                  int64_t Nq = 100, int64_t Nk = 300) {
  Launch l;
  l.q = contiguous(0x10000000, {B, Hq, Nq, 64}, ATTN_F16);
  l.k = contiguous(0x20000000, {B, Hkv, Nk, 64}, ATTN_F16);
  l.v = contiguous(0x30000000, {B, Hkv, Nk, 64}, ATTN_F16);
  l.o = contiguous(0x40000000, {B, Hq, Nq, 64}, ATTN_F16);
  l.lse = contiguous(0x50000000, {B, Hq, Nq}, ATTN_F32);
  return l;
}

int validate(const attn_kernel_desc &d, const Launch &l, attn_launch_plan *plan,
             std::string &msg) {
  char err[1024];
  err[0] = '\0';
  int rc = attn_validate_launch(&d, &l.q, &l.k, &l.v, &l.o,
                                l.passLse ? &l.lse : nullptr, plan, err,
                                sizeof err);
  msg = err;
  return rc;
}

void expectInvalid(const attn_kernel_desc &d, const Launch &l,
                   const std::string &what,
                   const std::vector<std::string> &needles) {
  std::string msg;
  attn_launch_plan plan;
  if (validate(d, l, &plan, msg) == 0) {
    CHECK(false, "launch check '" + what + "': expected a rejection");
    return;
  }
  CHECK(!msg.empty(), "launch check '" + what + "': empty message");
  for (const std::string &n : needles)
    CHECK(contains(msg, n),
          "launch check '" + what + "': message lacks \"" + n + "\": " + msg);
}

void testValidation() {
  const attn_kernel_desc d = goodDesc();
  std::string msg;
  attn_launch_plan plan;

  // The good launch and what it would launch.
  {
    Launch l = goodLaunch();
    int rc = validate(d, l, &plan, msg);
    CHECK(rc == 0, "good launch is valid: " + msg);
    CHECK(plan.action == ATTN_PLAN_LAUNCH, "good launch launches");
    CHECK(plan.grid[0] == 2 && plan.grid[1] == 16 && plan.grid[2] == 1,
          "grid (ceil(100 / 64), 2 * 8, 1)");
    CHECK(plan.block[0] == 128 && plan.block[1] == 1 && plan.block[2] == 1,
          "block (128, 1, 1)");
    CHECK(plan.shared_bytes == 24576, "shared bytes");
    CHECK(plan.ptrs[0] == 0x10000000 && plan.ptrs[1] == 0x20000000 &&
              plan.ptrs[2] == 0x30000000 && plan.ptrs[3] == 0x40000000 &&
              plan.ptrs[4] == 0x50000000,
          "pointer parameters in order q, k, v, o, lse");
    const int64_t want[19] = {2,          8,      2,  100, 300,
                              8 * 100 * 64, 100 * 64, 64, // q
                              2 * 300 * 64, 300 * 64, 64, // k
                              2 * 300 * 64, 300 * 64, 64, // v
                              8 * 100 * 64, 100 * 64, 64, // o
                              8 * 100,      100};         // lse
    bool same = true;
    for (int i = 0; i < 19; ++i)
      same &= plan.ints[i] == want[i];
    CHECK(same, "integer parameters B, Hq, Hkv, Nq, Nk and strides in order");
    CHECK(validate(d, l, nullptr, msg) == 0, "plan may be NULL");
  }

  // Kernel without LSE: lse must be NULL, and its parameters are 0.
  {
    attn_kernel_desc nl = goodDesc(false);
    Launch l = goodLaunch();
    l.passLse = false;
    CHECK(validate(nl, l, &plan, msg) == 0 && plan.ptrs[4] == 0 &&
              plan.ints[17] == 0 && plan.ints[18] == 0,
          "no-LSE kernel: lse = 0 in the parameters: " + msg);
    l.passLse = true;
    expectInvalid(nl, l, "lse given to a no-LSE kernel", {"no LSE output"});
  }

  // Empty problems.
  {
    Launch l = goodLaunch(2, 8, 2, 0, 300);
    l.q.ptr = l.o.ptr = l.lse.ptr = 0;
    CHECK(validate(d, l, &plan, msg) == 0 && plan.action == ATTN_PLAN_NOTHING,
          "Nq = 0 launches nothing: " + msg);
    l = goodLaunch(0, 8, 2, 100, 300);
    CHECK(validate(d, l, &plan, msg) == 0 && plan.action == ATTN_PLAN_NOTHING,
          "B = 0 launches nothing: " + msg);
    l = goodLaunch(2, 8, 2, 100, 0);
    l.k.ptr = l.v.ptr = 0; // empty tensors may have no storage
    CHECK(validate(d, l, &plan, msg) == 0 &&
              plan.action == ATTN_PLAN_FILL_EMPTY,
          "Nk = 0 fills O and LSE without a kernel: " + msg);
    l = goodLaunch(2, 8, 2, 0, 0);
    CHECK(validate(d, l, &plan, msg) == 0 && plan.action == ATTN_PLAN_NOTHING,
          "Nq = Nk = 0 launches nothing: " + msg);
  }

  // A dim of extent 1 may have any (non-negative) stride.
  {
    Launch l = goodLaunch(1, 8, 2, 1, 300);
    l.q.strides[0] = 3;
    l.q.strides[2] = 5;
    l.o.strides[0] = 0;
    CHECK(validate(d, l, &plan, msg) == 0,
          "strides of extent-1 dims are not checked: " + msg);
  }

  // f32 kernel: 16-byte rule in units of 4-byte elements.
  {
    attn_kernel_desc f = goodDesc();
    f.element_type = ATTN_F32;
    Launch l = goodLaunch();
    for (attn_tensor *t : {&l.q, &l.k, &l.v, &l.o})
      t->dtype = ATTN_F32;
    CHECK(validate(f, l, &plan, msg) == 0, "f32 launch is valid: " + msg);
    l.q.strides[2] = 66; // 264 bytes
    expectInvalid(f, l, "f32 row stride of 66 elements", {"q", "264 bytes"});
  }

  struct Rule {
    std::string what;
    std::function<void(Launch &)> mutate;
    std::vector<std::string> needles;
  };
  const std::vector<Rule> rules = {
      // Presence.
      {"lse NULL for an LSE kernel", [](Launch &l) { l.passLse = false; },
       {"lse is NULL"}},
      // Ranks.
      {"q rank 3", [](Launch &l) { l.q.rank = 3; }, {"q", "rank 3, expected 4"}},
      {"k rank 5", [](Launch &l) { l.k.rank = 5; }, {"k", "rank 5"}},
      {"v rank 0", [](Launch &l) { l.v.rank = 0; }, {"v", "rank 0"}},
      {"o rank 2", [](Launch &l) { l.o.rank = 2; }, {"o", "rank 2"}},
      {"lse rank 4", [](Launch &l) { l.lse.rank = 4; },
       {"lse", "rank 4, expected 3"}},
      // Element types.
      {"q bf16", [](Launch &l) { l.q.dtype = ATTN_BF16; },
       {"q", "element type bf16, expected f16"}},
      {"k f32", [](Launch &l) { l.k.dtype = ATTN_F32; }, {"k", "f32"}},
      {"v bf16", [](Launch &l) { l.v.dtype = ATTN_BF16; }, {"v", "bf16"}},
      {"o f32", [](Launch &l) { l.o.dtype = ATTN_F32; }, {"o", "f32"}},
      {"lse f16", [](Launch &l) { l.lse.dtype = ATTN_F16; },
       {"lse", "LSE is always f32"}},
      {"bad dtype value",
       [](Launch &l) {
         int bad = 7; // what a C or ctypes caller could store
         std::memcpy(&l.q.dtype, &bad, sizeof bad);
       },
       {"q", "element type ?7"}},
      // Head dims.
      {"q head dim 128", [](Launch &l) { l.q.shape[3] = 128; },
       {"q", "head_dim is 64"}},
      {"k head dim 32", [](Launch &l) { l.k.shape[3] = 32; },
       {"k", "head_dim is 64"}},
      {"v head dim 128", [](Launch &l) { l.v.shape[3] = 128; },
       {"v", "value_head_dim is 64"}},
      {"o head dim 65", [](Launch &l) { l.o.shape[3] = 65; },
       {"o", "value_head_dim is 64"}},
      // Batch.
      {"k batch 3", [](Launch &l) { l.k.shape[0] = 3; }, {"k: batch 3"}},
      {"v batch 1", [](Launch &l) { l.v.shape[0] = 1; }, {"v: batch 1"}},
      {"o batch 1", [](Launch &l) { l.o.shape[0] = 1; }, {"o: batch 1"}},
      {"lse batch 4", [](Launch &l) { l.lse.shape[0] = 4; }, {"lse: batch 4"}},
      // Heads.
      {"o heads 4", [](Launch &l) { l.o.shape[1] = 4; }, {"o: 4 heads"}},
      {"lse heads 16", [](Launch &l) { l.lse.shape[1] = 16; },
       {"lse: 16 heads"}},
      {"v heads 4", [](Launch &l) { l.v.shape[1] = 4; },
       {"v: 4 heads", "k has 2"}},
      {"Hkv = 0",
       [](Launch &l) {
         l.k.shape[1] = 0;
         l.v.shape[1] = 0;
       },
       {"at least one"}},
      {"Hq % Hkv != 0",
       [](Launch &l) {
         l.k.shape[1] = 3;
         l.v.shape[1] = 3;
       },
       {"not a multiple"}},
      // Rows.
      {"o rows 99", [](Launch &l) { l.o.shape[2] = 99; }, {"o: 99 rows"}},
      {"lse rows 101", [](Launch &l) { l.lse.shape[2] = 101; },
       {"lse: 101 rows"}},
      {"v rows 299", [](Launch &l) { l.v.shape[2] = 299; },
       {"v: 299 rows", "k has 300"}},
      // Negative extents and strides.
      {"negative extent", [](Launch &l) { l.q.shape[2] = -1; },
       {"q", "negative extent"}},
      {"negative stride", [](Launch &l) { l.k.strides[1] = -19200; },
       {"k", "negative head stride"}},
      // Last stride.
      {"q last stride 2", [](Launch &l) { l.q.strides[3] = 2; },
       {"q", "last stride is 2"}},
      {"v last stride 0", [](Launch &l) { l.v.strides[3] = 0; },
       {"v", "last stride is 0"}},
      {"lse row stride 2", [](Launch &l) { l.lse.strides[2] = 2; },
       {"lse", "row stride is 2"}},
      // 16-byte strides.
      {"q row stride 68", [](Launch &l) { l.q.strides[2] = 68; },
       {"q", "row stride 68", "136 bytes"}},
      {"k head stride odd",
       [](Launch &l) { l.k.strides[1] = 300 * 64 + 4; },
       {"k", "head stride"}},
      {"v batch stride odd",
       [](Launch &l) { l.v.strides[0] = 2 * 300 * 64 + 1; },
       {"v", "batch stride"}},
      {"o row stride 72", [](Launch &l) { l.o.strides[2] = 65; },
       {"o", "row stride 65"}},
      // Outputs must not overlap through zero strides.
      {"o head stride 0", [](Launch &l) { l.o.strides[1] = 0; },
       {"o", "stride 0"}},
      {"lse head stride 0", [](Launch &l) { l.lse.strides[1] = 0; },
       {"lse", "stride 0"}},
      // Pointers.
      {"q misaligned", [](Launch &l) { l.q.ptr += 8; },
       {"q", "not 16-byte aligned"}},
      {"k misaligned", [](Launch &l) { l.k.ptr += 2; },
       {"k", "not 16-byte aligned"}},
      {"v misaligned", [](Launch &l) { l.v.ptr += 1; }, {"v", "16-byte"}},
      {"o misaligned", [](Launch &l) { l.o.ptr += 4; }, {"o", "16-byte"}},
      {"lse misaligned", [](Launch &l) { l.lse.ptr += 2; },
       {"lse", "4-byte aligned"}},
      {"q null", [](Launch &l) { l.q.ptr = 0; }, {"q", "null data pointer"}},
      {"lse null", [](Launch &l) { l.lse.ptr = 0; }, {"lse", "null"}},
      // Address overflow.
      {"offset overflow", [](Launch &l) { l.k.strides[0] = (int64_t)1 << 62; },
       {"k", "2^63"}},
  };
  for (const Rule &r : rules) {
    Launch l = goodLaunch();
    r.mutate(l);
    expectInvalid(d, l, r.what, r.needles);
  }

  // Grid limits and 32-bit rows.
  {
    Launch l = goodLaunch(2, 32768, 1, 100, 300);
    expectInvalid(d, l, "B * Hq = 65536", {"65535"});
    l = goodLaunch(1, 65535, 1, 10, 10);
    CHECK(validate(d, l, &plan, msg) == 0 && plan.grid[1] == 65535,
          "B * Hq = 65535 is allowed: " + msg);
    l = goodLaunch(1, 1, 1, (int64_t)1 << 31, 10);
    expectInvalid(d, l, "Nq = 2^31", {"32 bits"});
    l = goodLaunch(1, 1, 1, 10, (int64_t)1 << 40);
    expectInvalid(d, l, "Nk = 2^40", {"32 bits"});
    l = goodLaunch((int64_t)1 << 40, (int64_t)1 << 40, 1, 10, 10);
    expectInvalid(d, l, "huge B * Hq does not overflow", {"65535"});
  }

  // A description built by the caller (not by the parser) that no kernel
  // could have: refused with a message, never a division by zero.
  {
    Launch l = goodLaunch();
    struct Bad {
      const char *what;
      std::function<void(attn_kernel_desc &)> edit;
      const char *needle;
    } bad[] = {
        {"block_m = 0", [](attn_kernel_desc &x) { x.block_m = 0; }, "block_m"},
        {"block_m < 0", [](attn_kernel_desc &x) { x.block_m = -64; }, "block_m"},
        {"threads = 0", [](attn_kernel_desc &x) { x.threads = 0; }, "threads"},
        {"threads > 1024", [](attn_kernel_desc &x) { x.threads = 4096; }, "threads"},
        {"negative shared_bytes", [](attn_kernel_desc &x) { x.shared_bytes = -1; },
         "shared_bytes"},
        {"unknown element type",
         [](attn_kernel_desc &x) { int v = 7; std::memcpy(&x.element_type, &v, sizeof v); },
         "element type"},
        {"head_dim = 0", [](attn_kernel_desc &x) { x.head_dim = 0; }, "head_dim"},
    };
    for (const Bad &b : bad) {
      attn_kernel_desc x = d;
      b.edit(x);
      expectInvalid(x, l, std::string("caller-built description: ") + b.what,
                    {b.needle});
    }
  }

  // NULL arguments.
  {
    Launch l = goodLaunch();
    char err[256];
    CHECK(attn_validate_launch(&d, nullptr, &l.k, &l.v, &l.o, &l.lse, &plan,
                               err, sizeof err) != 0 &&
              contains(err, "q is NULL"),
          "NULL q");
    CHECK(attn_validate_launch(nullptr, &l.q, &l.k, &l.v, &l.o, &l.lse, &plan,
                               err, sizeof err) != 0,
          "NULL description");
  }
}

} // namespace

using namespace attn_rt_test;

int main(int argc, char **argv) {
  std::string tmp = argc > 1 ? argv[1] : "/tmp/attn_runtime_test";
  testJsonParser();
  testGoodMetadata();
  testMalformedJson();
  testKeys();
  testFiles(tmp);
  testValidation();
  testFormatVersion2();
  testFormatVersion3();
  testDispatch(tmp);
  testPersistent();
  std::printf("attn_runtime_test: %d checks, %d failed\n", checks, failures);
  return failures == 0 ? 0 : 1;
}
