#!/usr/bin/env python3
"""Prebuilt kernels for attn.torch on the GPU machine (which has no
compiler), made with the Python package here: f16 and bf16, D = 64 and 128,
unmasked, causal (top-left: SDPA's is_causal) and a bottom-right window,
no LSE.

    PYTHONPATH=build/python-bindings python3 bench/device/build_torch_artifacts.py DIR"""
import os
import sys

import attn

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
n = 0
for dtype in ("f16", "bf16"):
    for d in (64, 128):
        for kind in ("none", "causal", "window"):
            spec = attn.Spec(dtype=dtype, head_dim=d, causal=kind == "causal",
                             window=(128, 0) if kind == "window" else None,
                             alignment="bottom_right" if kind == "window" else "top_left",
                             name="t_%s_d%d_%s" % (dtype, d, kind))
            attn.compile(spec, chip="sm_90a", cubin=True).write(out)
            n += 1
print("wrote %d kernels to %s" % (n, out))
