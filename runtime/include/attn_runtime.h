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
 *
 * Kernel ABI (format_version 2): the metadata lists the kernel's `buffers`
 * in argument order; each is passed as a 64-bit device pointer, then its
 * `rank` sizes, then its `rank` strides (int64, in elements). A buffer has
 * one or more roles (q, k, v, o, lse, bias, alibi_slopes, input, output;
 * the same memory may be given as K and V) and is named by its roles joined
 * with "+" ("k+v"); `params` spells the list out ("k+v", "k+v.size0", ...,
 * "k+v.stride0", ...). Grid (ceil(q.size2 / block_m), q.size0 * q.size1,
 * 1), block (threads, 1, 1), dynamic shared memory shared_bytes. Callers
 * pass tensors by role (attn_arg); the launch checks are in
 * attn_validate_args. The kernel handles Nk = k.size2 = 0 itself (O = 0,
 * LSE = -inf, K and V never read).
 *
 * Kernel ABI (format_version 3): the parameters of format_version 2, then
 * one 128-byte CUtensorMap per entry of the metadata's `tensor_maps`, by
 * value (.param .align 64 .b8 [128], grid-constant), for the kernel's TMA
 * copies (cp.async.bulk.tensor) of that buffer. The runtime encodes them at
 * each launch (cuTensorMapEncodeTiled) from the tensor it is given.
 *
 * Dispatch (format_version 2 and 3): one attention may be compiled into
 * several kernels that differ only in tile configuration, one per range of
 * key lengths. The main kernel's metadata then has
 *   "dispatch": {"on": "k.size2",
 *                "variants": [{"max": 512, "kernel": "NAME__n512"}, ...]}
 * and every variant is a complete artifact of its own in the same directory
 * (dir/NAME__n512.json, its PTX, its cubin). At each launch L = the extent
 * named by "on" (only "k.size2": size 2 of the tensor given in role k, the
 * key length) picks the first variant with L <= max; when none has, the
 * main kernel runs (it covers the longest lengths). The parser checks the
 * table (at most ATTN_MAX_VARIANTS entries, each max > 0 and larger than
 * the one before, kernel names that are file names without '/', distinct,
 * not the main kernel's); attn_kernel_load loads every variant as a kernel
 * of its own and refuses one with a dispatch table of its own or another
 * interface (buffers, LSE, head dims, mask, scale; format_version 2 and 3
 * may be mixed). The launch checks are those of the kernel that is chosen.
 *
 * TMA fallback (format_version 3, a kernel with tensor maps): metadata
 * with
 *   "tma_fallback": "NAME__unstaged"
 * name a kernel of the same directory with the kernel's interface (as a
 * dispatch variant's, checked the same way; no dispatch table and no
 * fallback of its own) that a launch runs instead where one of the
 * kernel's tensor maps cannot describe its argument (a pointer or a stride
 * that is not a multiple of 16 bytes: a bias of Nk % 8 != 0 16-bit keys
 * that the kernel copies with TMA, say), and, where it takes the launch,
 * where a map's box would copy one row many times (a zero stride along a
 * dim the box spans: a bias broadcast over its query rows; its loads read
 * that faster than TMA, runtime/README.md). attn_kernel_load loads it with
 * the kernel (and each dispatch variant's with that variant);
 * attn_kernel_info's last_variant then names it and last_fallback says
 * why. Arguments that the fallback cannot take either are refused with
 * the fallback's message.
 *
 * Persistent kernels (format_version 3): metadata with
 *   "persistent": {"ctas_per_sm": N}      (N in 1..32)
 * describe a kernel that loops over the tiles of the grid above itself,
 * each tile t taken by one CTA whatever gridDim.x is, for example
 *   for (t = blockIdx.x; t < tiles; t += gridDim.x)
 *     x = t % ceil(q.size2 / block_m), y = t / ceil(q.size2 / block_m)
 * (masked kernels mirror every other round of gridDim.x tiles)
 * with tiles = ceil(q.size2 / block_m) * q.size0 * q.size1. It is launched
 * on grid (min(tiles, sm_count * N), 1, 1), sm_count the device's
 * multiprocessors (read at load); tiles must be <= 2^31 - 1 (the y limit
 * of 65535 does not apply). The module's launch contract (version 2) must
 * say persistent too, and a persistent kernel needs a contract: a kernel
 * that does not loop would skip tiles on that grid. The variants of a
 * dispatch table may differ in persistence; each launches on its own grid.
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
 * arch, else JIT-compiles the PTX. With a dispatch table, every variant is
 * loaded too (dir/<variant>.json, as the kernel itself), after the
 * metadata of all of them has been read and compared: a variant that is
 * missing, fails to load, has a dispatch table itself or another interface
 * than the kernel fails the whole load, with a message naming the variant
 * (and the field). 0 on success; else non-zero with a message in err. */
ATTN_RT_API int attn_kernel_load(const char *dir, const char *name,
                                 attn_kernel **out, char *err, size_t err_len);

/* Launches on `stream` (CUstream as void*, NULL = default stream). lse may be
 * NULL iff the kernel has no LSE output. The tensors are validated first; a
 * bad tensor gives a message and nothing is launched. Nq == 0 (or B * Hq ==
 * 0) launches nothing. Nk == 0 with Nq > 0, format_version 1: no kernel
 * either: every query row sees no key, so O is set to 0 and LSE to -inf
 * with memsets on `stream`; format_version 2: the kernel is launched (it
 * writes those values itself). For a format_version 2 kernel this is
 * attn_kernel_launch_args with the roles q, k, v, o (and lse when not NULL);
 * a kernel with other roles (bias, input, ...) needs attn_kernel_launch_args.
 * With a dispatch table the kernel that k's size 2 picks is checked and
 * launched (attn_desc_select_variant); attn_kernel_info(k, "last_variant")
 * names it afterwards.
 * The launch is asynchronous: errors of the running kernel show up at the
 * next synchronisation. */
ATTN_RT_API int attn_kernel_launch(attn_kernel *k, const attn_tensor *q,
                                   const attn_tensor *key, const attn_tensor *v,
                                   const attn_tensor *o, const attn_tensor *lse,
                                   void *stream, char *err, size_t err_len);

/* One tensor argument by role: "q", "k", "v", "o", "lse", "bias",
 * "alibi_slopes", "input", "output". A buffer with several roles takes one
 * argument per role, all describing the same tensor. "input" and "output"
 * may be given several times: the n-th "input" argument is the kernel's
 * n-th buffer with role input. */
typedef struct {
  const char *role;
  attn_tensor tensor;
} attn_arg;

/* Launches with tensors by role, after the checks of attn_validate_args
 * (format_version 2) or attn_validate_launch (format_version 1: roles q, k,
 * v, o and, iff the kernel has one, lse). Otherwise as attn_kernel_launch
 * (also the choice of a dispatch variant, from the "k" argument). */
ATTN_RT_API int attn_kernel_launch_args(attn_kernel *k, const attn_arg *args,
                                        size_t num_args, void *stream,
                                        char *err, size_t err_len);

/* Writes the value of `key` as text to `out`. Keys:
 *   name, entry, target, compiler, ptx, cubin (paths as in the JSON; cubin
 *   "" when null), head_dim, value_head_dim, dtype (alias element_type:
 *   "f16"/"bf16"/"f32"), block_m, block_n, warps, stages, threads,
 *   shared_bytes, has_lse ("1"/"0"), scale_log2e, mask (alias mask_kind:
 *   "none"/"causal"/"window"), alignment ("top_left"/"bottom_right"),
 *   window_left, window_right (aliases left, right: the effective extents,
 *   "inf" where unbounded: causal is left inf right 0, none inf/inf),
 *   loaded_from ("cubin"/"ptx"), load_note (why the cubin was not used, or
 *   ""), device (GPU name), device_arch (e.g. "sm_90"), format_version,
 *   buffers (the kernel's arguments, e.g. "q:f16[?,?,?,128] k+v:f16[...]
 *   o:f16[?,?,?,128](write)": roles, element type, static shape with ? for
 *   dynamic extents, "(write)" for outputs), tensor_maps (format_version 3:
 *   "k:box[64,128,1,1]:swizzle128 ..." per tensor map its buffer, box
 *   (innermost first) and swizzle in bytes; "" for a kernel without),
 *   dispatch (the dispatch table, "k.size2<=512:NAME__n512
 *   k.size2<=2048:NAME__n2048 else:NAME"; "" for a kernel without),
 *   last_variant (the name of the kernel, the main one or a variant, that
 *   the last successful attn_kernel_launch / attn_kernel_launch_args
 *   through this handle checked and launched (or found nothing to launch
 *   for: an empty problem), "" before any; per handle and not
 *   synchronized: with launches from several threads at once it is one of
 *   theirs), persistent ("1"/"0"), ctas_per_sm (the "persistent" key's, "0"
 *   for a kernel that is not persistent), sm_count (the device's
 *   multiprocessors as read at load, "0" when the driver did not say),
 *   last_grid (the grid the last successful launch call through this handle
 *   launched its kernel on, "XxYxZ", e.g. "264x1x1"; "none" when it
 *   launched no kernel: an empty problem, or format_version 1's memsets for
 *   Nk = 0; "" before any), last_persistent ("1"/"0": whether the kernel
 *   last_variant names is persistent; "" before any launch),
 *   tma_fallback (the "tma_fallback" key's kernel, "" without),
 *   last_fallback (why the last successful launch ran the TMA fallback:
 *   the kernel's refusal of a tensor map; "" when it ran the kernel itself
 *   or before any launch). The last_* keys
 *   are each per handle and not synchronized with each other: with
 *   launches from several threads at once each is one of theirs.
 * With a dispatch table the other keys describe the main kernel.
 * format_version 2 and 3: dtype is q's element type, head_dim / value_head_dim
 * q's / v's static dim 3 ("?" when dynamic), has_lse whether a buffer has
 * role lse; mask, alignment, window_left, window_right and scale_log2e are
 * "?" when the document has no "mask" / "scale_log2e" (they are optional,
 * informational there).
 * Returns 0 on success, 1 if `out` was too small (truncated value), -1 for
 * an unknown key (a message is written to out). */
ATTN_RT_API int attn_kernel_info(const attn_kernel *k, const char *key,
                                 char *out, size_t out_len);

/* Unloads the module (and those of the dispatch variants) and releases the
 * primary context. NULL is a no-op. */
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

/* Roles of format_version 2 buffers (attn_buffer_desc.roles). */
typedef enum {
  ATTN_ROLE_Q = 0,
  ATTN_ROLE_K = 1,
  ATTN_ROLE_V = 2,
  ATTN_ROLE_O = 3,
  ATTN_ROLE_LSE = 4,
  ATTN_ROLE_BIAS = 5,
  ATTN_ROLE_ALIBI_SLOPES = 6,
  ATTN_ROLE_INPUT = 7,
  ATTN_ROLE_OUTPUT = 8
} attn_role;
#define ATTN_NUM_ROLES 9

/* Capacities of the format_version 2 description; the parser refuses
 * documents beyond them (with a message naming the key). */
#define ATTN_MAX_RANK 4        /* what attn_tensor holds */
#define ATTN_MAX_BUFFERS 16
#define ATTN_MAX_SIZE_PAIRS 64 /* entries of each of equal_sizes, divisible_sizes, broadcast_sizes */
#define ATTN_BUFFER_NAME_LEN 48 /* all nine roles joined by "+" fit */
#define ATTN_MAX_TENSOR_MAPS 8 /* entries of tensor_maps (format_version 3) */
#define ATTN_MAX_VARIANTS 8    /* entries of dispatch.variants */

/* One kernel argument of format_version 2. */
typedef struct {
  char name[ATTN_BUFFER_NAME_LEN]; /* roles joined by "+", e.g. "k+v" */
  int32_t num_roles;               /* 1..ATTN_NUM_ROLES */
  int32_t roles[ATTN_NUM_ROLES];   /* attn_role values, distinct, as listed */
  attn_dtype element_type;
  int32_t rank;                          /* 1..ATTN_MAX_RANK */
  int64_t static_shape[ATTN_MAX_RANK];   /* -1: dynamic; 0 past rank */
  int32_t writes;                        /* access: 1 "write", 0 "read" */
  int32_t align; /* bytes (power of two, 1..256) that the pointer and the
                    byte stride of every dim of extent > 1 but the innermost
                    must be a multiple of */
} attn_buffer_desc;

/* Size `dim` of buffers[buffer]. */
typedef struct {
  int32_t buffer;
  int32_t dim;
} attn_size_ref;

/* One entry of format_version 3's tensor_maps: the kernel reads
 * buffers[buffer] with TMA copies of box[0..rank) elements, innermost
 * dimension first (box[0] is the contiguous one), into shared memory
 * swizzled in spans of `swizzle` bytes (0: none, 32, 64 or 128). */
typedef struct {
  int32_t buffer;              /* a read-only buffer of rank >= 2 */
  int32_t swizzle;             /* bytes: 0, 32, 64 or 128 */
  int32_t box[ATTN_MAX_RANK];  /* each in [1, 256]; 0 past the rank */
} attn_tensor_map_desc;

/* What a dispatch table's L is (attn_kernel_desc.dispatch_on). */
typedef enum {
  ATTN_DISPATCH_NONE = 0,    /* no dispatch table */
  ATTN_DISPATCH_K_SIZE2 = 1  /* "k.size2": the key length */
} attn_dispatch_on;

/* One entry of the dispatch table: kernel `kernel` (dir/<kernel>.json) runs
 * for L <= max, unless an earlier entry takes L. */
typedef struct {
  int64_t max;      /* in [1, 2^31 - 1025]; each entry's larger than the last */
  char kernel[128]; /* a file name without '/', like attn_kernel_desc.name */
} attn_variant_desc;

/* equal_sizes: first == second. divisible_sizes: first (the divisor) > 0
 * and second % first == 0. broadcast_sizes: first == 1 or first == second
 * (a dimension that broadcasts, such as a bias's batch). */
typedef struct {
  attn_size_ref first, second;
} attn_size_pair;

/* The contents of dir/<name>.json. Strings longer than their field are
 * rejected by the parser.
 *
 * Layout: the fields up to mask_right are those of format_version 1, at
 * their old offsets; the format_version 2 fields were appended after them,
 * so the struct grew (attn_struct_size("attn_kernel_desc") gives its size:
 * a ctypes mirror must be updated before it lets the runtime write one).
 * For a format_version 2 or 3 document the version-1 fields hold:
 * head_dim / value_head_dim q's / v's static dim 3 (0 when dynamic),
 * element_type q's, has_lse whether a buffer has role lse, scale_log2e 0
 * when absent, the mask fields as in version 1 when "mask" is present
 * (has_mask_info). */
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

  /* --- format_version 2 (version 1: has_mask_info = has_scale = 1, the
   * rest 0). --- */
  int32_t has_mask_info; /* the optional "mask" object was present */
  int32_t has_scale;     /* the optional "scale_log2e" was present */
  int32_t num_buffers;
  int32_t num_equal_sizes;
  int32_t num_divisible_sizes;
  attn_buffer_desc buffers[ATTN_MAX_BUFFERS]; /* in argument order */
  attn_size_pair equal_sizes[ATTN_MAX_SIZE_PAIRS];
  attn_size_pair divisible_sizes[ATTN_MAX_SIZE_PAIRS];
  /* Appended after the arrays above (their offsets are unchanged). */
  int32_t num_broadcast_sizes;
  attn_size_pair broadcast_sizes[ATTN_MAX_SIZE_PAIRS];
  /* --- format_version 3, appended (0 for versions 1 and 2). --- */
  int32_t num_tensor_maps;
  attn_tensor_map_desc tensor_maps[ATTN_MAX_TENSOR_MAPS];
  /* --- the dispatch table, appended (ATTN_DISPATCH_NONE and 0 variants
   * without a "dispatch" key). --- */
  int32_t dispatch_on; /* attn_dispatch_on */
  int32_t num_variants;
  attn_variant_desc variants[ATTN_MAX_VARIANTS]; /* in the listed order */
  /* --- persistent kernels (format_version 3), appended (0 and 0 without
   * a "persistent" key). --- */
  int32_t persistent;  /* 1: the kernel loops over its tiles itself */
  int32_t ctas_per_sm; /* persistent: CTAs per SM to launch, 1..32 */
  /* --- the TMA fallback (format_version 3), appended ("" without a
   * "tma_fallback" key). --- */
  char tma_fallback[128]; /* a file name without '/', like name */
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
  ATTN_PLAN_FILL_EMPTY = 2  /* format_version 1, Nk == 0: O = 0, LSE = -inf,
                               no kernel */
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

/* Checks the tensors against a format_version 1 kernel description (all
 * rules of attn_kernel_launch, no device needed) and, when `plan` is not
 * NULL, fills in what would be launched. 0 when the launch is valid. A
 * format_version 2 description is refused (its parameters do not fit
 * attn_launch_plan): use attn_validate_args. */
ATTN_RT_API int attn_validate_launch(const attn_kernel_desc *desc,
                                     const attn_tensor *q,
                                     const attn_tensor *key,
                                     const attn_tensor *v,
                                     const attn_tensor *o,
                                     const attn_tensor *lse,
                                     attn_launch_plan *plan, char *err,
                                     size_t err_len);

/* The most parameter words a kernel can take: every buffer a pointer and
 * ATTN_MAX_RANK sizes and strides. */
#define ATTN_MAX_PARAM_WORDS (ATTN_MAX_BUFFERS * (1 + 2 * ATTN_MAX_RANK))

/* The values of cuda.h's enums that attn_tensor_map_args holds
 * (CUtensorMapDataType, ...; runtime.cpp checks them against cuda.h when it
 * is compiled), so that a plan can be read without CUDA. */
#define ATTN_TMA_DATA_TYPE_FLOAT16 6  /* f16 */
#define ATTN_TMA_DATA_TYPE_FLOAT32 7  /* f32 */
#define ATTN_TMA_DATA_TYPE_BFLOAT16 9 /* bf16 */
#define ATTN_TMA_INTERLEAVE_NONE 0
#define ATTN_TMA_SWIZZLE_NONE 0
#define ATTN_TMA_SWIZZLE_32B 1
#define ATTN_TMA_SWIZZLE_64B 2
#define ATTN_TMA_SWIZZLE_128B 3
#define ATTN_TMA_L2_PROMOTION_L2_256B 3
#define ATTN_TMA_FLOAT_OOB_FILL_NONE 0 /* out-of-bounds elements read as 0 */

/* The arguments of the cuTensorMapEncodeTiled call that makes one tensor
 * map of a launch (format_version 3), for a tensor of rank r: dims
 * innermost first, so global_dim = (size[r-1], ..., size[0]) and
 * global_strides (bytes, r - 1 of them) = (stride[r-2], ..., stride[0]) *
 * element size (0 for a dim of extent 1, whose stride is never used). A
 * tensor without elements is never read (format_version 2's rule) and TMA
 * cannot describe an extent of 0: then encode is 0 and the kernel gets 128
 * zero bytes instead of a map. */
typedef struct {
  uint64_t global_address;
  uint64_t global_dim[ATTN_MAX_RANK];          /* 0 past the rank */
  uint64_t global_strides[ATTN_MAX_RANK - 1];  /* bytes; 0 past rank - 1 */
  int32_t buffer;       /* the kernel's buffers[buffer] */
  uint32_t encode;      /* 1: call cuTensorMapEncodeTiled; 0: zero bytes */
  uint32_t data_type;   /* ATTN_TMA_DATA_TYPE_* */
  uint32_t rank;
  uint32_t box_dim[ATTN_MAX_RANK];
  uint32_t element_strides[ATTN_MAX_RANK]; /* 1 within the rank */
  uint32_t interleave;   /* ATTN_TMA_INTERLEAVE_NONE */
  uint32_t swizzle;      /* ATTN_TMA_SWIZZLE_* */
  uint32_t l2_promotion; /* ATTN_TMA_L2_PROMOTION_L2_256B */
  uint32_t oob_fill;     /* ATTN_TMA_FLOAT_OOB_FILL_NONE */
} attn_tensor_map_args;

/* What attn_validate_args would launch. words[0..num_words) are the kernel
 * parameters in order, each 8 bytes: device pointers as uint64, sizes and
 * strides as int64 (stored as uint64; cast back). format_version 1: the 24
 * parameters of its ABI (5 pointers, 19 int64). format_version 3: the
 * tensor maps follow the words as parameters, in tensor_maps order. */
typedef struct {
  attn_plan_action action;
  uint32_t grid[3];
  uint32_t block[3];
  uint32_t shared_bytes;
  uint32_t num_words;
  uint64_t words[ATTN_MAX_PARAM_WORDS];
  /* --- format_version 3, appended (0 for versions 1 and 2). --- */
  uint32_t num_tensor_maps;
  attn_tensor_map_args tensor_maps[ATTN_MAX_TENSOR_MAPS];
} attn_launch_plan_v2;

/* Checks tensors given by role against the kernel description (no device
 * needed) and, when `plan` is not NULL, fills in what would be launched.
 * 0 when the launch is valid. format_version 2 rules (each failure names
 * the role or buffer and the value):
 *  - every role of the kernel given exactly once ("input"/"output": once
 *    per such buffer), no role the kernel lacks, no unknown role; the
 *    roles of one buffer given identical tensors (pointer, shape, strides);
 *  - dtype and rank (1..4) as the buffer's; static extents as listed;
 *    extents in [0, 2^31 - 1025] (the kernels index in 32 bits); strides
 *    >= 0; innermost stride 1 unless the innermost extent is <= 1;
 *  - tensors with elements: a non-NULL pointer, a multiple of the buffer's
 *    align, and so is (stride * element size) of every dim of extent > 1
 *    but the innermost; the byte offsets fit in int64; outputs (access
 *    write): no stride 0 on a dim of extent > 1, and their byte range
 *    [ptr, ptr + (max element offset + 1) * element size) overlaps no other
 *    tensor's (two roles of one buffer are one tensor). Tensors without
 *    elements are not accessed: any pointer (NULL too), any stride;
 *  - equal_sizes and divisible_sizes hold; q.size0 * q.size1 <= 65535
 *    (grid y; grid x <= 2^31 - 1 follows from the extent limit); for a
 *    persistent kernel instead tiles <= 2^31 - 1, and its grid here is
 *    (tiles, 1, 1): see attn_validate_args_sm, which knows the SM count.
 * Grid x or y of 0 (Nq == 0, B * Hq == 0): action NOTHING. format_version
 * 3, for each tensor map whose tensor has elements (before the generic
 * checks of that buffer, so that the message names TMA): a data pointer
 * 16-byte aligned and byte strides of dims of extent > 1 multiples of 16
 * and below 2^40 (what TMA can describe; a stride 0 is fine). A dim of
 * extent 1 gets byte stride 0 in the map (its stride is never used).
 * format_version 1 descriptions: the roles q, k, v, o, lse and
 * attn_validate_launch's rules; words are its 24 parameters.
 * The checks and the plan are `desc`'s own: a dispatch table is not
 * followed here (attn_desc_select_variant says which variant's description
 * a launch through a loaded handle uses). */
ATTN_RT_API int attn_validate_args(const attn_kernel_desc *desc,
                                   const attn_arg *args, size_t num_args,
                                   attn_launch_plan_v2 *plan, char *err,
                                   size_t err_len);

/* attn_validate_args for a device of `sm_count` multiprocessors (what
 * attn_kernel_load reads, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT; 132 on
 * an H100 SXM or H200; attn_kernel_info(k, "sm_count")). Only the plan of
 * a persistent kernel (desc->persistent) depends on it: grid
 * (min(tiles, sm_count * ctas_per_sm), 1, 1), tiles = ceil(q.size2 /
 * block_m) * q.size0 * q.size1, which must be <= 2^31 - 1 (the y limit of
 * 65535 is not checked for it); tiles == 0 is action NOTHING (grid
 * (0, 1, 1)). sm_count <= 0 is unknown: the grid is then (tiles, 1, 1), one
 * CTA per tile, which a persistent kernel computes correctly too (only
 * slower for many tiles). attn_validate_args is this with sm_count 0. */
ATTN_RT_API int attn_validate_args_sm(const attn_kernel_desc *desc,
                                      const attn_arg *args, size_t num_args,
                                      int32_t sm_count,
                                      attn_launch_plan_v2 *plan, char *err,
                                      size_t err_len);

/* Which kernel of desc's dispatch table a launch with these arguments runs:
 * the index into desc->variants of the first variant whose max is >= L
 * (L = size 2 of the "k" argument; 0 picks the first variant), or -1 for
 * the kernel itself: without a table, when no variant's max reaches L, or
 * when there is no "k" argument of rank >= 3 with an extent >= 0 there (the
 * checks of the kernel itself then refuse the launch). No device needed;
 * the arguments are not checked otherwise. */
ATTN_RT_API int attn_desc_select_variant(const attn_kernel_desc *desc,
                                         const attn_arg *args,
                                         size_t num_args);

/* attn_kernel_info's keys that come from the description alone (all but
 * loaded_from, load_note, device, device_arch, sm_count and the last_*
 * keys), without a device. */
ATTN_RT_API int attn_desc_info(const attn_kernel_desc *desc, const char *key,
                               char *out, size_t out_len);

/* sizeof the named struct of this header ("attn_tensor", "attn_arg",
 * "attn_kernel_desc", "attn_buffer_desc", "attn_tensor_map_desc",
 * "attn_variant_desc", "attn_launch_plan", "attn_launch_plan_v2",
 * "attn_tensor_map_args"), or 0 for another name: lets a ctypes mirror
 * check its layout against the library it loaded. */
ATTN_RT_API size_t attn_struct_size(const char *type_name);

/* The description a loaded kernel was made from (with a dispatch table:
 * the main kernel's). */
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

  /// Launches with tensors by role; false with *error set on failure.
  bool launch(const attn_arg *args, size_t numArgs, void *stream = nullptr,
              std::string *error = nullptr) const {
    char msg[2048] = {0};
    if (attn_kernel_launch_args(handle.get(), args, numArgs, stream, msg,
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
