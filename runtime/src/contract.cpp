//===- contract.cpp - comparing a module's launch contract with its JSON -===//

#include "contract.h"

namespace attn_rt {

size_t contractBytes(int64_t version) {
  return version == 1   ? kContractFieldsV1 * sizeof(int64_t)
         : version == 2 ? kContractFields * sizeof(int64_t)
                        : 0;
}

bool checkContractSize(size_t bytes, const std::string &symbol,
                       std::string &error) {
  if (bytes == contractBytes(1) || bytes == contractBytes(2))
    return true;
  error = "the module's launch contract " + symbol + " has " +
          std::to_string(bytes) + " bytes, this runtime reads " +
          std::to_string(contractBytes(1)) + " (version 1) or " +
          std::to_string(contractBytes(2)) +
          " (version 2) (another compiler version?)";
  return false;
}

namespace {

/// Magic, a version this runtime reads, and the size of that version.
bool checkHeader(const int64_t (&c)[kContractFields], size_t bytes,
                 const std::string &symbol, std::string &error) {
  size_t want = contractBytes(c[kContractVersion]);
  if (c[kContractMagic] != 0x6e747461 || want == 0) {
    error = "the module's launch contract " + symbol +
            " is not one this runtime reads (magic " +
            std::to_string(c[kContractMagic]) + ", version " +
            std::to_string(c[kContractVersion]) + "; it reads versions 1 "
            "and 2)";
    return false;
  }
  if (bytes != want) {
    error = "the module's launch contract " + symbol + " says version " +
            std::to_string(c[kContractVersion]) + " but has " +
            std::to_string(bytes) + " bytes; version " +
            std::to_string(c[kContractVersion]) + " has " +
            std::to_string(want) + " (a damaged or mixed-up module?)";
    return false;
  }
  return true;
}

} // namespace

bool checkContract(const attn_kernel_desc &d,
                   const int64_t (&c)[kContractFields], size_t bytes,
                   const std::string &symbol, std::string &error) {
  if (!checkHeader(c, bytes, symbol, error))
    return false;
  // "mask" is optional from format_version 2 on: a document without one
  // has nothing to compare the module's mask fields with.
  int64_t maskKind =
      d.has_mask_info ? (int64_t)d.mask_kind : c[kContractMaskKind];
  int64_t windowLeft = d.mask_kind == ATTN_MASK_WINDOW ? d.mask_left : 0;
  int64_t windowRight = d.mask_kind == ATTN_MASK_WINDOW ? d.mask_right : 0;
  // Version 1 predates persistent kernels: its kernels are not persistent.
  // The grid of a persistent kernel is shrunk only when both sides say so:
  // a kernel that does not loop over its tiles would skip most of them.
  const bool v1 = c[kContractVersion] == 1;
  struct Field {
    const char *name;
    int64_t module, metadata;
  } fields[] = {
      {"format_version", c[kContractFormat], d.format_version},
      {"block_m", c[kContractBlockM], d.block_m},
      {"block_n", c[kContractBlockN], d.block_n},
      {"warps", c[kContractWarps], d.warps},
      {"stages", c[kContractStages], d.stages},
      {"threads", c[kContractThreads], d.threads},
      {"shared_bytes", c[kContractSharedBytes], d.shared_bytes},
      {"head dim (q's static_shape[3])", c[kContractHeadDim], d.head_dim},
      {"value head dim (v's static_shape[3])", c[kContractValueHeadDim],
       d.value_head_dim},
      {"element type (q's element_type; 0 f16, 1 bf16, 2 f32)",
       c[kContractElementType], (int64_t)d.element_type},
      {"LSE output (a buffer with role lse)", c[kContractHasLse], d.has_lse},
      {"mask kind (0 none, 1 causal, 2 window)", c[kContractMaskKind],
       maskKind},
      {"mask alignment (0 top_left, 1 bottom_right)",
       maskKind == ATTN_MASK_NONE ? 0 : c[kContractMaskAlignment],
       maskKind == ATTN_MASK_NONE ? 0 : (int64_t)d.mask_alignment},
      {"window left", c[kContractMaskLeft],
       d.has_mask_info ? windowLeft : c[kContractMaskLeft]},
      {"window right", c[kContractMaskRight],
       d.has_mask_info ? windowRight : c[kContractMaskRight]},
      {"number of buffers", c[kContractNumBuffers],
       d.format_version >= 2 ? (int64_t)d.num_buffers
                             : c[kContractNumBuffers]},
      {v1 ? "persistent (the \"persistent\" key; a version 1 contract is "
            "never persistent)"
          : "persistent (the \"persistent\" key; 1: the kernel loops over "
            "its tiles)",
       v1 ? 0 : c[kContractPersistent], d.persistent ? 1 : 0},
  };
  for (const Field &f : fields)
    if (f.module != f.metadata) {
      error = std::string("the metadata says ") + f.name + " = " +
              std::to_string(f.metadata) + ", the module's launch contract " +
              std::to_string(f.module) + ": the JSON does not describe this "
              "kernel";
      return false;
    }
  return true;
}

} // namespace attn_rt
