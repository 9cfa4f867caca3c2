# -*- Python -*-
import os
import sys

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "ATTN"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.attn_obj_root, "test")
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]

config.environment["FILECHECK_OPTS"] = "--enable-var-scope"
# Tools that keep caches under $XDG_CACHE_HOME (attn-tune's compilations)
# keep them in the build tree, not in the home of whoever runs the tests.
config.environment["XDG_CACHE_HOME"] = os.path.join(config.attn_obj_root, "test", "xdg-cache")
llvm_config.use_default_substitutions()

# mlir-runner and the runtime libraries that CPU integration tests print with.
runner_libs = ",".join(
    os.path.join(config.llvm_lib_dir, lib)
    for lib in ["libmlir_runner_utils.so", "libmlir_c_runner_utils.so"]
)
config.substitutions.append(("%mlir_runner_libs", runner_libs))
config.substitutions.append(("%python", sys.executable))
config.substitutions.append(
    (
        "%mlir_run_cpu",
        "mlir-runner -e main -entry-point-result=void -shared-libs=" + runner_libs,
    )
)

tool_dirs = [config.attn_tools_dir, config.llvm_tools_dir]
tools = ["attn-opt", "attn-compile", "attn-api-test", "attn-capi-test", "attn-tune", "attn-tuning-db", "mlir-runner", "mlir-opt", "mlir-translate", "not", "split-file"]
llvm_config.add_tool_substitutions(tools, tool_dirs)

# ptxas (CUDA toolkit), for the tests that assemble generated PTX. A machine
# without the toolkit skips them (they say REQUIRES: ptxas).
import shutil

ptxas = shutil.which("ptxas")
for candidate in ["/usr/local/cuda/bin/ptxas", "/usr/bin/ptxas"]:
    if not ptxas and os.path.exists(candidate):
        ptxas = candidate
if ptxas:
    config.available_features.add("ptxas")
    # Kernels that call a libdevice function need the toolkit (attn-compile
    # refuses them otherwise): the one ptxas belongs to.
    config.environment["CUDA_HOME"] = os.environ.get(
        "CUDA_HOME", os.path.dirname(os.path.dirname(os.path.realpath(ptxas))))
    config.substitutions.append(("%ptxas", ptxas))

# The runtime's device-free test (metadata parser and launch checks).
config.substitutions.append(
    ("%attn_runtime_test_sanitized", os.path.join(config.attn_runtime_dir, "attn_runtime_test_sanitized"))
)
config.substitutions.append(
    ("%attn_runtime_test", os.path.join(config.attn_runtime_dir, "attn_runtime_test")))
config.substitutions.append(("%attn_runtime_dir", config.attn_runtime_dir))
# Mutants of kernel descriptions through the runtime's checks, under ASan +
# UBSan (runtime/test/metadata_fuzz.cpp).
config.substitutions.append(
    ("%attn_runtime_metadata_fuzz",
     os.path.join(config.attn_runtime_dir, "attn_runtime_metadata_fuzz")))
# The tuning databases the build makes from data/tuning/.
config.substitutions.append(
    ("%attn_tuning_dir", os.path.join(config.attn_obj_root, "share", "attn")))
# The source tree (scripts under bench/ and utils/).
config.substitutions.append(
    ("%attn_src_root", os.path.dirname(config.test_source_root)))
# The Python package the build copies into the build tree.
config.substitutions.append(
    ("%attn_python_dir", os.path.join(config.attn_obj_root, "python-bindings")))
if os.path.exists(os.path.join(config.attn_runtime_dir, "libattn_runtime.so")):
    config.available_features.add("attn-runtime-lib")
# The shared library's load/launch paths against the fake driver
# (runtime/test/fake_cuda.cpp), found first on LD_LIBRARY_PATH.
config.substitutions.append(
    ("%attn_runtime_lib_test", os.path.join(config.attn_runtime_dir, "attn_runtime_lib_test")))
config.substitutions.append(
    ("%attn_fake_driver_dir", os.path.join(config.attn_runtime_dir, "fake-driver")))
if os.path.exists(os.path.join(config.attn_runtime_dir, "attn_runtime_lib_test")):
    config.available_features.add("attn-runtime-lib-test")
