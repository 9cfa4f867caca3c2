#!/usr/bin/env bash
# Builds the runtime on the GPU machine into DIR (default /tmp/brt), once:
# a second call finds it built. The GPU machine has no nlohmann-json
# package: build_artifacts.sh copies this machine's header into
# .device/include.
set -uo pipefail
dir=${1:-/tmp/brt}
[ -f "$dir/libattn_runtime.so" ] && exit 0
nlohmann=${ATTN_NLOHMANN_INCLUDE_DIR:-$(pwd)/.device/include}
cmake -S runtime -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DATTN_NLOHMANN_INCLUDE_DIR="$nlohmann" > /tmp/rt-build.log 2>&1 \
  && cmake --build "$dir" >> /tmp/rt-build.log 2>&1 \
  || { cat /tmp/rt-build.log; exit 2; }
