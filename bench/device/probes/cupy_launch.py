#!/usr/bin/env python3
"""attn.runtime on CuPy arrays (__cuda_array_interface__) on the GPU
machine: a prebuilt f16 kernel of build_torch_artifacts.py launched on
CuPy inputs, contiguous and a [B, N, H, D] view, on a CuPy stream, the
NaN-poisoned output compared with torch SDPA in fp32 on the same data:

    ATTN_RUNTIME_LIBRARY=/tmp/brt/libattn_runtime.so \
        python3 bench/device/probes/cupy_launch.py DIR OUT.json"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..",
                                "python-bindings"))
import cupy as cp  # noqa: E402
import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

from attn import runtime as art  # noqa: E402

directory, out = sys.argv[1], sys.argv[2]
rt = art.Runtime()
kernel = rt.load(directory, "t_f16_d64_none")
results = []
rng = cp.random.default_rng(7)
for label, (b, h, nq, nk), layout in (("contiguous", (2, 4, 77, 130), "bhnd"),
                                      ("bnhd view", (1, 8, 200, 33), "bnhd")):
    def make(n):
        if layout == "bhnd":
            return rng.standard_normal((b, h, n, 64), dtype=cp.float32).astype(cp.float16)
        return rng.standard_normal((b, n, h, 64), dtype=cp.float32).astype(cp.float16) \
            .transpose(0, 2, 1, 3)
    q, k, v = make(nq), make(nk), make(nk)
    o = cp.full((b, h, nq, 64), cp.nan, dtype=cp.float16)
    stream = cp.cuda.Stream(non_blocking=True)
    with stream:
        kernel.launch(q, k, v, o, None, stream=stream)
    stream.synchronize()
    tq, tk, tv = (torch.from_dlpack(x).float() for x in (q, k, v))
    ref = F.scaled_dot_product_attention(tq, tk, tv, scale=1 / 8)
    got = torch.from_dlpack(o).float()
    finite = bool(torch.isfinite(got).all())
    err = float((got - ref).norm() / ref.norm())
    ok = finite and err < 5e-3
    results.append({"label": label, "shape": [b, h, nq, nk], "rel_err": err,
                    "finite": finite, "pass": ok})
    print("%s %-10s B=%d H=%d Nq=%d Nk=%d rel err %.2e" % ("ok  " if ok else "FAIL", label,
                                                          b, h, nq, nk, err))
try:
    kernel.launch(q.astype(cp.float64), k, v, o, None)
    refused = False
except art.LaunchError as e:
    refused = "typestr" in str(e)
print("%s f64 array refused with a message" % ("ok  " if refused else "FAIL"))
results.append({"label": "f64 refused", "pass": refused})
json.dump({"cupy": cp.__version__, "points": results}, open(out, "w"), indent=1)
sys.exit(0 if all(r["pass"] for r in results) else 1)
