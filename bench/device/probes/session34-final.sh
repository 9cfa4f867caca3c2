#!/usr/bin/env bash
# Thirty-fourth session: the whole default build of main (61e4306) measured
# in one device session, to replace the fifteenth session's tables in
# docs/gpu-results.md and the README. Two parts, one device call each:
#   part 1: the 18 benchmark kernels (f16/bf16, D = 64/128/256, none and
#           causal in both alignments) against cuDNN and FlashAttention-2
#           (torch SDPA backends, same inputs), interleaved, N = 512..16384;
#           run.py --quick on all 47 kernels (odd lengths, Nq != Nk, one
#           row, fully masked rows, NaN/Inf, strided, GQA; fp32 reference,
#           NaN-poisoned outputs); memcheck and racecheck on small odd
#           shapes of four kernels;
#   part 2: run.py full mode on the 24 benchmark kernels (median, p95, cold
#           start; cuDNN and FlashAttention-2 timed alone) and on the
#           score-modification kernels (FlexAttention with the same
#           modification, compiled and warmed); each score modification
#           against its unmodified kernel, interleaved (issue 8's bars).
# Build: bash bench/device/build_artifacts.sh .device/full;
#        tar czf .device/pack/full.tgz -C .device full (the only pack).
# Carry .device/pack and .device/include. COMMIT names the commit the
# pack was built from (61e4306 for the thirty-fourth session's run; the
# thirty-seventh session ran it again on an H200 with COMMIT=5900f72).
# usage: [COMMIT=SHA] session34-final.sh 1|2 [LIMIT_S]
set -uo pipefail
part=${1:?part 1 or 2}
final=${OUT:-/tmp/out}
OUT=/tmp/final$part
source bench/device/probes/device_setup.sh ${2:-570}
A=/tmp/t/full
C=${COMMIT:-61e4306}
finish() { tar czf "$final/final$part.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/final$part-summary.txt" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
python3 -c "import torch; print('torch', torch.__version__, 'cuDNN', torch.backends.cudnn.version())"
stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
bench=""
for dt in f16 bf16; do for d in 64 128 256; do for m in none causal_br causal_tl; do
  bench="$bench${bench:+ }attn_${dt}_d${d}_${m}"
done; done; done
pairs_with() { local p=""; for k in $bench; do p="$p${p:+,}$k=$1"; done; echo "$p"; }
NS=512,1024,2048,4096,8192,16384
case $part in
1)
  timeout 170 python3 bench/device/pair.py --artifacts $A --runtime $L \
    --out "$out/pairs-cudnn.json" --rounds 3 --ns $NS --pairs "$(pairs_with cudnn)" > "$out/pairs-cudnn.txt" 2>&1
  stamp "pairs vs cuDNN: exit $?"; grep -E "A/B" "$out/pairs-cudnn.txt" | cut -c1-90
  timeout 150 python3 bench/device/pair.py --artifacts $A --runtime $L \
    --out "$out/pairs-flash2.json" --rounds 2 --ns $NS --pairs "$(pairs_with flash2)" > "$out/pairs-flash2.txt" 2>&1
  stamp "pairs vs FlashAttention-2: exit $?"; grep -E "A/B" "$out/pairs-flash2.txt" | cut -c1-90
  timeout $(( $(left) - 80 )) python3 bench/device/run.py --artifacts $A --runtime $L \
    --out "$out/quick" --quick --no-isolate --kernel-timeout 60 --commit $C > "$out/quick.log" 2>&1
  stamp "run.py --quick (all kernels): exit $?"
  grep -E "FAIL|passed" "$out/quick.log" | cut -c1-200 | tail -8
  [ -f "$out/quick/results.json" ] && python3 bench/device/make_table.py "$out/quick/results.json" > "$out/quick-table.md"
  for tool in memcheck racecheck; do
    timeout $(( $(left) / 2 - 5 )) compute-sanitizer --tool $tool --error-exitcode 3 \
      python3 bench/device/sanitize.py --artifacts $A --runtime $L \
      attn_f16_d128_causal_br,mod_f16_d128_softcap,mod_f16_d128_bias_b1h1,mod_bf16_d64_all > "$out/$tool.log" 2>&1
    stamp "$tool: exit $?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|^FAIL" "$out/$tool.log" | cut -c1-140 | tail -3
  done
  ;;
2)
  timeout 150 python3 bench/device/run.py --artifacts $A --runtime $L --out "$out/matrix" \
    --commit $C --no-isolate --kernels 'attn_*' --kernel-timeout 60 > "$out/matrix.log" 2>&1
  stamp "matrix full mode: exit $?"; grep -E "passed" "$out/matrix.log" | tail -2 | cut -c1-200
  [ -f "$out/matrix/results.json" ] && python3 bench/device/make_table.py "$out/matrix/results.json" > "$out/matrix-table.md"
  timeout 160 python3 bench/device/pair.py --artifacts $A --runtime $L --out "$out/mods-pairs.json" \
    --rounds 5 --bases 'mod_*' --ns 1024,4096,16384 > "$out/mods-pairs.txt" 2>&1
  stamp "mods vs base: exit $?"; grep -E "A/B" "$out/mods-pairs.txt" | cut -c1-90
  timeout $(( $(left) - 10 )) python3 bench/device/run.py --artifacts $A --runtime $L --out "$out/mods" \
    --commit $C --no-isolate --kernels 'mod_*' --kernel-timeout 90 > "$out/mods.log" 2>&1
  stamp "mods full mode: exit $?"; grep -E "^\[|passed" "$out/mods.log" | tail -20 | cut -c1-200
  [ -f "$out/mods/results.json" ] && python3 bench/device/make_table.py "$out/mods/results.json" > "$out/mods-table.md"
  ;;
esac
stamp done
