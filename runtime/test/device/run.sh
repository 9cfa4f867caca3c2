#!/usr/bin/env bash
# End-to-end test of libattn_runtime.so on a GPU (sm_90a: H100/H200): builds
# the kernels of kernels.cu (one per ABI: format_version 2 with q, k, v, o,
# lse; format_version 2 with one k+v buffer; format_version 3, which reads
# through TMA tensor maps; format_version 1), writes their
# metadata, and runs driver.cpp, which loads them through the library (cubin
# and PTX JIT), launches them by role and through attn_kernel_launch on
# tensors with padded strides (Nk = 0 too), and compares every output with a
# host computation. Needs nvcc and a C++ compiler; not run by CI (no GPU).
#
#   runtime/test/device/run.sh BUILD_DIR [WORK_DIR]
#
# BUILD_DIR holds libattn_runtime.so; WORK_DIR (default: a new temporary
# directory) receives the kernels, the metadata and the driver.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "$1" && pwd)
work=${2:-$(mktemp -d)}
mkdir -p "$work"
cuda=${CUDA_HOME:-/usr/local/cuda}
nvcc=$cuda/bin/nvcc

"$nvcc" -arch=sm_90a -ptx "$here/kernels.cu" -o "$work/kernels.sm_90a.ptx"
"$nvcc" -arch=sm_90a -cubin "$here/kernels.cu" -o "$work/kernels.sm_90a.cubin"
python3 "$here/make_metadata.py" "$work"
# Linked against the toolkit's stub; at run time libcuda.so.1 is the driver's.
"${CXX:-c++}" -std=c++17 -O1 -Wall -I"$here/../../include" -I"$cuda/include" \
  "$here/driver.cpp" -o "$work/driver" -L"$build" -lattn_runtime \
  -L"$cuda/lib64/stubs" -lcuda -Wl,-rpath,"$build" \
  -Wl,-rpath-link,"$cuda/lib64/stubs"
"$work/driver" "$work"
