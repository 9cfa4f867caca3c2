#!/usr/bin/env bash
# Compiles kernels with explicit tile configurations for a tuning run on the
# device (the default ones come from build_artifacts.sh). Reads one kernel
# per line from stdin:
#   NAME DTYPE D[:DV] MASK CONFIG...
# MASK is none, causal_br, causal_tl or window_br (left = 256, right = 0),
# optionally followed by +softcap=C (a softcap of C) and/or +bias=KIND (a
# bias operand, KIND full, b1, h1 or b1h1), with the harness sidecar that
# tells run.py so;
# CONFIG is the body of #attn.tile_config<...>, optionally followed by `;`
# and the body of #attn.gpu_config<...>. Prints ptxas's register and
# spill report per kernel. Then, on the device:
#   ATTN_ARTIFACTS=DIR bash bench/device/device_run.sh COMMIT --no-isolate
# ATTN_COMPILE_FLAGS (optional) adds attn-compile flags to every kernel
# (e.g. --narrow-swizzles).
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
  # MASK+softcap=C: a softcap of C as well; MASK+bias=KIND a bias operand
  # (full, b1, h1 or b1h1: which dims broadcast); each with its harness
  # sidecar.
  softcap=""; bias=""
  IFS=+ read -r -a mods <<< "$mask"
  mask=${mods[0]}
  for mod in "${mods[@]:1}"; do
    case $mod in
      softcap=*) softcap=${mod#softcap=} ;;
      bias=*) bias=${mod#bias=} ;;
      *) echo "unknown modification '$mod'" >&2; exit 2 ;;
    esac
  done
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
  harness=()
  if [ -n "$softcap" ]; then
    m="$m, softcap = $softcap : f64"
    harness+=("\"softcap\": $softcap")
  fi
  biasarg=""; biasop=""
  if [ -n "$bias" ]; then
    case $bias in
      full) bt="?x?x?x?x${dt}" ;; b1) bt="1x?x?x?x${dt}" ;; h1) bt="?x1x?x?x${dt}" ;;
      b1h1) bt="1x1x?x?x${dt}" ;; *) echo "unknown bias '$bias'" >&2; exit 2 ;;
    esac
    biasarg=", %bias: memref<$bt>"; biasop=" bias(%bias : memref<$bt>)"
    harness+=("\"bias\": \"$bias\"")
  fi
  if [ "${#harness[@]}" -gt 0 ]; then
    echo "{\"mods\": {$(IFS=,; echo "${harness[*]}")}, \"flex\": false}" > "$out/$name.harness.json"
  fi
  src="$out/src/$name.mlir"
  cat > "$src" <<MLIR
func.func @$name(%q: memref<?x?x?x${d}x${dt}>, %k: memref<?x?x?x${d}x${dt}>,
                 %v: memref<?x?x?x${dv}x${dt}>, %o: memref<?x?x?x${dv}x${dt}>,
                 %lse: memref<?x?x?xf32>$biasarg) {
  attn.attention ins(%q, %k, %v : memref<?x?x?x${d}x${dt}>, memref<?x?x?x${d}x${dt}>, memref<?x?x?x${dv}x${dt}>)$biasop
                 outs(%o, %lse : memref<?x?x?x${dv}x${dt}>, memref<?x?x?xf32>) {config = #attn.tile_config<$tiles>$gpu$m}
  return
}
MLIR
  # shellcheck disable=SC2086 # ATTN_COMPILE_FLAGS is a list of flags
  if ! build/bin/attn-compile "$src" --chip="$chip" --cubin ${ATTN_COMPILE_FLAGS:-} -o "$out" > "$out/src/$name.log" 2>&1; then
    echo "$name: does not compile: $(grep -m1 error: "$out/src/$name.log")"; continue
  fi
  echo "$name: $("$ptxas" -arch="$chip" -v "$out/$name.$chip.ptx" -o /dev/null 2>&1 \
    | grep -oE 'Used [0-9]+ registers|[0-9]+ bytes spill stores' | paste -sd, -)"
done
