"""The tile program under random tile configurations, on the CPU, against
an fp64 numpy reference: block sizes that divide nothing (80, 112, 192
rows), one stage or three, split_kv off, every mask, GQA, odd lengths,
Nq != Nk, one row. The K/V loop's split into masked and unmasked blocks
(attn-split-kv-loop) and the block ranges a mask leaves are the GPU
kernels' too; a configuration the compiler refuses must say why (a
CompileError with the verifier's message), never compute something else."""

import numpy as np
import pytest

import attn.cpu
from attn.compiler import CompileError
from test_cpu import reference

BLOCK_M = [16, 32, 64, 128, 192, 256]
BLOCK_N = [16, 32, 48, 64, 80, 96, 112, 128, 176, 192, 256]
MASKS = [{}, dict(causal=True), dict(causal=True, alignment="bottom_right"),
         dict(window=(37, 5)), dict(window=(0, 20), alignment="bottom_right")]


def random_case(seed):
    rng = np.random.default_rng(seed)
    bm = int(rng.choice(BLOCK_M))
    warps = 12 if bm == 192 else int(rng.choice([w for w in (1, 2, 4, 8) if bm % (16 * w) == 0]))
    config = "#attn.tile_config<block_m = %d, block_n = %d, warps = %d, stages = %d%s>" % (
        bm, int(rng.choice(BLOCK_N)), warps, int(rng.integers(1, 4)),
        ", split_kv = false" if rng.random() < 0.3 else "")
    hkv = int(rng.choice([1, 2]))
    shape = dict(b=int(rng.integers(1, 3)), hq=hkv * int(rng.choice([1, 2])), hkv=hkv,
                 nq=int(rng.choice([1, 7, 64, 129, 300])), nk=int(rng.choice([1, 50, 128, 257])),
                 d=int(rng.choice([16, 32])))
    return config, shape, MASKS[int(rng.integers(len(MASKS)))], rng


@pytest.mark.parametrize("seed", range(48))
def test_random_configuration(seed):
    config, s, mask, rng = random_case(seed)
    q = rng.standard_normal((s["b"], s["hq"], s["nq"], s["d"])).astype(np.float32)
    k = rng.standard_normal((s["b"], s["hkv"], s["nk"], s["d"])).astype(np.float32)
    v = rng.standard_normal((s["b"], s["hkv"], s["nk"], s["d"])).astype(np.float32)
    o, lse = attn.cpu.attention(q, k, v, lse=True, tile_config=config, **mask)
    ref_o, ref_lse = reference(q, k, v, **mask)
    what = "%s %s %s" % (config, s, mask)
    assert not np.isnan(o).any() and not np.isnan(lse).any(), what
    assert np.abs(o - ref_o).max() < 1e-5 * max(np.abs(ref_o).max(), 1), what
    finite = np.isfinite(ref_lse)
    assert (np.isfinite(lse) == finite).all(), what
    assert np.abs(lse[finite] - ref_lse[finite]).max(initial=0) < 1e-5 * 10, what


def test_refused_configuration():
    q = np.zeros((1, 1, 8, 16), np.float32)
    with pytest.raises(CompileError, match="block_n must be"):
        attn.cpu.attention(q, q, q, tile_config="#attn.tile_config<block_m = 64, "
                           "block_n = 24, warps = 4, stages = 1>")


def test_not_an_attribute():
    q = np.zeros((1, 1, 8, 16), np.float32)
    with pytest.raises(ValueError, match="tile_config must be the text"):
        attn.cpu.attention(q, q, q, tile_config="#attn.tile_config<block_m = 64> }")
