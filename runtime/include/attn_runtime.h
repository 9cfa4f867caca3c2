/*===- attn_runtime.h - load and launch attn kernels -----------*- C -*-===//
 *
 * A small C API over the CUDA driver API that loads the kernels the attn
 * compiler writes (a PTX file, optionally a cubin, and a JSON metadata file
 * per kernel) and launches them on tensors described by pointer, shape and
 * strides. The API is plain C so that Python's ctypes can call it; thin C++
 * RAII wrappers follow at the end of the file.
 *
 * Conventions
 *  - Functions returning int return 0 on success and non-zero on failure.
 *    On failure a NUL-terminated message is written to `err` (truncated to
 *    `err_len` bytes); `err` may be NULL.
 *  - Tensors are [B, H, N, D] (LSE: [B, H, N]); strides are in elements.
 *  - The runtime uses the primary context of the current device (device 0
 *    when no context is current), so it shares memory with PyTorch and the
 *    CUDA runtime API.
 *
 * Kernel ABI (format_version 1): parameters q, k, v, o, lse (64-bit device
 * pointers; lse = 0 when the kernel has no LSE output), then 19 int64:
 * B, Hq, Hkv, Nq, Nk, q_sb, q_sh, q_sr, k_sb, k_sh, k_sr, v_sb, v_sh, v_sr,
 * o_sb, o_sh, o_sr, lse_sb, lse_sh. Grid (ceil(Nq / block_m), B * Hq, 1),
 * block (threads, 1, 1), dynamic shared memory shared_bytes.
 *===----------------------------------------------------------------------===*/

#ifndef ATTN_RUNTIME_H
#define ATTN_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#if defined(_WIN32)
#define ATTN_RT_API
#else
#define ATTN_RT_API __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef struct attn_kernel attn_kernel;

typedef enum { ATTN_F16 = 0, ATTN_BF16 = 1, ATTN_F32 = 2 } attn_dtype;

/* Strides in elements. q, k, v, o: rank 4 [B, H, N, D]; lse: rank 3
 * [B, H, N] (shape[3] and strides[3] are ignored). */
typedef struct {
  uint64_t ptr;
  int64_t shape[4];
  int64_t strides[4];
  int32_t rank;
  attn_dtype dtype;
} attn_tensor;

/* Loads kernel `name` described in the artifact directory `dir`
 * (dir/<name>.json). Uses the cubin if present and built for this device's
 * arch, else JIT-compiles the PTX. 0 on success; else non-zero with a
 * message in err. */
ATTN_RT_API int attn_kernel_load(const char *dir, const char *name,
                                 attn_kernel **out, char *err, size_t err_len);

/* Launches on `stream` (CUstream as void*, NULL = default stream). lse may be
 * NULL iff the kernel has no LSE output. The tensors are validated first; a
 * bad tensor gives a message and nothing is launched. Nq == 0 (or B * Hq ==
 * 0) launches nothing. Nk == 0 with Nq > 0 launches no kernel either: every
 * query row sees no key, so O is set to 0 and LSE to -inf with memsets on
 * `stream`. The launch is asynchronous: errors of the running kernel show up
 * at the next synchronisation. */
ATTN_RT_API int attn_kernel_launch(attn_kernel *k, const attn_tensor *q,
                                   const attn_tensor *key, const attn_tensor *v,
                                   const attn_tensor *o, const attn_tensor *lse,
                                   void *stream, char *err, size_t err_len);

/* Writes the value of `key` as text to `out`. Keys:
 *   name, entry, target, compiler, ptx, cubin (paths as in the JSON; cubin
 *   "" when null), head_dim, value_head_dim, dtype (alias element_type:
 *   "f16"/"bf16"/"f32"), block_m, block_n, warps, stages, threads,
 *   shared_bytes, has_lse ("1"/"0"), scale_log2e, mask (alias mask_kind:
 *   "none"/"causal"/"window"), alignment ("top_left"/"bottom_right"),
 *   window_left, window_right (aliases left, right: the effective extents,
 *   "inf" where unbounded: causal is left inf right 0, none inf/inf),
 *   loaded_from ("cubin"/"ptx"), load_note (why the cubin was not used, or
 *   ""), device (GPU name), device_arch (e.g. "sm_90").
 * Returns 0 on success, 1 if `out` was too small (truncated value), -1 for
 * an unknown key (a message is written to out). */
ATTN_RT_API int attn_kernel_info(const attn_kernel *k, const char *key,
                                 char *out, size_t out_len);

/* Unloads the module and releases the primary context. NULL is a no-op. */
ATTN_RT_API void attn_kernel_unload(attn_kernel *k);

/*===----------------------------------------------------------------------===
 * The parsed metadata and launch validation, usable without CUDA.
 *===----------------------------------------------------------------------===*/

typedef enum {
  ATTN_MASK_NONE = 0,
  ATTN_MASK_CAUSAL = 1,
  ATTN_MASK_WINDOW = 2
} attn_mask_kind;

typedef enum { ATTN_TOP_LEFT = 0, ATTN_BOTTOM_RIGHT = 1 } attn_alignment;

/* The contents of dir/<name>.json. Strings longer than their field are
 * rejected by the parser. */
typedef struct {
  int32_t format_version;
  char name[128];
  char entry[128];
  char target[32];
  char compiler[256];
  char ptx[1024];   /* as written in the JSON (relative to the directory) */
  char cubin[1024]; /* "" when null or absent */
  int64_t block_m, block_n, warps, stages, threads, shared_bytes;
  int64_t head_dim, value_head_dim;
  attn_dtype element_type;
  int32_t has_lse;
  double scale_log2e;
  attn_mask_kind mask_kind;
  attn_alignment mask_alignment; /* top_left when the kind is none */
  int64_t mask_left, mask_right; /* as in the JSON; used for windows only */
} attn_kernel_desc;

/* Parses a metadata file / an in-memory document. `source_name` names the
 * document in messages. 0 on success. */
ATTN_RT_API int attn_desc_parse_file(const char *path, attn_kernel_desc *out,
                                     char *err, size_t err_len);
ATTN_RT_API int attn_desc_parse_string(const char *json, size_t len,
                                       const char *source_name,
                                       attn_kernel_desc *out, char *err,
                                       size_t err_len);

typedef enum {
  ATTN_PLAN_NOTHING = 0,    /* an empty problem: nothing to do */
  ATTN_PLAN_LAUNCH = 1,     /* launch the kernel with grid/block/params */
  ATTN_PLAN_FILL_EMPTY = 2  /* Nk == 0: O = 0, LSE = -inf, no kernel */
} attn_plan_action;

#define ATTN_NUM_PTR_PARAMS 5
#define ATTN_NUM_INT_PARAMS 19

typedef struct {
  attn_plan_action action;
  uint32_t grid[3];
  uint32_t block[3];
  uint32_t shared_bytes;
  uint64_t ptrs[ATTN_NUM_PTR_PARAMS];   /* q, k, v, o, lse */
  int64_t ints[ATTN_NUM_INT_PARAMS];    /* B, Hq, ..., lse_sh */
} attn_launch_plan;

/* Checks the tensors against the kernel description (all rules of
 * attn_kernel_launch, no device needed) and, when `plan` is not NULL, fills
 * in what would be launched. 0 when the launch is valid. */
ATTN_RT_API int attn_validate_launch(const attn_kernel_desc *desc,
                                     const attn_tensor *q,
                                     const attn_tensor *key,
                                     const attn_tensor *v,
                                     const attn_tensor *o,
                                     const attn_tensor *lse,
                                     attn_launch_plan *plan, char *err,
                                     size_t err_len);

/* The description a loaded kernel was made from. */
ATTN_RT_API const attn_kernel_desc *attn_kernel_get_desc(const attn_kernel *k);

/* "f16", "bf16", "f32" (or "?"), and the size of one element in bytes. */
ATTN_RT_API const char *attn_dtype_name(attn_dtype t);
ATTN_RT_API size_t attn_dtype_size(attn_dtype t);

#ifdef __cplusplus
} /* extern "C" */

/*===----------------------------------------------------------------------===
 * C++ wrappers (header only, no exceptions).
 *===----------------------------------------------------------------------===*/
#include <memory>
#include <string>

namespace attn {
namespace rt {

struct KernelDeleter {
  void operator()(attn_kernel *k) const { attn_kernel_unload(k); }
};

/// An owned, loaded kernel. Empty when loading failed.
class Kernel {
public:
  Kernel() = default;

  /// Loads dir/<name>.json; on failure returns an empty Kernel and sets
  /// *error (when given).
  static Kernel load(const std::string &dir, const std::string &name,
                     std::string *error = nullptr) {
    char msg[2048] = {0};
    attn_kernel *raw = nullptr;
    Kernel k;
    if (attn_kernel_load(dir.c_str(), name.c_str(), &raw, msg, sizeof msg)) {
      if (error)
        *error = msg;
      return k;
    }
    k.handle.reset(raw);
    return k;
  }

  explicit operator bool() const { return handle != nullptr; }
  attn_kernel *get() const { return handle.get(); }
  const attn_kernel_desc &desc() const { return *attn_kernel_get_desc(get()); }

  /// Launches; false with *error set on failure.
  bool launch(const attn_tensor &q, const attn_tensor &k,
              const attn_tensor &v, const attn_tensor &o,
              const attn_tensor *lse, void *stream = nullptr,
              std::string *error = nullptr) const {
    char msg[2048] = {0};
    if (attn_kernel_launch(handle.get(), &q, &k, &v, &o, lse, stream, msg,
                           sizeof msg)) {
      if (error)
        *error = msg;
      return false;
    }
    return true;
  }

  /// The value of an attn_kernel_info key, or "" for an unknown key.
  std::string info(const char *key) const {
    char buf[1024] = {0};
    return attn_kernel_info(handle.get(), key, buf, sizeof buf) < 0
               ? std::string()
               : std::string(buf);
  }

private:
  std::unique_ptr<attn_kernel, KernelDeleter> handle;
};

} // namespace rt
} // namespace attn

#endif /* __cplusplus */

#endif /* ATTN_RUNTIME_H */
