#!/usr/bin/env python3
"""A profiling probe: launches the attn kernel NAME and torch SDPA's cuDNN
backend on the same inputs (B * N = 16384, H * D = 2048, N given), three
times each, for Nsight Compute to profile one launch of each; a kernel
with score modifications gets its extra inputs (a bias, ALiBi slopes) and
no cuDNN peer:

    ncu -k regex:'attn_|sdpa|fmha|cudnn' --launch-skip 2 --launch-count 2 \
        --section ... python3 bench/device/probes/ncu_pair.py ART LIB NAME N"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import run  # noqa: E402
import torch  # noqa: E402
from torch.nn.attention import SDPBackend  # noqa: E402

art, lib, name, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
device = torch.device("cuda")
rt = run.Runtime(lib)
meta = run.Meta(os.path.join(art, name + ".json"))
kern = rt.load(art, name)
h = run.TIMING_HIDDEN // meta.d
b = run.TIMING_TOKENS // n
dt = run.torch_dtype(meta.dtype)
q = torch.randn(b, h, n, meta.d, dtype=dt, device=device)
k = torch.randn(b, h, n, meta.d, dtype=dt, device=device)
v = torch.randn(b, h, n, meta.dv, dtype=dt, device=device)
o = torch.empty(b, h, n, meta.dv, dtype=dt, device=device)
lse = torch.empty(b, h, n, dtype=torch.float32, device=device) if meta.has_lse else None
g = torch.Generator(device=device)
g.manual_seed(n)
extra = run.make_extra(meta, (b, h, h, n, n), g, device)
for _ in range(3):
    kern.launch(q, k, v, o, lse, extra=extra)
torch.cuda.synchronize()
if meta.mods:
    print("launched %s N=%d: O finite %s" % (name, n, bool(torch.isfinite(o).all())))
    kern.unload()
    sys.exit(0)
for _ in range(3):
    ref = run.sdpa(q, k, v, meta, meta.causal, backend=SDPBackend.CUDNN_ATTENTION)
torch.cuda.synchronize()
print("max |attn - cuDNN| = %.3e" % (o.float() - ref.float()).abs().max().item())
kern.unload()
