/*===- attn_contract.h - the fields of a module's launch contract -*- C++ -*-===*\
|*                                                                            *|
|* The compiler embeds in each module a constant global                       *|
|* `attn_contract_<entry>` of kContractFields int64, in this order            *|
|* (lib/Conversion/AttnToNVVM/OutlineKernel.cpp writes it); the runtime reads *|
|* it at load and compares it with the metadata (runtime/src/contract.cpp).   *|
|* One list for both sides: this header is included by the compiler too.      *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef ATTN_CONTRACT_H
#define ATTN_CONTRACT_H

#include <cstdint>

namespace attn_contract {

enum Field : int64_t {
  kContractMagic,         // 0x6e747461 ("attn")
  kContractVersion,       // 2 (1: the first 18 fields only, not persistent)
  kContractFormat,        // the metadata's format_version (2, or 3 with TMA)
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
  kContractPersistent,    // 1: the kernel loops over its tiles itself, so
                          // the runtime may launch fewer CTAs (version 2)
  kContractFields
};

/// Version 1 contracts end before kContractPersistent.
constexpr int64_t kContractFieldsV1 = kContractPersistent;

} // namespace attn_contract

#endif // ATTN_CONTRACT_H
