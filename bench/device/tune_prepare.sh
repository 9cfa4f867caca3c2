#!/usr/bin/env bash
# The compiler's half of a tuning run (issue 10): one attn.attention per key
# (f16 unless given, with LSE, dynamic B/H/N), attn-tune for every sequence
# bucket at once, the best 16 per bucket and the heuristic's kernel emitted
# into DIR/<key>/ with its report.json. Then, on the GPU machine:
#   python3 bench/device/tune_measure.py --runtime LIB --out measured.json DIR/*/
# and here: build/bin/attn-tuning-db import measured.json DB.sqlite
# usage: bench/device/tune_prepare.sh DIR [CHIP] < keys.txt
# keys.txt: one key per line: NAME DTYPE D[:DV] MASK[+softcap=C] [gqa=G]
# (MASK as in build_variants.sh: none, causal_br, causal_tl, window_br;
# gqa=G fixes the heads at the benchmark's, Hq = 2048 / D and Hkv = Hq / G).
# ATTN_TUNE_TOP (16) is attn-tune's --top; ATTN_TUNE_EMIT_ALL=1 adds
# --emit-all (every candidate that compiled: the full-space study);
# ATTN_TUNE_BIN names the attn-tune binary (default build/bin/attn-tune).
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:?usage: tune_prepare.sh DIR [CHIP] < keys}
chip=${2:-sm_90a}
ns=${ATTN_TUNE_NS:-512,1024,4096,16384}
top=${ATTN_TUNE_TOP:-16}
extra=()
[ "${ATTN_TUNE_EMIT_ALL:-0}" = 1 ] && extra+=(--emit-all)
mkdir -p "$out"
while read -r name dt d mask gqa; do
  case ${name:-#} in \#*) continue ;; esac  # blank lines and comments
  softcap=""
  case $mask in *+softcap=*) softcap=${mask#*+softcap=}; mask=${mask%%+*} ;; esac
  case $mask in
    none) m="" ;;
    causal_br) m="mask = #attn.mask<causal, bottom_right>" ;;
    causal_tl) m="mask = #attn.mask<causal, top_left>" ;;
    window_br) m="mask = #attn.mask<window, bottom_right, left = 256, right = 0>" ;;
    *) echo "unknown mask '$mask'" >&2; exit 2 ;;
  esac
  if [ -n "$softcap" ]; then
    m="${m:+$m, }softcap = $softcap : f64"
  fi
  [ -n "$m" ] && m=" {$m}"
  dv=$d
  case $d in *:*) dv=${d#*:}; d=${d%%:*} ;; esac
  hq="?"; hkv="?"
  case ${gqa:-} in
    "") ;;
    gqa=*) g=${gqa#gqa=}; hq=$((2048 / d)); hkv=$((hq / g)) ;;
    *) echo "unknown field '$gqa' (gqa=G)" >&2; exit 2 ;;
  esac
  Q="memref<?x${hq}x?x${d}x${dt}>"; K="memref<?x${hkv}x?x${d}x${dt}>"
  V="memref<?x${hkv}x?x${dv}x${dt}>"; O="memref<?x${hq}x?x${dv}x${dt}>"
  L="memref<?x${hq}x?xf32>"
  dir="$out/$name"
  rm -rf "$dir" && mkdir -p "$dir"
  cat > "$dir/$name.mlir" <<MLIR
func.func @$name(%q: $Q, %k: $K, %v: $V, %o: $O, %lse: $L) {
  attn.attention ins(%q, %k, %v : $Q, $K, $V) outs(%o, %lse : $O, $L)$m
  return
}
MLIR
  # The harness's description of the score modification (run.Meta), for the
  # default kernel that every candidate is checked beside.
  if [ -n "$softcap" ]; then
    echo "{\"mods\": {\"softcap\": $softcap}, \"flex\": false}" > "$dir/${name}__default.harness.json"
  fi
  start=$(date +%s.%N)
  "${ATTN_TUNE_BIN:-build/bin/attn-tune}" "$dir/$name.mlir" --chip="$chip" --n="$ns" --top="$top" \
    ${extra[@]+"${extra[@]}"} --emit="$dir" > "$dir/report.json"
  end=$(date +%s.%N)
  python3 - "$dir/report.json" "$(echo "$end - $start" | bc)" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
print("%s: %d candidates, %d accepted, %d emitted, %.1f s" % (
    sys.argv[1].split("/")[-2], r["candidates"], r["accepted"],
    sum(1 for x in r["ranked"] if x.get("kernels")), float(sys.argv[2])))
PY
done
