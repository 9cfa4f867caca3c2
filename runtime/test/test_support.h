//===- test_support.h - checks shared by the runtime tests ------*- C++ -*-===//

#ifndef ATTN_RUNTIME_TEST_SUPPORT_H
#define ATTN_RUNTIME_TEST_SUPPORT_H

#include "attn_runtime.h"

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace attn_rt_test {

inline int checks = 0, failures = 0;

/// Counts a check; prints it when it failed.
inline void check(bool ok, const std::string &what) {
  ++checks;
  if (!ok) {
    ++failures;
    std::printf("FAIL: %s\n", what.c_str());
  }
}

/// check() with the condition evaluated first: a function's arguments are
/// evaluated in no set order, and a message often quotes what the
/// condition's call wrote (an error buffer filled by the call). The message
/// is only built when the check fails.
#define CHECK(cond, what)                                                      \
  do {                                                                         \
    bool ok_ = (cond);                                                         \
    ::attn_rt_test::check(ok_, ok_ ? std::string() : std::string(what));      \
  } while (0)

inline bool contains(const std::string &hay, const std::string &needle) {
  return hay.find(needle) != std::string::npos;
}

/// Parses `doc` as "meta.json" into `d` (filled with garbage first).
inline int parse(const std::string &doc, attn_kernel_desc &d,
                 std::string &msg) {
  char err[1024];
  err[0] = '\0';
  std::memset(&d, 0xAB, sizeof d);
  int rc = attn_desc_parse_string(doc.data(), doc.size(), "meta.json", &d, err,
                                  sizeof err);
  msg = err;
  return rc;
}

inline void expectParses(const std::string &doc, const std::string &what) {
  attn_kernel_desc d;
  std::string msg;
  int rc = parse(doc, d, msg);
  CHECK(rc == 0, what + ": expected to parse, got: " + msg);
}

/// The document is refused with a message that names the file and holds
/// every needle.
inline void expectRejected(const std::string &doc, const std::string &what,
                           const std::vector<std::string> &needles) {
  attn_kernel_desc d;
  std::string msg;
  int rc = parse(doc, d, msg);
  if (rc == 0) {
    CHECK(false, what + ": expected a rejection, but it parsed");
    return;
  }
  CHECK(contains(msg, "meta.json"),
        what + ": message does not name the file: " + msg);
  for (const std::string &n : needles)
    CHECK(contains(msg, n), what + ": message lacks \"" + n + "\": " + msg);
}

/// format_version 2 (runtime_test_v2.cpp).
void testFormatVersion2();

/// format_version 3 (runtime_test_v3.cpp).
void testFormatVersion3();

/// Dispatch tables (runtime_test_dispatch.cpp); files go to `tmp`.
void testDispatch(const std::string &tmp);

/// Persistent kernels and launch contract version 2
/// (runtime_test_persistent.cpp).
void testPersistent();

} // namespace attn_rt_test

#endif // ATTN_RUNTIME_TEST_SUPPORT_H
