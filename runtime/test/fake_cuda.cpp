//===- fake_cuda.cpp - a CUDA driver without a device, for tests --------===//
//
// libcuda.so.1 for runtime_lib_test: the driver calls libattn_runtime.so
// makes, answered as by one sm_90 device, so that attn_kernel_load and the
// launches run through their whole path on a machine without a GPU (the
// toolkit's stub fails every call). A module is its image's text; a
// function is found when the text has ".entry <name>", and a module whose
// text has "FAKE_JIT_FAILS" fails to load. A module whose text has a line
// "FAKE_CONTRACT <symbol> <int64> ..." has a global <symbol> of those words
// (cuModuleGetGlobal, cuMemcpyDtoH: a launch contract of any length);
// without one it has no globals. The device has 132 multiprocessors unless
// the test sets fake_cuda_state.sm_count (0: the query fails). Nothing is
// executed: cuLaunchKernel records what it was asked to launch. The test
// reads the counters and the record through fake_cuda_state() (found with
// dlsym, so that it can tell when it runs against another driver) and
// checks that every retained context and loaded module was given back.
//
//===----------------------------------------------------------------------===//

#include <cuda.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

extern "C" {

/// What the test reads.
struct fake_cuda_state {
  int retained_contexts; // cuDevicePrimaryCtxRetain - Release
  int loaded_modules;    // loads - unloads
  int launches;          // cuLaunchKernel calls
  int tensor_maps;       // cuTensorMapEncodeTiled calls
  char last_function[128];
  unsigned grid[3], block[3], shared_bytes;
  uint64_t first_param; // the first parameter word (q's pointer)
  int sm_count;         // CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT; 0 fails
};

__attribute__((visibility("default"))) fake_cuda_state *fake_cuda_state_get();

} // extern "C"

namespace {

fake_cuda_state state = {0, 0, 0, 0, {0}, {0, 0, 0}, {0, 0, 0}, 0, 0, 132};

struct FakeModule {
  std::string image;
  std::vector<std::string *> functions; // the names handed out
  std::string contractSymbol;           // "" without a FAKE_CONTRACT line
  std::vector<int64_t> contract;        // its words, the global's memory
};

std::vector<FakeModule *> modules; // loaded, not unloaded

/// The FAKE_CONTRACT line of the module's text, if any.
void readContract(FakeModule &m) {
  size_t at = m.image.find("FAKE_CONTRACT ");
  if (at == std::string::npos)
    return;
  size_t end = m.image.find('\n', at);
  std::istringstream line(m.image.substr(at + 14, end == std::string::npos
                                                      ? std::string::npos
                                                      : end - at - 14));
  line >> m.contractSymbol;
  for (int64_t word; line >> word;)
    m.contract.push_back(word);
}

int primaryContext; // its address is the context
CUcontext current = nullptr;
std::vector<CUcontext> pushed;

CUresult loadModule(CUmodule *module, const void *image) {
  const char *text = static_cast<const char *>(image);
  if (!module || !text)
    return CUDA_ERROR_INVALID_VALUE;
  if (std::strstr(text, "FAKE_JIT_FAILS"))
    return CUDA_ERROR_INVALID_PTX;
  FakeModule *m = new FakeModule{text, {}, {}, {}};
  readContract(*m);
  modules.push_back(m);
  *module = reinterpret_cast<CUmodule>(m);
  ++state.loaded_modules;
  return CUDA_SUCCESS;
}

} // namespace

extern "C" {

fake_cuda_state *fake_cuda_state_get() { return &state; }

CUresult cuInit(unsigned) { return CUDA_SUCCESS; }

CUresult cuGetErrorName(CUresult r, const char **name) {
  *name = r == CUDA_SUCCESS              ? "CUDA_SUCCESS"
          : r == CUDA_ERROR_INVALID_PTX  ? "CUDA_ERROR_INVALID_PTX"
          : r == CUDA_ERROR_NOT_FOUND    ? "CUDA_ERROR_NOT_FOUND"
                                         : "CUDA_ERROR_INVALID_VALUE";
  return CUDA_SUCCESS;
}

CUresult cuGetErrorString(CUresult, const char **text) {
  *text = "fake driver";
  return CUDA_SUCCESS;
}

CUresult cuCtxGetCurrent(CUcontext *ctx) {
  *ctx = current;
  return CUDA_SUCCESS;
}

CUresult cuCtxSetCurrent(CUcontext ctx) {
  current = ctx;
  return CUDA_SUCCESS;
}

CUresult cuCtxPushCurrent(CUcontext ctx) {
  pushed.push_back(current);
  current = ctx;
  return CUDA_SUCCESS;
}

CUresult cuCtxPopCurrent(CUcontext *ctx) {
  if (pushed.empty())
    return CUDA_ERROR_INVALID_VALUE;
  if (ctx)
    *ctx = current;
  current = pushed.back();
  pushed.pop_back();
  return CUDA_SUCCESS;
}

CUresult cuCtxGetDevice(CUdevice *dev) {
  *dev = 0;
  return CUDA_SUCCESS;
}

CUresult cuDeviceGet(CUdevice *dev, int ordinal) {
  if (ordinal != 0)
    return CUDA_ERROR_INVALID_VALUE;
  *dev = 0;
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetName(char *name, int len, CUdevice) {
  std::strncpy(name, "Fake sm_90 device", (size_t)len);
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetAttribute(int *value, CUdevice_attribute a, CUdevice) {
  if (a == CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT) {
    *value = state.sm_count;
    return state.sm_count > 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
  }
  *value = a == CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR   ? 9
           : a == CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR ? 0
           : a == CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN
               ? 232448
               : 0;
  return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxRetain(CUcontext *ctx, CUdevice) {
  *ctx = reinterpret_cast<CUcontext>(&primaryContext);
  ++state.retained_contexts;
  return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxRelease(CUdevice) {
  --state.retained_contexts;
  return CUDA_SUCCESS;
}

CUresult cuModuleLoadDataEx(CUmodule *module, const void *image, unsigned,
                            CUjit_option *, void **) {
  return loadModule(module, image);
}

CUresult cuModuleLoadData(CUmodule *module, const void *image) {
  return loadModule(module, image);
}

CUresult cuModuleUnload(CUmodule module) {
  FakeModule *m = reinterpret_cast<FakeModule *>(module);
  for (std::string *f : m->functions)
    delete f;
  modules.erase(std::find(modules.begin(), modules.end(), m));
  delete m;
  --state.loaded_modules;
  return CUDA_SUCCESS;
}

CUresult cuModuleGetFunction(CUfunction *f, CUmodule module,
                             const char *name) {
  FakeModule *m = reinterpret_cast<FakeModule *>(module);
  if (m->image.find(std::string(".entry ") + name) == std::string::npos)
    return CUDA_ERROR_NOT_FOUND;
  m->functions.push_back(new std::string(name));
  *f = reinterpret_cast<CUfunction>(m->functions.back());
  return CUDA_SUCCESS;
}

// The module's FAKE_CONTRACT global; a module without one has no globals
// (it loads with a note).
CUresult cuModuleGetGlobal(CUdeviceptr *ptr, size_t *bytes, CUmodule module,
                           const char *name) {
  FakeModule *m = reinterpret_cast<FakeModule *>(module);
  if (!name || m->contractSymbol.empty() || m->contractSymbol != name)
    return CUDA_ERROR_NOT_FOUND;
  if (ptr)
    *ptr = reinterpret_cast<CUdeviceptr>(m->contract.data());
  if (bytes)
    *bytes = m->contract.size() * sizeof(int64_t);
  return CUDA_SUCCESS;
}

// Copies from a global cuModuleGetGlobal handed out, within its size.
CUresult cuMemcpyDtoH(void *dst, CUdeviceptr src, size_t bytes) {
  for (FakeModule *m : modules) {
    uintptr_t begin = reinterpret_cast<uintptr_t>(m->contract.data());
    uintptr_t end = begin + m->contract.size() * sizeof(int64_t);
    if (!m->contract.empty() && src >= begin && src <= end &&
        bytes <= end - src) {
      std::memcpy(dst, reinterpret_cast<const void *>(src), bytes);
      return CUDA_SUCCESS;
    }
  }
  return CUDA_ERROR_INVALID_VALUE;
}

CUresult cuFuncGetAttribute(int *value, CUfunction_attribute a, CUfunction) {
  *value = a == CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK ? 1024 : 0;
  return CUDA_SUCCESS;
}

CUresult cuFuncSetAttribute(CUfunction, CUfunction_attribute, int) {
  return CUDA_SUCCESS;
}

CUresult cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz,
                        unsigned bx, unsigned by, unsigned bz, unsigned shared,
                        CUstream, void **params, void **) {
  const std::string &name = *reinterpret_cast<std::string *>(f);
  ++state.launches;
  std::strncpy(state.last_function, name.c_str(),
               sizeof state.last_function - 1);
  state.grid[0] = gx;
  state.grid[1] = gy;
  state.grid[2] = gz;
  state.block[0] = bx;
  state.block[1] = by;
  state.block[2] = bz;
  state.shared_bytes = shared;
  std::memcpy(&state.first_param, params[0], sizeof state.first_param);
  return CUDA_SUCCESS;
}

CUresult cuMemsetD8Async(CUdeviceptr, unsigned char, size_t, CUstream) {
  return CUDA_SUCCESS;
}

CUresult cuMemsetD2D8Async(CUdeviceptr, size_t, unsigned char, size_t, size_t,
                           CUstream) {
  return CUDA_SUCCESS;
}

CUresult cuMemsetD32Async(CUdeviceptr, unsigned, size_t, CUstream) {
  return CUDA_SUCCESS;
}

CUresult cuTensorMapEncodeTiled(CUtensorMap *map, CUtensorMapDataType,
                                cuuint32_t, void *, const cuuint64_t *,
                                const cuuint64_t *, const cuuint32_t *,
                                const cuuint32_t *, CUtensorMapInterleave,
                                CUtensorMapSwizzle, CUtensorMapL2promotion,
                                CUtensorMapFloatOOBfill) {
  std::memset(map, 0, sizeof *map);
  ++state.tensor_maps;
  return CUDA_SUCCESS;
}

} // extern "C"
