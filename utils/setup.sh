#!/usr/bin/env bash
# Installs what attn needs on Debian 12 (LLVM/MLIR 22 from Debian's
# packages, CMake, Ninja, a C++ compiler, ccache, lld to link attn-compile
# statically, nlohmann-json for the runtime's metadata reader, SQLite for
# the tuning database) and builds it in ./build.
# Run as root (or through sudo) from anywhere; re-running is cheap.
set -euo pipefail
cd "$(dirname "$0")/.."

SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi

PACKAGES=(cmake ninja-build g++ ccache lld python3
          llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools
          nlohmann-json3-dev libsqlite3-dev python3-pytest python3-numpy)
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" \
    || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends \
    "${missing[@]}"
fi

LLVM_PREFIX=/usr/lib/llvm-22
cmake -G Ninja -S . -B build \
  -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_COMPILER_LAUNCHER=ccache \
  -DMLIR_DIR="$LLVM_PREFIX/lib/cmake/mlir" \
  -DLLVM_EXTERNAL_LIT="$LLVM_PREFIX/bin/lit"
cmake --build build -j "${ATTN_JOBS:-2}"
