#!/usr/bin/env bash
# The tuned defaults against the heuristic, measured apart from the tuning
# run that chose them (issue 10's bar): every key of an attn-tune prepare
# directory compiled twice, t_<key> through attn-compile's tuning database
# (the build's, or ATTN_TUNING_DB) and h_<key> with --tuning-db=none, both
# with cubins, into DIR; prints each kernel's configuration source and the
# pairs for bench/device/pair.py:
#   python3 bench/device/pair.py --artifacts DIR --runtime LIB --out pairs.json \
#       --pairs "$(cat DIR/pairs.txt)" --ns 512,1024,4096,16384
# A key with score modifications needs the harness sidecar its tuning run
# had (a <name>.harness.json in the key's directory, as tune_measure.py
# needs): it is copied for both kernels, since the harness refuses a
# modified kernel without one.
# usage: bench/device/tune_validate.sh TUNEDIR DIR
set -euo pipefail
cd "$(dirname "$0")/../.."
tune=${1:?usage: tune_validate.sh TUNEDIR DIR}
out=${2:?usage: tune_validate.sh TUNEDIR DIR}
rm -rf "$out" && mkdir -p "$out/src"
pairs=()
for dir in "$tune"/*/; do
  key=$(basename "$dir")
  src="$dir/$key.mlir"
  [ -f "$src" ] || continue
  cp "$src" "$out/src/$key.mlir"
  sed "s/@$key(/@h_${key#t_}(/" "$src" > "$out/src/h_${key#t_}.mlir"
  build/bin/attn-compile "$out/src/$key.mlir" --chip=sm_90a --cubin ${ATTN_TUNING_DB:+--tuning-db="$ATTN_TUNING_DB"} -o "$out" > /dev/null
  build/bin/attn-compile "$out/src/h_${key#t_}.mlir" --chip=sm_90a --cubin --tuning-db=none -o "$out" > /dev/null
  build/bin/attn-opt "$out/src/$key.mlir" --attn-apply-tuning="db=${ATTN_TUNING_DB:-build/share/attn/tuning-sm_90a.sqlite} chip=sm_90a" \
    | grep -o 'attn.tuning = "[^"]*"' | sed "s/^/$key: /"
  side=$(ls "$dir"/*.harness.json 2>/dev/null | head -1 || true)
  if [ -n "$side" ]; then
    cp "$side" "$out/$key.harness.json"; cp "$side" "$out/h_${key#t_}.harness.json"
  elif grep -q "score_mods" "$out/$key.json"; then
    echo "tune_validate.sh: $key has score modifications and no harness sidecar in $dir" >&2; exit 1
  fi
  pairs+=("$key=h_${key#t_}")
done
(IFS=,; echo "${pairs[*]}") > "$out/pairs.txt"
