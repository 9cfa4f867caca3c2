#!/usr/bin/env bash
# Builds .device/r5 for session11-r5.sh: with this tree's compiler,
#  - n_<k>: the heuristic kernels of .device/probe11 (attn_f16_d256_none,
#    attn_bf16_d256_none, attn_f16_d128_none; --tuning-db=none
#    --no-length-dispatch), whose O stores are now 16 bytes per lane after
#    a quad transpose, to pair with probe11's attn_<k> (the compiler before);
#  - g_<k>: the D = 192 keys of .device/tval10 (f16 and bf16 unmasked, f16
#    causal bottom-right) with --tuning-db=none, the new D = 192 heuristic,
#    to pair with tval10's h_<k> (the old heuristic);
# and copies those old kernels in beside them.
set -euo pipefail
cd "$(dirname "$0")/../../.."
out=${R5_OUT:-.device/r5}
rm -rf "$out" && mkdir -p "$out/src"
for k in attn_f16_d256_none attn_bf16_d256_none attn_f16_d128_none; do
  sed "s/@$k(/@n_$k(/" .device/art/src/$k.mlir > "$out/src/n_$k.mlir"
  build/bin/attn-compile "$out/src/n_$k.mlir" --chip=sm_90a --cubin --tuning-db=none --no-length-dispatch -o "$out" > /dev/null
  cp .device/probe11/$k.* "$out/"
done
for k in f16_d192_none bf16_d192_none f16_d192_causal_br; do
  sed "s/@t_$k(/@g_$k(/" .device/tval10/src/t_$k.mlir > "$out/src/g_$k.mlir"
  build/bin/attn-compile "$out/src/g_$k.mlir" --chip=sm_90a --cubin --tuning-db=none -o "$out" > /dev/null
  cp .device/tval10/h_$k.* .device/tval10/h_${k}__n* "$out/" 2>/dev/null || cp .device/tval10/h_$k.* "$out/"
done
ls "$out" | grep -c json
