// mufu_tensor_overlap.cu - how far the MUFU pipe's and the tensor pipe's
// work can overlap on one H200 SM: the bound of the softcap's cost at
// D = 128, where a block's tanh and ex2 per score (MUFU) take as long as its
// products (tensor cores). The smallest kernel that isolates the question,
// with none of the attention kernel's dependencies: every warpgroup of a CTA
// (one CTA per SM) runs NB "blocks"; a block is 16 wgmma m64n128k16 (f16 ->
// f32, both operands in shared memory: Q K^T and P V of a 64 x 128 block at
// D = 128) and the softmax of 64 scores per thread (FMUL, then tanh with
// the softcap, FFMA, ex2, FADD: the softcap kernel's per-score
// instructions; without it no tanh, the plain softmax's; with a bias, the
// staged bias kernel's instead: a 4-byte shared load per pair of the
// warpgroup's own [64, 128] f16 tile, in the 32-byte-swizzled column
// blocks that are free of bank conflicts, a conversion and an FFMA per
// score). Modifications: none, softcap, bias. Modes:
//   tensor  the products alone;
//   mufu    the softmax alone;
//   overlap each warpgroup issues block j's products asynchronously, runs
//           block j's softmax on registers of its own (nothing waits for a
//           product but the block's end), then waits: the best overlap an
//           attention schedule can reach on this chip.
// Prints per mode and warpgroup count the median time of 10 runs (CUDA
// events, 3 warm-up runs) and, for overlap, its ratio to the slower of the
// two alone and to the tensor mode; then the softcap's and the bias's best
// cost (overlap with the modification / overlap without it).
// Build: nvcc -O3 -gencode=arch=compute_90a,code=sm_90a -o mufu_tensor_overlap mufu_tensor_overlap.cu
// Usage: ./mufu_tensor_overlap [NB]
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_fp16.h>

#include "wgmma_ops.inc"

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
  printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e), __FILE__, __LINE__); \
  std::exit(2); } } while (0)

enum Mode { kTensor = 0, kMufu = 1, kOverlap = 2 };
enum Mod { kNone = 0, kSoftcap = 1, kBias = 2 };

__device__ inline float tanhApprox(float x) {
  float y;
  asm volatile("tanh.approx.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}
__device__ inline float ex2Approx(float x) {
  float y;
  asm volatile("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}

// One block's 16 products (8 k-steps of the scores, 8 of the output), issued
// and committed; not waited for.
__device__ inline void issueBlock(float *acc, uint32_t a0, uint32_t b0) {
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
  for (int kk = 0; kk < 16; ++kk) {
    uint64_t da = desc(a0 + ((kk % 8) / 4) * 64 * 128 + (kk % 4) * 32, 16, 1024);
    uint64_t db = desc(b0 + ((kk % 8) / 4) * 128 * 128 + (kk % 4) * 32, 16, 1024);
    wgmma_ss_n128(acc, da, db);
  }
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
}

__device__ inline void waitAll() {
  asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
}

// The shared byte address of the thread's bias pair `i` (0..31: n-tile
// i / 2, row half i % 2) in its warpgroup's [64, 128] f16 tile at `bias0`:
// rows 16 warp + group + 8 half, columns 8 nt + 2 quad, in 32-byte column
// blocks (16 columns, 64 x 32 bytes each) whose 16-byte chunk c of row r
// sits at c ^ (r / 4) % 2, as TMA's 32-byte swizzle writes them.
__device__ inline uint32_t biasPair(uint32_t bias0, int i) {
  int lane = threadIdx.x % 32, warp = (threadIdx.x / 32) % 4;
  int nt = i / 2, row = 16 * warp + lane / 4 + 8 * (i % 2);
  int chunk = (nt % 2) ^ ((row / 4) % 2);
  return bias0 + (nt / 2) * 64 * 32 + row * 32 + chunk * 16 + (lane % 4) * 4;
}

// One block's softmax over the thread's 64 scores: p = 2^(t * k - m) with
// t = tanh(s / c) (softcap), t = s * scale + bias, or t = s; the scores
// become the probabilities (bounded, so that the next block's are finite).
template <int M>
__device__ inline float softmaxBlock(float *s, uint32_t bias0) {
  float sum = 0.f;
#pragma unroll
  for (int i = 0; i < 64; ++i) {
    float t = s[i] * 0.0333333f;
    if (M == kSoftcap)
      t = tanhApprox(t);
    if (M == kBias && i % 2 == 0) {
      uint32_t pair;
      asm volatile("ld.shared.b32 %0, [%1];" : "=r"(pair) : "r"(biasPair(bias0, i / 2)));
      __half2 h = *reinterpret_cast<__half2 *>(&pair);
      t = __fmaf_rn(s[i], 0.0883883f, __low2float(h));
      s[i + 1] = __fmaf_rn(s[i + 1], 0.0883883f, __high2float(h));
    } else if (M == kBias) {
      t = s[i];
    }
    float p = ex2Approx(__fmaf_rn(t, 4.0f, -4.0f));
    sum += p;
    s[i] = p;
  }
  return sum;
}

template <int M, int Mode>
__global__ void __launch_bounds__(384, 1)
probe(int nb, float *out) {
  extern __shared__ __align__(1024) unsigned char smem[];
  // A [64, 128] and B [128, 128] f16 in the 128-byte swizzled layout, then
  // three warpgroups' [64, 128] bias tiles (contents: a pattern; the
  // products' values do not matter, their time does not depend on them
  // beyond power).
  for (int i = threadIdx.x; i < (64 + 128 + 3 * 64) * 128; i += blockDim.x)
    ((__half *)smem)[i] = __float2half(0.001f * ((i * 37) % 101) - 0.05f);
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
  __syncthreads();
  uint32_t a0 = (uint32_t)__cvta_generic_to_shared(smem);
  uint32_t b0 = a0 + 64 * 128 * 2;
  uint32_t bias0 = b0 + 128 * 128 * 2 + (threadIdx.x / 128) * 64 * 128 * 2;
  float acc[64];
  float s[64];
#pragma unroll
  for (int i = 0; i < 64; ++i) {
    acc[i] = 0.f;
    s[i] = 0.01f * (threadIdx.x % 13) + 0.001f * i;
  }
  float sum = 0.f;
  for (int j = 0; j < nb; ++j) {
    if constexpr (Mode != kMufu)
      issueBlock(acc, a0, b0);
    if constexpr (Mode != kTensor)
      sum += softmaxBlock<M>(s, bias0);
    if constexpr (Mode != kMufu)
      waitAll();
  }
  float total = sum;
#pragma unroll
  for (int i = 0; i < 64; ++i)
    total += acc[i];
  // Keeps every result live; the host never reads it but the last value.
  out[blockIdx.x * blockDim.x + threadIdx.x] = total;
}

using Kernel = void (*)(int, float *);
static Kernel kernelOf(int mod, int mode) {
  static const Kernel kernels[3][3] = {
      {probe<kNone, kTensor>, probe<kNone, kMufu>, probe<kNone, kOverlap>},
      {probe<kSoftcap, kTensor>, probe<kSoftcap, kMufu>, probe<kSoftcap, kOverlap>},
      {probe<kBias, kTensor>, probe<kBias, kMufu>, probe<kBias, kOverlap>}};
  return kernels[mod][mode];
}

static float timeIt(int mod, int mode, int warpgroups, int nb, int sms,
                    float *out) {
  int threads = 128 * warpgroups;
  size_t shared = 200 * 1024; // one CTA per SM
  auto launch = [&] { kernelOf(mod, mode)<<<sms, threads, shared>>>(nb, out); };
  for (int i = 0; i < 3; ++i)
    launch();
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  std::vector<float> times;
  for (int r = 0; r < 10; ++r) {
    CK(cudaEventRecord(e0));
    launch();
    CK(cudaEventRecord(e1));
    CK(cudaEventSynchronize(e1));
    float ms;
    CK(cudaEventElapsedTime(&ms, e0, e1));
    times.push_back(ms);
  }
  CK(cudaEventDestroy(e0));
  CK(cudaEventDestroy(e1));
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

int main(int argc, char **argv) {
  int nb = argc > 1 ? std::atoi(argv[1]) : 2048;
  int sms = 0;
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  for (int mod = 0; mod < 3; ++mod)
    for (int mode = 0; mode < 3; ++mode)
      CK(cudaFuncSetAttribute(kernelOf(mod, mode),
                              cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024));
  float *out;
  CK(cudaMalloc(&out, sizeof(float) * sms * 384));
  const char *names[] = {"tensor", "mufu", "overlap"};
  const char *mods[] = {"none", "softcap", "bias"};
  printf("blocks per warpgroup %d, %d CTAs (one per SM)\n", nb, sms);
  for (int wg : {2, 3}) {
    float overlapMs[3] = {0, 0, 0};
    for (int mod = 0; mod < 3; ++mod) {
      float ms[3];
      for (int mode = 0; mode < 3; ++mode)
        ms[mode] = timeIt(mod, mode, wg, nb, sms, out);
      // TFLOP/s of the products: 16 x 64 x 128 x 16 x 2 per block and
      // warpgroup.
      double flops = 16.0 * 64 * 128 * 16 * 2 * nb * wg * sms;
      for (int mode = 0; mode < 3; ++mode)
        printf("wg=%d mod=%s %-8s %8.3f ms\n", wg, mods[mod], names[mode],
               ms[mode]);
      printf("wg=%d mod=%s products alone %.0f TFLOP/s, with the softmax %.0f; "
             "overlap / max(alone) %.3f, overlap / tensor %.3f, "
             "overlap / (tensor + mufu) %.3f\n",
             wg, mods[mod], flops / ms[kTensor] * 1e-9, flops / ms[kOverlap] * 1e-9,
             ms[kOverlap] / std::max(ms[kTensor], ms[kMufu]),
             ms[kOverlap] / ms[kTensor], ms[kOverlap] / (ms[kTensor] + ms[kMufu]));
      overlapMs[mod] = ms[kOverlap];
    }
    printf("wg=%d the softcap's best cost (overlap with / without): %.3f\n", wg,
           overlapMs[kSoftcap] / overlapMs[kNone]);
    printf("wg=%d the bias's best cost (overlap with / without): %.3f\n", wg,
           overlapMs[kBias] / overlapMs[kNone]);
  }
  CK(cudaFree(out));
  return 0;
}
