#!/usr/bin/env python3
"""What a key-padding mask costs through attn.torch (as the tree has it:
written out in one pass, or with session51-keypad-view.patch a view with
a row stride of 0, which the runtime sends to the kernel's TMA fallback),
against the earlier path (written out: zeros, then
masked_fill_ with the expanded mask), against the kernel on a bias
written out beforehand, against the fallback loaded alone, against no
mask, and against SDPA's backends given the same boolean mask; f16,
D = 128, H = 16, B * N = 16384, a boolean mask [B, 1, 1, N] with 30% of the
keys masked. Each variant is checked against an fp32 reference on two
heads (outputs NaN-poisoned where attn writes them); times are medians of
single calls (CUDA events), variants interleaved over rounds.

    ATTN_RUNTIME_LIBRARY=... ATTN_ARTIFACTS=DIR python3 keypad_time.py OUT.json"""
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..",
                                "python-bindings"))
import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402
from torch.nn.attention import SDPBackend, sdpa_kernel  # noqa: E402

import attn.torch as at  # noqa: E402

dev = torch.device("cuda")
H, D = 16, 128
out = {"env": {"torch": torch.__version__, "gpu": torch.cuda.get_device_name(0)},
       "shapes": []}


def timed(fn, reps):
    ts = []
    for _ in range(reps):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        fn()
        b.record()
        b.synchronize()
        ts.append(a.elapsed_time(b))
    return ts


def sdpa_with(backend, q, k, v, mask):
    def f():
        with sdpa_kernel([backend]):
            return F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
    return f


for B, N in ((4, 4096), (1, 16384)):
    torch.manual_seed(N)
    q, k, v = (torch.randn(B, H, N, D, dtype=torch.float16, device=dev) for _ in range(3))
    mask = torch.rand(B, 1, 1, N, device=dev) > 0.3
    mask[..., 0] = True
    bias_row = torch.zeros(B, 1, 1, N, dtype=torch.float16, device=dev).masked_fill_(
        ~mask, float("-inf"))
    full = bias_row.expand(B, 1, N, N).contiguous()

    def old_path():  # what attn.torch did before: the bias written out each call
        m = torch.zeros(B, 1, N, N, dtype=torch.float16, device=dev).masked_fill_(
            mask.expand(B, 1, N, N).logical_not(), float("-inf"))
        return at.attention(q, k, v, attn_mask=m)

    # The row-stride-0 view straight to the kernel (what attn.torch did in
    # this session's first call), through TMA and through the kernel's
    # TMA fallback (ld.global, each thread its own elements) loaded alone.
    scale = 1.0 / D ** 0.5
    view = bias_row.expand(B, 1, N, N)
    form = "b1h1" if B == 1 else "h1"
    kern, _ = at._kernel(q, k, v, "none", "-", 0, 0, scale, (form, "f16", 0.0, False))
    unstaged = at._rt.load(os.environ["ATTN_ARTIFACTS"], kern.info("tma_fallback"))

    def unstaged_view():
        o = torch.empty_like(q)
        unstaged.launch(q, k, v, o, None, extra={"bias": view})
        return o

    variants = {
        "attn keypad row-stride-0 view, unstaged kernel (loaded alone)": unstaged_view,
        "attn none": lambda: at.attention(q, k, v),
        "attn keypad bool (attn.torch)": lambda: at.attention(q, k, v, attn_mask=mask),
        "attn keypad f16 bias [B,1,1,N] (attn.torch)": lambda: at.attention(q, k, v, attn_mask=bias_row),
        "attn full bias [B,1,N,N] prebuilt (kernel only)": lambda: at.attention(q, k, v, attn_mask=full),
        "attn old path (written out + kernel)": old_path,
        "sdpa default, bool mask": lambda: F.scaled_dot_product_attention(q, k, v, attn_mask=mask),
        "sdpa efficient, bool mask": sdpa_with(SDPBackend.EFFICIENT_ATTENTION, q, k, v, mask),
        "sdpa cudnn, bool mask": sdpa_with(SDPBackend.CUDNN_ATTENTION, q, k, v, mask),
        "sdpa cudnn, f16 bias [B,1,1,N]": sdpa_with(SDPBackend.CUDNN_ATTENTION, q, k, v, bias_row),
        "sdpa cudnn, none": sdpa_with(SDPBackend.CUDNN_ATTENTION, q, k, v, None),
    }
    # Correctness on heads 0-1 against fp32 (math backend on the float bias).
    with sdpa_kernel([SDPBackend.MATH]):
        ref = F.scaled_dot_product_attention(q[:, :2].float(), k[:, :2].float(),
                                             v[:, :2].float(), attn_mask=bias_row.float())
    ref_none = None
    rec = {"B": B, "N": N, "H": H, "D": D, "masked_keys": int((~mask).sum()), "variants": {}}
    ok_fns = {}
    for name, fn in variants.items():
        before = sum(at.fallbacks.values())
        try:
            o = fn()
            torch.cuda.synchronize()
        except Exception as e:  # a backend that refuses the mask
            rec["variants"][name] = {"error": "%s: %s" % (type(e).__name__,
                                                          str(e).splitlines()[0][:160])}
            print("%-48s error %s" % (name, rec["variants"][name]["error"]), flush=True)
            continue
        if name.endswith("none"):
            if ref_none is None:
                with sdpa_kernel([SDPBackend.MATH]):
                    ref_none = F.scaled_dot_product_attention(
                        q[:, :2].float(), k[:, :2].float(), v[:, :2].float())
            r = ref_none
        else:
            r = ref
        got = o[:, :2].float()
        err = float((got - r).abs().max() / r.abs().max())
        fin = bool(torch.isfinite(got).all())
        fell = sum(at.fallbacks.values()) != before
        rec["variants"][name] = {"rel_err": err, "finite": fin, "fell_back": fell,
                                 "ok": fin and err < 1e-2 and not fell,
                                 "ran": kern.info("last_variant"),
                                 "why": kern.info("last_fallback")[:120]}
        ok_fns[name] = fn
        print("%-48s rel_err %.2e finite %s fell_back %s" % (name, err, fin, fell), flush=True)
    for fn in ok_fns.values():  # warm-up
        for _ in range(3):
            fn()
    torch.cuda.synchronize()
    times = {name: [] for name in ok_fns}
    for _ in range(3):
        for name, fn in ok_fns.items():
            times[name] += timed(fn, 7 if N == 16384 else 15)
    base = statistics.median(times["attn none"])
    for name, ts in times.items():
        med = statistics.median(ts)
        rec["variants"][name].update(median_ms=med, min_ms=min(ts), n=len(ts),
                                     vs_attn_none=med / base)
        print("B=%d N=%-5d %-48s %8.3f ms  %.3fx attn none" % (B, N, name, med, med / base),
              flush=True)
    out["shapes"].append(rec)
    del full
    torch.cuda.empty_cache()

if len(sys.argv) > 1:
    json.dump(out, open(sys.argv[1], "w"), indent=1)
