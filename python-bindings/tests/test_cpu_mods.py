"""attn.cpu's score modifications (softcap, ALiBi slopes, an additive bias
in each broadcast form and element type) against an fp64 numpy
reference, with masks, GQA, odd lengths and Nq != Nk; NaN in a bias
propagates to its rows only; shape and type errors."""

import numpy as np
import pytest

import attn.cpu
from test_cpu import reference


def rand(rng, *shape, dtype=np.float16):
    return rng.standard_normal(shape).astype(dtype)


def check(o, lse, ref_o, ref_lse, tol=5e-3):
    assert not np.isnan(o).any() and not np.isnan(lse).any()
    assert np.abs(o - ref_o).max() / max(np.abs(ref_o).max(), 1e-6) < tol
    finite = np.isfinite(ref_lse)
    assert np.array_equal(np.isfinite(lse), finite)
    assert np.abs(lse[finite] - ref_lse[finite]).max() < 1e-2


# (bias shape as a function of B, Hq, Nq, Nk; bias dtype; mask kwargs)
BIASES = [
    (lambda b, h, nq, nk: (b, h, nq, nk), np.float16, {}),
    (lambda b, h, nq, nk: (1, h, nq, nk), np.float32, dict(causal=True)),
    (lambda b, h, nq, nk: (b, 1, nq, nk), np.float16,
     dict(causal=True, alignment="bottom_right")),
    (lambda b, h, nq, nk: (1, 1, nq, nk), np.float16, {}),
    (lambda b, h, nq, nk: (nq, nk), np.float32, dict(causal=True)),     # SDPA's 2-D mask
    (lambda b, h, nq, nk: (h, nq, nk), np.float16, {}),                 # 3-D: [Hq, Nq, Nk]
]


@pytest.mark.parametrize("shape,bdt,mask", BIASES)
@pytest.mark.parametrize("b,hq,hkv,nq,nk", [(2, 4, 2, 77, 77), (1, 2, 2, 33, 100),
                                            (2, 2, 1, 100, 33), (1, 2, 2, 1, 45)])
def test_bias(shape, bdt, mask, b, hq, hkv, nq, nk):
    rng = np.random.default_rng(nq * 1000 + nk)
    q, k, v = rand(rng, b, hq, nq, 64), rand(rng, b, hkv, nk, 64), rand(rng, b, hkv, nk, 64)
    bias = (rng.standard_normal(shape(b, hq, nq, nk)) * 2).astype(bdt)
    o, lse = attn.cpu.attention(q, k, v, bias=bias, lse=True, **mask)
    ref_o, ref_lse = reference(q, k, v, bias=bias, **mask)
    check(o, lse, ref_o, ref_lse)
    # The case tests the bias where the bias moves the result (a causal
    # one-row query sees one key, whatever its bias).
    if not (mask.get("causal") and nq == 1 and mask.get("alignment") != "bottom_right"):
        assert np.abs(ref_o - reference(q, k, v, **mask)[0]).max() > 0.1


def test_bias_bf16():
    rng = np.random.default_rng(5)
    q, k, v = (attn.cpu.to_bf16(rng.standard_normal((1, 2, 40, 64))) for _ in range(3))
    bias = attn.cpu.to_bf16(rng.standard_normal((1, 2, 40, 40)))
    o, lse = attn.cpu.attention(q, k, v, bias=bias, dtype="bf16", lse=True, causal=True)
    ref = reference(*(attn.cpu.from_bf16(x) for x in (q, k, v)), causal=True,
                    bias=attn.cpu.from_bf16(bias))
    check(attn.cpu.from_bf16(o), lse, *ref, tol=2e-2)


@pytest.mark.parametrize("mask", [{}, dict(causal=True),
                                  dict(causal=True, alignment="bottom_right")])
def test_alibi(mask):
    rng = np.random.default_rng(9)
    q, k, v = rand(rng, 2, 4, 70, 64), rand(rng, 2, 1, 90, 64), rand(rng, 2, 1, 90, 64)
    slopes = (2.0 ** -np.arange(1, 5)).astype(np.float32)
    o, lse = attn.cpu.attention(q, k, v, alibi_slopes=slopes, lse=True, **mask)
    check(o, lse, *reference(q, k, v, alibi_slopes=slopes, **mask))


def test_softcap_alibi_bias_together():
    rng = np.random.default_rng(11)
    q, k, v = rand(rng, 1, 4, 65, 64) * 4, rand(rng, 1, 4, 65, 64), rand(rng, 1, 4, 65, 64)
    bias = rand(rng, 1, 4, 65, 65, dtype=np.float32)
    slopes = np.linspace(0.05, 0.4, 4).astype(np.float32)
    kw = dict(softcap=5.0, bias=bias, alibi_slopes=slopes, causal=True)
    o, lse = attn.cpu.attention(q, k, v, lse=True, **kw)
    check(o, lse, *reference(q, k, v, **kw))


def test_bias_nan_and_masking_rows():
    # NaN in one bias row makes that row's output NaN, as the reference's;
    # -inf over a whole row leaves it without a key: O = 0, LSE = -inf.
    rng = np.random.default_rng(13)
    q, k, v = rand(rng, 1, 2, 20, 64), rand(rng, 1, 2, 20, 64), rand(rng, 1, 2, 20, 64)
    bias = np.zeros((1, 1, 20, 20), np.float32)
    bias[0, 0, 3, 7] = np.nan
    bias[0, 0, 5, :] = -np.inf
    o, lse = attn.cpu.attention(q, k, v, bias=bias, lse=True)
    assert np.isnan(o[:, :, 3]).all() and np.isnan(lse[:, :, 3]).all()
    assert (o[:, :, 5] == 0).all() and np.isneginf(lse[:, :, 5]).all()
    rows = [r for r in range(20) if r not in (3, 5)]
    ref_o, ref_lse = reference(q, k, v, bias=bias)
    check(o[:, :, rows], lse[:, :, rows], ref_o[:, :, rows], ref_lse[:, :, rows])


@pytest.mark.parametrize("kw,why", [
    (dict(bias=np.zeros((2, 2, 20, 20), np.float16)), "leading extent"),   # B = 1
    (dict(bias=np.zeros((1, 2, 20, 21), np.float16)), "Nq and Nk exact"),
    (dict(bias=np.zeros((1, 1, 1, 20, 20), np.float16)), "got shape"),
    (dict(bias=np.zeros((20, 20), np.float64)), "bias must be"),
    (dict(alibi_slopes=np.zeros(3, np.float32)), "alibi_slopes"),
    (dict(alibi_slopes=np.zeros(2, np.float64)), "alibi_slopes"),
])
def test_errors(kw, why):
    q = np.zeros((1, 2, 20, 64), np.float16)
    with pytest.raises(ValueError, match=why):
        attn.cpu.attention(q, q, q, **kw)
