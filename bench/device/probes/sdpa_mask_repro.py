#!/usr/bin/env python3
"""Does torch's SDPA itself fail on a mask broadcast along keys? The
forty-ninth session's torch check died with "CUDA error: misaligned
address" in SDPA (called through attn.torch's fallback) with a boolean
attn_mask of shape (64, 1) for q = k = v of shape (1, 4, 64, 64) f16.
Each case runs in its own process (the error is sticky), per SDPA
backend, and is compared with the math backend in float32.
usage: sdpa_mask_repro.py [OUT.json]"""
import json
import subprocess
import sys

CASE = r'''
import sys, torch, torch.nn.functional as F
from torch.nn.attention import sdpa_kernel, SDPBackend
shape, dtype, backend = sys.argv[1], sys.argv[2], sys.argv[3]
torch.manual_seed(0)
q = torch.randn(1, 4, 64, 64, dtype=torch.float16, device="cuda")
shape = tuple(int(x) for x in shape.split("x"))
m = torch.rand(shape, device="cuda") > 0.5 if dtype == "bool" else \
    torch.randn(shape, device="cuda").half()
if dtype == "bool":
    m[..., 0] = True
ref = F.scaled_dot_product_attention(q.float(), q.float(), q.float(),
    attn_mask=m if dtype == "bool" else m.float())
try:
    if backend == "default":
        o = F.scaled_dot_product_attention(q, q, q, attn_mask=m)
    else:
        with sdpa_kernel([getattr(SDPBackend, backend)]):
            o = F.scaled_dot_product_attention(q, q, q, attn_mask=m)
    torch.cuda.synchronize()
    print("ok max_err %.2e" % float((o.float() - ref).abs().max()))
except Exception as e:
    print("error %s: %s" % (type(e).__name__, str(e).splitlines()[0][:120]))
'''
res = []
for shape in ("64x1", "1x64"):
    for dtype in ("bool", "f16"):
        for backend in ("default", "EFFICIENT_ATTENTION", "CUDNN_ATTENTION"):
            p = subprocess.run([sys.executable, "-c", CASE, shape, dtype, backend],
                               capture_output=True, text=True, timeout=120)
            out = (p.stdout.strip().splitlines() or [""])[-1] or \
                (p.stderr.strip().splitlines() or ["?"])[-1][:160]
            res.append(dict(shape=shape, dtype=dtype, backend=backend, result=out))
            print("%-6s %-5s %-20s %s" % (shape, dtype, backend, out), flush=True)
if len(sys.argv) > 1:
    json.dump(res, open(sys.argv[1], "w"), indent=1)
