"""attn from Python: describe an attention (`Spec`), compile it to kernel
artifacts (`compile`, through the C API in libattn_c.so), load and launch
them (`attn.runtime`, through libattn_runtime.so), call them from PyTorch
(`attn.torch.attention`), and run a spec's semantics on numpy arrays
through the CPU lowering (`attn.cpu.attention`).

    import attn
    spec = attn.Spec(dtype="f16", head_dim=128, causal=True)
    artifacts = attn.compile(spec, chip="sm_90a")
    artifacts.write("out/")          # out/<kernel>.json, out/<stem>.sm_90a.ptx

The package is pure Python over the two C libraries (ctypes), so the same
files work on a machine with the compiler and on a GPU machine with only
the runtime (there `compile` raises `CompilerUnavailable` and
`attn.torch` takes kernels from a directory of prebuilt artifacts).
"""

from .spec import Spec, SpecError
from .compiler import (Artifacts, CompileError, CompilerUnavailable, Diagnostic,
                       api_version, compile, compiler_version)

__all__ = ["Spec", "SpecError", "Artifacts", "CompileError", "CompilerUnavailable",
           "Diagnostic", "api_version", "compile", "compiler_version"]
