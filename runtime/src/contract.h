//===- contract.h - the launch contract a module carries --------*- C++ -*-===//
//
// The compiler embeds in each module a constant global
// `attn_contract_<entry>` of kContractFields int64
// (lib/Conversion/AttnToNVVM/OutlineKernel.cpp writes it, in this order);
// runtime.cpp reads it at load and checkContract compares it with the
// metadata, without a device, so that the tests can check the comparison.
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_RUNTIME_CONTRACT_H
#define ATTN_RUNTIME_CONTRACT_H

#include "attn_runtime.h"

#include <cstdint>
#include <string>

namespace attn_rt {

enum ContractField {
  kContractMagic,         // 0x6e747461 ("attn")
  kContractVersion,       // 1
  kContractFormat,        // the metadata's format_version
  kContractBlockM,
  kContractBlockN,
  kContractWarps,
  kContractStages,
  kContractThreads,
  kContractSharedBytes,
  kContractHeadDim,       // q's static dim 3 (0 when dynamic)
  kContractValueHeadDim,  // v's
  kContractElementType,   // 0 f16, 1 bf16, 2 f32 (q's)
  kContractHasLse,
  kContractMaskKind,      // 0 none, 1 causal, 2 window
  kContractMaskAlignment, // 0 top_left, 1 bottom_right
  kContractMaskLeft,
  kContractMaskRight,
  kContractNumBuffers,
  kContractFields
};

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
