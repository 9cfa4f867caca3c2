"""`compile`: a Spec (or MLIR text) to kernel artifacts, through the C API
(include/attn-c/Compiler.h, libattn_c.so)."""

import ctypes
import json
import os
from dataclasses import dataclass

from . import _paths
from .spec import Spec

# The C API version these bindings are written against
# (ATTN_C_API_VERSION in include/attn-c/Compiler.h).
_API_VERSION = 1
_SEVERITY = {0: "error", 1: "warning", 2: "note", 3: "remark"}


class CompilerUnavailable(RuntimeError):
    """libattn_c.so cannot be loaded here (a GPU machine without the
    compiler): use prebuilt artifacts."""


@dataclass(frozen=True)
class Diagnostic:
    severity: str
    location: str
    message: str

    def __str__(self):
        where = self.location + ": " if self.location else ""
        return "%s%s: %s" % (where, self.severity, self.message)


class CompileError(Exception):
    """The compiler refused the input; `diagnostics` holds every located
    diagnostic it emitted, the first error's text is the message."""

    def __init__(self, diagnostics):
        self.diagnostics = list(diagnostics)
        errors = [d for d in self.diagnostics if d.severity == "error"]
        super().__init__(str(errors[0]) if errors else "compilation failed")


_lib = None


def _load():
    global _lib
    if _lib is not None:
        return _lib
    path = _paths.compiler_library()
    try:
        lib = ctypes.CDLL(path)
    except OSError as e:
        raise CompilerUnavailable("cannot load the attn compiler (%s): %s" % (path, e))
    c_p, c_s, sz = ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t
    sigs = {
        "attnGetAPIVersion": ([], ctypes.c_int),
        "attnGetCompilerVersion": ([], c_s),
        "attnCompileOptionsCreate": ([], c_p),
        "attnCompileOptionsDestroy": ([c_p], None),
        "attnCompileOptionsSetTarget": ([c_p, c_s], None),
        "attnCompileOptionsSetCubin": ([c_p, ctypes.c_bool], None),
        "attnCompileOptionsSetToolkit": ([c_p, c_s], None),
        "attnCompileOptionsSetTuningDB": ([c_p, c_s], None),
        "attnCompileOptionsSetSplitKVLoop": ([c_p, ctypes.c_bool], None),
        "attnCompileSource": ([c_s, sz, c_s, c_p], c_p),
        "attnCompileResultSucceeded": ([c_p], ctypes.c_bool),
        "attnCompileResultGetNumDiagnostics": ([c_p], sz),
        "attnCompileResultGetDiagnosticSeverity": ([c_p, sz], ctypes.c_int),
        "attnCompileResultGetDiagnosticLocation": ([c_p, sz], c_s),
        "attnCompileResultGetDiagnosticMessage": ([c_p, sz], c_s),
        "attnCompileResultGetNumKernels": ([c_p], sz),
        "attnCompileResultGetKernelName": ([c_p, sz], c_s),
        "attnCompileResultGetKernelJSON": ([c_p, sz], c_s),
        "attnCompileResultGetPTX": ([c_p, ctypes.POINTER(sz)], ctypes.c_void_p),
        "attnCompileResultGetCubin": ([c_p, ctypes.POINTER(sz)], ctypes.c_void_p),
        "attnCompileResultGetCPUModule": ([c_p, ctypes.POINTER(sz)], ctypes.c_void_p),
        "attnCompileResultWriteArtifacts": ([c_p, c_s, c_s], ctypes.c_bool),
        "attnCompileResultDestroy": ([c_p], None),
    }
    for name, (args, res) in sigs.items():
        fn = getattr(lib, name)
        fn.argtypes, fn.restype = args, res
    if lib.attnGetAPIVersion() != _API_VERSION:
        raise CompilerUnavailable("%s has C API version %d; these bindings need %d"
                                  % (path, lib.attnGetAPIVersion(), _API_VERSION))
    _lib = lib
    return lib


def api_version():
    return _load().attnGetAPIVersion()


def compiler_version():
    return _load().attnGetCompilerVersion().decode()


def _bytes(lib, getter, result):
    n = ctypes.c_size_t(0)
    ptr = getter(result, ctypes.byref(n))
    return ctypes.string_at(ptr, n.value) if ptr and n.value else b""


class Artifacts:
    """What one compilation produced: per kernel its name and runtime JSON,
    the PTX (and cubin) of all of them, or the CPU module; `write` puts the
    files the runtime loads into a directory. Warnings are in
    `diagnostics`."""

    def __init__(self, result, lib, stem, diagnostics):
        self._result, self._lib, self.stem = result, lib, stem
        self.diagnostics = diagnostics
        n = lib.attnCompileResultGetNumKernels(result)
        self.kernels = {lib.attnCompileResultGetKernelName(result, i).decode():
                        json.loads(lib.attnCompileResultGetKernelJSON(result, i).decode())
                        for i in range(n)}
        self.ptx = _bytes(lib, lib.attnCompileResultGetPTX, result).decode()
        self.cubin = _bytes(lib, lib.attnCompileResultGetCubin, result)
        self.cpu_module = _bytes(lib, lib.attnCompileResultGetCPUModule, result).decode()

    def write(self, directory):
        os.makedirs(directory, exist_ok=True)
        if not self._lib.attnCompileResultWriteArtifacts(
                self._result, directory.encode(), self.stem.encode()):
            n = self._lib.attnCompileResultGetNumDiagnostics(self._result)
            raise CompileError(_diagnostics(self._lib, self._result, n)[-1:])
        return directory

    def __del__(self):
        if getattr(self, "_result", None):
            self._lib.attnCompileResultDestroy(self._result)
            self._result = None


def _diagnostics(lib, result, n):
    return [Diagnostic(_SEVERITY.get(lib.attnCompileResultGetDiagnosticSeverity(result, i),
                                     "error"),
                       lib.attnCompileResultGetDiagnosticLocation(result, i).decode(),
                       lib.attnCompileResultGetDiagnosticMessage(result, i).decode())
            for i in range(n)]


def compile(source, chip="sm_90a", *, cubin=False, tuning_db=None, toolkit=None,
            split_kv_loop=True, name=None):
    """Compiles a Spec or MLIR text (every attn.attention in it). `chip`:
    sm_80, sm_90a or "cpu". `tuning_db`: an SQLite tuning database (none
    by default: the heuristic). Raises CompileError with the compiler's
    diagnostics."""
    lib = _load()
    if isinstance(source, Spec):
        stem = source.name
        text = source.to_mlir()
    else:
        stem = name or "attn"
        text = str(source)
    options = lib.attnCompileOptionsCreate()
    try:
        lib.attnCompileOptionsSetTarget(options, chip.encode())
        lib.attnCompileOptionsSetCubin(options, bool(cubin))
        lib.attnCompileOptionsSetSplitKVLoop(options, bool(split_kv_loop))
        if toolkit:
            lib.attnCompileOptionsSetToolkit(options, toolkit.encode())
        if tuning_db:
            lib.attnCompileOptionsSetTuningDB(options, tuning_db.encode())
        data = text.encode()
        result = lib.attnCompileSource(data, len(data), (stem + ".mlir").encode(), options)
    finally:
        lib.attnCompileOptionsDestroy(options)
    diags = _diagnostics(lib, result, lib.attnCompileResultGetNumDiagnostics(result))
    if not lib.attnCompileResultSucceeded(result):
        lib.attnCompileResultDestroy(result)
        raise CompileError(diags)
    return Artifacts(result, lib, stem, diags)
