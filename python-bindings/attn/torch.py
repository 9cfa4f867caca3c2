"""`attn.torch.attention`: attn kernels behind
`torch.nn.functional.scaled_dot_product_attention`'s conventions.

    import attn.torch
    attn.torch.set_artifacts("prebuilt/")        # or ATTN_ARTIFACTS=prebuilt/
    o = attn.torch.attention(q, k, v, is_causal=True)

q: [B, Hq, Nq, D], k: [B, Hkv, Nk, D], v: [B, Hkv, Nk, Dv] on one CUDA
device, f16 or bf16, any strides the runtime takes. Where it differs from
SDPA: `is_causal` is SDPA's top-left alignment (query i sees keys <= i);
`causal_alignment="bottom_right"` gives the other (FlashAttention's, for
Nq != Nk); `window=(left, right)` is a sliding window (bottom-right).
A floating-point `attn_mask` (q's dtype or float32) is SDPA's additive
mask and attn's bias: [B or 1, H or 1, Nq, Nk] or fewer leading
dimensions, an extent of 1 (or a stride of 0) broadcasting, and combines
with `is_causal` (SDPA refuses that pair). A mask broadcast along rows or
columns (a key-padding mask [B, 1, 1, Nk]) is written out in full for the
kernel, B or 1 x H or 1 x Nq x Nk elements, in one pass. A boolean
`attn_mask` of those shapes (True: the key takes part) becomes such a
bias, 0 or -inf, as SDPA makes one for its kernels that take a bias; a
query row with no key left
gives O = 0 (and LSE = -inf), attn's convention for a row with nothing
visible. `softcap=c` (c tanh(s / c), on
the scaled scores) and `alibi_slopes` ([Hq] float32, FlashAttention's
ALiBi) are attn's too; a call with one of them, a window, a bottom-right
causal mask or a bias under a causal mask has no SDPA equivalent, so
where no kernel takes it, it raises instead of falling back.

Kernels come from a directory of prebuilt artifacts (ahead of time, where
the compiler is not installed, as on the GPU machine here), else are
compiled on first use into an on-disk cache keyed by the spec, the chip,
the compiler version and the tuning database (ATTN_CACHE_DIR, default
~/.cache/attn). Inputs no kernel takes (another dtype or head dim,
an `attn_mask` of another dtype, dropout, CPU
tensors, a scale no prebuilt kernel has without a compiler) go to torch's
SDPA; each reason is counted in
`fallbacks` and logged once. `with attn.torch.disabled():` (or
ATTN_DISABLE=1) sends every call to SDPA. The op is registered with
`torch.library.custom_op` (`attn::attention`) with a fake implementation,
so `torch.compile(fullgraph=True)` traces through it (the kernel lookup,
and the fallback for a missing kernel, happen inside the op); a launch allocates
only its output (through torch's allocator) and does not synchronize, so
it can be captured in a CUDA graph. There is no backward kernel yet:
`.backward()` through the op raises an error that says so.
"""

import collections
import contextlib
import glob
import json
import logging
import math
import os
import threading
from typing import Optional

import torch
import torch.nn.functional as F

from . import cache as _cache
from . import runtime as _runtime
from .spec import BIAS_FORMS, Spec

_log = logging.getLogger("attn.torch")
_lock = threading.Lock()
_disabled_depth = 0
_artifacts_dir = os.environ.get("ATTN_ARTIFACTS")
_rt = None
_index = None          # {key: (directory, name, has_lse)}
_loaded = {}           # (directory, name) -> runtime kernel
_ready = {}            # key -> (runtime kernel, has_lse), once loaded
_logged = set()
fallbacks = collections.Counter()

_DTYPES = {torch.float16: "f16", torch.bfloat16: "bf16"}


def set_artifacts(directory):
    """Prebuilt kernels to take from (every <name>.json in `directory`)."""
    global _artifacts_dir, _index
    with _lock:
        _artifacts_dir, _index = directory, None
        _ready.clear()


@contextlib.contextmanager
def disabled():
    """Every call inside goes to torch's SDPA (a quick rollback)."""
    global _disabled_depth
    _disabled_depth += 1
    try:
        yield
    finally:
        _disabled_depth -= 1


def _is_disabled():
    return _disabled_depth > 0 or os.environ.get("ATTN_DISABLE") == "1"


# The score modifications a call asks for: the bias's broadcast form
# (spec.BIAS_FORMS) and element type, the softcap (0: none), ALiBi.
_NO_MODS = (None, None, 0.0, False)


def _key(dtype, d, dv, kind, alignment, left, right, scale, mods=_NO_MODS):
    bias_form, bias_dtype, softcap, alibi = mods
    return (dtype, d, dv, kind, alignment, left, right, round(scale, 9),
            bias_form, bias_dtype, round(softcap, 9), alibi)


def _meta_mods(meta, by):
    """The score modifications of a kernel's JSON in _key's form, or None
    for kernels this op does not launch (a score_mod or mask_mod region, a
    bias with other static extents, a softcap whose value the JSON does
    not say)."""
    mods = set(meta.get("score_mods") or [])
    if not mods <= {"bias", "softcap", "alibi"}:
        return None
    bias_form = bias_dtype = None
    if "bias" in mods:
        lead = tuple("1" if e == 1 else "?" if e == -1 else None
                     for e in by["bias"]["static_shape"][:2])
        bias_form = next((f for f, ext in BIAS_FORMS.items() if ext == lead), None)
        if bias_form is None:
            return None
        bias_dtype = by["bias"]["element_type"]
    softcap = 0.0
    if "softcap" in mods:
        if not isinstance(meta.get("softcap"), (int, float)):
            return None
        softcap = float(meta["softcap"])
    return bias_form, bias_dtype, softcap, "alibi" in mods


def _meta_key(meta):
    """The key a kernel's JSON serves, or None for kernels this op does not
    launch (see _meta_mods; other buffers, format 1)."""
    if int(meta.get("format_version", 1)) < 2:
        return None
    roles = {r for b in meta["buffers"] for r in b["roles"]}
    if not roles <= {"q", "k", "v", "o", "lse", "bias", "alibi_slopes"}:
        return None
    by = {r: b for b in meta["buffers"] for r in b["roles"]}
    if ("bias" in roles) != ("bias" in (meta.get("score_mods") or [])) or \
            ("alibi_slopes" in roles) != ("alibi" in (meta.get("score_mods") or [])):
        return None
    mods = _meta_mods(meta, by)
    if mods is None:
        return None
    mask = meta.get("mask") or {"kind": "none"}
    kind = mask["kind"]
    alignment = mask.get("alignment", "top_left") if kind != "none" else "-"
    left = mask.get("left", 0) if kind == "window" else 0
    right = mask.get("right", 0) if kind == "window" else 0
    return _key(by["q"]["element_type"], by["q"]["static_shape"][3],
                by["v"]["static_shape"][3], kind, alignment, left, right,
                float(meta["scale"]), mods), "lse" in roles


def _scan(directory):
    index = {}
    metas = []
    for path in sorted(glob.glob(os.path.join(directory, "*.json"))):
        if path.endswith(".harness.json"):
            continue
        try:
            with open(path) as f:
                metas.append(json.load(f))
        except (OSError, ValueError):
            continue
    # The length variants of a dispatching kernel and the TMA fallbacks are
    # launched through their kernel.
    variants = {v.get("kernel") for m in metas if isinstance(m, dict)
                for v in (m.get("dispatch") or {}).get("variants", [])}
    variants |= {m.get("tma_fallback") for m in metas
                 if isinstance(m, dict) and m.get("tma_fallback")}
    for meta in metas:
        try:
            if meta["name"] in variants:
                continue
            found = _meta_key(meta)
        except (KeyError, TypeError, IndexError, AttributeError):
            continue
        if found is None:
            continue
        key, has_lse = found
        # Without an LSE output first: nothing extra to allocate.
        if key not in index or (index[key][2] and not has_lse):
            index[key] = (directory, meta["name"], has_lse)
    return index


def _fallback(reason):
    fallbacks[reason] += 1
    if reason not in _logged:
        _logged.add(reason)
        _log.warning("attn.torch: falling back to SDPA: %s", reason)
    return None


def _compile_into_cache(spec, chip):
    """Compiles `spec` once per (spec, chip, compiler, tuning DB) into the
    cache (attn/cache.py: an incomplete entry is compiled again); returns
    (directory, name) or raises CompilerUnavailable / CompileError."""
    return _cache.compile_cached(spec, chip, tuning_db=os.environ.get("ATTN_TUNING_DB", ""),
                                 log=_log.warning)


def _chip(device):
    major, minor = torch.cuda.get_device_capability(device)
    return "sm_90a" if (major, minor) == (9, 0) else "sm_80"


def _kernel(q, k, v, kind, alignment, left, right, scale, mods=_NO_MODS):
    """The runtime kernel for this call, or None (after counting why)."""
    global _index, _rt
    dtype = _DTYPES.get(q.dtype)
    if dtype is None:
        return _fallback("dtype %s" % q.dtype)
    d, dv = q.shape[-1], v.shape[-1]
    key = _key(dtype, d, dv, kind, alignment, left, right, scale, mods)
    # Kernels already loaded: a dict read, no lock (the per-call path).
    ready = _ready.get(key)
    if ready is not None:
        return ready
    with _lock:
        if _rt is None:
            _rt = _runtime.Runtime()
        if _index is None:
            _index = _scan(_artifacts_dir) if _artifacts_dir else {}
        entry = _index.get(key)
        if entry is None and mods[0] is not None:
            # A kernel whose bias extent is dynamic where this bias's is 1
            # takes it too (its launch contract broadcasts an extent of 1):
            # prebuilt ones of those forms serve the call.
            for form in _bias_forms_also(mods[0]):
                entry = _index.get(_key(dtype, d, dv, kind, alignment, left, right,
                                        scale, (form,) + tuple(mods[1:])))
                if entry is not None:
                    break
        if entry is None:
            bias_form, bias_dtype, softcap, alibi = mods
            spec = Spec(dtype=dtype, head_dim=d, value_head_dim=dv,
                        causal=kind == "causal", window=(left, right) if kind == "window" else None,
                        alignment=alignment if kind != "none" else "top_left",
                        scale=scale, softcap=softcap or None, bias=bias_form,
                        bias_dtype=bias_dtype, alibi=alibi,
                        name="attn_%s_d%d_%d_%s" % (dtype, d, dv, kind))
            try:
                directory, name = _compile_into_cache(spec, _chip(q.device))
            except Exception as e:  # CompilerUnavailable, CompileError
                return _fallback("no prebuilt kernel for %s D=%d Dv=%d mask=%s%s and no "
                                 "compiler: %s" % (dtype, d, dv, kind, _mods_text(mods),
                                                   type(e).__name__))
            entry = _index[key] = (directory, name, False)
            cached = True
        else:
            cached = False
        directory, name, has_lse = entry
        kernel = _loaded.get((directory, name))
        if kernel is None:
            try:
                kernel = _rt.load(directory, name)
            except RuntimeError as e:
                if not cached:
                    return _fallback("kernel %s does not load: %s" % (name, e))
                # A cache entry complete on disk that the runtime still
                # refuses (a corrupt PTX): compiled again, once.
                _log.warning("attn cache: recompiling %s (%s)", directory, e)
                _cache.evict(directory)
                try:
                    directory, name = _compile_into_cache(spec, _chip(q.device))
                    kernel = _rt.load(directory, name)
                except Exception as e2:  # CompilerUnavailable, CompileError, RuntimeError
                    return _fallback("kernel %s does not load after recompiling: %s"
                                     % (name, e2))
                _index[key] = (directory, name, False)
            _loaded[(directory, name)] = kernel
        _ready[key] = (kernel, has_lse)
        return kernel, has_lse


def _bias_forms_also(form):
    """The other bias forms whose kernels take a bias of form `form`, the
    most specific first: a dynamic leading extent takes an extent of 1."""
    lead = BIAS_FORMS[form]
    return [f for f, ext in sorted(BIAS_FORMS.items(), key=lambda fe: fe[1].count("?"))
            if f != form and all(k == "?" or k == e for k, e in zip(ext, lead))]


def _mods_text(mods):
    bias_form, bias_dtype, softcap, alibi = mods
    return "".join([" bias=%s:%s" % (bias_form, bias_dtype) if bias_form else "",
                    " softcap=%g" % softcap if softcap else "",
                    " alibi" if alibi else ""])


def _sdpa_equivalent(kind, alignment, bias, softcap, alibi_slopes):
    """Why SDPA cannot compute this call, or None."""
    if kind == "window" or (kind == "causal" and alignment != "top_left"):
        return "this %s mask" % kind
    if softcap:
        return "a softcap"
    if alibi_slopes is not None:
        return "ALiBi slopes"
    if bias is not None and kind == "causal":
        return "an attn_mask with is_causal"
    return None


def _attention_impl(q, k, v, kind, alignment, left, right, scale, bias=None,
                    bias_form=None, softcap=0.0, alibi_slopes=None):
    # The kernel is looked up here, inside the op, where torch.compile does
    # not trace: no kernel (counted in `fallbacks`) means SDPA, in the op.
    mods = (bias_form, _DTYPES.get(bias.dtype, "f32") if bias is not None else None,
            softcap, alibi_slopes is not None)
    found = _kernel(q, k, v, kind, alignment, left, right, scale, mods)
    if found is None:
        what = _sdpa_equivalent(kind, alignment, bias, softcap, alibi_slopes)
        if what is not None:
            raise RuntimeError("attn.torch.attention: no kernel for %s and no SDPA "
                               "equivalent (see attn.torch.fallbacks)" % what)
        return F.scaled_dot_product_attention(q, k, v, attn_mask=bias,
                                              is_causal=kind == "causal", scale=scale,
                                              enable_gqa=q.shape[1] != k.shape[1])
    kernel, has_lse = found
    # empty_like / new_empty: torch.empty(shape, dtype=, device=) parsed its
    # keywords for 9.5 us a call, empty_like 3.5 (launch_overhead.py on the
    # H200). O is contiguous whatever q's layout, as the fake says.
    o = (torch.empty_like(q) if v.shape[-1] == q.shape[-1] and q.is_contiguous()
         else q.new_empty(q.shape[:-1] + (v.shape[-1],)))
    lse = q.new_empty(q.shape[:-1], dtype=torch.float32) if has_lse else None
    if bias is None and alibi_slopes is None:
        kernel.launch(q, k, v, o, lse)
    else:
        extra = {r: t for r, t in (("bias", bias), ("alibi_slopes", alibi_slopes))
                 if t is not None}
        kernel.launch(q, k, v, o, lse, extra=extra)
    return o


@torch.library.custom_op("attn::attention", mutates_args=())
def _attention_op(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, kind: str,
                  alignment: str, left: int, right: int, scale: float,
                  bias: Optional[torch.Tensor] = None, bias_form: str = "",
                  softcap: float = 0.0,
                  alibi_slopes: Optional[torch.Tensor] = None) -> torch.Tensor:
    return _attention_impl(q, k, v, kind, alignment, left, right, scale, bias,
                           bias_form or None, softcap, alibi_slopes)


@_attention_op.register_fake
def _(q, k, v, kind, alignment, left, right, scale, bias=None, bias_form="",
      softcap=0.0, alibi_slopes=None):
    return q.new_empty(q.shape[:-1] + (v.shape[-1],))


def _no_backward(ctx, grad):
    raise NotImplementedError("attn.torch.attention: the backward pass is not "
                              "available yet (no backward kernels); use SDPA "
                              "(attn.torch.disabled()) for training")


torch.library.register_autograd("attn::attention", _no_backward)


def _bias_view(mask, dtype, b, h, nq, nk):
    """SDPA's `attn_mask` as attn's bias: an additive mask (of q's `dtype`
    or float32) as a [B or 1, H or 1, Nq, Nk] view (a leading extent
    broadcast by a stride of 0 taken as 1; a row or column broadcast, by
    an extent of 1 or a stride of 0, or columns that are not contiguous,
    written out in full), a boolean one (True: the key takes part) as a
    new bias of q's `dtype`, 0 or -inf, of that shape; with its broadcast
    form, or (None, why)."""
    if mask.dtype not in (dtype, torch.float32, torch.bool):
        return None, "attn_mask of dtype %s" % mask.dtype
    if not 1 <= mask.dim() <= 4:
        return None, "attn_mask of rank %d" % mask.dim()
    m = mask[(None,) * (4 - mask.dim())]
    lead = []
    for dim, full in ((0, b), (1, h)):
        if m.shape[dim] == full and full > 1 and m.stride(dim) == 0:
            m = m.narrow(dim, 0, 1)
        if m.shape[dim] not in (1, full):
            return None, "attn_mask of shape %s for [B, H, Nq, Nk] = %s" % (
                tuple(mask.shape), (b, h, nq, nk))
        lead.append("1" if m.shape[dim] == 1 else "?")
    if m.shape[2] not in (1, nq) or m.shape[3] not in (1, nk):
        return None, "attn_mask of shape %s for [B, H, Nq, Nk] = %s" % (
            tuple(mask.shape), (b, h, nq, nk))
    # A row or column of extent 1 (or a stride of 0) broadcasts, as in SDPA
    # (a key-padding mask [B, 1, 1, Nk]). The mask's own extents are turned
    # into a bias first, then written out in full in one pass, B or 1 x H or
    # 1 x Nq x Nk elements (the earlier zeros and masked_fill_ through the
    # expanded mask cost 0.83 ms over the kernel at B = 1, N = 16384, one
    # pass 0.58; keypad_time.py on an H100, fifty-first session). A view with a row stride of 0 read by the
    # kernel's TMA fallback ran faster still but has not run through this
    # function (bench/device/probes/session51-keypad-view.patch).
    rows = m.shape[2] == 1 or m.stride(2) == 0
    cols = m.shape[3] == 1 or m.stride(3) == 0
    if rows:
        m = m.narrow(2, 0, 1)
    if cols:
        m = m.narrow(3, 0, 1)
    if m.dtype == torch.bool:
        # What SDPA does with a boolean mask for its kernels that take a
        # bias (the memory-efficient and cuDNN ones): a tensor of q's dtype,
        # 0 where the key takes part and -inf where not, written each call.
        m = torch.where(m, torch.zeros((), dtype=dtype, device=m.device),
                        torch.full((), float("-inf"), dtype=dtype, device=m.device))
    m = m.expand(m.shape[0], m.shape[1], nq, nk)
    if (rows and nq > 1) or (cols and nk > 1) or (nk > 1 and m.stride(3) != 1):
        m = m.contiguous()
    form = next(f for f, ext in BIAS_FORMS.items() if ext == tuple(lead))
    return m, form


def attention(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False,
              scale=None, enable_gqa=False, *, causal_alignment="top_left",
              window=None, softcap=None, alibi_slopes=None):
    """SDPA's signature (see the module docstring for the differences)."""
    if softcap is not None and not (softcap > 0 and math.isfinite(softcap)):
        raise ValueError("attn.torch.attention: softcap must be a positive finite "
                         "number, got %r" % (softcap,))
    if alibi_slopes is not None and not (
            isinstance(alibi_slopes, torch.Tensor) and alibi_slopes.dtype == torch.float32
            and alibi_slopes.dim() == 1 and alibi_slopes.shape[0] == query.shape[-3]
            and alibi_slopes.device == query.device):
        raise ValueError("attn.torch.attention: alibi_slopes must be a float32 tensor "
                         "of shape [Hq] = [%d] on q's device" % query.shape[-3])
    why = None
    bias = bias_form = None
    if _is_disabled():
        why = "disabled"
        fallbacks[why] += 1
    elif dropout_p:
        why = "dropout"
    elif not (query.is_cuda and key.is_cuda and value.is_cuda):
        why = "tensors not on a CUDA device"
    elif query.dim() != 4 or key.dim() != 4 or value.dim() != 4:
        why = "not [B, H, N, D] tensors"
    elif query.shape[1] != key.shape[1] and not enable_gqa:
        why = "Hq != Hkv without enable_gqa"
    elif attn_mask is not None:
        bias, bias_form = _bias_view(attn_mask, query.dtype, query.shape[0],
                                     query.shape[1], query.shape[2], key.shape[2])
        if bias is None:
            why = bias_form
    kind, left, right = "none", 0, 0
    alignment = "-"
    if window is not None:
        kind, (left, right), alignment = "window", window, "bottom_right"
    elif is_causal:
        kind, alignment = "causal", causal_alignment
    if why is not None:
        if why != "disabled":
            _fallback(why)
        what = _sdpa_equivalent(kind, alignment, attn_mask, softcap, alibi_slopes)
        if what is not None:
            raise ValueError("attn.torch.attention: %s has no SDPA fallback (reason: %s)"
                             % (what, why))
        return F.scaled_dot_product_attention(query, key, value, attn_mask=attn_mask,
                                              dropout_p=dropout_p, is_causal=is_causal,
                                              scale=scale, enable_gqa=enable_gqa)
    if scale is None:
        scale = 1.0 / math.sqrt(query.shape[-1])
    # Eager calls that autograd does not record skip the dispatcher's round
    # trip through the custom op (most of the per-call time at small
    # shapes); torch.compile and calls that need a backward go through it.
    if not torch.compiler.is_compiling() and not (
            torch.is_grad_enabled()
            and (query.requires_grad or key.requires_grad or value.requires_grad)):
        return _attention_impl(query, key, value, kind, alignment, left, right,
                               float(scale), bias, bias_form, float(softcap or 0.0),
                               alibi_slopes)
    return _attention_op(query, key, value, kind, alignment, left, right, float(scale),
                         bias, bias_form or "", float(softcap or 0.0), alibi_slopes)
