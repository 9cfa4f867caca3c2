#!/usr/bin/env bash
# The compiler's half of a tuning run (issue 10): one attn.attention per key
# (f16 unless given, with LSE, dynamic B/H/N), attn-tune for every sequence
# bucket at once, the best 16 per bucket and the heuristic's kernel emitted
# into DIR/<key>/ with its report.json. Then, on the GPU machine:
#   python3 bench/device/tune_measure.py --runtime LIB --out measured.json DIR/*/
# and here: build/bin/attn-tuning-db import measured.json DB.sqlite
# usage: bench/device/tune_prepare.sh DIR [CHIP] < keys.txt
# keys.txt: one key per line: NAME DTYPE D[:DV] MASK   (MASK as in
# build_variants.sh: none, causal_br, causal_tl, window_br)
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:?usage: tune_prepare.sh DIR [CHIP] < keys}
chip=${2:-sm_90a}
ns=${ATTN_TUNE_NS:-512,1024,4096,16384}
mkdir -p "$out"
while read -r name dt d mask; do
  [ -z "${name:-}" ] && continue
  case $mask in
    none) m="" ;;
    causal_br) m=" {mask = #attn.mask<causal, bottom_right>}" ;;
    causal_tl) m=" {mask = #attn.mask<causal, top_left>}" ;;
    window_br) m=" {mask = #attn.mask<window, bottom_right, left = 256, right = 0>}" ;;
    *) echo "unknown mask '$mask'" >&2; exit 2 ;;
  esac
  dv=$d
  case $d in *:*) dv=${d#*:}; d=${d%%:*} ;; esac
  dir="$out/$name"
  rm -rf "$dir" && mkdir -p "$dir"
  cat > "$dir/$name.mlir" <<MLIR
func.func @$name(%q: memref<?x?x?x${d}x${dt}>, %k: memref<?x?x?x${d}x${dt}>,
                 %v: memref<?x?x?x${dv}x${dt}>, %o: memref<?x?x?x${dv}x${dt}>,
                 %lse: memref<?x?x?xf32>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x${d}x${dt}>, memref<?x?x?x${d}x${dt}>, memref<?x?x?x${dv}x${dt}>)
                 outs(%o, %lse : memref<?x?x?x${dv}x${dt}>, memref<?x?x?xf32>)$m
  return
}
MLIR
  start=$(date +%s.%N)
  build/bin/attn-tune "$dir/$name.mlir" --chip="$chip" --n="$ns" --top=16 --emit="$dir" > "$dir/report.json"
  end=$(date +%s.%N)
  python3 - "$dir/report.json" "$(echo "$end - $start" | bc)" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
print("%s: %d candidates, %d accepted, %d emitted, %.1f s" % (
    sys.argv[1].split("/")[-2], r["candidates"], r["accepted"],
    sum(1 for x in r["ranked"] if x.get("kernels")), float(sys.argv[2])))
PY
done
