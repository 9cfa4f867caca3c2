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

#include <cstddef>
#include <cstdint>
#include <string>

namespace attn_rt {

using namespace attn_contract;

/// The size in bytes of a contract of `version`: version 1 has the
/// kContractFieldsV1 fields before kContractPersistent, version 2 all
/// kContractFields; 0 for a version this runtime does not read.
size_t contractBytes(int64_t version);

/// Whether a contract global of `bytes` bytes (cuModuleGetGlobal's size of
/// `symbol`) has the size of a version this runtime reads; else the message
/// says which sizes it reads. Checked before the global is copied.
bool checkContractSize(size_t bytes, const std::string &symbol,
                       std::string &error);

/// Whether the module's contract `c` (the `bytes` bytes read from `symbol`,
/// the words past them 0) describes the kernel `d` describes; else the
/// message names the first field that differs. The version must be 1 or 2
/// and have that size. A JSON edited or mixed up with another kernel's is
/// refused this way instead of launching a grid or shared-memory size the
/// code was not built for; a version-1 contract is not persistent.
bool checkContract(const attn_kernel_desc &d,
                   const int64_t (&c)[kContractFields], size_t bytes,
                   const std::string &symbol, std::string &error);

} // namespace attn_rt

#endif // ATTN_RUNTIME_CONTRACT_H
