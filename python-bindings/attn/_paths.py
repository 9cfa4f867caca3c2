"""Where the C libraries are: ATTN_C_LIBRARY / ATTN_RUNTIME_LIBRARY, else
the build tree this package sits in (build/python-bindings/attn ->
build/lib/libattn_c.so, build/runtime/libattn_runtime.so), else the
loader's search path."""

import os

_here = os.path.dirname(os.path.abspath(__file__))
_build = os.path.dirname(os.path.dirname(_here))


def _find(env, candidates, soname):
    if os.environ.get(env):
        return os.environ[env]
    for c in candidates:
        if os.path.exists(c):
            return c
    return soname


def compiler_library():
    return _find("ATTN_C_LIBRARY", [os.path.join(_build, "lib", "libattn_c.so")],
                 "libattn_c.so")


def runtime_library():
    return _find("ATTN_RUNTIME_LIBRARY",
                 [os.path.join(_build, "runtime", "libattn_runtime.so"),
                  os.path.join(_build, "lib", "libattn_runtime.so")],
                 "libattn_runtime.so")
