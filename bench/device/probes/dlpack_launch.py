#!/usr/bin/env python3
"""attn.runtime on objects that offer only __dlpack__ / __dlpack_device__
(the path JAX arrays take), on the GPU machine: wrappers around torch
tensors hide data_ptr and __cuda_array_interface__, so that the runtime
reads each tensor through a DLPack capsule. A prebuilt f16 and a bf16
kernel of build_torch_artifacts.py, contiguous inputs and a [B, N, H, D]
view, NaN-poisoned outputs compared with torch SDPA in fp32:

    ATTN_RUNTIME_LIBRARY=/tmp/brt/libattn_runtime.so \
        python3 bench/device/probes/dlpack_launch.py DIR OUT.json"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..",
                                "python-bindings"))
import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

from attn import runtime as art  # noqa: E402


class DLPackOnly:
    """A tensor seen through DLPack alone; counts the capsules it made."""

    def __init__(self, t):
        self._t = t
        self.capsules = 0

    def __dlpack_device__(self):
        return self._t.__dlpack_device__()

    def __dlpack__(self, stream=None):
        self.capsules += 1
        return self._t.__dlpack__(stream=stream)


directory, out = sys.argv[1], sys.argv[2]
rt = art.Runtime()
results = []
torch.manual_seed(7)
for name, dtype, d in (("t_f16_d64_none", torch.float16, 64),
                       ("t_bf16_d128_none", torch.bfloat16, 128)):
    kernel = rt.load(directory, name)
    for label, (b, h, nq, nk), layout in (("contiguous", (2, 4, 77, 130), "bhnd"),
                                          ("bnhd view", (1, 8, 200, 33), "bnhd")):
        def make(n):
            if layout == "bhnd":
                return torch.randn(b, h, n, d, device="cuda").to(dtype)
            return torch.randn(b, n, h, d, device="cuda").to(dtype).transpose(1, 2)
        q, k, v = make(nq), make(nk), make(nk)
        o = torch.full((b, h, nq, d), float("nan"), device="cuda", dtype=dtype)
        wrapped = [DLPackOnly(x) for x in (q, k, v, o)]
        kernel.launch(*wrapped, None)
        torch.cuda.synchronize()
        ref = F.scaled_dot_product_attention(q.float(), k.float(), v.float(), scale=d ** -0.5)
        got = o.float()
        finite = bool(torch.isfinite(got).all())
        err = float((got - ref).norm() / ref.norm())
        read = all(w.capsules == 1 for w in wrapped)
        ok = finite and err < (2e-2 if dtype == torch.bfloat16 else 5e-3) and read
        results.append({"kernel": name, "label": label, "shape": [b, h, nq, nk],
                        "rel_err": err, "finite": finite, "one_capsule_each": read,
                        "pass": ok})
        print("%s %-18s %-10s B=%d H=%d Nq=%d Nk=%d rel err %.2e, capsules %s" % (
            "ok  " if ok else "FAIL", name, label, b, h, nq, nk, err,
            [w.capsules for w in wrapped]))
try:
    kernel.launch(DLPackOnly(q.cpu()), k, v, o, None)
    refused = False
except art.LaunchError as e:
    refused = "CUDA memory" in str(e)
print("%s a CPU tensor through DLPack refused with a message" % ("ok  " if refused else "FAIL"))
results.append({"label": "cpu refused", "pass": refused})
json.dump({"torch": torch.__version__, "points": results}, open(out, "w"), indent=1)
sys.exit(0 if all(r["pass"] for r in results) else 1)
