#!/usr/bin/env python3
"""Prebuilt kernels for attn.torch on the GPU machine (which has no
compiler), made with the Python package here: f16 and bf16, D = 64 and 128,
unmasked, causal (top-left: SDPA's is_causal) and a bottom-right window,
no LSE; and the score modifications torch_op_check.py calls: an additive
attn_mask as a bias (full and [1, 1, Nq, Nk] in q's dtype at each dtype
and head dim, [B, 1, ...] in float32, [1, H, ...], a full one under a
causal mask), a softcap (unmasked and causal) and ALiBi (causal).

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
MODS = [("f16", d, dict(bias=form)) for d in (64, 128) for form in ("full", "b1h1")] + \
       [("bf16", d, dict(bias=form)) for d in (64, 128) for form in ("full", "b1h1")] + [
    ("f16", 128, dict(bias="h1", bias_dtype="f32")),
    ("f16", 128, dict(bias="b1")),
    ("f16", 128, dict(bias="full", causal=True)),
    ("f16", 128, dict(softcap=30.0)),
    ("bf16", 128, dict(softcap=30.0, causal=True)),
    ("f16", 128, dict(alibi=True, causal=True)),
]
for i, (dtype, d, kw) in enumerate(MODS):
    spec = attn.Spec(dtype=dtype, head_dim=d, name="t_mod%d_%s_d%d" % (i, dtype, d), **kw)
    attn.compile(spec, chip="sm_90a", cubin=True).write(out)
    n += 1
print("wrote %d kernels to %s" % (n, out))
