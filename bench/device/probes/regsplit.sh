#!/usr/bin/env bash
# Copies kernels NAME... (and their TMA fallbacks) from SRC to DST with the
# warp-specialized register split changed to PRODUCER / CONSUMER registers
# (the setmaxnreg immediates of the PTX that attn-warp-specialize chose),
# and assembles their cubins again; prints ptxas's spill report. A probe of
# the split only (the names, JSON and everything else stay): pair.py then
# times DST's kernel against SRC's (--artifacts DST --artifacts-b SRC).
# usage: bench/device/probes/regsplit.sh SRC DST PRODUCER CONSUMER NAME...
set -euo pipefail
src=$1 dst=$2 producer=$3 consumer=$4; shift 4
ptxas=${CUDA_HOME:-/usr/local/cuda}/bin/ptxas
mkdir -p "$dst"
for name in "$@"; do
  for k in "$name" "${name}__unstaged"; do
    [ -f "$src/$k.json" ] || continue
    cp "$src/$k.json" "$dst/"
    [ -f "$src/$name.harness.json" ] && cp "$src/$name.harness.json" "$dst/"
    ptx=$(ls "$src/$k".*.ptx)
    chip=${ptx%.ptx}; chip=${chip##*.}
    sed -E "s/(setmaxnreg\.dec\.sync\.aligned\.u32[[:space:]]+)[0-9]+;/\1$producer;/;
            s/(setmaxnreg\.inc\.sync\.aligned\.u32[[:space:]]+)[0-9]+;/\1$consumer;/" \
      "$ptx" > "$dst/$(basename "$ptx")"
    grep -q "setmaxnreg.dec.sync.aligned.u32[[:space:]]*$producer;" "$dst/$(basename "$ptx")" ||
      { echo "$k: no setmaxnreg to change" >&2; exit 2; }
    echo "$k: $("$ptxas" -arch="$chip" -v "$dst/$(basename "$ptx")" -o "$dst/$k.$chip.cubin" 2>&1 |
      grep -oE "[0-9]+ bytes spill stores" | tr '\n' ' ')"
  done
done
