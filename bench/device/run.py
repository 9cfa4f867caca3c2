#!/usr/bin/env python3
"""Device harness for attn kernels: correctness, timing and memory on one GPU.

For every kernel in an artifact directory (one <name>.json per kernel, with
the PTX/cubin it names), this script loads the kernel through
libattn_runtime.so (ctypes), checks it against an fp32 reference written
here (and against torch SDPA where SDPA has the same mask), times it against
torch SDPA's cuDNN and FlashAttention-2 backends, and checks that it
allocates nothing beyond its inputs and outputs.

    python3 bench/device/run.py --artifacts DIR --runtime build-rt/libattn_runtime.so \
        --out OUTDIR [--quick] [--commit SHA] [--kernels 'attn_f16_*,other']

Writes OUTDIR/results.json (plus OUTDIR/kernels/<name>.json and
OUTDIR/logs/<name>.log per kernel) and prints a summary. Each kernel runs in
its own child process (unless --no-isolate), so a kernel that faults or
hangs is recorded as failed without taking the others down.

Exit status: 0 when every kernel loaded and every correctness point passed,
1 otherwise, 2 for a usage or environment error.
"""

import re
import argparse
import ctypes
import datetime
import fnmatch
import glob
import json
import math
import os
import platform
import socket
import subprocess
import sys
import time
import traceback

LOG2E = math.log2(math.e)
INF = float("inf")

# (B, Hq, Hkv, Nq, Nk)
CORRECTNESS_SHAPES = [
    (2, 4, 4, 1, 1),
    (1, 2, 2, 77, 77),
    (2, 8, 2, 1000, 1000),  # GQA 4:1
    (1, 4, 4, 4097, 4097),
    (1, 4, 4, 128, 256),
    (1, 4, 4, 256, 128),
    (2, 4, 2, 1024, 1024),
    (1, 2, 2, 77, 4097),
    (1, 2, 2, 4097, 77),
    (3, 2, 2, 512, 512),
    # More tiles than a GPU runs CTAs at once (960 and 1024 tiles of 128
    # rows): a persistent kernel's CTAs each go through several, with the
    # K/V rings and the Q barrier carried from tile to tile.
    (3, 40, 8, 1000, 777),
    (64, 16, 16, 1, 300),
]
# Extra points: empty problems, and a [B, N, H, D] layout seen as [B, H, N, D]
# (non-contiguous strides through the kernel ABI).
EDGE_SHAPES = [
    ("empty_nk", (1, 2, 2, 16, 0)),
    ("empty_nq", (1, 2, 2, 0, 16)),
    # Query rows scaled from 1x to 16x (scaled scores up to about 60 in
    # magnitude): saturated softmax rows, a softcap's tanh near +-1, and
    # warps on both sides of any range test a lowering makes on the scores.
    ("large_scores", (1, 4, 2, 300, 1000)),
]
STRIDED_SHAPES = [("bnhd_layout", (2, 8, 2, 1000, 1000))]
# Inputs with NaN and infinities (format-2 kernels): NaN must land where
# the fp32 reference has it.
NAN_SHAPES = [(2, 4, 2, 300, 300), (1, 2, 2, 77, 130)]
# Score-modification kernels: timed at these N (and FlexAttention with the
# same modification, compiled and warmed first, at the last of them).
MOD_TIMING_NS = [1024, 4096, 16384]

TIMING_NS = [512, 1024, 2048, 4096, 8192, 16384]
TIMING_TOKENS = 16384  # B * N
TIMING_HIDDEN = 2048   # H * D
WARMUP, REPS = 10, 30
MEMORY_NS = [4096, 8192, 16384]

O_TOL = {"f16": 5e-3, "bf16": 1e-2, "f32": 1e-3}
COPY_BYTES_PER_S = 4.27e12  # device-to-device copy measured on the H200
LSE_TOL = 1e-3           # times max(1, |lse|)
SDPA_REF_TOL = 1e-4      # our fp32 reference vs SDPA in fp32 (checks the reference)


# ----------------------------------------------------------------------------
# The runtime through ctypes
# ----------------------------------------------------------------------------

# The runtime's ctypes bindings live in the Python package
# (python-bindings/attn/runtime.py); the harness runs from the source tree.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "python-bindings"))
from attn.runtime import (AttnArg, AttnTensor, DTYPE_CODES, Kernel,  # noqa: E402
                          LaunchError, Runtime, tensor_desc, torch_dtype)


# ----------------------------------------------------------------------------
# Metadata and the reference
# ----------------------------------------------------------------------------

class Meta:
    """What the harness needs from <name>.json (format 1 or 2) and the
    optional <name>.harness.json (what the kernel's score modifications
    compute; which kernel it pairs with)."""

    def __init__(self, path):
        with open(path, "rb") as f:
            raw = json.loads(f.read().decode("utf-8"))
        if not isinstance(raw, dict):
            raise ValueError("metadata is not a JSON object")
        self.raw = raw
        self.name = raw["name"]
        self.version = int(raw.get("format_version", 1))
        if self.version == 1:
            self.dtype = raw["element_type"]
            self.d = int(raw["head_dim"])
            self.dv = int(raw["value_head_dim"])
            self.has_lse = bool(raw["has_lse"])
            self.scale_log2e = float(raw["scale_log2e"])
            self.scale = self.scale_log2e / LOG2E
            self.roles = {"q", "k", "v", "o"} | ({"lse"} if self.has_lse else set())
            self.bias_shape = None
        else:
            by_role = {}
            for b in raw["buffers"]:
                for r in b["roles"]:
                    by_role[r] = b
            self.roles = set(by_role)
            self.dtype = by_role["q"]["element_type"]
            self.d = int(by_role["q"]["static_shape"][3])
            self.dv = int(by_role["v"]["static_shape"][3])
            self.has_lse = "lse" in by_role
            self.scale = float(raw["scale"])
            self.scale_log2e = self.scale * LOG2E
            self.bias_shape = by_role["bias"]["static_shape"] if "bias" in by_role else None
        if self.dtype not in DTYPE_CODES:
            raise ValueError("unknown element_type %r" % (self.dtype,))
        mask = raw.get("mask") or {"kind": "none"}
        self.kind = mask["kind"]
        self.alignment = mask.get("alignment") or "top_left"
        if self.kind == "none":
            self.left, self.right = INF, INF
        elif self.kind == "causal":
            self.left, self.right = INF, 0
        elif self.kind == "window":
            self.left, self.right = int(mask["left"]), int(mask["right"])
        else:
            raise ValueError("unknown mask kind %r" % (self.kind,))
        side = os.path.splitext(path)[0] + ".harness.json"
        if not os.path.exists(side) and "__" in os.path.basename(side):
            # A length-dispatch variant (<entry>__n<max>) computes what its
            # entry's kernel does.
            side = os.path.join(os.path.dirname(side),
                                os.path.basename(side).split("__")[0] + ".harness.json")
        self.harness = {}
        if os.path.exists(side):
            with open(side) as f:
                self.harness = json.load(f)
        self.mods = self.harness.get("mods", {})
        # A kernel with score modifications and no description of them
        # would be checked against the unmodified reference.
        if set(self.raw.get("score_mods", [])) != set(
                {"softcap": "softcap", "bias": "bias", "alibi": "alibi",
                 "score_mod": "score_mod", "mask_mod": "mask_mod"}[m]
                for m in self.mods):
            raise ValueError("the kernel's score_mods %s do not match the "
                             "harness description %s"
                             % (self.raw.get("score_mods"), sorted(self.mods)))

    @property
    def causal(self):
        return self.kind == "causal"

    @property
    def timeable(self):
        return self.kind in ("none", "causal")

    def sdpa_equivalent(self, nq, nk):
        """is_causal for an SDPA call with the same mask, or None if none."""
        if self.mods:
            return None
        if self.kind == "none":
            return False
        if self.kind == "causal" and (self.alignment == "top_left" or nq == nk):
            return True
        return None

    def describe(self):
        m = self.kind
        if self.kind != "none":
            m += "/" + self.alignment
        if self.kind == "window":
            m += "(%d,%d)" % (self.left, self.right)
        return m


def visibility(nq, nk, meta, device):
    """[Nq, Nk] bool: query i sees key j iff i' - left <= j <= i' + right and
    j < Nk, with i' = i + (Nk - Nq if bottom_right else 0)."""
    import torch
    i = torch.arange(nq, device=device, dtype=torch.int64)[:, None]
    j = torch.arange(nk, device=device, dtype=torch.int64)[None, :]
    ip = i + ((nk - nq) if meta.alignment == "bottom_right" else 0)
    vis = j < nk
    if meta.left != INF:
        vis = vis & (j >= ip - meta.left)
    if meta.right != INF:
        vis = vis & (j <= ip + meta.right)
    return vis


def modify_scores(s, meta, extra):
    """The score modifications of the kernel on scaled scores s [B,Hq,Nq,Nk]
    (fp32), in the op's order: softcap, ALiBi, bias, score_mod; then the
    mask_mod as a visibility [B or 1, Hq or 1, Nq, Nk]."""
    import torch
    mods = meta.mods
    nq, nk = s.shape[-2], s.shape[-1]
    i = torch.arange(nq, device=s.device)[:, None]
    j = torch.arange(nk, device=s.device)[None, :]
    if "softcap" in mods:
        c = float(mods["softcap"])
        s = c * torch.tanh(s / c)
    if mods.get("alibi"):
        d = i + ((nk - nq) if meta.alignment == "bottom_right" else 0)
        dist = (j - d).abs().float()
        s = s - extra["alibi_slopes"].float()[None, :, None, None] * dist
    if "bias" in mods:
        s = s + extra["bias"].float()  # broadcasts over extents of 1
    if mods.get("score_mod") == "relpos":
        s = s + 0.01 * (j - i).float()
    return s, mask_mod_visible(mods, i, j)


def mask_mod_visible(mods, i, j):
    """What the kernel's mask_mod shows, on index tensors i (queries) and j
    (keys), or None without one: "docN" (documents of N keys:
    i // N == j // N) or "sinkSwinW" (the first S keys, attention sinks,
    and the keys at most W before the query: j < S or i - j <= W; the
    causal part comes from the kernel's mask)."""
    name = str(mods.get("mask_mod", ""))
    m = re.fullmatch(r"doc(\d+)", name)
    if m:
        n = int(m.group(1))
        return (i // n) == (j // n)
    m = re.fullmatch(r"sink(\d+)win(\d+)", name)
    if m:
        return (j < int(m.group(1))) | (i - j <= int(m.group(2)))
    if name:
        raise ValueError("unknown mask_mod %r" % name)
    return None


def reference(q, k, v, meta, extra=None):
    """fp32 attention on upcast inputs: (O [B,Hq,Nq,Dv], LSE [B,Hq,Nq]).
    Rows that see no key get O = 0 and LSE = -inf."""
    import torch
    hq, hkv = q.shape[1], k.shape[1]
    qf = q.float()
    kf = k.float().repeat_interleave(hq // hkv, dim=1)
    vf = v.float().repeat_interleave(hq // hkv, dim=1)
    s = torch.matmul(qf, kf.transpose(-1, -2)) * meta.scale
    vis = visibility(q.shape[2], k.shape[2], meta, q.device)
    if meta.mods:
        s, vis_mod = modify_scores(s, meta, extra or {})
        if vis_mod is not None:
            vis = vis & vis_mod
    s = s.masked_fill(~vis, -INF)
    lse = torch.logsumexp(s, dim=-1)
    # Softmax as torch computes it, but 0 (not NaN) for a row that sees no
    # key (LSE -inf): a +inf score gives its row NaN (inf - inf), a NaN
    # input a NaN row.
    empty = lse == -INF
    p = torch.exp(s - torch.where(empty, torch.zeros_like(lse), lse)[..., None])
    o = torch.matmul(p, vf)
    del s, p
    return o, lse


def sdpa(q, k, v, meta, is_causal, backend=None, attn_mask=None):
    import torch
    import torch.nn.functional as F
    from torch.nn.attention import sdpa_kernel, SDPBackend
    hq, hkv = q.shape[1], k.shape[1]
    if hkv != hq:
        k = k.repeat_interleave(hq // hkv, dim=1)
        v = v.repeat_interleave(hq // hkv, dim=1)
    if attn_mask is not None and is_causal:
        raise ValueError("SDPA takes either an attn_mask or is_causal")
    if backend is None:
        return F.scaled_dot_product_attention(q, k, v, attn_mask=attn_mask,
                                              is_causal=is_causal, scale=meta.scale)
    with sdpa_kernel(backend):
        return F.scaled_dot_product_attention(q, k, v, attn_mask=attn_mask,
                                              is_causal=is_causal, scale=meta.scale)


def rel_fro(x, ref):
    import torch
    num = torch.linalg.vector_norm((x.float() - ref.float()).flatten()).item()
    den = torch.linalg.vector_norm(ref.float().flatten()).item()
    return num / den if den > 0 else num


# ----------------------------------------------------------------------------
# Correctness
# ----------------------------------------------------------------------------

def make_inputs(meta, shape, layout, seed, device):
    """q, k, v (random normal) and o, lse (NaN) in [B, H, N, D] form;
    layout 'bnhd' allocates [B, N, H, D] and returns transposed views."""
    import torch
    b, hq, hkv, nq, nk = shape
    dt = torch_dtype(meta.dtype)
    g = torch.Generator(device=device)
    g.manual_seed(seed)

    def alloc(h, n, d, fill=None):
        if layout == "bnhd":
            if fill is None:
                t = torch.randn(b, n, h, d, dtype=dt, device=device, generator=g)
            else:
                t = torch.full((b, n, h, d), fill, dtype=dt, device=device)
            return t.transpose(1, 2)
        if fill is None:
            return torch.randn(b, h, n, d, dtype=dt, device=device, generator=g)
        return torch.full((b, h, n, d), fill, dtype=dt, device=device)

    q = alloc(hq, nq, meta.d)
    k = alloc(hkv, nk, meta.d)
    v = alloc(hkv, nk, meta.dv)
    o = alloc(hq, nq, meta.dv, fill=float("nan"))
    lse = (torch.full((b, hq, nq), float("nan"), dtype=torch.float32, device=device)
           if meta.has_lse else None)
    return q, k, v, o, lse, make_extra(meta, shape, g, device)


def static_heads(meta):
    """(Hq, Hkv) where the kernel's buffer types fix them (a GQA key's
    heads), else None each."""
    def heads(role):
        for buf in meta.raw.get("buffers", []):
            if role in buf["roles"]:
                h = buf["static_shape"][1]
                return h if h > 0 else None
        return None
    return heads("q"), heads("k")


def make_extra(meta, shape, g, device):
    """Random bias (its broadcast extents from the kernel's static shape) and
    ALiBi slopes in (0, 1) for the kernels that take them."""
    import torch
    b, hq, hkv, nq, nk = shape
    extra = {}
    if "bias" in meta.roles:
        st = meta.bias_shape
        bb = 1 if st[0] == 1 else b
        hb = 1 if st[1] == 1 else hq
        extra["bias"] = 2.0 * torch.randn(bb, hb, nq, nk, dtype=torch_dtype(meta.dtype),
                                          device=device, generator=g)
    if "alibi_slopes" in meta.roles:
        extra["alibi_slopes"] = torch.rand(hq, dtype=torch.float32, device=device,
                                           generator=g)
    return extra


def check_point(kernel, meta, shape, label, layout, seed, device, sdpa_peer=True):
    import torch
    b, hq, hkv, nq, nk = shape
    rec = {"label": label, "shape": {"B": b, "Hq": hq, "Hkv": hkv, "Nq": nq, "Nk": nk},
           "layout": layout, "seed": seed, "pass": False, "failures": []}
    q, k, v, o, lse, extra = make_inputs(meta, shape, layout, seed, device)
    poison = None
    if label == "nan_inf" and q.numel() and k.numel():
        # NaN in one query row, +inf in one key, -inf in another key's
        # element: O and LSE must have NaN exactly where the reference does.
        q[0, 0, min(3, q.shape[2] - 1), 1] = float("nan")
        k[0, 0, min(7, k.shape[2] - 1), 2] = float("inf")
        k[-1, -1, k.shape[2] // 2, 0] = -float("inf")
        poison = True
    if label == "large_scores" and q.numel():
        ramp = torch.linspace(1.0, 16.0, q.shape[2], device=device)
        q.mul_(ramp.view(1, 1, -1, 1).to(q.dtype))
    try:
        kernel.launch(q, k, v, o, lse, extra=extra)
        torch.cuda.synchronize()
    except LaunchError as e:
        rec["failures"].append("launch refused: %s" % e)
        return rec
    ref_o, ref_lse = reference(q, k, v, meta, extra)
    if poison:
        return nan_point(rec, o, lse, ref_o, ref_lse, meta)
    if bool(torch.isnan(ref_o).any().item()):
        rec["failures"].append("the fp32 reference has NaN for finite inputs: harness bug?")

    tol = O_TOL[meta.dtype]
    rec["o_tol"] = tol
    nan_o = int(torch.isnan(o).sum().item())
    rec["o_nan"] = nan_o
    if nan_o:
        rec["failures"].append("O has %d NaN" % nan_o)
    if o.numel():
        err = rel_fro(o, ref_o)
        rec["o_rel_err"] = err
        rec["o_max_abs_err"] = (o.float() - ref_o).abs().nan_to_num(nan=INF).max().item()
        if not (err <= tol):
            rec["failures"].append("O rel err %.3g > %.3g" % (err, tol))
    else:
        rec["o_rel_err"] = 0.0

    if meta.has_lse:
        nan_l = int(torch.isnan(lse).sum().item())
        rec["lse_nan"] = nan_l
        if nan_l:
            rec["failures"].append("LSE has %d NaN" % nan_l)
        finite = torch.isfinite(ref_lse)
        n_empty = int((~finite).sum().item())
        rec["rows_without_keys"] = n_empty
        if n_empty:
            bad = int((lse[~finite] != -INF).sum().item())
            rec["lse_neg_inf_mismatch"] = bad
            if bad:
                rec["failures"].append("%d rows without keys have LSE != -inf" % bad)
        if int(finite.sum().item()):
            diff = (lse[finite] - ref_lse[finite]).abs().nan_to_num(nan=INF)
            rec["lse_max_abs_err"] = diff.max().item()
            ratio = (diff / ref_lse[finite].abs().clamp(min=1.0)).max().item()
            rec["lse_max_scaled_err"] = ratio
            if not (ratio <= LSE_TOL):
                rec["failures"].append("LSE err %.3g > %.3g * max(1, |lse|)"
                                       % (ratio, LSE_TOL))
        else:
            rec["lse_max_abs_err"] = 0.0
    else:
        finite = torch.isfinite(ref_lse)
        rec["rows_without_keys"] = int((~finite).sum().item())

    # SDPA as a second reference where its mask is the same (not under
    # compute-sanitizer: racecheck reports hazards inside cuDNN's own
    # sm90 kernel, which are not ours to judge; sanitize.py turns it off).
    is_causal = meta.sdpa_equivalent(nq, nk) if sdpa_peer else None
    if is_causal is not None and nq > 0 and nk > 0:
        try:
            from torch.nn.attention import SDPBackend
            s32 = sdpa(q.float(), k.float(), v.float(), meta, is_causal,
                       SDPBackend.MATH)
            r = rel_fro(ref_o, s32)
            rec["ref_vs_sdpa_fp32"] = r
            if not (r <= SDPA_REF_TOL):
                rec["failures"].append("the fp32 reference disagrees with SDPA "
                                       "(rel %.3g): harness bug?" % r)
            del s32
            s = sdpa(q, k, v, meta, is_causal)
            rec["o_vs_sdpa"] = rel_fro(o, s)
            rec["sdpa_vs_ref"] = rel_fro(s, ref_o)
            del s
        except Exception as e:  # SDPA unavailable for this case
            rec["sdpa"] = "unavailable: %s" % (str(e).splitlines() or [repr(e)])[0]
    rec["pass"] = not rec["failures"]
    return rec


def nan_point(rec, o, lse, ref_o, ref_lse, meta):
    """Inputs with NaN/Inf: the NaN pattern of O (per element) and LSE must
    be the reference's, infinities in LSE too; elsewhere the usual error."""
    import torch
    same_o = bool(torch.equal(torch.isnan(o), torch.isnan(ref_o)))
    rec["o_nan"] = int(torch.isnan(o).sum().item())
    rec["o_nan_ref"] = int(torch.isnan(ref_o).sum().item())
    if not same_o:
        rec["failures"].append("O has NaN at %d elements, the reference at %d "
                               "(not the same places)" % (rec["o_nan"], rec["o_nan_ref"]))
    ok = ~torch.isnan(ref_o)
    if int(ok.sum().item()):
        err = rel_fro(o[ok], ref_o[ok])
        rec["o_rel_err"] = err
        if not (err <= O_TOL[meta.dtype]):
            rec["failures"].append("O rel err %.3g off the NaN rows" % err)
    if meta.has_lse:
        for what, f in (("NaN", torch.isnan), ("+inf", lambda x: x == INF),
                        ("-inf", lambda x: x == -INF)):
            if not torch.equal(f(lse), f(ref_lse)):
                rec["failures"].append("LSE is %s at %d rows, the reference at %d"
                                       % (what, int(f(lse).sum().item()),
                                          int(f(ref_lse).sum().item())))
    rec["pass"] = not rec["failures"]
    return rec


def runtime_checks(kernel, meta, device):
    """The runtime must refuse bad tensors and leave outputs untouched."""
    import torch
    out = []
    q, k, v, o, lse, extra = make_inputs(meta, (1, 2, 2, 64, 64), "bhnd", 1, device)

    def expect_refusal(what, needle, *args):
        try:
            kernel.launch(*args, extra=extra)
            torch.cuda.synchronize()
            out.append({"check": what, "pass": False, "message": "launched"})
        except LaunchError as e:
            msg = str(e)
            needles = needle if isinstance(needle, tuple) else (needle,)
            ok = any(n in msg for n in needles) and bool(torch.isnan(o).all().item())
            out.append({"check": what, "pass": ok, "message": msg})

    wrong = torch.float16 if meta.dtype != "f16" else torch.bfloat16
    expect_refusal("wrong dtype", "element type", q.to(wrong), k, v, o, lse)
    qbig = torch.empty(q.numel() + 8, dtype=q.dtype, device=device)
    qmis = qbig[1:1 + q.numel()].view(q.shape)
    expect_refusal("misaligned q", "aligned", qmis, k, v, o, lse)
    expect_refusal("wrong head dim", ("head dim", "dim 3 is"), q[..., : meta.d // 2], k, v, o, lse)
    if meta.has_lse:
        expect_refusal("missing lse", "lse", q, k, v, o, None)
    else:
        fake = torch.empty(1, 2, 64, dtype=torch.float32, device=device)
        expect_refusal("unexpected lse", "lse", q, k, v, o, fake)
    return out


# ----------------------------------------------------------------------------
# Timing and memory
# ----------------------------------------------------------------------------

def bench(fn):
    """(median, p95) ms over REPS after WARMUP calls, one CUDA event pair per
    rep (p95: the nearest-rank 95th percentile).
    A long GPU sleep first lets the CPU queue all reps, so launch overhead on
    the host does not show up as GPU time."""
    import torch
    for _ in range(WARMUP):
        fn()
    torch.cuda.synchronize()
    starts = [torch.cuda.Event(enable_timing=True) for _ in range(REPS)]
    ends = [torch.cuda.Event(enable_timing=True) for _ in range(REPS)]
    if hasattr(torch.cuda, "_sleep"):
        torch.cuda._sleep(50_000_000)  # ~25 ms of cycles
    for s, e in zip(starts, ends):
        s.record()
        fn()
        e.record()
    torch.cuda.synchronize()
    times = sorted(s.elapsed_time(e) for s, e in zip(starts, ends))
    return times[len(times) // 2], times[math.ceil(0.95 * len(times)) - 1]


def flex_mods(meta, extra, b, h, n):
    """FlexAttention's score_mod and block mask for the kernel's
    modifications (the same semantics as modify_scores), or None."""
    import torch
    from torch.nn.attention.flex_attention import create_block_mask
    mods = meta.mods
    bias, slopes = extra.get("bias"), extra.get("alibi_slopes")
    causal = meta.kind == "causal"
    shift = 0  # Nq = Nk in the timing shapes

    def score_mod(score, bi, hi, qi, ki):
        if "softcap" in mods:
            c = float(mods["softcap"])
            score = c * torch.tanh(score / c)
        if mods.get("alibi"):
            score = score - slopes[hi] * (ki - qi - shift).abs()
        if "bias" in mods:
            bb = 0 if bias.shape[0] == 1 else bi
            hb = 0 if bias.shape[1] == 1 else hi
            score = score + bias[bb, hb, qi, ki]
        if mods.get("score_mod") == "relpos":
            score = score + 0.01 * (ki - qi)
        return score

    def mask_mod(bi, hi, qi, ki):
        ok = mask_mod_visible(mods, qi, ki)
        if ok is None:
            ok = qi >= 0
        if causal:
            ok = ok & (ki <= qi)
        return ok

    block_mask = None
    if causal or mods.get("mask_mod"):
        block_mask = create_block_mask(mask_mod, None, None, n, n, device="cuda")
    return score_mod, block_mask


def timing(kernel, meta, device):
    import torch
    from torch.nn.attention import SDPBackend
    recs = []
    h = TIMING_HIDDEN // meta.d
    dt = torch_dtype(meta.dtype)
    # cuDNN and FlashAttention-2 (SDPA) have no windows and no score mods;
    # a template kernel is compared with its new twin, not the peers again.
    peers_wanted = (meta.harness.get("peers", True) and not meta.mods
                    and meta.kind in ("none", "causal"))
    ns = MOD_TIMING_NS if meta.mods else TIMING_NS
    # FlexAttention at the largest N, except that it indexes a captured
    # bias with 32-bit offsets (N = 16384 faulted: 4.3e9 elements): with a
    # bias, the largest N whose full bias has fewer than 2^31 elements.
    flex_n = ns[-1]
    if "bias" in meta.mods:
        flex_n = max([n for n in ns if TIMING_TOKENS * h * n < 2 ** 31] or [ns[0]])
    for n in ns:
        b = TIMING_TOKENS // n
        flops = 2.0 * b * h * n * n * (meta.d + meta.dv)  # = 4 B H N^2 D
        if meta.causal:
            flops /= 2
        rec = {"N": n, "B": b, "H": h, "D": meta.d, "Dv": meta.dv,
               "causal": meta.causal, "flops": flops}
        q = torch.randn(b, h, n, meta.d, dtype=dt, device=device)
        k = torch.randn(b, h, n, meta.d, dtype=dt, device=device)
        v = torch.randn(b, h, n, meta.dv, dtype=dt, device=device)
        o = torch.empty(b, h, n, meta.dv, dtype=dt, device=device)
        lse = (torch.empty(b, h, n, dtype=torch.float32, device=device)
               if meta.has_lse else None)
        g = torch.Generator(device=device)
        g.manual_seed(n)
        extra = make_extra(meta, (b, h, h, n, n), g, device)
        if "bias" in extra:
            rec["bias_bytes"] = extra["bias"].numel() * extra["bias"].element_size()
            rec["bias_copy_ceiling_ms"] = rec["bias_bytes"] / COPY_BYTES_PER_S * 1e3
        peers = [("attn", lambda: kernel.launch(q, k, v, o, lse, extra=extra))]
        if peers_wanted:
            peers += [("cudnn", lambda: sdpa(q, k, v, meta, meta.causal,
                                             SDPBackend.CUDNN_ATTENTION)),
                      ("flash2", lambda: sdpa(q, k, v, meta, meta.causal,
                                              SDPBackend.FLASH_ATTENTION))]
        if meta.harness.get("flex") and n == flex_n:
            try:
                from torch.nn.attention.flex_attention import flex_attention
                # A fresh compilation per kernel: after a few kernels' score
                # modifications the compiled function's cache reaches
                # dynamo's recompilation limit and runs eagerly (5-17
                # TFLOP/s, the nineteenth session's run 6).
                torch._dynamo.reset()
                flex = torch.compile(flex_attention, dynamic=False)
                score_mod, block_mask = flex_mods(meta, extra, b, h, n)
                plain_mask = None
                if meta.causal:
                    from torch.nn.attention.flex_attention import create_block_mask
                    plain_mask = create_block_mask(
                        lambda bi, hi, qi, ki: ki <= qi, None, None, n, n, device="cuda")
                peers += [("flex", lambda: flex(q, k, v, score_mod=score_mod,
                                                block_mask=block_mask, scale=meta.scale)),
                          ("flex_plain", lambda: flex(q, k, v, block_mask=plain_mask,
                                                      scale=meta.scale))]
            except Exception as e:
                rec["flex_tflops"] = "unavailable: %s" % (str(e).splitlines() or [repr(e)])[0][:300]
        for tag, fn in peers:
            try:
                ms, p95 = bench(fn)
                rec[tag + "_ms"] = ms
                rec[tag + "_p95_ms"] = p95
                rec[tag + "_tflops"] = flops / (ms * 1e-3) / 1e12
            except Exception as e:
                first = (str(e).strip().splitlines() or [repr(e)])[0]
                rec[tag + "_ms"] = None
                rec[tag + "_tflops"] = "unavailable: %s" % first[:300]
                if tag == "attn" and not isinstance(e, LaunchError):
                    raise  # a CUDA fault: the context is gone
        # Sanity: the timed output against a reference on the same inputs
        # (SDPA without modifications, the fp32 reference with them).
        try:
            if meta.mods:
                if n <= 4096:
                    ref, _ = reference(q, k, v, meta, extra)
                    rec["o_vs_ref"] = rel_fro(o, ref)
                    del ref
            elif meta.kind in ("none", "causal"):
                ref = sdpa(q, k, v, meta, meta.causal)
                rec["o_vs_sdpa"] = rel_fro(o, ref)
        except Exception as e:
            rec["o_vs_sdpa"] = "unavailable: %s" % (str(e).splitlines() or [repr(e)])[0]
        try:  # which kernel of a length dispatch ran (runtimes that say)
            rec["variant"] = kernel.info("last_variant")
        except KeyError:
            pass
        try:  # whether it was persistent, and on which grid (runtimes that say)
            rec["persistent"] = kernel.info("last_persistent") == "1"
            rec["grid"] = kernel.info("last_grid")
        except KeyError:
            pass
        recs.append(rec)
        print("    timing N=%-5d B=%-3d H=%-3d attn %s  cudnn %s  flash2 %s  flex %s"
              % (n, b, h, fmt_tflops(rec["attn_tflops"]),
                 fmt_tflops(rec.get("cudnn_tflops")), fmt_tflops(rec.get("flash2_tflops")),
                 fmt_tflops(rec.get("flex_tflops"))),
              flush=True)
        del q, k, v, o, lse, extra
        torch.cuda.empty_cache()
    return recs


def one_batch(meta, h, n, seed, device):
    """Random q, k, v and empty o (and lse) of B = 1, h heads, length n,
    with the kernel's extra inputs (seeded with `seed`)."""
    import torch
    dt = torch_dtype(meta.dtype)
    q = torch.randn(1, h, n, meta.d, dtype=dt, device=device)
    k = torch.randn(1, h, n, meta.d, dtype=dt, device=device)
    v = torch.randn(1, h, n, meta.dv, dtype=dt, device=device)
    o = torch.empty(1, h, n, meta.dv, dtype=dt, device=device)
    lse = (torch.empty(1, h, n, dtype=torch.float32, device=device)
           if meta.has_lse else None)
    g = torch.Generator(device=device)
    g.manual_seed(seed)
    return q, k, v, o, lse, make_extra(meta, (1, h, h, n, n), g, device)


def cold_start(kernel, meta, device):
    """The first launch after the load apart from the steady state: host wall
    time of launch + synchronize for the first call and for the second, on
    B = 1, H = 16, N = 1024 (the load itself is timed by the caller)."""
    import torch
    q, k, v, o, lse, extra = one_batch(meta, 16, 1024, 1, device)
    torch.cuda.synchronize()
    out = {}
    for key in ("first_launch_ms", "second_launch_ms"):
        start = time.perf_counter()
        kernel.launch(q, k, v, o, lse, extra=extra)
        torch.cuda.synchronize()
        out[key] = (time.perf_counter() - start) * 1e3
    return out


def memory(kernel, meta, device):
    import torch
    recs = []
    h = TIMING_HIDDEN // meta.d
    for n in (MEMORY_NS if "bias" not in meta.roles else [1024, 2048, 4096]):
        torch.cuda.synchronize()
        torch.cuda.empty_cache()
        base = torch.cuda.memory_allocated()
        q, k, v, o, lse, extra = one_batch(meta, h, n, 0, device)
        io_bytes = sum(t.numel() * t.element_size()
                       for t in (q, k, v, o, lse, *extra.values())
                       if t is not None)
        torch.cuda.synchronize()
        torch.cuda.reset_peak_memory_stats()
        before = torch.cuda.max_memory_allocated()
        free_before = torch.cuda.mem_get_info()[0]
        kernel.launch(q, k, v, o, lse, extra=extra)
        torch.cuda.synchronize()
        after = torch.cuda.max_memory_allocated()
        free_after = torch.cuda.mem_get_info()[0]
        recs.append({"N": n, "B": 1, "H": h, "io_bytes": io_bytes,
                     "allocated_over_baseline": before - base,
                     "peak_before": before, "peak_after": after,
                     "peak_growth": after - before,
                     "device_free_drop": free_before - free_after})
        del q, k, v, o, lse, extra
    # Linear growth: what is allocated is the inputs and outputs (linear in
    # N), up to the caching allocator rounding each tensor up (to 2 MiB for
    # large ones; with H = 10 at D = 192 that is visible per token), and the
    # launch itself allocates nothing (no_extra_allocation).
    per_token = [r["allocated_over_baseline"] / r["N"] for r in recs]
    rounding = 2 * 1024 * 1024 * 5
    summary = {"points": recs,
               "bytes_per_token": per_token,
               "linear": all(0 <= r["allocated_over_baseline"] - r["io_bytes"]
                             <= rounding for r in recs),
               "no_extra_allocation": all(r["peak_growth"] == 0 for r in recs)}
    return summary


# ----------------------------------------------------------------------------
# One kernel
# ----------------------------------------------------------------------------

def fmt_tflops(x):
    return "%7.1f" % x if isinstance(x, (int, float)) else "    n/a"


def run_kernel(args, rt, name, device):
    import torch
    res = {"name": name, "load": {"ok": False}, "correctness": [],
           "runtime_checks": [], "timing": [], "memory": None, "errors": []}
    path = os.path.join(args.artifacts, name + ".json")
    meta = None
    try:
        meta = Meta(path)
        res["pair_of"] = meta.harness.get("pair_of")
        res["mods"] = meta.mods
        res["meta"] = {"dtype": meta.dtype, "D": meta.d, "Dv": meta.dv,
                       "mask": meta.kind, "alignment": meta.alignment,
                       "left": meta.left if meta.left != INF else "inf",
                       "right": meta.right if meta.right != INF else "inf",
                       "has_lse": meta.has_lse, "scale_log2e": meta.scale_log2e,
                       "compiler": meta.raw.get("compiler"),
                       "target": meta.raw.get("target"),
                       "config": {k: meta.raw.get(k) for k in
                                  ("block_m", "block_n", "warps", "stages",
                                   "threads", "shared_bytes")}}
    except Exception as e:
        res["errors"].append("metadata: %s: %s" % (type(e).__name__, e))
    try:
        start = time.perf_counter()
        kernel = rt.load(args.artifacts, name)
        load_ms = (time.perf_counter() - start) * 1e3
    except Exception as e:
        res["load"] = {"ok": False, "error": str(e)}
        print("  load FAILED: %s" % e, flush=True)
        return res
    if meta is None:  # the runtime took a file Python could not read
        kernel.unload()
        res["load"] = {"ok": False, "error": "; ".join(res["errors"])}
        return res
    res["load"] = {"ok": True, "load_ms": load_ms}
    for key in ("loaded_from", "load_note", "device", "device_arch"):
        res["load"][key] = kernel.info(key)
    for key, want in (("dtype", meta.dtype), ("head_dim", str(meta.d)),
                      ("value_head_dim", str(meta.dv)),
                      ("has_lse", "1" if meta.has_lse else "0"),
                      ("mask", meta.kind)):
        got = kernel.info(key)
        if got != want:
            res["errors"].append("runtime reports %s=%s, the JSON says %s"
                                 % (key, got, want))
    print("  loaded from %s%s" % (res["load"]["loaded_from"],
                                  (" (%s)" % res["load"]["load_note"])
                                  if res["load"]["load_note"] else ""), flush=True)

    try:
        try:
            res["load"].update(cold_start(kernel, meta, device))
        except LaunchError as e:  # a kernel with static extents of its own
            res["load"]["cold_start"] = "unavailable: %s" % str(e)[:300]
        points = [("matrix", s, "bhnd") for s in CORRECTNESS_SHAPES]
        points += [(lbl, s, "bhnd") for lbl, s in EDGE_SHAPES]
        points += [(lbl, s, "bnhd") for lbl, s in STRIDED_SHAPES]
        if meta.version >= 2:
            points += [("nan_inf", s, "bhnd") for s in NAN_SHAPES]
        for i, (label, shape, layout) in enumerate(points):
            rec = check_point(kernel, meta, shape, label, layout, 1000 + i, device)
            res["correctness"].append(rec)
            print("    %-4s %-11s B=%d Hq=%-2d Hkv=%-2d Nq=%-5d Nk=%-5d  O rel %-9s LSE %-9s %s"
                  % ("ok" if rec["pass"] else "FAIL", label, *shape,
                     "%.2e" % rec["o_rel_err"] if "o_rel_err" in rec else "-",
                     "%.2e" % rec["lse_max_scaled_err"] if "lse_max_scaled_err" in rec else "-",
                     "; ".join(rec["failures"])), flush=True)
        torch.cuda.synchronize()
        res["runtime_checks"] = runtime_checks(kernel, meta, device)
        for c in res["runtime_checks"]:
            if not c["pass"]:
                print("    FAIL runtime check %s: %s" % (c["check"], c["message"]))
        if not args.quick:
            res["timing"] = timing(kernel, meta, device)
        res["memory"] = memory(kernel, meta, device)
        m = res["memory"]
        print("    memory: bytes/token %s, linear %s, extra allocation %s"
              % (["%.0f" % x for x in m["bytes_per_token"]], m["linear"],
                 not m["no_extra_allocation"]), flush=True)
    except Exception as e:
        res["errors"].append("%s: %s" % (type(e).__name__, e))
        res["traceback"] = traceback.format_exc()
        print("  ERROR: %s" % e, flush=True)
    finally:
        try:
            kernel.unload()
        except Exception:
            pass
    return res


def kernel_ok(res):
    return (res["load"].get("ok", False) and not res["errors"]
            and bool(res["correctness"])
            and all(p["pass"] for p in res["correctness"])
            and all(c["pass"] for c in res["runtime_checks"]))


# ----------------------------------------------------------------------------
# Driver
# ----------------------------------------------------------------------------

def clean(x):
    """JSON-safe: non-finite floats become strings."""
    if isinstance(x, float) and not math.isfinite(x):
        return "nan" if math.isnan(x) else ("inf" if x > 0 else "-inf")
    if isinstance(x, dict):
        return {str(k): clean(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [clean(v) for v in x]
    return x


def environment(args):
    import torch
    env = {"date": datetime.datetime.now(datetime.timezone.utc).isoformat(),
           "commit": args.commit, "host": socket.gethostname(),
           "python": platform.python_version(), "torch": torch.__version__,
           "cuda_torch": torch.version.cuda,
           "cudnn": torch.backends.cudnn.version() if torch.backends.cudnn.is_available() else None,
           "runtime": os.path.abspath(args.runtime),
           "artifacts": os.path.abspath(args.artifacts), "quick": args.quick}
    try:
        import triton
        env["triton"] = triton.__version__
    except Exception:
        env["triton"] = None
    if torch.cuda.is_available():
        p = torch.cuda.get_device_properties(0)
        env["gpu"] = torch.cuda.get_device_name(0)
        env["capability"] = "%d.%d" % (p.major, p.minor)
        env["gpu_memory_bytes"] = p.total_memory
        env["sm_count"] = p.multi_processor_count
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=driver_version,name,clocks.max.sm",
                              "--format=csv,noheader"], capture_output=True, text=True,
                             timeout=30)
        if out.returncode == 0 and out.stdout.strip():
            first = out.stdout.strip().splitlines()[0]
            env["nvidia_smi"] = first
            env["driver"] = first.split(",")[0].strip()
    except Exception as e:
        env["nvidia_smi"] = "unavailable: %s" % e
    if "driver" not in env:
        try:  # the driver's CUDA version through the driver API
            libcuda = ctypes.CDLL("libcuda.so.1")
            ver = ctypes.c_int()
            if libcuda.cuDriverGetVersion(ctypes.byref(ver)) == 0:
                env["driver"] = "CUDA %d.%d" % (ver.value // 1000, (ver.value % 1000) // 10)
        except Exception:
            pass
    return env


def list_kernels(args):
    paths = [p for p in glob.glob(os.path.join(args.artifacts, "*.json"))
             if not p.endswith(".harness.json")]
    # The length variants of a dispatching kernel and the TMA fallbacks run
    # through their kernel (the runtime picks them by key length, or where
    # TMA cannot describe a tensor), not as kernels of their own.
    variants = set()
    for p in paths:
        try:
            with open(p) as f:
                meta = json.load(f)
            table = meta.get("dispatch") or {}
            variants |= {v.get("kernel") for v in table.get("variants", [])}
            if meta.get("tma_fallback"):
                variants.add(meta["tma_fallback"])
        except (OSError, ValueError, AttributeError):
            pass
    names = sorted(n for n in (os.path.splitext(os.path.basename(p))[0] for p in paths)
                   if n not in variants)
    if args.kernels:
        pats = [p.strip() for p in args.kernels.split(",") if p.strip()]
        names = [n for n in names if any(fnmatch.fnmatch(n, p) for p in pats)]
    return names


def child_main(args):
    """Runs one kernel (--only NAME) and writes OUTDIR/kernels/NAME.json."""
    import torch
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    device = torch.device("cuda")
    torch.zeros(1, device=device)  # make the primary context current
    torch.cuda.synchronize()
    rt = Runtime(args.runtime)
    res = run_kernel(args, rt, args.only, device)
    os.makedirs(os.path.join(args.out, "kernels"), exist_ok=True)
    with open(os.path.join(args.out, "kernels", args.only + ".json"), "w") as f:
        json.dump(clean(res), f, indent=1)
    return 0


def run_isolated(args, name):
    cmd = [sys.executable, os.path.abspath(__file__), "--artifacts", args.artifacts,
           "--runtime", args.runtime, "--out", args.out, "--only", name]
    if args.quick:
        cmd.append("--quick")
    result_path = os.path.join(args.out, "kernels", name + ".json")
    if os.path.exists(result_path):
        os.remove(result_path)
    os.makedirs(os.path.join(args.out, "logs"), exist_ok=True)
    t0 = time.time()
    def text(x):
        return x.decode(errors="replace") if isinstance(x, bytes) else (x or "")
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           timeout=args.kernel_timeout)
        output, rc = text(p.stdout), p.returncode
    except subprocess.TimeoutExpired as e:
        output = text(e.stdout) + "\n[timed out after %ds]" % args.kernel_timeout
        rc = "a timeout"
    with open(os.path.join(args.out, "logs", name + ".log"), "w") as f:
        f.write(output)
    sys.stdout.write(output if output.endswith("\n") or not output else output + "\n")
    if os.path.exists(result_path):
        with open(result_path) as f:
            res = json.load(f)
    else:
        tail = "\n".join(output.strip().splitlines()[-15:])
        res = {"name": name, "load": {"ok": False}, "correctness": [],
               "runtime_checks": [], "timing": [], "memory": None,
               "errors": ["the child process ended with %s without a result; "
                          "output tail:\n%s" % (rc, tail)]}
        print("  ERROR: child ended with %s" % rc)
    res["seconds"] = round(time.time() - t0, 1)
    return res


def summarize(results):
    lines = []
    hdr = "%-34s %-5s %-4s %-22s %-6s %-7s %-9s %-9s" % (
        "kernel", "dtype", "D", "mask", "from", "points", "O rel", "LSE")
    lines.append(hdr)
    lines.append("-" * len(hdr))
    for r in results:
        m = r.get("meta", {})
        pts = r["correctness"]
        npass = sum(1 for p in pts if p["pass"])
        worst_o = max([p.get("o_rel_err", 0) for p in pts if isinstance(p.get("o_rel_err"), (int, float))] or [float("nan")])
        worst_l = max([p.get("lse_max_scaled_err", 0) for p in pts if isinstance(p.get("lse_max_scaled_err"), (int, float))] or [float("nan")])
        mask = m.get("mask", "?")
        if mask != "none" and m:
            mask += "/" + ("br" if m.get("alignment") == "bottom_right" else "tl")
            if m.get("mask") == "window":
                mask += "(%s,%s)" % (m.get("left"), m.get("right"))
        status = "%d/%d" % (npass, len(pts)) if r["load"].get("ok") else "LOAD"
        if r.get("errors"):
            status += "!"
        lines.append("%-34s %-5s %-4s %-22s %-6s %-7s %-9s %-9s" % (
            r["name"][:34], m.get("dtype", "?"),
            "%s" % m.get("D", "?") if m.get("D") == m.get("Dv") else "%s/%s" % (m.get("D"), m.get("Dv")),
            mask, r["load"].get("loaded_from", "-"), status,
            "%.2e" % worst_o if worst_o == worst_o else "-",
            "%.2e" % worst_l if worst_l == worst_l else "-"))
    timed = [r for r in results if r.get("timing")]
    if timed:
        lines.append("")
        lines.append("TFLOP/s (B*N = %d, H*D = %d)" % (TIMING_TOKENS, TIMING_HIDDEN))
        hdr = "%-34s %6s %8s %8s %8s %8s" % ("kernel", "N", "attn", "cudnn", "flash2", "attn/cudnn")
        lines.append(hdr)
        for r in timed:
            for t in r["timing"]:
                a, c, f = t.get("attn_tflops"), t.get("cudnn_tflops"), t.get("flash2_tflops")
                ratio = "%.2f" % (a / c) if all(isinstance(x, (int, float)) for x in (a, c)) and c else "-"
                lines.append("%-34s %6d %8s %8s %8s %8s" % (
                    r["name"][:34], t["N"], fmt_tflops(a).strip(), fmt_tflops(c).strip(),
                    fmt_tflops(f).strip(), ratio))
    # The new lowering against the template kernels of the same run.
    by_name = {r["name"]: r for r in results}
    pairs = [(r, by_name.get(r.get("pair_of"))) for r in results if r.get("pair_of")]
    pairs = [(t, n) for t, n in pairs if n and t.get("timing") and n.get("timing")]
    if pairs:
        lines.append("")
        lines.append("patterns / template (attn TFLOP/s, same run)")
        for tpl, new in pairs:
            cells = []
            for a, b in zip(new["timing"], tpl["timing"]):
                x, y = a.get("attn_tflops"), b.get("attn_tflops")
                cells.append("%d:%s" % (a["N"], "%.3f" % (x / y)
                             if all(isinstance(z, (int, float)) for z in (x, y)) and y else "-"))
            lines.append("  %-30s %s" % (new["name"][:30], " ".join(cells)))
    failed = [r for r in results if not kernel_ok(r)]
    lines.append("")
    if failed:
        lines.append("FAILED: %d of %d kernels" % (len(failed), len(results)))
        for r in failed:
            why = list(r.get("errors", []))
            if not r["load"].get("ok"):
                why.insert(0, "load: %s" % r["load"].get("error", "failed"))
            for p in r["correctness"]:
                if not p["pass"]:
                    s = p["shape"]
                    why.append("%s B=%d Hq=%d Hkv=%d Nq=%d Nk=%d: %s" % (
                        p["label"], s["B"], s["Hq"], s["Hkv"], s["Nq"], s["Nk"],
                        "; ".join(p["failures"])))
            for c in r.get("runtime_checks", []):
                if not c["pass"]:
                    why.append("runtime check %s: %s" % (c["check"], c["message"]))
            lines.append("  %s:" % r["name"])
            for w in why[:12]:
                lines.append("    " + w.splitlines()[0][:300] if w else "")
            if len(why) > 12:
                lines.append("    ... %d more" % (len(why) - 12))
    else:
        lines.append("all %d kernels passed" % len(results))
    return "\n".join(lines)


def write_results(args, env, results):
    """results.json of the kernels run so far: written after every kernel,
    so that a run stopped by its time budget still leaves its records."""
    summary = {"kernels": len(results),
               "kernels_passed": sum(1 for r in results if kernel_ok(r)),
               "points": sum(len(r["correctness"]) for r in results),
               "points_passed": sum(sum(1 for p in r["correctness"] if p["pass"])
                                    for r in results)}
    summary["all_passed"] = summary["kernels_passed"] == summary["kernels"]
    doc = {"env": env, "config": {
               "correctness_shapes": CORRECTNESS_SHAPES, "edge_shapes": EDGE_SHAPES,
               "strided_shapes": STRIDED_SHAPES, "timing_ns": TIMING_NS,
               "timing_tokens": TIMING_TOKENS, "timing_hidden": TIMING_HIDDEN,
               "warmup": WARMUP, "reps": REPS, "memory_ns": MEMORY_NS,
               "o_tol": O_TOL, "lse_tol": LSE_TOL},
           "summary": summary, "kernels": results}
    with open(os.path.join(args.out, "results.json"), "w") as f:
        json.dump(clean(doc), f, indent=1)
    return summary


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--artifacts", required=True, help="directory of <name>.json kernels")
    ap.add_argument("--runtime", required=True, help="path to libattn_runtime.so")
    ap.add_argument("--out", required=True, help="output directory")
    ap.add_argument("--quick", action="store_true", help="skip timing")
    ap.add_argument("--commit", default=None, help="git commit to record")
    ap.add_argument("--kernels", default=None,
                    help="comma-separated name patterns (fnmatch) to run")
    ap.add_argument("--no-isolate", action="store_true",
                    help="run all kernels in this process (a fault stops the run)")
    ap.add_argument("--kernel-timeout", type=int, default=1800,
                    help="seconds per kernel (isolated mode)")
    ap.add_argument("--only", default=None, help=argparse.SUPPRESS)
    args = ap.parse_args()

    if args.only:
        return child_main(args)

    if not os.path.isdir(args.artifacts):
        print("error: --artifacts %s is not a directory" % args.artifacts, file=sys.stderr)
        return 2
    if not os.path.isfile(args.runtime):
        print("error: --runtime %s does not exist" % args.runtime, file=sys.stderr)
        return 2
    try:
        import torch
    except Exception as e:
        print("error: cannot import torch: %s" % e, file=sys.stderr)
        return 2
    if not torch.cuda.is_available():
        print("error: torch sees no CUDA device", file=sys.stderr)
        return 2
    try:
        Runtime(args.runtime)
    except OSError as e:
        print("error: cannot load %s: %s" % (args.runtime, e), file=sys.stderr)
        return 2
    os.makedirs(args.out, exist_ok=True)

    env = environment(args)
    print("GPU %s (sm %s), driver %s, torch %s, CUDA %s, cuDNN %s"
          % (env.get("gpu"), env.get("capability"), env.get("driver"), env["torch"],
             env["cuda_torch"], env["cudnn"]), flush=True)
    names = list_kernels(args)
    if not names:
        print("error: no kernels (*.json) in %s" % args.artifacts, file=sys.stderr)
        return 2

    results = []
    rt = None
    for idx, name in enumerate(names):
        print("[%d/%d] %s" % (idx + 1, len(names), name), flush=True)
        if args.no_isolate:
            if rt is None:
                torch.backends.cuda.matmul.allow_tf32 = False
                torch.zeros(1, device="cuda")
                rt = Runtime(args.runtime)
            t0 = time.time()
            res = clean(run_kernel(args, rt, name, torch.device("cuda")))
            res["seconds"] = round(time.time() - t0, 1)
        else:
            res = run_isolated(args, name)
        results.append(res)
        write_results(args, env, results)

    summary = write_results(args, env, results)
    print()
    print(summarize(results))
    print("\nwrote %s" % os.path.join(args.out, "results.json"))
    return 0 if summary["all_passed"] else 1


if __name__ == "__main__":
    sys.exit(main())
