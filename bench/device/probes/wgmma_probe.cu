// wgmma_probe.cu - the smallest kernels that check what the sm_90a lowering
// of attn.dot assumes about wgmma, before it is folded into the compiler:
//  * the shared-memory layout #attn.swizzled<blocked = true> (a [R, C] tile
//    as C / 64 column blocks [R, 64] of 128-byte rows, 16-byte chunk c of
//    row r at chunk c ^ (r % 8)) is wgmma's 128-byte-swizzle canonical layout,
//    K-major (S = Q K^T: A = Q [64, K], B = K [N, K]) with SBO = 1024, and
//    MN-major (O = P V: B = V [K, N], trans-b) with LBO = the column-block
//    stride and SBO = 1024; the k-step advances the start address by 32 bytes
//    inside a block (the hardware swizzles absolute address bits);
//  * the accumulator of m64nNk16 is the #attn.mma layout with one m-tile per
//    warp (warp w: rows 16w.., lane 4g+t: (g, 8j+2t..), (g+8, 8j+2t..));
//  * the register A operand (RS form) is mma.m16n8k16's A fragment per warp.
// Build: nvcc -gencode=arch=compute_90a,code=sm_90a -o wgmma_probe wgmma_probe.cu
// Prints one line per check, exits 1 if any fails.
#include <cstdint>
#include <cstdio>
#include <cmath>
#include <vector>
#include <cuda_fp16.h>

#include "wgmma_ops.inc"

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
  printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e), __FILE__, __LINE__); \
  return 2; } } while (0)

// Byte offset of element (r, c) of a [R, *] tile in the blocked layout.
__device__ inline uint32_t blocked(int r, int c, int R) {
  int block = c / 64, cc = c % 64, chunk = cc / 8;
  return block * R * 128 + r * 128 + ((chunk ^ (r % 8)) * 16) + (cc % 8) * 2;
}

__device__ inline void fence_commit_wait_pre() {
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
}
__device__ inline void commit_wait() {
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
  asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
}

// Writes the accumulator (n-tiles of 8 columns) to C [64, N] row-major.
template <int N>
__device__ inline void storeAcc(const float *d, float *C) {
  int tid = threadIdx.x, warp = tid / 32, lane = tid % 32, g = lane / 4,
      t = lane % 4;
  for (int j = 0; j < N / 8; ++j) {
    int r = 16 * warp + g, c = 8 * j + 2 * t;
    C[r * N + c] = d[4 * j];
    C[r * N + c + 1] = d[4 * j + 1];
    C[(r + 8) * N + c] = d[4 * j + 2];
    C[(r + 8) * N + c + 1] = d[4 * j + 3];
  }
}

// S = A B^T, A [64, K], B [N, K] (K = 128), both K-major in shared memory.
template <int N>
__global__ void ssKernel(const __half *A, const __half *B, float *C) {
  constexpr int K = 128;
  extern __shared__ __align__(1024) unsigned char smem[];
  unsigned char *sa = smem, *sb = smem + 64 * K * 2;
  for (int i = threadIdx.x; i < 64 * K; i += blockDim.x)
    *(__half *)(sa + blocked(i / K, i % K, 64)) = A[i];
  for (int i = threadIdx.x; i < N * K; i += blockDim.x)
    *(__half *)(sb + blocked(i / K, i % K, N)) = B[i];
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
  __syncthreads();
  uint32_t a0 = (uint32_t)__cvta_generic_to_shared(sa),
           b0 = (uint32_t)__cvta_generic_to_shared(sb);
  float d[N / 2];
  for (int i = 0; i < N / 2; ++i) d[i] = 0.f;
  fence_commit_wait_pre();
  for (int kk = 0; kk < K / 16; ++kk) {
    uint64_t da = desc(a0 + (kk / 4) * 64 * 128 + (kk % 4) * 32, 16, 1024);
    uint64_t db = desc(b0 + (kk / 4) * N * 128 + (kk % 4) * 32, 16, 1024);
    if constexpr (N == 64) wgmma_ss_n64(d, da, db);
    else wgmma_ss_n128(d, da, db);
  }
  commit_wait();
  storeAcc<N>(d, C);
}

// O = P V, P [64, KV] in registers (A fragments), V [KV, N] MN-major in
// shared memory (KV = 64).
template <int N>
__global__ void rsKernel(const __half *P, const __half *V, float *O,
                         uint32_t lbo, uint32_t sbo) {
  constexpr int KV = 64;
  extern __shared__ __align__(1024) unsigned char smem[];
  for (int i = threadIdx.x; i < KV * N; i += blockDim.x)
    *(__half *)(smem + blocked(i / N, i % N, KV)) = V[i];
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
  __syncthreads();
  int tid = threadIdx.x, warp = tid / 32, lane = tid % 32, g = lane / 4,
      t = lane % 4;
  uint32_t v0 = (uint32_t)__cvta_generic_to_shared(smem);
  float d[N / 2];
  for (int i = 0; i < N / 2; ++i) d[i] = 0.f;
  fence_commit_wait_pre();
  for (int kk = 0; kk < KV / 16; ++kk) {
    uint32_t a[4];
    int rows[4] = {g, g + 8, g, g + 8}, cols[4] = {0, 0, 8, 8};
    for (int q = 0; q < 4; ++q) {
      int r = 16 * warp + rows[q], c = 16 * kk + cols[q] + 2 * t;
      __half2 h = __halves2half2(P[r * KV + c], P[r * KV + c + 1]);
      a[q] = *(uint32_t *)&h;
    }
    uint64_t db = desc(v0 + kk * 16 * 128, lbo, sbo);
    if constexpr (N == 64) wgmma_rs_n64(d, a, db);
    else wgmma_rs_n128(d, a, db);
  }
  commit_wait();
  storeAcc<N>(d, O);
}

static uint32_t lcg = 12345;
static float rnd() {
  lcg = lcg * 1664525u + 1013904223u;
  return ((lcg >> 8) & 0xFFFF) / 32768.0f - 1.0f;
}

static bool report(const char *name, const std::vector<float> &got,
                   const std::vector<double> &ref) {
  double num = 0, den = 0;
  bool nan = false;
  for (size_t i = 0; i < ref.size(); ++i) {
    if (std::isnan(got[i])) nan = true;
    num += (got[i] - ref[i]) * (got[i] - ref[i]);
    den += ref[i] * ref[i];
  }
  double rel = std::sqrt(num / den);
  bool ok = !nan && rel < 1e-3;
  printf("%-40s rel_l2 %.3e %s\n", name, rel, ok ? "PASS" : "FAIL");
  return ok;
}

template <int N> static int runSS(bool &all) {
  const int K = 128;
  std::vector<__half> a(64 * K), b(N * K);
  std::vector<float> af(64 * K), bf(N * K);
  for (int i = 0; i < 64 * K; ++i) { a[i] = __float2half(rnd()); af[i] = __half2float(a[i]); }
  for (int i = 0; i < N * K; ++i) { b[i] = __float2half(rnd()); bf[i] = __half2float(b[i]); }
  std::vector<double> ref(64 * N);
  for (int r = 0; r < 64; ++r)
    for (int c = 0; c < N; ++c) {
      double s = 0;
      for (int k = 0; k < K; ++k) s += (double)af[r * K + k] * bf[c * K + k];
      ref[r * N + c] = s;
    }
  __half *dA, *dB; float *dC;
  CK(cudaMalloc(&dA, a.size() * 2)); CK(cudaMalloc(&dB, b.size() * 2));
  CK(cudaMalloc(&dC, ref.size() * 4));
  CK(cudaMemcpy(dA, a.data(), a.size() * 2, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dB, b.data(), b.size() * 2, cudaMemcpyHostToDevice));
  CK(cudaMemset(dC, 0xFF, ref.size() * 4));  // NaN poison
  int smem = (64 + N) * K * 2;
  CK(cudaFuncSetAttribute(ssKernel<N>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  ssKernel<N><<<1, 128, smem>>>(dA, dB, dC);
  CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
  std::vector<float> got(ref.size());
  CK(cudaMemcpy(got.data(), dC, got.size() * 4, cudaMemcpyDeviceToHost));
  char name[64]; snprintf(name, sizeof name, "SS K-major m64n%dk16 x8 (K=128)", N);
  all &= report(name, got, ref);
  cudaFree(dA); cudaFree(dB); cudaFree(dC);
  return 0;
}

template <int N> static int runRS(bool &all, uint32_t lbo, uint32_t sbo) {
  const int KV = 64;
  std::vector<__half> p(64 * KV), v(KV * N);
  std::vector<float> pf(64 * KV), vf(KV * N);
  for (int i = 0; i < 64 * KV; ++i) { p[i] = __float2half(rnd()); pf[i] = __half2float(p[i]); }
  for (int i = 0; i < KV * N; ++i) { v[i] = __float2half(rnd()); vf[i] = __half2float(v[i]); }
  std::vector<double> ref(64 * N);
  for (int r = 0; r < 64; ++r)
    for (int c = 0; c < N; ++c) {
      double s = 0;
      for (int k = 0; k < KV; ++k) s += (double)pf[r * KV + k] * vf[k * N + c];
      ref[r * N + c] = s;
    }
  __half *dP, *dV; float *dO;
  CK(cudaMalloc(&dP, p.size() * 2)); CK(cudaMalloc(&dV, v.size() * 2));
  CK(cudaMalloc(&dO, ref.size() * 4));
  CK(cudaMemcpy(dP, p.data(), p.size() * 2, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dV, v.data(), v.size() * 2, cudaMemcpyHostToDevice));
  CK(cudaMemset(dO, 0xFF, ref.size() * 4));
  int smem = KV * N * 2;
  CK(cudaFuncSetAttribute(rsKernel<N>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  rsKernel<N><<<1, 128, smem>>>(dP, dV, dO, lbo, sbo);
  CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
  std::vector<float> got(ref.size());
  CK(cudaMemcpy(got.data(), dO, got.size() * 4, cudaMemcpyDeviceToHost));
  char name[80];
  snprintf(name, sizeof name, "RS MN-major m64n%dk16 x4 LBO=%u SBO=%u", N, lbo, sbo);
  all &= report(name, got, ref);
  cudaFree(dP); cudaFree(dV); cudaFree(dO);
  return 0;
}

int main() {
  bool all = true;
  if (runSS<64>(all) || runSS<128>(all)) return 2;
  // The expected convention first (LBO = column-block stride = KV * 128),
  // then the swapped one, to tell which the hardware takes.
  bool expected = true, swapped = true;
  if (runRS<128>(expected, 64 * 128, 1024) || runRS<64>(expected, 64 * 128, 1024))
    return 2;
  if (runRS<128>(swapped, 1024, 64 * 128)) return 2;
  all &= expected;
  printf("expected conventions: %s (swapped MN-major descriptor %s)\n",
         all ? "PASS" : "FAIL", swapped ? "also passes" : "fails");
  return all ? 0 : 1;
}
