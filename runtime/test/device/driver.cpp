// End-to-end device test of attn_runtime (not part of the project): loads the
// kernels of kernels.cu through the library, launches them on tensors with
// padded strides, and compares with a host computation.
#include "attn_runtime.h"
#include <cuda.h>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

static int fails = 0, checks = 0;
static void check(bool ok, const std::string &what) {
  ++checks;
  if (!ok) { ++fails; std::printf("FAIL: %s\n", what.c_str()); }
  else std::printf("ok: %s\n", what.c_str());
}

// Halves of small integers (exact).
static uint16_t toHalf(float f) {
  if (f == 0) return 0;
  uint32_t x; std::memcpy(&x, &f, 4);
  uint32_t sign = (x >> 16) & 0x8000, exp = ((x >> 23) & 0xff) - 127 + 15, man = (x >> 13) & 0x3ff;
  return (uint16_t)(sign | (exp << 10) | man);
}
static float fromHalf(uint16_t h) {
  if ((h & 0x7fff) == 0) return 0;
  uint32_t sign = (h & 0x8000) << 16, exp = ((h >> 10) & 0x1f) - 15 + 127, man = (h & 0x3ff) << 13;
  uint32_t x = sign | (exp << 23) | man; float f; std::memcpy(&f, &x, 4); return f;
}

struct Tensor {
  attn_tensor t{};
  std::vector<float> host; // by element offset
  size_t elems = 0;
  Tensor(std::vector<int64_t> shape, std::vector<int64_t> pad, attn_dtype dt) {
    t.rank = (int)shape.size(); t.dtype = dt;
    int64_t s = 1;
    for (int i = t.rank - 1; i >= 0; --i) {
      t.shape[i] = shape[i]; t.strides[i] = s; s *= shape[i] + pad[i];
    }
    elems = (size_t)s;
    host.assign(elems, 0);
  }
  size_t es() const { return t.dtype == ATTN_F32 ? 4 : 2; }
  void alloc() {
    CUdeviceptr p; cuMemAlloc(&p, elems * es() + 64); t.ptr = p;
  }
  void upload() {
    std::vector<uint16_t> h(elems);
    for (size_t i = 0; i < elems; ++i) h[i] = toHalf(host[i]);
    if (es() == 2) cuMemcpyHtoD(t.ptr, h.data(), elems * 2);
    else cuMemcpyHtoD(t.ptr, host.data(), elems * 4);
  }
  void download() {
    if (es() == 4) { cuMemcpyDtoH(host.data(), t.ptr, elems * 4); return; }
    std::vector<uint16_t> h(elems); cuMemcpyDtoH(h.data(), t.ptr, elems * 2);
    for (size_t i = 0; i < elems; ++i) host[i] = fromHalf(h[i]);
  }
  float &at(int64_t a, int64_t b, int64_t c, int64_t d = 0) {
    return host[a * t.strides[0] + b * t.strides[1] + c * t.strides[2] + (t.rank == 4 ? d * t.strides[3] : 0)];
  }
};

struct Problem {
  int64_t B, Hq, Hkv, Nq, Nk;
  Tensor q, k, v, o, lse;
  // oPad: O's row padding; 2 (260-byte rows) for format 2, whose O needs
  // 4-byte rows only; format 1 holds every tensor to 16-byte strides.
  Problem(int64_t B, int64_t Hq, int64_t Hkv, int64_t Nq, int64_t Nk,
          int64_t oPad = 2)
      : B(B), Hq(Hq), Hkv(Hkv), Nq(Nq), Nk(Nk),
        q({B, Hq, Nq, 128}, {0, 1, 0, 8}, ATTN_F16),  // row stride 136
        k({B, Hkv, Nk, 128}, {0, 0, 0, 0}, ATTN_F16),
        v({B, Hkv, Nk, 128}, {1, 0, 0, 8}, ATTN_F16),
        o({B, Hq, Nq, 128}, {0, 0, 0, oPad}, ATTN_F16),  // row stride 128 + oPad
        lse({B, Hq, Nq}, {0, 0, 3}, ATTN_F32) {
    for (Tensor *t : {&q, &k, &v, &o, &lse}) t->alloc();
    for (size_t i = 0; i < q.elems; ++i) q.host[i] = (float)((i * 7) % 29) - 14;
    for (size_t i = 0; i < k.elems; ++i) k.host[i] = (float)((i * 5) % 23) - 11;
    for (size_t i = 0; i < v.elems; ++i) v.host[i] = (float)((i * 3) % 19) - 9;
    for (size_t i = 0; i < o.elems; ++i) o.host[i] = 99;
    for (size_t i = 0; i < lse.elems; ++i) lse.host[i] = 99;
    for (Tensor *t : {&q, &k, &v, &o, &lse}) t->upload();
  }
  // How many outputs differ from the host computation.
  // v1Empty: a v1 launch with Nk == 0, where the runtime's memsets give
  // O = 0 and LSE = -inf instead of the kernel.
  int compare(bool kvSame, bool hasLse, bool v1Empty) {
    o.download(); lse.download();
    int bad = 0;
    for (int64_t b = 0; b < B; ++b)
      for (int64_t h = 0; h < Hq; ++h)
        for (int64_t r = 0; r < Nq; ++r) {
          int64_t hk = h / (Hq / Hkv);
          for (int64_t d = 0; d < 128; ++d) {
            float x = q.at(b, h, r, d);
            if (Nk > 0) {
              Tensor &vv = kvSame ? k : v;
              x += k.at(b, hk, r % Nk, d) + vv.at(b, hk, (r + 1) % Nk, d);
            }
            bad += o.at(b, h, r, d) != (v1Empty ? 0.0f : x);
          }
          if (hasLse) {
            float want = v1Empty ? -INFINITY : (float)(Nk + h);
            bad += !(lse.at(b, h, r) == want);
          }
        }
    return bad;
  }
};

static std::string info(attn_kernel *k, const char *key) {
  char buf[512]; attn_kernel_info(k, key, buf, sizeof buf); return buf;
}

int main(int argc, char **argv) {
  const char *dir = argc > 1 ? argv[1] : ".";
  cuInit(0);
  CUdevice dev; cuDeviceGet(&dev, 0);
  CUcontext ctx; cuDevicePrimaryCtxRetain(&ctx, dev); cuCtxSetCurrent(ctx);
  char err[2048];
  attn_kernel *k5 = nullptr, *kv = nullptr, *v1 = nullptr, *t3 = nullptr;
  check(attn_kernel_load(dir, "k5", &k5, err, sizeof err) == 0, std::string("load k5: ") + err);
  check(attn_kernel_load(dir, "kv", &kv, err, sizeof err) == 0, std::string("load kv: ") + err);
  check(attn_kernel_load(dir, "v1", &v1, err, sizeof err) == 0, std::string("load v1: ") + err);
  check(attn_kernel_load(dir, "t3", &t3, err, sizeof err) == 0, std::string("load t3: ") + err);
  if (!k5 || !kv || !v1 || !t3) return 1;
  check(info(t3, "tensor_maps") == "q:box[128,128,1,1]:swizzle0 k:box[128,1,1,1]:swizzle0 "
                                   "v:box[128,1,1,1]:swizzle0",
        "t3 tensor_maps: " + info(t3, "tensor_maps"));
  std::printf("k5: loaded_from %s, format_version %s, buffers %s, device %s %s\n",
              info(k5, "loaded_from").c_str(), info(k5, "format_version").c_str(),
              info(k5, "buffers").c_str(), info(k5, "device").c_str(), info(k5, "device_arch").c_str());
  std::printf("kv: loaded_from %s (%s); v1: loaded_from %s\n", info(kv, "loaded_from").c_str(),
              info(kv, "load_note").c_str(), info(v1, "loaded_from").c_str());
  check(info(k5, "loaded_from") == "cubin" && info(kv, "loaded_from") == "ptx", "cubin for k5, PTX JIT for kv");

  auto run = [&](attn_kernel *kern, const char *what, int64_t B, int64_t Hq, int64_t Hkv, int64_t Nq,
                 int64_t Nk, int form) {
    Problem p(B, Hq, Hkv, Nq, Nk, kern == v1 ? 8 : 2);
    int rc;
    if (form == 0) { // by role
      std::vector<attn_arg> args = {{"lse", p.lse.t}, {"o", p.o.t}, {"v", p.v.t}, {"k", p.k.t}, {"q", p.q.t}};
      rc = attn_kernel_launch_args(kern, args.data(), args.size(), nullptr, err, sizeof err);
    } else if (form == 1) { // the five-tensor form
      rc = attn_kernel_launch(kern, &p.q.t, &p.k.t, &p.v.t, &p.o.t, &p.lse.t, nullptr, err, sizeof err);
    } else { // k+v: one tensor for both roles, no lse
      std::vector<attn_arg> args = {{"q", p.q.t}, {"k", p.k.t}, {"v", p.k.t}, {"o", p.o.t}};
      rc = attn_kernel_launch_args(kern, args.data(), args.size(), nullptr, err, sizeof err);
    }
    CUresult s = cuCtxSynchronize();
    int bad = rc == 0 && s == CUDA_SUCCESS ? p.compare(form == 2, form != 2, kern == v1 && Nk == 0) : -1;
    check(rc == 0 && s == CUDA_SUCCESS && bad == 0,
          std::string(what) + ": rc " + std::to_string(rc) + " sync " + std::to_string(s) + ", " +
              std::to_string(bad) + " wrong outputs" + (rc ? std::string(": ") + err : ""));
  };
  run(k5, "v2 by role, B=2 Hq=8 Hkv=2 Nq=300 Nk=77", 2, 8, 2, 300, 77, 0);
  run(k5, "v2 attn_kernel_launch form, B=1 Hq=4 Hkv=4 Nq=129 Nk=5", 1, 4, 4, 129, 5, 1);
  run(k5, "v2 Nk = 0 launches the kernel", 2, 4, 2, 70, 0, 0);
  run(kv, "v2 k+v buffer, B=3 Hq=6 Hkv=3 Nq=200 Nk=64", 3, 6, 3, 200, 64, 2);
  run(t3, "v3 (TMA) by role, B=2 Hq=8 Hkv=2 Nq=300 Nk=77", 2, 8, 2, 300, 77, 0);
  run(t3, "v3 attn_kernel_launch form, B=1 Hq=4 Hkv=1 Nq=129 Nk=5", 1, 4, 1, 129, 5, 1);
  run(t3, "v3 Nk = 0: no maps of K and V", 2, 4, 2, 70, 0, 0);
  run(v1, "v1 through attn_kernel_launch_args, B=2 Hq=8 Hkv=2 Nq=300 Nk=77", 2, 8, 2, 300, 77, 0);
  run(v1, "v1 attn_kernel_launch", 1, 2, 1, 65, 9, 1);
  run(v1, "v1 Nk = 0: memsets O = 0, LSE = -inf", 1, 2, 1, 65, 0, 1);
  {
    Problem p(1, 2, 1, 10, 10);
    attn_tensor bad = p.o.t; bad.ptr = p.q.t.ptr; // o over q
    std::vector<attn_arg> args = {{"q", p.q.t}, {"k", p.k.t}, {"v", p.v.t}, {"o", bad}, {"lse", p.lse.t}};
    int rc = attn_kernel_launch_args(k5, args.data(), args.size(), nullptr, err, sizeof err);
    check(rc != 0 && std::strstr(err, "o overlaps q"), std::string("overlap refused: ") + err);
    attn_tensor q8 = p.q.t; q8.ptr += 8; // TMA needs 16-byte aligned tensors
    args = {{"q", q8}, {"k", p.k.t}, {"v", p.v.t}, {"o", p.o.t}, {"lse", p.lse.t}};
    rc = attn_kernel_launch_args(t3, args.data(), args.size(), nullptr, err, sizeof err);
    check(rc != 0 && std::strstr(err, "q.tensor_map: data pointer"),
          std::string("misaligned q refused for TMA: ") + err);
  }
  attn_kernel_unload(k5); attn_kernel_unload(kv); attn_kernel_unload(v1); attn_kernel_unload(t3);
  std::printf("device test: %d checks, %d failed\n", checks, fails);
  return fails != 0;
}
