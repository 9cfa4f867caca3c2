#!/usr/bin/env bash
# The 12 no-LSE kernels of the twentieth session's run 5 (f16 / bf16,
# D = 64 / 128 / 256, unmasked and causal bottom-right, no LSE output):
# DIR/ with the default build's database, DIR0/ with --tuning-db=none.
# usage: bench/device/probes/session20-build-nolse.sh DIR DIR0
set -euo pipefail
cd "$(dirname "$0")/../../.."
out=${1:?usage: DIR DIR0} out0=${2:?usage: DIR DIR0}
rm -rf "$out" "$out0" && mkdir -p "$out/src" "$out0"
for dt in f16 bf16; do for d in 64 128 256; do for m in none causal_br; do
  n=nl_${dt}_d${d}_${m}; t="memref<?x?x?x${d}x${dt}>"; a=""
  [ $m = causal_br ] && a=" {mask = #attn.mask<causal, bottom_right>}"
  printf 'func.func @%s(%%q: %s, %%k: %s, %%v: %s, %%o: %s) {\n  attn.attention ins(%%q, %%k, %%v : %s, %s, %s) outs(%%o : %s)%s\n  return\n}\n' \
    $n "$t" "$t" "$t" "$t" "$t" "$t" "$t" "$t" "$a" > "$out/src/$n.mlir"
  build/bin/attn-compile "$out/src/$n.mlir" --chip=sm_90a --cubin -o "$out" > /dev/null
  build/bin/attn-compile "$out/src/$n.mlir" --chip=sm_90a --cubin --tuning-db=none -o "$out0" > /dev/null
done; done; done
