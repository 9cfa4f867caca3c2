"""attn.cpu against an fp64 numpy reference: masks of both alignments,
windows, GQA, odd lengths, Nq != Nk, one row, strided inputs, LSE, NaN
propagation, shape errors."""

import math

import numpy as np
import pytest

import attn.cpu


def reference(q, k, v, causal=False, alignment="top_left", window=None, scale=None,
              softcap=None, bias=None, alibi_slopes=None):
    """The op's semantics in fp64 (score modifications in its order)."""
    q, k, v = (x.astype(np.float64) for x in (q, k, v))
    b, hq, nq, d = q.shape
    hkv, nk = k.shape[1], k.shape[2]
    k = np.repeat(k, hq // hkv, axis=1)
    v = np.repeat(v, hq // hkv, axis=1)
    s = np.einsum("bhqd,bhkd->bhqk", q, k) * (scale if scale else 1 / math.sqrt(d))
    i = np.arange(nq)[:, None] + (nk - nq if alignment == "bottom_right" else 0)
    j = np.arange(nk)[None, :]
    if softcap is not None:
        s = softcap * np.tanh(s / softcap)
    if alibi_slopes is not None:
        s = s - alibi_slopes.astype(np.float64)[None, :, None, None] * np.abs(j - i)
    if bias is not None:
        bias = bias.astype(np.float64)
        s = s + bias.reshape((1,) * (4 - bias.ndim) + bias.shape)
    visible = np.ones((nq, nk), bool)
    if causal:
        visible = j <= i
    if window is not None:
        visible = (j >= i - window[0]) & (j <= i + window[1])
    s = np.where(visible, s, -np.inf)
    m = s.max(-1, keepdims=True)
    m = np.where(np.isfinite(m), m, 0)
    p = np.exp(s - m)
    l = p.sum(-1, keepdims=True)
    o = np.einsum("bhqk,bhkd->bhqd", p, v) / np.where(l > 0, l, 1)
    lse = np.where(l[..., 0] > 0, (m + np.log(np.where(l > 0, l, 1)))[..., 0], -np.inf)
    return o, lse


def rand(rng, *shape):
    return rng.standard_normal(shape).astype(np.float16)


CASES = [
    # (B, Hq, Hkv, Nq, Nk, D, Dv, mask kwargs)
    (2, 4, 4, 77, 77, 64, 64, {}),
    (1, 4, 1, 130, 130, 64, 64, dict(causal=True)),           # GQA 4:1
    (1, 2, 2, 33, 100, 128, 128, dict(causal=True, alignment="bottom_right")),
    (1, 2, 2, 100, 33, 64, 64, dict(causal=True, alignment="bottom_right")),  # rows with no key
    (1, 2, 2, 1, 1, 64, 64, {}),
    (1, 2, 2, 90, 90, 64, 128, dict(window=(16, 8), alignment="bottom_right")),
    (2, 2, 2, 50, 70, 64, 64, dict(scale=0.3)),
]


@pytest.mark.parametrize("b,hq,hkv,nq,nk,d,dv,mask", CASES)
def test_against_reference(b, hq, hkv, nq, nk, d, dv, mask):
    rng = np.random.default_rng(nq * 1000 + nk)
    q, k, v = rand(rng, b, hq, nq, d), rand(rng, b, hkv, nk, d), rand(rng, b, hkv, nk, dv)
    o, lse = attn.cpu.attention(q, k, v, lse=True, **mask)
    ref_o, ref_lse = reference(q, k, v, **mask)
    assert not np.isnan(o).any() and not np.isnan(lse).any()
    assert np.abs(o - ref_o).max() / max(np.abs(ref_o).max(), 1e-6) < 5e-3
    finite = np.isfinite(ref_lse)
    assert np.array_equal(np.isfinite(lse), finite)
    assert np.abs(lse[finite] - ref_lse[finite]).max() < 1e-3
    if mask.get("alignment") == "bottom_right" and nq > nk and mask.get("causal"):
        # The first Nq - Nk rows see no key: O = 0, LSE = -inf.
        assert (o[:, :, : nq - nk] == 0).all() and np.isneginf(lse[:, :, : nq - nk]).all()


def test_strided_inputs():
    # [B, N, H, D] storage seen as [B, H, N, D] (copied to a contiguous
    # array first: the CPU function takes identity-layout memrefs, and
    # passing these strides in the descriptor gave wrong results, which is
    # what this test caught).
    rng = np.random.default_rng(3)
    q = rand(rng, 2, 61, 4, 64).transpose(0, 2, 1, 3)
    k = rand(rng, 2, 45, 4, 64).transpose(0, 2, 1, 3)
    v = rand(rng, 2, 45, 4, 64).transpose(0, 2, 1, 3)
    o = attn.cpu.attention(q, k, v)
    ref_o, _ = reference(q, k, v)
    assert np.abs(o - ref_o).max() / np.abs(ref_o).max() < 5e-3


def test_nan_propagates():
    rng = np.random.default_rng(4)
    q, k, v = rand(rng, 1, 2, 20, 64), rand(rng, 1, 2, 20, 64), rand(rng, 1, 2, 20, 64)
    v[0, 0, 5, 0] = np.nan
    o = attn.cpu.attention(q, k, v)
    ref_o, _ = reference(q, k, v)
    assert np.array_equal(np.isnan(o), np.isnan(ref_o))
    assert np.isnan(o[0, 0, :, 0]).all() and not np.isnan(o[0, 1]).any()


@pytest.mark.parametrize("shapes, why", [
    (((1, 4, 8, 64), (1, 3, 8, 64), (1, 3, 8, 64)), "multiple"),
    (((1, 4, 8, 64), (1, 4, 8, 32), (1, 4, 8, 64)), "head dim"),
    (((2, 4, 8, 64), (1, 4, 8, 64), (1, 4, 8, 64)), "batch"),
    (((1, 4, 8, 64), (1, 4, 8, 64), (1, 4, 9, 64)), "length"),
])
def test_shape_errors(shapes, why):
    arrays = [np.zeros(s, np.float16) for s in shapes]
    with pytest.raises(ValueError, match=why):
        attn.cpu.attention(*arrays)


def test_dtype_error():
    x = np.zeros((1, 1, 4, 64), np.float64)
    with pytest.raises(ValueError, match="float16 or all"):
        attn.cpu.attention(x, x, x)
    with pytest.raises(ValueError, match="float16 or all"):
        attn.cpu.attention(x.astype(np.float16), x.astype(np.float32), x)


@pytest.mark.parametrize("b,hq,hkv,nq,nk,d,dv,mask", CASES)
def test_f32_tight(b, hq, hkv, nq, nk, d, dv, mask):
    # f32: tight enough (1e-5) that one key wrongly masked or kept fails.
    rng = np.random.default_rng(nq + nk)
    q = rng.standard_normal((b, hq, nq, d)).astype(np.float32)
    k = rng.standard_normal((b, hkv, nk, d)).astype(np.float32)
    v = rng.standard_normal((b, hkv, nk, dv)).astype(np.float32)
    o, lse = attn.cpu.attention(q, k, v, lse=True, **mask)
    ref_o, ref_lse = reference(q, k, v, **mask)
    assert o.dtype == np.float32
    assert np.abs(o - ref_o).max() / max(np.abs(ref_o).max(), 1e-6) < 1e-5
    finite = np.isfinite(ref_lse)
    assert np.array_equal(np.isfinite(lse), finite)
    assert np.abs(lse[finite] - ref_lse[finite]).max() < 1e-5


def test_bf16_conversion():
    x = np.array([1.0, -2.5, 1 + 2 ** -8, 1 + 3 * 2 ** -8, 3.4e38, np.inf, -np.inf,
                  np.nan, 0.0, -0.0], np.float32)
    b = attn.cpu.to_bf16(x)
    # 1 + 2^-8 is a tie (to even: 1.0), 1 + 3 * 2^-8 rounds up to 1 + 2^-6.
    assert b[:4].tolist() == [0x3F80, 0xC020, 0x3F80, 0x3F82]
    assert b[4] == 0x7F80 and b[5] == 0x7F80 and b[6] == 0xFF80  # overflow to inf
    assert np.isnan(attn.cpu.from_bf16(b[7]))
    assert attn.cpu.from_bf16(b[8:]).tolist() == [0.0, -0.0]
    assert attn.cpu.from_bf16(b[:2]).tolist() == [1.0, -2.5]


@pytest.mark.parametrize("b,hq,hkv,nq,nk,d,dv,mask", [
    (1, 4, 2, 77, 130, 64, 64, dict(causal=True, alignment="bottom_right")),
    (2, 2, 2, 33, 33, 128, 128, {}),
])
def test_bf16_against_reference(b, hq, hkv, nq, nk, d, dv, mask):
    rng = np.random.default_rng(nq + nk)
    q, k, v = (attn.cpu.to_bf16(rng.standard_normal(s)) for s in
               ((b, hq, nq, d), (b, hkv, nk, d), (b, hkv, nk, dv)))
    o, lse = attn.cpu.attention(q, k, v, lse=True, dtype="bf16", **mask)
    assert o.dtype == np.uint16
    ref_o, ref_lse = reference(*(attn.cpu.from_bf16(x) for x in (q, k, v)), **mask)
    got = attn.cpu.from_bf16(o)
    assert not np.isnan(got).any()
    # bf16 keeps 8 bits: the output's own rounding is 2^-9 relative.
    assert np.abs(got - ref_o).max() / np.abs(ref_o).max() < 2e-2
    assert np.abs(lse - ref_lse).max() < 1e-3


def test_bf16_nan_propagates():
    q = attn.cpu.to_bf16(np.ones((1, 1, 4, 64)))
    k = q.copy()
    v = q.copy()
    v[0, 0, 2, 0] = attn.cpu.to_bf16(np.float32(np.nan))
    o = attn.cpu.from_bf16(attn.cpu.attention(q, k, v, dtype="bf16"))
    ref_o, _ = reference(*(attn.cpu.from_bf16(x) for x in (q, k, v)))
    assert (np.isnan(o) == np.isnan(ref_o)).all() and np.isnan(o).any()


def test_bf16_needs_uint16_bits():
    with pytest.raises(ValueError, match="uint16 arrays of bf16 bits"):
        attn.cpu.attention(*(np.ones((1, 1, 4, 64), np.float32),) * 3, dtype="bf16")
    with pytest.raises(ValueError, match="bf16: uint16 bits with dtype='bf16'"):
        attn.cpu.attention(*(np.ones((1, 1, 4, 64), np.uint16),) * 3)
