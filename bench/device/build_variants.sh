#!/usr/bin/env bash
# Compiles kernels with explicit tile configurations for a tuning run on the
# device (the default ones come from build_artifacts.sh). Reads one kernel
# per line from stdin:
#   NAME DTYPE D[:DV] MASK CONFIG...
# MASK is none, causal_br, causal_tl or window_br (left = 256, right = 0),
# optionally followed by +softcap=C (a softcap of C, with the harness
# sidecar that tells run.py so);
# CONFIG is the body of #attn.tile_config<...>, optionally followed by `;`
# and the body of #attn.gpu_config<...>. Prints ptxas's register and
# spill report per kernel. Then, on the device:
#   ATTN_ARTIFACTS=DIR bash bench/device/device_run.sh COMMIT --no-isolate
# usage: bench/device/build_variants.sh DIR [CHIP] < variants.txt
# e.g.   echo "x_f16_d128 f16 128 none block_m = 128, block_n = 64, warps = 4, stages = 2; lazy_rescale = true" |
#          bench/device/build_variants.sh .device/tune
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:?usage: build_variants.sh DIR [CHIP] < variants}
chip=${2:-sm_90a}
ptxas=${CUDA_HOME:-/usr/local/cuda}/bin/ptxas
rm -rf "$out" && mkdir -p "$out/src"
: > "$out/compile_times.txt"
while read -r name dt d mask cfg; do
  [ -z "${name:-}" ] && continue
  # MASK+softcap=C: a softcap of C as well (and its harness sidecar).
  softcap=""
  case $mask in *+softcap=*) softcap=${mask#*+softcap=}; mask=${mask%%+*} ;; esac
  case $mask in
    none) m="" ;;
    causal_br) m=", mask = #attn.mask<causal, bottom_right>" ;;
    causal_tl) m=", mask = #attn.mask<causal, top_left>" ;;
    window_br) m=", mask = #attn.mask<window, bottom_right, left = 256, right = 0>" ;;
    *) echo "unknown mask '$mask'" >&2; exit 2 ;;
  esac
  dv=$d
  case $d in *:*) dv=${d#*:}; d=${d%%:*} ;; esac
  tiles=${cfg%%;*}
  gpu=""
  [ "$tiles" != "$cfg" ] && gpu=", gpu_config = #attn.gpu_config<${cfg#*;}>"
  if [ -n "$softcap" ]; then
    m="$m, softcap = $softcap : f64"
    echo "{\"mods\": {\"softcap\": $softcap}, \"flex\": false}" > "$out/$name.harness.json"
  fi
  src="$out/src/$name.mlir"
  cat > "$src" <<MLIR
func.func @$name(%q: memref<?x?x?x${d}x${dt}>, %k: memref<?x?x?x${d}x${dt}>,
                 %v: memref<?x?x?x${dv}x${dt}>, %o: memref<?x?x?x${dv}x${dt}>,
                 %lse: memref<?x?x?xf32>) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x${d}x${dt}>, memref<?x?x?x${d}x${dt}>, memref<?x?x?x${dv}x${dt}>)
                 outs(%o, %lse : memref<?x?x?x${dv}x${dt}>, memref<?x?x?xf32>) {config = #attn.tile_config<$tiles>$gpu$m}
  return
}
MLIR
  build/bin/attn-compile "$src" --chip="$chip" --cubin -o "$out" > /dev/null
  echo "$name: $("$ptxas" -arch="$chip" -v "$out/$name.$chip.ptx" -o /dev/null 2>&1 \
    | grep -oE 'Used [0-9]+ registers|[0-9]+ bytes spill stores' | paste -sd, -)"
done
