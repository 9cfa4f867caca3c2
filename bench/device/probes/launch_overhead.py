#!/usr/bin/env python3
"""Where the per-call time of a small attn launch goes (B = 1, H = 8,
N = 128, D = 64, the torch op's kernel), host wall time per call over
2000 calls each:

    ATTN_RUNTIME_LIBRARY=/tmp/brt/libattn_runtime.so ATTN_ARTIFACTS=DIR \
        python3 bench/device/probes/launch_overhead.py OUT.json

- the pieces on the Python side (current stream, one tensor descriptor);
- attn_kernel_launch through ctypes with prebuilt descriptors: with
  Nq = 0 (the runtime's checks, no kernel launched) and for real;
- the GPU time of one launch (CUDA events around each of 200);
- Kernel.launch and attn.torch.attention as the user calls them, and SDPA;
- the steps of attn.torch.attention's eager path one by one (its checks,
  the kernel lookup, the output's allocation, the stream, one descriptor)."""
import ctypes
import json
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..",
                                "python-bindings"))
import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

import attn.torch as at  # noqa: E402
from attn import runtime as art  # noqa: E402

N_CALLS = 2000
dev = torch.device("cuda")
q = torch.randn(1, 8, 128, 64, dtype=torch.float16, device=dev)
at.attention(q, q, q)
kern, has_lse = at._kernel(q, q, q, "none", "-", 0, 0, 1.0 / 8)
o = torch.empty_like(q)
lse = torch.empty(q.shape[:-1], dtype=torch.float32, device=dev) if has_lse else None
empty = torch.empty(1, 8, 0, 64, dtype=torch.float16, device=dev)
o_empty = torch.empty_like(empty)
lse_empty = torch.empty(1, 8, 0, dtype=torch.float32, device=dev) if has_lse else None


def per_call(fn, n=N_CALLS):
    for _ in range(50):
        fn()
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    for _ in range(n):
        fn()
    torch.cuda.synchronize()
    return (time.perf_counter() - t0) / n * 1e6


pack_buf = ctypes.create_string_buffer(art._DESC.size)
lib = kern.rt.lib
err = ctypes.create_string_buffer(4096)
stream = torch.cuda.current_stream().cuda_stream
descs = [art.tensor_desc(t) for t in (q, q, q, o)] + [art.tensor_desc(lse) if lse is not None else None]
descs0 = [art.tensor_desc(t) for t in (empty, q, q, o_empty)] + \
    [art.tensor_desc(lse_empty) if lse_empty is not None else None]


def raw(ds):
    rc = lib.attn_kernel_launch(kern.handle, *ds, stream, err, len(err))
    assert rc == 0, err.value


out = {
    "current_stream_us": per_call(lambda: torch.cuda.current_stream()),
    "tensor_desc_us": per_call(lambda: art.tensor_desc(q)),
    "ctypes_launch_nq0_us": per_call(lambda: raw(descs0)),
    "ctypes_launch_us": per_call(lambda: raw(descs)),
    "kernel_launch_us": per_call(lambda: kern.launch(q, q, q, o, lse)),
    "attn_torch_us": per_call(lambda: at.attention(q, q, q)),
    "sdpa_us": per_call(lambda: F.scaled_dot_product_attention(q, q, q)),
    "empty_like_us": per_call(lambda: torch.empty_like(q)),
    # The pieces of attn.torch.attention's eager path, one by one.
    "is_disabled_us": per_call(at._is_disabled),
    "is_compiling_us": per_call(torch.compiler.is_compiling),
    "grad_checks_us": per_call(lambda: torch.is_grad_enabled() and (
        q.requires_grad or q.requires_grad or q.requires_grad)),
    "input_checks_us": per_call(lambda: (q.is_cuda and q.is_cuda and q.is_cuda,
                                         q.dim() != 4 or q.dim() != 4 or q.dim() != 4,
                                         q.shape[1] != q.shape[1])),
    "kernel_lookup_us": per_call(lambda: at._kernel(q, q, q, "none", "-", 0, 0, 0.125)),
    "output_alloc_us": per_call(lambda: torch.empty(q.shape[:-1] + (q.shape[-1],),
                                                    dtype=q.dtype, device=q.device)),
    "raw_stream_us": per_call(lambda: art._raw_stream(None, q)),
    "pack_one_us": per_call(lambda: art._pack(pack_buf, 0, q)),
    "attention_impl_us": per_call(lambda: at._attention_impl(q, q, q, "none", "-", 0, 0,
                                                             0.125)),
}
gpu = []
for _ in range(200):
    s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    s.record()
    raw(descs)
    e.record()
    e.synchronize()
    gpu.append(s.elapsed_time(e) * 1e3)
out["kernel_gpu_us_median"] = sorted(gpu)[len(gpu) // 2]
out["kernel"] = kern.info("name")
for k, v in out.items():
    print("%-24s %s" % (k, "%.2f" % v if isinstance(v, float) else v))
json.dump(out, open(sys.argv[1], "w"), indent=1)
