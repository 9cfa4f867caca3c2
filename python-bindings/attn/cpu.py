"""`attn.cpu.attention`: a spec's semantics on numpy arrays, through the CPU
lowering JIT-compiled in this process (attn-c/CPU.h, MLIR's
ExecutionEngine). No GPU needed: what the GPU kernels compute, checkable
from Python.

    import numpy as np, attn.cpu
    q = np.random.randn(1, 4, 77, 64).astype(np.float16)
    o = attn.cpu.attention(q, q, q, causal=True)        # [1, 4, 77, 64] f16
    o, lse = attn.cpu.attention(q, q, q, lse=True)

Arrays are [B, H, N, D] (K and V may have fewer heads, a divisor of Q's:
grouped-query attention), f16 or f32, or bf16 with `dtype="bf16"`: numpy
has no bfloat16, so bf16 arrays are uint16 arrays of bf16 bit patterns
(`to_bf16` rounds float32 to them, `from_bf16` widens them back), and the
output is one too:

    qb = attn.cpu.to_bf16(np.random.randn(1, 4, 77, 64))
    o = attn.cpu.from_bf16(attn.cpu.attention(qb, qb, qb, dtype="bf16"))

The compiled
function takes identity-layout memrefs (its code derives addresses from the
sizes, not from the descriptor's strides), so a non-contiguous array is
copied to a contiguous one first. Shapes are checked here, with a ValueError: the compiled code's own
checks would abort the process.
"""

import ctypes

import numpy as np

from . import compiler
from .spec import Spec

_kernels = {}


class _Kernel:
    def __init__(self, spec):
        lib = compiler._load()
        lib.attnCPUKernelCreate.argtypes = [ctypes.c_void_p, ctypes.c_char_p,
                                            ctypes.c_char_p, ctypes.c_size_t]
        lib.attnCPUKernelCreate.restype = ctypes.c_void_p
        lib.attnCPUKernelGetNumArgs.argtypes = [ctypes.c_void_p]
        lib.attnCPUKernelGetNumArgs.restype = ctypes.c_size_t
        lib.attnCPUKernelCall.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p),
                                          ctypes.c_size_t, ctypes.c_char_p, ctypes.c_size_t]
        lib.attnCPUKernelCall.restype = ctypes.c_int
        lib.attnCPUKernelDestroy.argtypes = [ctypes.c_void_p]
        self.lib, self.spec = lib, spec
        art = compiler.compile(spec, chip="cpu")
        err = ctypes.create_string_buffer(4096)
        self.handle = lib.attnCPUKernelCreate(art._result, spec.name.encode(), err, len(err))
        if not self.handle:
            raise RuntimeError(err.value.decode(errors="replace"))
        self.num_args = lib.attnCPUKernelGetNumArgs(self.handle)

    def __call__(self, arrays):
        # Per memref: allocated and aligned pointers, offset, sizes, strides.
        values = []
        for a in arrays:
            ptr = ctypes.c_void_p(a.ctypes.data)
            values += [ptr, ctypes.c_void_p(a.ctypes.data), ctypes.c_int64(0)]
            values += [ctypes.c_int64(s) for s in a.shape]
            values += [ctypes.c_int64(s // a.itemsize) for s in a.strides]
        if len(values) != self.num_args:
            raise RuntimeError("attn.cpu: %d scalar arguments for %d"
                               % (len(values), self.num_args))
        args = (ctypes.c_void_p * len(values))(
            *[ctypes.cast(ctypes.pointer(v), ctypes.c_void_p) for v in values])
        err = ctypes.create_string_buffer(4096)
        if self.lib.attnCPUKernelCall(self.handle, args, len(values), err, len(err)):
            raise RuntimeError(err.value.decode(errors="replace"))

    def __del__(self):
        if getattr(self, "handle", None):
            self.lib.attnCPUKernelDestroy(self.handle)
            self.handle = None


def to_bf16(x):
    """float32 values (any array-like) to bf16 bit patterns (uint16),
    rounded to nearest, ties to even; NaN stays a (quiet) NaN, infinities
    and overflow past bf16's largest finite value become infinities."""
    a = np.ascontiguousarray(x, dtype=np.float32)
    bits = a.view(np.uint32)
    rounded = ((bits + np.uint32(0x7FFF) + ((bits >> 16) & np.uint32(1))) >> 16)
    out = rounded.astype(np.uint16)
    nan = np.isnan(a)
    out[nan] = ((bits[nan] >> 16) | np.uint32(0x0040)).astype(np.uint16)
    return out


def from_bf16(b):
    """bf16 bit patterns (uint16) to the float32 values they hold (exact)."""
    a = np.asarray(b, dtype=np.uint16)
    wide = np.left_shift(a.astype(np.uint32), np.uint32(16), dtype=np.uint32)
    return wide.reshape(-1).view(np.float32).reshape(a.shape)


def attention(q, k, v, *, causal=False, alignment="top_left", window=None, scale=None,
              softcap=None, bias=None, alibi_slopes=None, lse=False, dtype=None,
              tile_config=None):
    """softmax(mod(scale * Q K^T) [masked]) V per (batch, query head); with
    `lse=True` also the log-sum-exp per row ([B, H, Nq] f32). `dtype="bf16"`
    takes uint16 arrays of bf16 bit patterns and returns one. `tile_config`
    (the text of an #attn.tile_config) tiles the program as the GPU kernels
    of that configuration do.

    Score modifications, in the op's order: `softcap` (c tanh(s / c)),
    `alibi_slopes` ([Hq] float32: s -= slope[h] |j - d(i)|, d(i) the
    query's diagonal key), `bias` (added: [B or 1, Hq or 1, Nq, Nk], or
    [Nq, Nk] / [Hq or 1, Nq, Nk] with the missing leading extents 1;
    float16 or float32, or uint16 bf16 bits with dtype="bf16"; an extent
    of 1 broadcasts)."""
    arrays = [np.asarray(x) for x in (q, k, v)]
    q, k, v = arrays
    if dtype not in (None, "bf16"):
        raise ValueError("attn.cpu: dtype must be None (the arrays' own) or 'bf16', "
                         "got %r" % (dtype,))
    dtypes = ({np.dtype(np.uint16): "bf16"} if dtype == "bf16" else
              {np.dtype(np.float16): "f16", np.dtype(np.float32): "f32"})
    for name, a in (("q", q), ("k", k), ("v", v)):
        if a.dtype not in dtypes or a.dtype != q.dtype:
            if dtype == "bf16":
                raise ValueError("attn.cpu: with dtype='bf16', q, k and v must be "
                                 "uint16 arrays of bf16 bits (attn.cpu.to_bf16), got "
                                 "%s for %s" % (a.dtype, name))
            raise ValueError("attn.cpu: q, k and v must all be float16 or all "
                             "float32 (bf16: uint16 bits with dtype='bf16'), got %s "
                             "for %s" % (a.dtype, name))
        if a.ndim != 4:
            raise ValueError("attn.cpu: %s must be [B, H, N, D], got shape %s" % (name, a.shape))
    q, k, v = (np.ascontiguousarray(a) for a in (q, k, v))
    b, hq, nq, d = q.shape
    if k.shape[0] != b or v.shape[0] != b:
        raise ValueError("attn.cpu: batch sizes differ: %s, %s, %s" % (q.shape, k.shape, v.shape))
    if k.shape[3] != d:
        raise ValueError("attn.cpu: k's head dim %d differs from q's %d" % (k.shape[3], d))
    if k.shape[1] != v.shape[1] or k.shape[2] != v.shape[2]:
        raise ValueError("attn.cpu: k and v differ in heads or length: %s, %s" % (k.shape, v.shape))
    hkv = k.shape[1]
    if hkv == 0 or hq % hkv:
        raise ValueError("attn.cpu: q's %d heads are not a multiple of k/v's %d" % (hq, hkv))
    extra = []
    bias_form = bias_dtype = None
    if bias is not None:
        bias, bias_form, bias_dtype = _bias_operand(bias, dtype, b, hq, nq, k.shape[2])
        extra.append(bias)
    if alibi_slopes is not None:
        slopes = np.asarray(alibi_slopes)
        if slopes.dtype != np.float32 or slopes.shape != (hq,):
            raise ValueError("attn.cpu: alibi_slopes must be a float32 array of shape "
                             "[Hq] = (%d,), got %s %s" % (hq, slopes.dtype, slopes.shape))
        extra.append(np.ascontiguousarray(slopes))
    spec = Spec(dtype=dtypes[q.dtype], head_dim=d, value_head_dim=v.shape[3], causal=causal,
                alignment=alignment, window=window, scale=scale, softcap=softcap,
                bias=bias_form, bias_dtype=bias_dtype, alibi=alibi_slopes is not None,
                lse=lse, tile_config=tile_config, name="attention")
    kernel = _kernels.get(spec)
    if kernel is None:
        kernel = _kernels[spec] = _Kernel(spec)
    if dtype == "bf16":  # a NaN's bits, as the poison
        o = np.full((b, hq, nq, v.shape[3]), 0x7FC0, dtype=np.uint16)
    else:
        o = np.full((b, hq, nq, v.shape[3]), np.nan, dtype=q.dtype)
    outs = [o]
    if lse:
        outs.append(np.full((b, hq, nq), np.nan, dtype=np.float32))
    kernel([q, k, v] + outs + extra)
    return (o, outs[1]) if lse else o


def _bias_operand(bias, dtype, b, hq, nq, nk):
    """The bias as a contiguous [B or 1, Hq or 1, Nq, Nk] array, its
    broadcast form (spec.BIAS_FORMS) and element type."""
    a = np.asarray(bias)
    types = ({np.dtype(np.uint16): "bf16", np.dtype(np.float32): "f32"} if dtype == "bf16"
             else {np.dtype(np.float16): "f16", np.dtype(np.float32): "f32"})
    if a.dtype not in types:
        raise ValueError("attn.cpu: bias must be %s, got %s"
                         % (" or ".join(str(t) for t in types), a.dtype))
    if not 2 <= a.ndim <= 4:
        raise ValueError("attn.cpu: bias must be [B or 1, Hq or 1, Nq, Nk] (or without "
                         "its leading extents), got shape %s" % (a.shape,))
    a = a.reshape((1,) * (4 - a.ndim) + a.shape)
    if a.shape[2:] != (nq, nk) or a.shape[0] not in (1, b) or a.shape[1] not in (1, hq):
        raise ValueError("attn.cpu: bias of shape %s for [B, Hq, Nq, Nk] = %s: each "
                         "leading extent must be 1 or the full one, Nq and Nk exact"
                         % (a.shape, (b, hq, nq, nk)))
    form = {(True, True): "b1h1", (True, False): "b1", (False, True): "h1",
            (False, False): "full"}[(a.shape[0] == 1, a.shape[1] == 1)]
    return np.ascontiguousarray(a), form, types[a.dtype]
