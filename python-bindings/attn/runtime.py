"""Loading and launching attn kernel artifacts (<name>.json + PTX/cubin)
through the runtime's C API (runtime/include/attn_runtime.h,
libattn_runtime.so), on torch tensors or any array with
__cuda_array_interface__ (CuPy, Numba) on the current stream. No compiler
needed: this is the part of the package the GPU machine uses.

    rt = attn.runtime.Runtime()             # finds libattn_runtime.so
    kernel = rt.load("out/", "causal128")
    kernel.launch(q, k, v, o, lse)           # lse may be None
"""

import ctypes
import struct
import threading

from . import _paths


class AttnTensor(ctypes.Structure):
    _fields_ = [("ptr", ctypes.c_uint64),
                ("shape", ctypes.c_int64 * 4),
                ("strides", ctypes.c_int64 * 4),
                ("rank", ctypes.c_int32),
                ("dtype", ctypes.c_int)]


DTYPE_CODES = {"f16": 0, "bf16": 1, "f32": 2}
_Dims = ctypes.c_int64 * 4


class AttnArg(ctypes.Structure):
    _fields_ = [("role", ctypes.c_char_p), ("tensor", AttnTensor)]


class Runtime:
    def __init__(self, path=None):
        self.lib = ctypes.CDLL(path or _paths.runtime_library())
        L = self.lib
        L.attn_kernel_load.argtypes = [ctypes.c_char_p, ctypes.c_char_p,
                                       ctypes.POINTER(ctypes.c_void_p),
                                       ctypes.c_char_p, ctypes.c_size_t]
        L.attn_kernel_load.restype = ctypes.c_int
        P = ctypes.POINTER(AttnTensor)
        L.attn_kernel_launch.argtypes = [ctypes.c_void_p, P, P, P, P, P,
                                         ctypes.c_void_p, ctypes.c_char_p,
                                         ctypes.c_size_t]
        L.attn_kernel_launch.restype = ctypes.c_int
        # The same function with the tensor descriptors by address (the
        # launch fast path: integers convert faster than structures).
        self.launch_by_address = ctypes.CFUNCTYPE(
            ctypes.c_int, *([ctypes.c_void_p] * 7), ctypes.c_char_p,
            ctypes.c_size_t)(("attn_kernel_launch", L))
        L.attn_kernel_info.argtypes = [ctypes.c_void_p, ctypes.c_char_p,
                                       ctypes.c_char_p, ctypes.c_size_t]
        L.attn_kernel_info.restype = ctypes.c_int
        L.attn_kernel_unload.argtypes = [ctypes.c_void_p]
        L.attn_kernel_unload.restype = None
        # Format-2 kernels with buffers beyond q, k, v, o, lse.
        self.has_args = hasattr(L, "attn_kernel_launch_args")
        if self.has_args:
            L.attn_kernel_launch_args.argtypes = [
                ctypes.c_void_p, ctypes.POINTER(AttnArg), ctypes.c_size_t,
                ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t]
            L.attn_kernel_launch_args.restype = ctypes.c_int

    def load(self, directory, name):
        err = ctypes.create_string_buffer(4096)
        handle = ctypes.c_void_p()
        rc = self.lib.attn_kernel_load(directory.encode(), name.encode(),
                                       ctypes.byref(handle), err, len(err))
        if rc != 0:
            raise RuntimeError(err.value.decode(errors="replace"))
        return Kernel(self, handle)


class LaunchError(RuntimeError):
    pass


class Kernel:
    def __init__(self, rt, handle):
        self.rt, self.handle = rt, handle
        self._local = threading.local()

    def info(self, key):
        buf = ctypes.create_string_buffer(1024)
        rc = self.rt.lib.attn_kernel_info(self.handle, key.encode(), buf, len(buf))
        if rc < 0:
            raise KeyError(buf.value.decode(errors="replace"))
        return buf.value.decode(errors="replace")

    def launch(self, q, k, v, o, lse, stream=None, extra=None):
        """Tensors are torch tensors, objects with __cuda_array_interface__
        (CuPy, Numba; f16 or f32) or with __dlpack__ (CUDA memory; f16,
        bf16, f32), lse may be None; `stream` an integer
        CUstream, a torch or CuPy stream, or None (the current one);
        `extra` maps further roles (bias, alibi_slopes) to torch tensors.
        Raises LaunchError."""
        if extra:
            import torch
            return self.launch_args(dict(q=q, k=k, v=v, o=o, lse=lse, **extra),
                                    stream if stream is not None
                                    else torch.cuda.current_stream())
        # The descriptors are packed into this thread's buffer with one
        # struct call each and passed as addresses: building ctypes
        # structures cost 6 us a tensor, torch.cuda.current_stream() 8 us
        # (bench/device/probes/launch_overhead.py on the H200).
        local = self._local
        buf = getattr(local, "descs", None)
        if buf is None:
            buf = local.descs = ctypes.create_string_buffer(5 * _DESC.size)
            local.base = ctypes.addressof(buf)
            local.err = ctypes.create_string_buffer(4096)
        base = local.base
        raw_stream = _raw_stream(stream, q)
        # DLPack capsules borrowed for the call (their producers' deleters
        # run when they go).
        keep = []
        _pack(buf, 0, q, keep, raw_stream)
        _pack(buf, _DESC.size, k, keep, raw_stream)
        _pack(buf, 2 * _DESC.size, v, keep, raw_stream)
        _pack(buf, 3 * _DESC.size, o, keep, raw_stream)
        if lse is not None:
            _pack(buf, 4 * _DESC.size, lse, keep, raw_stream)
        err = local.err
        rc = self.rt.launch_by_address(
            self.handle, base, base + _DESC.size, base + 2 * _DESC.size,
            base + 3 * _DESC.size, base + 4 * _DESC.size if lse is not None else None,
            raw_stream, err, len(err))
        if rc != 0:
            raise LaunchError(err.value.decode(errors="replace"))

    def launch_args(self, tensors, stream):
        """Launch by role ({role: tensor or None})."""
        if not self.rt.has_args:
            raise LaunchError("this runtime has no attn_kernel_launch_args")
        items = [(r, t) for r, t in tensors.items() if t is not None]
        args = (AttnArg * len(items))()
        keep = []
        for i, (role, t) in enumerate(items):
            name = role.encode()
            keep.append(name)
            args[i].role = name
            args[i].tensor = tensor_desc(t)
        err = ctypes.create_string_buffer(4096)
        rc = self.rt.lib.attn_kernel_launch_args(
            self.handle, args, len(items), ctypes.c_void_p(stream.cuda_stream),
            err, len(err))
        if rc != 0:
            raise LaunchError(err.value.decode(errors="replace"))

    def unload(self):
        if self.handle:
            self.rt.lib.attn_kernel_unload(self.handle)
            self.handle = None


def torch_dtype(name):
    import torch
    return {"f16": torch.float16, "bf16": torch.bfloat16, "f32": torch.float32}[name]


_TORCH_CODES = None
# attn_tensor's layout: ptr, shape[4], strides[4], rank, dtype.
_DESC = struct.Struct("<Q4q4qii")
assert _DESC.size == ctypes.sizeof(AttnTensor)


def _codes():
    global _TORCH_CODES
    if _TORCH_CODES is None:
        import torch
        _TORCH_CODES = {torch.float16: 0, torch.bfloat16: 1, torch.float32: 2}
    return _TORCH_CODES


# __cuda_array_interface__ type strings the runtime takes (numpy's
# notation has no bfloat16: bf16 arrays come as torch tensors).
_CAI_CODES = {"<f2": 0, "<f4": 2}


def _cai_fields(t):
    """(pointer, shape, strides in elements, rank, dtype code) of an object
    with __cuda_array_interface__ (CuPy, Numba, ...; version 2 or 3)."""
    cai = t.__cuda_array_interface__
    code = _CAI_CODES.get(cai["typestr"])
    if code is None:
        raise LaunchError("a %s array of typestr %r: the kernels take f16 ('<f2') "
                          "or f32 ('<f4') arrays through __cuda_array_interface__ "
                          "(bf16 as torch tensors)" % (type(t).__name__, cai["typestr"]))
    shape = tuple(cai["shape"])
    item = 2 if code == 0 else 4
    strides = cai.get("strides")
    if strides is None:  # C-contiguous
        strides, step = [], 1
        for extent in reversed(shape):
            strides.insert(0, step)
            step *= max(extent, 1)
    else:
        if any(s % item for s in strides):
            raise LaunchError("a %s array with strides %r bytes: not whole %d-byte "
                              "elements" % (type(t).__name__, tuple(strides), item))
        strides = [s // item for s in strides]
    return cai["data"][0], shape, tuple(strides), len(shape), code


class _DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class _DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8),
                ("lanes", ctypes.c_uint16)]


class _DLTensor(ctypes.Structure):
    """DLPack's DLTensor (dlpack.h, version 0.8 and 1.0 alike), the first
    member of the DLManagedTensor a "dltensor" capsule points to."""
    _fields_ = [("data", ctypes.c_void_p), ("device", _DLDevice),
                ("ndim", ctypes.c_int32), ("dtype", _DLDataType),
                ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)),
                ("byte_offset", ctypes.c_uint64)]


_DL_CODES = {(2, 16): 0, (4, 16): 1, (2, 32): 2}  # (kDLFloat|kDLBfloat, bits)
_DL_CUDA = (2, 13)                                 # kDLCUDA, kDLCUDAManaged
_capsule_pointer = None


def _dlpack_fields(t, stream, keep):
    """The fields of an object with __dlpack__ (JAX, ...), its capsule kept
    in `keep` for the call: borrowed, not consumed, so that its producer's
    deleter runs when it goes. The producer makes the data ready on `stream`
    (DLPack's stream argument: 1 for the legacy default stream)."""
    global _capsule_pointer
    if _capsule_pointer is None:
        _capsule_pointer = ctypes.pythonapi.PyCapsule_GetPointer
        _capsule_pointer.restype = ctypes.c_void_p
        _capsule_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
    name = type(t).__name__
    # The device first (a CPU producer refuses a CUDA stream argument).
    device = t.__dlpack_device__() if hasattr(t, "__dlpack_device__") else None
    if device is not None and int(device[0]) not in _DL_CUDA:
        raise LaunchError("a %s on DLPack device type %d: the kernels take CUDA "
                          "memory" % (name, int(device[0])))
    try:
        capsule = t.__dlpack__(stream=stream or 1)
    except TypeError:  # producers without the stream argument
        capsule = t.__dlpack__()
    keep.append(capsule)
    dl = _DLTensor.from_address(_capsule_pointer(capsule, b"dltensor"))
    if dl.device.device_type not in _DL_CUDA:
        raise LaunchError("a %s on DLPack device type %d: the kernels take CUDA "
                          "memory" % (name, dl.device.device_type))
    code = _DL_CODES.get((dl.dtype.code, dl.dtype.bits))
    if code is None or dl.dtype.lanes != 1:
        raise LaunchError("a %s of DLPack type (code %d, %d bits, %d lanes): the "
                          "kernels take f16, bf16 or f32" % (
                              name, dl.dtype.code, dl.dtype.bits, dl.dtype.lanes))
    rank = dl.ndim
    shape = tuple(dl.shape[i] for i in range(rank))
    if dl.strides:
        strides = tuple(dl.strides[i] for i in range(rank))
    else:  # compact row-major
        strides, step = [], 1
        for extent in reversed(shape):
            strides.insert(0, step)
            step *= max(extent, 1)
        strides = tuple(strides)
    return (dl.data or 0) + dl.byte_offset, shape, strides, rank, code


def _pack(buf, offset, t, keep=None, stream=0):
    """Writes the attn_tensor of t (a torch tensor, an object with
    __cuda_array_interface__, or one with __dlpack__) at `offset` of `buf`
    (a rank over 4 is passed as such for the runtime to refuse)."""
    if not hasattr(t, "data_ptr"):
        if hasattr(t, "__cuda_array_interface__"):
            ptr, shape, strides, rank, code = _cai_fields(t)
        elif hasattr(t, "__dlpack__"):
            ptr, shape, strides, rank, code = _dlpack_fields(
                t, stream, keep if keep is not None else [])
        else:
            raise LaunchError("a %s is not a tensor the runtime can read (a torch "
                              "tensor, __cuda_array_interface__ or __dlpack__)"
                              % type(t).__name__)
        _DESC.pack_into(buf, offset, ptr, *(shape + (0, 0, 0, 0))[:4],
                        *(strides + (0, 0, 0, 0))[:4], rank, code)
        return
    rank = t.dim()
    code = _codes().get(t.dtype, 99)
    if rank == 4:
        _DESC.pack_into(buf, offset, t.data_ptr(), *t.shape, *t.stride(), 4, code)
    else:
        shape = (tuple(t.shape) + (0, 0, 0, 0))[:4]
        strides = (tuple(t.stride()) + (0, 0, 0, 0))[:4]
        _DESC.pack_into(buf, offset, t.data_ptr(), *shape, *strides, rank, code)


def _raw_stream(stream, t):
    """The CUstream to launch on: `stream` as an integer, or with a
    `cuda_stream` (torch) or `ptr` (CuPy) attribute; None: the current
    stream of t's library (torch, CuPy), else the default stream (0)."""
    if stream is None:
        if hasattr(t, "data_ptr"):
            return _current_raw_stream(t)
        if type(t).__module__.split(".")[0] == "cupy":
            import cupy
            return cupy.cuda.get_current_stream().ptr
        return 0
    if isinstance(stream, int):
        return stream
    for attr in ("cuda_stream", "ptr"):
        if hasattr(stream, attr):
            return getattr(stream, attr)
    raise LaunchError("stream %r: expected an integer CUstream or an object "
                      "with cuda_stream or ptr" % (stream,))


def _current_raw_stream(t):
    """The current CUDA stream of t's device as an integer (torch's own
    accessor, which Triton uses too; the public one builds a Stream object)."""
    import torch
    get = getattr(torch._C, "_cuda_getCurrentRawStream", None)
    if get is not None:
        return get(t.get_device())
    return torch.cuda.current_stream(t.device).cuda_stream


def tensor_desc(t, dtype_code=None):
    """t's attn_tensor as a ctypes structure (a rank over 4 is passed as
    such for the runtime to refuse)."""
    shape, strides = t.shape, t.stride()
    return AttnTensor(t.data_ptr(), _Dims(*shape[:4]), _Dims(*strides[:4]), t.dim(),
                      _codes().get(t.dtype, 99) if dtype_code is None else dtype_code)
