//===- runtime.cpp - load and launch attn kernels (CUDA driver API) -----===//

#include "attn_runtime.h"
#include "contract.h"
#include "core.h"

#include <cuda.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

using namespace attn_rt;

namespace {
/// attn_kernel::lastGrid before any launch, and after one that launched no
/// kernel.
constexpr uint64_t kNoLaunch = ~uint64_t(0), kNoGrid = 0;
} // namespace

struct attn_kernel {
  attn_kernel_desc desc;
  std::string dir, ptxPath, cubinPath;
  CUdevice device = 0;
  CUcontext context = nullptr; // the device's primary context, retained
  CUmodule module = nullptr;
  CUfunction function = nullptr;
  std::string loadedFrom; // "cubin" or "ptx"
  std::string loadNote;   // why the cubin was not used
  std::string deviceName;
  int ccMajor = 0, ccMinor = 0;
  // The device's multiprocessors, which size a persistent kernel's grid; 0
  // when the driver did not say (then one CTA per tile: correct as well).
  int smCount = 0;
  // The kernels of the dispatch table, in desc.variants order, each loaded
  // as a kernel of its own (its module, its reference to the context).
  std::vector<attn_kernel *> variants;
  // The kernel's TMA fallback (desc.tma_fallback), loaded with it; null
  // without one. Each variant holds its own.
  attn_kernel *fallback = nullptr;
  // Whether the last successful launch ran the chosen kernel's fallback,
  // and why (the kernel's refusal of a tensor map); the reason under a
  // mutex, since launches may come from several threads.
  std::atomic<bool> lastFellBack{false};
  mutable std::mutex fallbackMutex;
  std::string lastFallbackWhy;
  // What the last successful launch through this handle ran: -1 this
  // kernel, i variants[i], -2 nothing yet. Atomic because launches may come
  // from several threads: attn_kernel_info gets one of theirs, never a torn
  // value.
  std::atomic<int> lastLaunched{-2};
  // The grid of that launch, packGrid's; kNoGrid when it launched no
  // kernel, kNoLaunch before any. Atomic for the same reason.
  std::atomic<uint64_t> lastGrid{kNoLaunch};
};

namespace {

/// A grid in one word, for attn_kernel::lastGrid: x in the high 32 bits, y
/// and z (<= 65535: the launch checks bound them) 16 bits each. Never
/// kNoGrid (a launched grid has no 0) nor kNoLaunch.
uint64_t packGrid(const uint32_t grid[3]) {
  return (uint64_t)grid[0] << 32 | (uint64_t)(grid[1] & 0xffff) << 16 |
         (grid[2] & 0xffff);
}

/// ATTN_RUNTIME_TRACE=1 in the environment prints each step to stderr.
bool tracing() {
  static const bool on = [] {
    const char *v = std::getenv("ATTN_RUNTIME_TRACE");
    return v && *v && std::strcmp(v, "0") != 0;
  }();
  return on;
}

void trace(const std::string &what) {
  if (tracing()) {
    std::fprintf(stderr, "[attn_runtime] %s\n", what.c_str());
    std::fflush(stderr);
  }
}

std::string cudaError(const char *call, CUresult r) {
  const char *name = nullptr, *text = nullptr;
  if (cuGetErrorName(r, &name) != CUDA_SUCCESS || !name)
    name = nullptr;
  if (cuGetErrorString(r, &text) != CUDA_SUCCESS || !text)
    text = nullptr;
  std::string msg = std::string(call) + " failed: ";
  if (name)
    msg += name;
  else if (r == CUDA_ERROR_STUB_LIBRARY)
    msg += "CUDA_ERROR_STUB_LIBRARY (the toolkit's stub libcuda was loaded "
           "instead of the driver's)";
  else
    msg += "CUDA error " + std::to_string((int)r);
  if (text)
    msg += std::string(" (") + text + ")";
  return msg;
}

/// Makes `ctx` current for the scope. If no context was current it stays
/// current afterwards (as the CUDA runtime would do); if another context
/// was current it is restored.
class ContextScope {
public:
  CUresult enter(CUcontext ctx) {
    CUcontext current = nullptr;
    CUresult r = cuCtxGetCurrent(&current);
    if (r != CUDA_SUCCESS)
      return r;
    if (current == ctx)
      return CUDA_SUCCESS;
    if (!current)
      return cuCtxSetCurrent(ctx);
    r = cuCtxPushCurrent(ctx);
    pushed = r == CUDA_SUCCESS;
    return r;
  }
  ~ContextScope() {
    if (pushed) {
      CUcontext popped;
      cuCtxPopCurrent(&popped);
    }
  }

private:
  bool pushed = false;
};

/// "sm_90a" -> (9, 0, 'a'); false if `target` is not of that form.
bool parseTarget(const char *target, int &major, int &minor, char &suffix) {
  if (std::strncmp(target, "sm_", 3) != 0)
    return false;
  const char *p = target + 3;
  int num = 0, digits = 0;
  while (*p >= '0' && *p <= '9' && digits < 4) {
    num = num * 10 + (*p - '0');
    ++p;
    ++digits;
  }
  if (digits < 2)
    return false;
  suffix = 0;
  if (*p == 'a' || *p == 'f')
    suffix = *p++;
  if (*p)
    return false;
  major = num / 10;
  minor = num % 10;
  return true;
}

/// Whether a cubin for `target` runs on a device of compute capability
/// major.minor: same major and no newer minor; arch-specific ('a') cubins
/// only on exactly their arch.
bool cubinRunsOn(const char *target, int major, int minor, std::string &why) {
  int tMajor, tMinor;
  char suffix;
  char dev[32];
  std::snprintf(dev, sizeof dev, "sm_%d%d", major, minor);
  if (!parseTarget(target, tMajor, tMinor, suffix)) {
    why = std::string("cannot tell the cubin's arch from target \"") + target +
          "\"";
    return false;
  }
  bool ok = tMajor == major &&
            (suffix == 'a' ? tMinor == minor : tMinor <= minor);
  if (!ok)
    why = std::string("the cubin is built for ") + target +
          ", the device is " + dev;
  return ok;
}

bool loadModuleFromPtx(attn_kernel &k, std::string &error) {
  std::string ptx;
  if (!readFile(k.ptxPath, 256u << 20, ptx, error))
    return false;
  ptx.push_back('\0');
  std::vector<char> errorLog(16384, '\0'), infoLog(4096, '\0');
  CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER,
                            CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                            CU_JIT_INFO_LOG_BUFFER,
                            CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES};
  void *values[] = {errorLog.data(),
                    reinterpret_cast<void *>((uintptr_t)errorLog.size()),
                    infoLog.data(),
                    reinterpret_cast<void *>((uintptr_t)infoLog.size())};
  trace("cuModuleLoadDataEx (JIT) " + k.ptxPath);
  CUresult r = cuModuleLoadDataEx(&k.module, ptx.data(), 4, options, values);
  if (r != CUDA_SUCCESS) {
    k.module = nullptr;
    errorLog.back() = '\0';
    error = cudaError("cuModuleLoadDataEx (JIT of PTX)", r) + " for " +
            k.ptxPath;
    if (errorLog[0])
      error += "; JIT log: " + std::string(errorLog.data());
    return false;
  }
  k.loadedFrom = "ptx";
  return true;
}

/// Tries the cubin; returns false (with k.loadNote saying why) when the PTX
/// should be used instead.
bool tryLoadCubin(attn_kernel &k) {
  if (k.cubinPath.empty()) {
    k.loadNote = "no cubin in the metadata";
    return false;
  }
  std::string why;
  if (!cubinRunsOn(k.desc.target, k.ccMajor, k.ccMinor, why)) {
    k.loadNote = why;
    return false;
  }
  std::string image, error;
  if (!readFile(k.cubinPath, 256u << 20, image, error)) {
    k.loadNote = error;
    return false;
  }
  trace("cuModuleLoadData " + k.cubinPath);
  CUresult r = cuModuleLoadData(&k.module, image.data());
  if (r != CUDA_SUCCESS) {
    k.module = nullptr;
    k.loadNote = cudaError("cuModuleLoadData (cubin)", r) + " for " +
                 k.cubinPath;
    return false;
  }
  k.loadedFrom = "cubin";
  return true;
}

/// Reads the launch contract the compiler embeds in the module
/// (`attn_contract_<entry>`, contract.h: version 1 or 2, told apart by
/// their sizes) and compares it with the metadata. Modules built before the
/// contract existed (and hand-written kernels) have none: they load with a
/// note, unless the metadata says persistent, which only a contract can
/// confirm (such modules predate persistent kernels, and a kernel that
/// does not loop over its tiles would skip most of them on that grid).
bool readContract(attn_kernel &k, std::string &error) {
  std::string symbol = std::string("attn_contract_") + k.desc.entry;
  CUdeviceptr ptr = 0;
  size_t bytes = 0;
  CUresult r = cuModuleGetGlobal(&ptr, &bytes, k.module, symbol.c_str());
  if (r == CUDA_ERROR_NOT_FOUND && k.desc.persistent) {
    error = "the metadata says the kernel is persistent, but the module has "
            "no launch contract (" + symbol + ") to confirm it: a kernel "
            "that does not loop over its tiles would skip most of them on a "
            "persistent grid";
    return false;
  }
  if (r == CUDA_ERROR_NOT_FOUND) {
    k.loadNote += std::string(k.loadNote.empty() ? "" : "; ") +
                  "no launch contract in the module (built before it was "
                  "embedded): the metadata is trusted";
    return true;
  }
  if (r != CUDA_SUCCESS) {
    error = cudaError("cuModuleGetGlobal", r) + " (" + symbol + ")";
    return false;
  }
  if (!checkContractSize(bytes, symbol, error))
    return false;
  int64_t c[kContractFields] = {}; // a version-1 contract leaves the last 0
  if ((r = cuMemcpyDtoH(c, ptr, bytes)) != CUDA_SUCCESS) {
    error = cudaError("cuMemcpyDtoH", r) + " (" + symbol + ")";
    return false;
  }
  return checkContract(k.desc, c, bytes, symbol, error);
}

/// The device's multiprocessor count, for persistent grids. Not a reason to
/// fail a load: without it a persistent kernel gets one CTA per tile,
/// which it computes correctly too (a note says so).
void readSmCount(attn_kernel &k) {
  int sms = 0;
  CUresult r = cuDeviceGetAttribute(
      &sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, k.device);
  k.smCount = r == CUDA_SUCCESS && sms > 0 ? sms : 0;
  trace("multiprocessors: " + std::to_string(k.smCount));
  if (k.desc.persistent && k.smCount == 0)
    k.loadNote += std::string(k.loadNote.empty() ? "" : "; ") +
                  "the device's multiprocessor count is unknown (" +
                  (r == CUDA_SUCCESS ? "the driver says " + std::to_string(sms)
                                     : cudaError("cuDeviceGetAttribute", r)) +
                  "): the persistent kernel is launched with one CTA per tile";
}

bool loadOnDevice(attn_kernel &k, std::string &error) {
  trace("cuInit");
  CUresult r = cuInit(0);
  if (r != CUDA_SUCCESS) {
    error = cudaError("cuInit", r);
    return false;
  }
  // The current device: the one whose context is current (PyTorch makes its
  // device's primary context current), else device 0.
  CUcontext current = nullptr;
  if ((r = cuCtxGetCurrent(&current)) != CUDA_SUCCESS) {
    error = cudaError("cuCtxGetCurrent", r);
    return false;
  }
  trace(current ? "a context is current: cuCtxGetDevice"
                : "no current context: cuDeviceGet(0)");
  if (current)
    r = cuCtxGetDevice(&k.device);
  else
    r = cuDeviceGet(&k.device, 0);
  if (r != CUDA_SUCCESS) {
    error = cudaError(current ? "cuCtxGetDevice" : "cuDeviceGet(0)", r);
    return false;
  }
  char name[256] = {0};
  if ((r = cuDeviceGetName(name, sizeof name - 1, k.device)) != CUDA_SUCCESS) {
    error = cudaError("cuDeviceGetName", r);
    return false;
  }
  k.deviceName = name;
  int optin = 0;
  if ((r = cuDeviceGetAttribute(&k.ccMajor,
                                CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
                                k.device)) != CUDA_SUCCESS ||
      (r = cuDeviceGetAttribute(&k.ccMinor,
                                CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
                                k.device)) != CUDA_SUCCESS ||
      (r = cuDeviceGetAttribute(
           &optin, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
           k.device)) != CUDA_SUCCESS) {
    error = cudaError("cuDeviceGetAttribute", r);
    return false;
  }
  if (k.desc.shared_bytes > optin) {
    error = "the kernel needs " + std::to_string(k.desc.shared_bytes) +
            " bytes of dynamic shared memory; " + k.deviceName +
            " allows at most " + std::to_string(optin) + " per block";
    return false;
  }

  trace("cuDevicePrimaryCtxRetain on " + k.deviceName + ", sm_" +
        std::to_string(k.ccMajor) + std::to_string(k.ccMinor));
  if ((r = cuDevicePrimaryCtxRetain(&k.context, k.device)) != CUDA_SUCCESS) {
    k.context = nullptr;
    error = cudaError("cuDevicePrimaryCtxRetain", r);
    return false;
  }
  ContextScope scope;
  if ((r = scope.enter(k.context)) != CUDA_SUCCESS) {
    error = cudaError("cuCtxSetCurrent", r);
    return false;
  }

  trace("loading the module");
  if (!tryLoadCubin(k) && !loadModuleFromPtx(k, error)) {
    if (!k.loadNote.empty())
      error += " (cubin not used: " + k.loadNote + ")";
    return false;
  }
  if (k.loadedFrom == "cubin")
    k.loadNote.clear();

  trace("module from " + k.loadedFrom +
        (k.loadNote.empty() ? "" : " (" + k.loadNote + ")") +
        "; cuModuleGetFunction " + k.desc.entry);
  if ((r = cuModuleGetFunction(&k.function, k.module, k.desc.entry)) !=
      CUDA_SUCCESS) {
    error = cudaError("cuModuleGetFunction", r) + ": entry \"" +
            k.desc.entry + "\" in the " + k.loadedFrom + " of " +
            (k.loadedFrom == "cubin" ? k.cubinPath : k.ptxPath);
    return false;
  }

  if (!readContract(k, error))
    return false;
  readSmCount(k);

  int maxThreads = 0, staticShared = 0;
  if ((r = cuFuncGetAttribute(&maxThreads,
                              CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
                              k.function)) != CUDA_SUCCESS ||
      (r = cuFuncGetAttribute(&staticShared,
                              CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES,
                              k.function)) != CUDA_SUCCESS) {
    error = cudaError("cuFuncGetAttribute", r);
    return false;
  }
  if (maxThreads < k.desc.threads) {
    error = "the kernel runs at most " + std::to_string(maxThreads) +
            " threads per block on " + k.deviceName + ", the metadata asks " +
            std::to_string(k.desc.threads);
    return false;
  }
  if (staticShared + k.desc.shared_bytes > optin) {
    error = "the kernel needs " + std::to_string(staticShared) +
            " bytes of static and " + std::to_string(k.desc.shared_bytes) +
            " bytes of dynamic shared memory; " + k.deviceName +
            " allows at most " + std::to_string(optin) + " per block";
    return false;
  }
  if (staticShared + k.desc.shared_bytes > 48 * 1024) {
    trace("cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES, " +
          std::to_string(k.desc.shared_bytes) + ")");
    r = cuFuncSetAttribute(k.function,
                           CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                           (int)k.desc.shared_bytes);
    if (r != CUDA_SUCCESS) {
      error = cudaError(
          "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)", r);
      return false;
    }
  }
  return true;
}

void releaseOnDevice(attn_kernel &k) {
  if (k.context) {
    {
      ContextScope scope;
      if (k.module && scope.enter(k.context) == CUDA_SUCCESS)
        cuModuleUnload(k.module);
    }
    cuDevicePrimaryCtxRelease(k.device);
  }
  k.module = nullptr;
  k.function = nullptr;
  k.context = nullptr;
}

/// Unloads `k` and its dispatch variants (loaded or not) and frees them.
void destroyKernel(attn_kernel *k) {
  if (!k)
    return;
  for (attn_kernel *v : k->variants)
    destroyKernel(v);
  destroyKernel(k->fallback);
  releaseOnDevice(*k);
  delete k;
}

/// Loads the module of a kernel whose description `k.desc` is read, from
/// the PTX or cubin it names in `dir`.
bool loadKernel(attn_kernel &k, const std::string &dir, std::string &error) {
  k.dir = dir;
  k.ptxPath = joinPath(dir, k.desc.ptx);
  if (k.desc.cubin[0])
    k.cubinPath = joinPath(dir, k.desc.cubin);
  return loadOnDevice(k, error);
}

/// Loads the TMA fallback of the loaded kernel `k` from its (checked)
/// description, like a dispatch variant. It belongs to `k` as soon as it
/// exists.
bool loadFallback(attn_kernel &k, const attn_kernel_desc &desc,
                  std::string &error) {
  k.fallback = new attn_kernel();
  k.fallback->desc = desc;
  std::string which =
      std::string("TMA fallback \"") + desc.name + "\" of " + k.desc.name;
  trace("loading " + which);
  std::string why;
  if (!loadKernel(*k.fallback, k.dir, why)) {
    error = which + ": " + why;
    return false;
  }
  if (k.fallback->device != k.device) {
    error = which + " was loaded on another device than " + k.desc.name;
    return false;
  }
  return true;
}

/// Loads the dispatch variants of the loaded kernel `k` from their
/// (checked) descriptions, each with everything a kernel's load does. They
/// belong to `k` as soon as they exist, so that destroyKernel frees them
/// whatever fails.
bool loadVariants(attn_kernel &k, const std::vector<attn_kernel_desc> &descs,
                  std::string &error) {
  k.variants.reserve(descs.size());
  for (size_t i = 0; i < descs.size(); ++i) {
    attn_kernel *v = new attn_kernel();
    k.variants.push_back(v);
    v->desc = descs[i];
    std::string which = std::string("dispatch variant \"") + v->desc.name +
                        "\" (dispatch.variants[" + std::to_string(i) + "])";
    trace("loading " + which);
    std::string why;
    if (!loadKernel(*v, k.dir, why)) {
      error = which + ": " + why;
      return false;
    }
    // The same call, so the same current device; a launch could not run
    // one handle's kernels on two devices.
    if (v->device != k.device) {
      error = which + " was loaded on another device than " + k.desc.name;
      return false;
    }
  }
  return true;
}

/// Nk == 0: every row sees no key, so O = 0 and LSE = -inf.
bool fillEmpty(const attn_kernel &k, const attn_tensor &o,
               const attn_tensor *lse, CUstream stream, std::string &error) {
  const int64_t B = o.shape[0], H = o.shape[1], N = o.shape[2],
                Dv = o.shape[3];
  const size_t es = attn_dtype_size(k.desc.element_type);
  CUresult r;
  for (int64_t b = 0; b < B; ++b)
    for (int64_t h = 0; h < H; ++h) {
      CUdeviceptr base =
          (CUdeviceptr)(o.ptr + (uint64_t)(b * o.strides[0] + h * o.strides[1]) * es);
      if (N == 1 || o.strides[2] == Dv)
        r = cuMemsetD8Async(base, 0, (size_t)(N * Dv) * es, stream);
      else
        r = cuMemsetD2D8Async(base, (size_t)o.strides[2] * es, 0,
                              (size_t)Dv * es, (size_t)N, stream);
      if (r != CUDA_SUCCESS) {
        error = cudaError("cuMemsetD2D8Async (O = 0 for Nk = 0)", r);
        return false;
      }
    }
  if (!lse)
    return true;
  const unsigned negInf = 0xFF800000u; // -inf as f32 bits
  for (int64_t b = 0; b < B; ++b)
    for (int64_t h = 0; h < H; ++h) {
      CUdeviceptr base = (CUdeviceptr)(
          lse->ptr + (uint64_t)(b * lse->strides[0] + h * lse->strides[1]) * 4);
      if ((r = cuMemsetD32Async(base, negInf, (size_t)N, stream)) !=
          CUDA_SUCCESS) {
        error = cudaError("cuMemsetD32Async (LSE = -inf for Nk = 0)", r);
        return false;
      }
    }
  return true;
}

// attn_tensor_map_args holds cuda.h's enum values (attn_runtime.h).
static_assert(
    ATTN_TMA_DATA_TYPE_FLOAT16 == CU_TENSOR_MAP_DATA_TYPE_FLOAT16 &&
        ATTN_TMA_DATA_TYPE_FLOAT32 == CU_TENSOR_MAP_DATA_TYPE_FLOAT32 &&
        ATTN_TMA_DATA_TYPE_BFLOAT16 == CU_TENSOR_MAP_DATA_TYPE_BFLOAT16 &&
        ATTN_TMA_INTERLEAVE_NONE == CU_TENSOR_MAP_INTERLEAVE_NONE &&
        ATTN_TMA_SWIZZLE_NONE == CU_TENSOR_MAP_SWIZZLE_NONE &&
        ATTN_TMA_SWIZZLE_32B == CU_TENSOR_MAP_SWIZZLE_32B &&
        ATTN_TMA_SWIZZLE_64B == CU_TENSOR_MAP_SWIZZLE_64B &&
        ATTN_TMA_SWIZZLE_128B == CU_TENSOR_MAP_SWIZZLE_128B &&
        ATTN_TMA_L2_PROMOTION_L2_256B == CU_TENSOR_MAP_L2_PROMOTION_L2_256B &&
        ATTN_TMA_FLOAT_OOB_FILL_NONE == CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE,
    "the ATTN_TMA_* values are cuda.h's");
// The kernel declares each map `.param .align 64 .b8 [128]` (nvcc, whose
// CUtensorMap is aligned to 128, `.align 128`); cuLaunchKernel copies the
// 128 bytes from the pointer it is given.
static_assert(sizeof(CUtensorMap) == 128 && alignof(CUtensorMap) >= 64,
              "a CUtensorMap is the kernel's tensor map parameter");

std::string listText(const uint64_t *v, uint32_t n) {
  std::string s = "[";
  for (uint32_t i = 0; i < n; ++i)
    s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

/// Makes the tensor map `a` describes (attn_validate_args checked what TMA
/// needs of the tensor); zero bytes for a tensor without elements, which
/// the kernel never reads.
bool encodeTensorMap(const attn_kernel &k, const attn_tensor_map_args &a,
                     CUtensorMap &map, std::string &error) {
  std::memset(&map, 0, sizeof map);
  if (!a.encode)
    return true;
  std::string name =
      std::string(k.desc.buffers[a.buffer].name) + ".tensor_map";
  std::string shape = "global dims " + listText(a.global_dim, a.rank) +
                      ", strides " + listText(a.global_strides, a.rank - 1) +
                      " bytes";
  trace("cuTensorMapEncodeTiled " + name + ": " + shape);
  CUresult r = cuTensorMapEncodeTiled(
      &map, (CUtensorMapDataType)a.data_type, a.rank,
      reinterpret_cast<void *>((uintptr_t)a.global_address), a.global_dim,
      a.global_strides, a.box_dim, a.element_strides,
      (CUtensorMapInterleave)a.interleave, (CUtensorMapSwizzle)a.swizzle,
      (CUtensorMapL2promotion)a.l2_promotion,
      (CUtensorMapFloatOOBfill)a.oob_fill);
  if (r != CUDA_SUCCESS) {
    uint64_t box[ATTN_MAX_RANK];
    for (uint32_t i = 0; i < a.rank; ++i)
      box[i] = a.box_dim[i];
    error = cudaError("cuTensorMapEncodeTiled", r) + " for " + name + " (" +
            shape + ", box " + listText(box, a.rank) + ")";
    return false;
  }
  return true;
}

/// Runs cuLaunchKernel with 8-byte parameters `words` (pointers and int64
/// alike), then the tensor maps `maps` describes (format_version 3), each
/// a 128-byte parameter.
int launchWords(attn_kernel &k, const uint32_t grid[3], const uint32_t block[3],
                uint32_t sharedBytes, const uint64_t *words, uint32_t numWords,
                const attn_tensor_map_args *maps, uint32_t numMaps, CUstream s,
                const std::string &where, char *err, size_t err_len) {
  ContextScope scope;
  CUresult r = scope.enter(k.context);
  if (r != CUDA_SUCCESS) {
    setError(err, err_len, where + cudaError("cuCtxSetCurrent", r));
    return 1;
  }
  uint64_t values[ATTN_MAX_PARAM_WORDS];
  CUtensorMap tensorMaps[ATTN_MAX_TENSOR_MAPS];
  void *params[ATTN_MAX_PARAM_WORDS + ATTN_MAX_TENSOR_MAPS];
  for (uint32_t i = 0; i < numWords; ++i) {
    values[i] = words[i];
    params[i] = &values[i];
  }
  static_assert(sizeof(CUdeviceptr) == sizeof(uint64_t),
                "pointer parameters are 8 bytes");
  // The encoding needs the context current (the driver refuses it else).
  for (uint32_t i = 0; i < numMaps; ++i) {
    std::string error;
    if (!encodeTensorMap(k, maps[i], tensorMaps[i], error)) {
      setError(err, err_len, where + error);
      return 1;
    }
    params[numWords + i] = &tensorMaps[i];
  }
  if (tracing()) {
    char line[512];
    std::snprintf(line, sizeof line, "cuLaunchKernel %.200s grid %u x %u, "
                  "block %u, %u bytes shared, %u parameter words, %u tensor "
                  "maps", k.desc.entry, grid[0], grid[1], block[0],
                  sharedBytes, numWords, numMaps);
    trace(line);
  }
  r = cuLaunchKernel(k.function, grid[0], grid[1], grid[2], block[0],
                     block[1], block[2], sharedBytes, s, params, nullptr);
  if (r != CUDA_SUCCESS) {
    char geometry[160];
    std::snprintf(geometry, sizeof geometry,
                  " (grid %u x %u x %u, block %u, %u bytes of shared memory)",
                  grid[0], grid[1], grid[2], block[0], sharedBytes);
    setError(err, err_len, where + cudaError("cuLaunchKernel", r) + geometry);
    return 1;
  }
  return 0;
}

/// A format_version 1 launch: checks, then the kernel or, for Nk == 0, the
/// memsets that stand in for it. `launched` is the grid the kernel was
/// launched on (packGrid), kNoGrid when none was.
int launchV1(attn_kernel &k, const attn_tensor *q, const attn_tensor *key,
             const attn_tensor *v, const attn_tensor *o,
             const attn_tensor *lse, CUstream s, const std::string &where,
             uint64_t &launched, char *err, size_t err_len) {
  launched = kNoGrid;
  attn_launch_plan plan;
  char msg[2048];
  if (attn_validate_launch(&k.desc, q, key, v, o, lse, &plan, msg,
                           sizeof msg)) {
    setError(err, err_len, where + msg);
    return 1;
  }
  if (plan.action == ATTN_PLAN_NOTHING)
    return 0;
  if (plan.action == ATTN_PLAN_FILL_EMPTY) {
    ContextScope scope;
    CUresult r = scope.enter(k.context);
    if (r != CUDA_SUCCESS) {
      setError(err, err_len, where + cudaError("cuCtxSetCurrent", r));
      return 1;
    }
    std::string error;
    if (!fillEmpty(k, *o, k.desc.has_lse ? lse : nullptr, s, error)) {
      setError(err, err_len, where + error);
      return 1;
    }
    return 0;
  }
  // Pointers and int64 are both 8-byte parameters.
  uint64_t words[ATTN_NUM_PTR_PARAMS + ATTN_NUM_INT_PARAMS];
  for (int i = 0; i < ATTN_NUM_PTR_PARAMS; ++i)
    words[i] = plan.ptrs[i];
  for (int i = 0; i < ATTN_NUM_INT_PARAMS; ++i)
    words[ATTN_NUM_PTR_PARAMS + i] = (uint64_t)plan.ints[i];
  int rc = launchWords(k, plan.grid, plan.block, plan.shared_bytes, words,
                       ATTN_NUM_PTR_PARAMS + ATTN_NUM_INT_PARAMS, nullptr, 0,
                       s, where, err, err_len);
  if (rc == 0)
    launched = packGrid(plan.grid);
  return rc;
}

/// A format_version 2 or 3 launch: checks, then the kernel (also for
/// Nk == 0), on the grid planned with this kernel's SM count (a persistent
/// kernel's is smaller). `launched` as for launchV1.
int launchV2(attn_kernel &k, const attn_arg *args, size_t numArgs, CUstream s,
             const std::string &where, uint64_t &launched, char *err,
             size_t err_len) {
  launched = kNoGrid;
  attn_launch_plan_v2 plan;
  char msg[2048];
  if (attn_validate_args_sm(&k.desc, args, numArgs, k.smCount, &plan, msg,
                            sizeof msg)) {
    setError(err, err_len, where + msg);
    return 1;
  }
  if (plan.action == ATTN_PLAN_NOTHING)
    return 0;
  int rc = launchWords(k, plan.grid, plan.block, plan.shared_bytes,
                       plan.words, plan.num_words, plan.tensor_maps,
                       plan.num_tensor_maps, s, where, err, err_len);
  if (rc == 0)
    launched = packGrid(plan.grid);
  return rc;
}

/// Remembers what a successful launch through handle `k` ran, for
/// attn_kernel_info's last_* keys: the kernel (-1 k itself, i variant i)
/// and its grid.
void remember(attn_kernel &k, int chosen, uint64_t grid) {
  k.lastLaunched.store(chosen, std::memory_order_relaxed);
  k.lastGrid.store(grid, std::memory_order_relaxed);
}

/// A format_version 2 or 3 launch through handle `k` (`fn` names the entry
/// point in messages): the kernel that k's dispatch table picks for `args`
/// (k itself without a table) is checked and launched, and remembered for
/// attn_kernel_info's last_variant when the launch went out.
int dispatchV2(attn_kernel &k, const char *fn, const attn_arg *args,
               size_t numArgs, CUstream s, char *err, size_t err_len) {
  int chosen = attn_desc_select_variant(&k.desc, args, numArgs);
  if (chosen >= (int)k.variants.size())
    chosen = -1; // cannot happen: every entry of the table is loaded
  attn_kernel *run = chosen < 0 ? &k : k.variants[chosen];
  std::string choice;
  if (chosen >= 0) {
    choice = std::string("variant ") + run->desc.name + " for k.size2 = " +
             std::to_string(dispatchExtent(args, numArgs));
    trace(choice);
  }
  // Where a tensor map of the chosen kernel cannot describe its argument,
  // its fallback runs (and is checked in full); where a map only would copy
  // one row many times, the fallback runs if it takes the launch.
  std::string why;
  bool preferred = false;
  bool fellBack =
      run->fallback &&
      wantsTmaFallback(run->desc, args, numArgs, run->smCount, why, preferred);
  if (fellBack && preferred) {
    attn_launch_plan_v2 plan;
    std::string unused;
    fellBack = validateArgs(run->fallback->desc, args, numArgs,
                            run->fallback->smCount, plan, unused);
  }
  if (fellBack) {
    run = run->fallback;
    choice += std::string(choice.empty() ? "" : ", ") + "TMA fallback " +
              run->desc.name + " (" + why + ")";
    trace(choice);
  }
  std::string where = std::string(fn) + "(" + k.desc.name +
                      (choice.empty() ? "" : ", " + choice) + "): ";
  uint64_t grid;
  int rc = launchV2(*run, args, numArgs, s, where, grid, err, err_len);
  if (rc == 0) {
    {
      std::lock_guard<std::mutex> lock(k.fallbackMutex);
      k.lastFallbackWhy = fellBack ? why : "";
    }
    k.lastFellBack.store(fellBack, std::memory_order_relaxed);
    remember(k, chosen, grid);
  }
  return rc;
}

/// The name of the kernel the last successful launch through `k` ran, ""
/// before any.
/// The kernel the last successful launch through `k` chose (k or a
/// variant, or its TMA fallback where it fell back); null before any.
const attn_kernel *lastKernel(const attn_kernel &k) {
  int last = k.lastLaunched.load(std::memory_order_relaxed);
  if (last == -2)
    return nullptr;
  const attn_kernel *chosen = last == -1 ? &k : k.variants[(size_t)last];
  if (k.lastFellBack.load(std::memory_order_relaxed) && chosen->fallback)
    return chosen->fallback;
  return chosen;
}

std::string lastVariant(const attn_kernel &k) {
  const attn_kernel *last = lastKernel(k);
  return last ? last->desc.name : "";
}

/// Why the last successful launch ran a TMA fallback, "" if it did not.
std::string lastFallback(const attn_kernel &k) {
  std::lock_guard<std::mutex> lock(k.fallbackMutex);
  return k.lastFallbackWhy;
}

/// Whether that kernel is persistent: "1"/"0", "" before any launch.
std::string lastPersistent(const attn_kernel &k) {
  const attn_kernel *last = lastKernel(k);
  if (!last)
    return "";
  return last->desc.persistent ? "1" : "0";
}

/// The grid of the last successful launch, "264x1x1"; "none" when it
/// launched no kernel, "" before any.
std::string lastGrid(const attn_kernel &k) {
  uint64_t g = k.lastGrid.load(std::memory_order_relaxed);
  if (g == kNoLaunch)
    return "";
  if (g == kNoGrid)
    return "none";
  return std::to_string(g >> 32) + "x" + std::to_string(g >> 16 & 0xffff) +
         "x" + std::to_string(g & 0xffff);
}

} // namespace

extern "C" {

int attn_kernel_load(const char *dir, const char *name, attn_kernel **out,
                     char *err, size_t err_len) {
  std::string where = std::string("attn_kernel_load(") + (dir ? dir : "NULL") +
                      ", " + (name ? name : "NULL") + "): ";
  if (out)
    *out = nullptr;
  if (!dir || !name || !out) {
    setError(err, err_len, where + "dir, name and out must not be NULL");
    return 1;
  }
  if (!*name || std::strchr(name, '/')) {
    setError(err, err_len, where + "the kernel name must be a non-empty "
                                   "file name without '/'");
    return 1;
  }
  attn_kernel *k = new attn_kernel();
  std::string error;
  if (!readKernelFile(dir, name, k->desc, error)) {
    setError(err, err_len, where + error);
    delete k;
    return 1;
  }
  // Every variant's metadata is read and compared before anything is
  // loaded on the device: a bad table fails without a device too.
  std::vector<attn_kernel_desc> variants((size_t)k->desc.num_variants);
  if (!readVariants(dir, k->desc, variants.data(), error)) {
    setError(err, err_len, where + error);
    delete k;
    return 1;
  }
  // The TMA fallbacks' metadata too (the kernel's, then each variant's).
  std::vector<attn_kernel_desc> fallbacks(variants.size() + 1);
  for (size_t i = 0; i <= variants.size(); ++i) {
    const attn_kernel_desc &of = i == 0 ? k->desc : variants[i - 1];
    if (of.tma_fallback[0] && !readTmaFallback(dir, of, fallbacks[i], error)) {
      setError(err, err_len, where + error);
      delete k;
      return 1;
    }
  }
  if (!loadKernel(*k, dir, error) || !loadVariants(*k, variants, error)) {
    setError(err, err_len, where + error);
    destroyKernel(k);
    return 1;
  }
  for (size_t i = 0; i <= variants.size(); ++i) {
    attn_kernel &of = i == 0 ? *k : *k->variants[i - 1];
    if (of.desc.tma_fallback[0] && !loadFallback(of, fallbacks[i], error)) {
      setError(err, err_len, where + error);
      destroyKernel(k);
      return 1;
    }
  }
  *out = k;
  return 0;
}

int attn_kernel_launch(attn_kernel *k, const attn_tensor *q,
                       const attn_tensor *key, const attn_tensor *v,
                       const attn_tensor *o, const attn_tensor *lse,
                       void *stream, char *err, size_t err_len) {
  if (!k || !k->function) {
    setError(err, err_len, "attn_kernel_launch: no loaded kernel");
    return 1;
  }
  std::string where =
      std::string("attn_kernel_launch(") + k->desc.name + "): ";
  if (k->desc.format_version == 1) {
    // No dispatch table in format_version 1 (the parser refuses one).
    uint64_t grid;
    int rc = launchV1(*k, q, key, v, o, lse, static_cast<CUstream>(stream),
                      where, grid, err, err_len);
    if (rc == 0)
      remember(*k, -1, grid);
    return rc;
  }
  // format_version 2 and 3: the same tensors by role.
  const attn_kernel_desc &d = k->desc;
  for (int32_t b = 0; b < d.num_buffers; ++b)
    for (int32_t j = 0; j < d.buffers[b].num_roles; ++j)
      if (d.buffers[b].roles[j] > ATTN_ROLE_LSE) {
        setError(err, err_len,
                 where + "the kernel has a " +
                     kRoleNames[d.buffers[b].roles[j]] +
                     " buffer; launch it with attn_kernel_launch_args");
        return 1;
      }
  const attn_tensor *tensors[5] = {q, key, v, o, lse};
  attn_arg args[5];
  size_t n = 0;
  for (int role = 0; role < 5; ++role) {
    if (!tensors[role]) {
      if (role == ATTN_ROLE_LSE)
        continue; // no lse: fine iff the kernel has none
      setError(err, err_len,
               where + kRoleNames[role] + " is NULL");
      return 1;
    }
    args[n].role = kRoleNames[role];
    args[n++].tensor = *tensors[role];
  }
  return dispatchV2(*k, "attn_kernel_launch", args, n,
                    static_cast<CUstream>(stream), err, err_len);
}

int attn_kernel_launch_args(attn_kernel *k, const attn_arg *args,
                            size_t num_args, void *stream, char *err,
                            size_t err_len) {
  if (!k || !k->function) {
    setError(err, err_len, "attn_kernel_launch_args: no loaded kernel");
    return 1;
  }
  std::string where =
      std::string("attn_kernel_launch_args(") + k->desc.name + "): ";
  if (!args && num_args > 0) {
    setError(err, err_len, where + "args is NULL");
    return 1;
  }
  if (k->desc.format_version != 1)
    return dispatchV2(*k, "attn_kernel_launch_args", args, num_args,
                      static_cast<CUstream>(stream), err, err_len);
  // format_version 1: check the roles, then the tensors as attn_kernel_launch.
  attn_launch_plan_v2 plan;
  char msg[2048];
  if (attn_validate_args(&k->desc, args, num_args, &plan, msg, sizeof msg)) {
    setError(err, err_len, where + msg);
    return 1;
  }
  const attn_tensor *t[5] = {};
  for (size_t i = 0; i < num_args; ++i)
    t[roleFromName(args[i].role)] = &args[i].tensor;
  uint64_t grid;
  int rc = launchV1(*k, t[0], t[1], t[2], t[3], t[4],
                    static_cast<CUstream>(stream), where, grid, err, err_len);
  if (rc == 0)
    remember(*k, -1, grid);
  return rc;
}

int attn_kernel_info(const attn_kernel *k, const char *key, char *out,
                     size_t out_len) {
  if (!k || !key) {
    setError(out, out_len, "attn_kernel_info: no kernel or no key");
    return -1;
  }
  std::string kk = key, value;
  auto num = [](int64_t v) { return std::to_string(v); };
  if (kk == "loaded_from")
    value = k->loadedFrom;
  else if (kk == "load_note")
    value = k->loadNote;
  else if (kk == "device")
    value = k->deviceName;
  else if (kk == "device_arch")
    value = "sm_" + num(k->ccMajor) + num(k->ccMinor);
  else if (kk == "sm_count")
    value = num(k->smCount);
  else if (kk == "last_variant")
    value = lastVariant(*k);
  else if (kk == "last_grid")
    value = lastGrid(*k);
  else if (kk == "last_persistent")
    value = lastPersistent(*k);
  else if (kk == "last_fallback")
    value = lastFallback(*k);
  else if (!descInfo(k->desc, kk, value)) {
    setError(out, out_len, "unknown key \"" + kk + "\"");
    return -1;
  }
  setError(out, out_len, value);
  return out && value.size() < out_len ? 0 : 1;
}

void attn_kernel_unload(attn_kernel *k) { destroyKernel(k); }

const attn_kernel_desc *attn_kernel_get_desc(const attn_kernel *k) {
  return k ? &k->desc : nullptr;
}

} // extern "C"
