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


# DLPack: a capsule made here around a DLManagedTensor on "CUDA" (nothing
# dereferences the data pointer), and numpy's own CPU capsules.

class _DLManaged(ctypes.Structure):
    _fields_ = [("dl_tensor", rt._DLTensor), ("manager_ctx", ctypes.c_void_p),
                ("deleter", ctypes.c_void_p)]


class FakeDLPack:
    def __init__(self, shape, code=2, bits=16, strides=None, device_type=2,
                 ptr=0x7f0000002000, offset=0):
        n = len(shape)
        self._shape = (ctypes.c_int64 * n)(*shape)
        self._strides = (ctypes.c_int64 * n)(*strides) if strides else None
        self.managed = _DLManaged()
        t = self.managed.dl_tensor
        t.data, t.ndim, t.byte_offset = ptr, n, offset
        t.device.device_type, t.device.device_id = device_type, 0
        t.dtype.code, t.dtype.bits, t.dtype.lanes = code, bits, 1
        t.shape = self._shape
        if self._strides is not None:
            t.strides = self._strides
        self.streams = []

    def __dlpack_device__(self):
        return (self.managed.dl_tensor.device.device_type, 0)

    def __dlpack__(self, stream=None):
        self.streams.append(stream)
        new = ctypes.pythonapi.PyCapsule_New
        new.restype = ctypes.py_object
        new.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
        return new(ctypes.addressof(self.managed), b"dltensor", None)


def unpack_dl(t, stream=0):
    buf = ctypes.create_string_buffer(rt._DESC.size)
    keep = []
    rt._pack(buf, 0, t, keep, stream)
    d = rt.AttnTensor.from_buffer_copy(buf.raw)
    return (d.ptr, list(d.shape), list(d.strides), d.rank, d.dtype), keep


def test_dlpack_bf16_compact_and_offset():
    t = FakeDLPack((2, 3, 5, 64), code=4, offset=128)
    got, keep = unpack_dl(t, stream=555)
    assert got == (0x7f0000002000 + 128, [2, 3, 5, 64], [960, 320, 64, 1], 4, 1)
    assert len(keep) == 1 and t.streams == [555]   # borrowed; the launch stream asked for


def test_dlpack_strides_in_elements_and_default_stream():
    t = FakeDLPack((1, 4, 7, 64), strides=(1792, 64, 256, 1))
    got, _ = unpack_dl(t, stream=0)
    assert got[2] == [1792, 64, 256, 1] and got[4] == 0
    assert t.streams == [1]                         # the legacy default stream


def test_dlpack_refusals():
    with pytest.raises(rt.LaunchError, match="DLPack device type 1"):
        unpack_dl(FakeDLPack((1, 1, 1, 64), device_type=1))
    with pytest.raises(rt.LaunchError, match="code 0, 32 bits"):
        unpack_dl(FakeDLPack((1, 1, 1, 64), code=0, bits=32))


def test_numpy_cpu_array_is_refused():
    np = pytest.importorskip("numpy")
    with pytest.raises(rt.LaunchError, match="DLPack device type 1"):
        unpack_dl(np.zeros((1, 1, 1, 64), np.float16))


def test_not_a_tensor():
    with pytest.raises(rt.LaunchError, match="is not a tensor the runtime can read"):
        unpack_dl(object())
