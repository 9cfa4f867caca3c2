"""attn.runtime's tensor descriptors for arrays that are not torch tensors
(__cuda_array_interface__: CuPy, Numba) and its stream argument, checked
without a GPU: what the launch would pass to attn_kernel_launch."""
import ctypes

import pytest

from attn import runtime as rt


class FakeArray:
    """A device array as CuPy describes it (version 3 of the interface)."""

    def __init__(self, shape, typestr="<f2", strides=None, ptr=0x7f0000001000):
        self.__cuda_array_interface__ = {
            "shape": shape, "typestr": typestr, "strides": strides,
            "data": (ptr, False), "version": 3}


def unpack(t):
    buf = ctypes.create_string_buffer(rt._DESC.size)
    rt._pack(buf, 0, t)
    d = rt.AttnTensor.from_buffer_copy(buf.raw)
    return d.ptr, list(d.shape), list(d.strides), d.rank, d.dtype


def test_contiguous_f16():
    assert unpack(FakeArray((2, 3, 5, 64))) == (
        0x7f0000001000, [2, 3, 5, 64], [960, 320, 64, 1], 4, 0)


def test_strided_bytes_to_elements():
    # A [B, N, H, D] buffer seen as [B, H, N, D]: byte strides of f16.
    b, n, h, d = 2, 7, 4, 64
    strides = (n * h * d * 2, d * 2, h * d * 2, 2)
    assert unpack(FakeArray((b, h, n, d), strides=strides)) == (
        0x7f0000001000, [b, h, n, d], [n * h * d, d, h * d, 1], 4, 0)


def test_rank_3_f32_lse():
    assert unpack(FakeArray((2, 3, 5), typestr="<f4")) == (
        0x7f0000001000, [2, 3, 5, 0], [15, 5, 1, 0], 3, 2)


def test_empty_extent_strides():
    # A zero extent must not zero the strides of the dimensions before it.
    assert unpack(FakeArray((1, 2, 0, 64)))[2] == [128, 64, 64, 1]


def test_bad_typestr_is_refused():
    with pytest.raises(rt.LaunchError, match="typestr '<f8'"):
        unpack(FakeArray((1, 1, 1, 64), typestr="<f8"))


def test_strides_not_whole_elements_are_refused():
    with pytest.raises(rt.LaunchError, match="not whole 2-byte elements"):
        unpack(FakeArray((1, 1, 2, 64), strides=(257, 257, 129, 2)))


def test_streams():
    arr = FakeArray((1, 1, 1, 64))
    assert rt._raw_stream(None, arr) == 0          # not CuPy: the default stream
    assert rt._raw_stream(1234, arr) == 1234

    class CupyStream:
        ptr = 77

    class TorchStream:
        cuda_stream = 99

    assert rt._raw_stream(CupyStream(), arr) == 77
    assert rt._raw_stream(TorchStream(), arr) == 99
    with pytest.raises(rt.LaunchError, match="expected an integer CUstream"):
        rt._raw_stream("stream", arr)
