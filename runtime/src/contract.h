//===- contract.h - the launch contract a module carries --------*- C++ -*-===//
//
// The module's launch contract (its fields: attn_contract.h, shared with
// the compiler): runtime.cpp reads it at load and checkContract compares it
// with the metadata, without a device, so that the tests can check the
// comparison.
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_RUNTIME_CONTRACT_H
#define ATTN_RUNTIME_CONTRACT_H

#include "attn_contract.h"
#include "attn_runtime.h"

#include <cstdint>
#include <string>

namespace attn_rt {

using namespace attn_contract;

/// Whether the module's contract `c` (read from `symbol`) describes the
/// kernel `d` describes; else the message names the first field that
/// differs. A JSON edited or mixed up with another kernel's is refused this
/// way instead of launching a grid or shared-memory size the code was not
/// built for.
bool checkContract(const attn_kernel_desc &d,
                   const int64_t (&c)[kContractFields],
                   const std::string &symbol, std::string &error);

} // namespace attn_rt

#endif // ATTN_RUNTIME_CONTRACT_H
