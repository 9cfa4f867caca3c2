"""`Spec`: an attention problem class, printed as the `attn.attention` op
the compiler takes (dynamic batch, heads and lengths: one kernel for every
shape of the class)."""

import math
import re
from dataclasses import dataclass
from typing import Optional

# f32 is the CPU lowering's (the GPU kernels refuse f32 dots).
_DTYPES = ("f16", "bf16", "f32")
# An additive bias's broadcast forms: the leading extents of its
# [B, Hq, Nq, Nk] shape that are 1 (broadcast) rather than B or Hq.
BIAS_FORMS = {"full": ("?", "?"), "b1": ("1", "?"), "h1": ("?", "1"), "b1h1": ("1", "1")}


class SpecError(ValueError):
    """A spec the compiler cannot take, said before compiling."""


@dataclass(frozen=True)
class Spec:
    dtype: str = "f16"
    head_dim: int = 128
    value_head_dim: Optional[int] = None
    causal: bool = False
    # "top_left" (torch SDPA's is_causal) or "bottom_right".
    alignment: str = "top_left"
    # (left, right) keys around the diagonal; None: no window.
    window: Optional[tuple] = None
    lse: bool = False
    scale: Optional[float] = None
    softcap: Optional[float] = None
    # An additive bias operand (the op's `bias`): None, or its broadcast
    # form, a key of BIAS_FORMS ("full": [B, Hq, Nq, Nk]; "b1": [1, Hq, Nq,
    # Nk]; "h1": [B, 1, Nq, Nk]; "b1h1": [1, 1, Nq, Nk]), with its element
    # type `bias_dtype` (None: `dtype`).
    bias: Optional[str] = None
    bias_dtype: Optional[str] = None
    # ALiBi slopes, an [Hq] f32 operand (the op's `alibi_slopes`).
    alibi: bool = False
    # A tile configuration ("#attn.tile_config<block_m = 64, ...>") and a
    # GPU one ("#attn.gpu_config<...>") for the op, as an autotuner of the
    # embedding compiler would pass them; None: the compiler's (the tuning
    # database's or the heuristic's). The compiler's verifiers judge them.
    tile_config: Optional[str] = None
    gpu_config: Optional[str] = None
    name: str = "attn"

    def __post_init__(self):
        if self.dtype not in _DTYPES:
            raise SpecError("dtype must be one of %s, got %r" % (_DTYPES, self.dtype))
        for what, d in (("head_dim", self.head_dim), ("value_head_dim", self.dv)):
            if not isinstance(d, int) or d <= 0:
                raise SpecError("%s must be a positive integer, got %r" % (what, d))
        if self.alignment not in ("top_left", "bottom_right"):
            raise SpecError("alignment must be 'top_left' or 'bottom_right', got %r"
                            % (self.alignment,))
        if self.causal and self.window is not None:
            raise SpecError("causal and window exclude each other (a window "
                            "(left, 0) is causal within its extent)")
        if self.window is not None:
            left, right = self.window
            if left < 0 or right < 0:
                raise SpecError("window extents must be >= 0, got %r" % (self.window,))
        if self.scale is not None and not (self.scale > 0 and math.isfinite(self.scale)):
            raise SpecError("scale must be a positive finite number, got %r" % (self.scale,))
        if self.softcap is not None and not (self.softcap > 0 and math.isfinite(self.softcap)):
            raise SpecError("softcap must be a positive finite number, got %r"
                            % (self.softcap,))
        if self.bias is not None and self.bias not in BIAS_FORMS:
            raise SpecError("bias must be None or one of %s, got %r"
                            % (tuple(BIAS_FORMS), self.bias))
        if self.bias_dtype is not None:
            if self.bias is None:
                raise SpecError("bias_dtype %r without a bias" % (self.bias_dtype,))
            if self.bias_dtype not in _DTYPES:
                raise SpecError("bias_dtype must be one of %s, got %r"
                                % (_DTYPES, self.bias_dtype))
        if not isinstance(self.alibi, bool):
            raise SpecError("alibi must be True or False, got %r" % (self.alibi,))
        for what, text in (("tile_config", self.tile_config),
                           ("gpu_config", self.gpu_config)):
            if text is not None and not (isinstance(text, str) and re.fullmatch(
                    r"#attn\.%s<[a-z0-9_ =,]*>" % what, text)):
                raise SpecError("%s must be the text of an #attn.%s attribute, "
                                "got %r" % (what, what, text))
        if not self.name.isidentifier():
            raise SpecError("name must be an identifier, got %r" % (self.name,))

    @property
    def dv(self):
        return self.value_head_dim if self.value_head_dim is not None else self.head_dim

    def mask_attr(self):
        if self.causal:
            return "#attn.mask<causal, %s>" % self.alignment
        if self.window is not None:
            return "#attn.mask<window, %s, left = %d, right = %d>" % (
                self.alignment, self.window[0], self.window[1])
        return None

    def to_mlir(self):
        """The `attn.attention` op in a function named `name`."""
        t = lambda d: "memref<?x?x?x%dx%s>" % (d, self.dtype)
        q, v = t(self.head_dim), t(self.dv)
        args = ["%%q: %s" % q, "%%k: %s" % q, "%%v: %s" % v, "%%o: %s" % v]
        outs = "outs(%%o : %s)" % v
        if self.lse:
            args.append("%lse: memref<?x?x?xf32>")
            outs = "outs(%%o, %%lse : %s, memref<?x?x?xf32>)" % v
        operands = ""
        if self.bias is not None:
            b, h = BIAS_FORMS[self.bias]
            bt = "memref<%sx%sx?x?x%s>" % (b, h, self.bias_dtype or self.dtype)
            args.append("%%bias: %s" % bt)
            operands += "\n                 bias(%%bias : %s)" % bt
        if self.alibi:
            args.append("%slopes: memref<?xf32>")
            operands += "\n                 alibi_slopes(%slopes : memref<?xf32>)"
        attrs = []
        if self.mask_attr():
            attrs.append("mask = %s" % self.mask_attr())
        if self.scale is not None:
            attrs.append("scale = %r : f64" % float(self.scale))
        if self.softcap is not None:
            attrs.append("softcap = %r : f64" % float(self.softcap))
        if self.tile_config is not None:
            attrs.append("config = %s" % self.tile_config)
        if self.gpu_config is not None:
            attrs.append("gpu_config = %s" % self.gpu_config)
        attr = (" {%s}" % ", ".join(attrs)) if attrs else ""
        return ("func.func @%s(%s) {\n"
                "  attn.attention ins(%%q, %%k, %%v : %s, %s, %s)%s\n"
                "                 %s%s\n"
                "  return\n}\n") % (self.name, ", ".join(args), q, q, v, operands, outs,
                                     attr)
