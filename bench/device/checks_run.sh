#!/usr/bin/env bash
# Device checks beyond device_run.sh, one step per call (each within the
# device tool's 10 minutes), with the artifacts of build_artifacts.sh:
#   bash bench/device/checks_run.sh pairs      # interleaved A/B timing: new vs
#                                              # template, A/A noise, mods vs base
#   bash bench/device/checks_run.sh sass A B   # SASS of two cubins, normalized, diffed
#   bash bench/device/checks_run.sh sanitize K1,K2,...  # memcheck, racecheck, synccheck
# Results under $OUT.
set -uo pipefail
out=${OUT:-/tmp/out}; mkdir -p "$out"
art=${ATTN_ARTIFACTS:-.device/artifacts}
bash bench/device/build_runtime.sh /tmp/brt || exit 2
lib=/tmp/brt/libattn_runtime.so
export PYTHONUNBUFFERED=1
step=$1; shift
case $step in
pairs)
  python3 bench/device/pair.py --artifacts "$art" --runtime $lib --out "$out/pairs.json" \
      --rounds "${ROUNDS:-4}" --paired "${PAIRED:-}" ${PAIRS:+--pairs "$PAIRS"} \
      2>&1 | tee "$out/pairs.txt"
  [ -n "${BASES+x}" ] && python3 bench/device/pair.py --artifacts "$art" --runtime $lib \
      --out "$out/mods-pairs.json" --rounds "${ROUNDS:-4}" --bases "$BASES" \
      --ns "${MOD_NS:-1024,4096,16384}" 2>&1 | tee "$out/mods-pairs.txt"
  ;;
sass)
  norm() { cuobjdump -sass "$1" | grep -E '^\s+/\*[0-9a-f]{4}\*/' \
      | sed -E 's@/\*[0-9a-f]+\*/@@; s@;.*@@; s/R[0-9]+/R/g; s/P[0-9]/P/g; s/UR[0-9]+/UR/g; s/0x[0-9a-f]+/X/g' ; }
  for k in "$@"; do
    cuobjdump -sass "$art/$k.sm_90a.cubin" > "$out/$k.sass"
    norm "$art/$k.sm_90a.cubin" > "$out/$k.norm"
    echo "$k: $(wc -l < "$out/$k.norm") instructions; $(grep -c 'HMMA' "$out/$k.norm") HMMA, $(grep -c 'LDSM' "$out/$k.norm") LDSM, $(grep -cE 'STL|LDL' "$out/$k.norm") local"
  done
  [ $# -eq 2 ] && { diff "$out/$1.norm" "$out/$2.norm" > "$out/sass.diff"; echo "diff lines: $(wc -l < "$out/sass.diff")"; }
  ;;
sanitize)
  rc=0
  for tool in memcheck racecheck synccheck; do
    compute-sanitizer --tool $tool --error-exitcode 3 ${KNS:+--kernel-name kns=$KNS} \
        python3 bench/device/sanitize.py --artifacts "$art" --runtime $lib "$1" \
        > "$out/sanitize-$tool.txt" 2>&1
    r=$?; echo "$tool: exit $r; $(grep -c '^ok' "$out/sanitize-$tool.txt") ok points; $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$out/sanitize-$tool.txt" | tail -1)"
    [ $r -ne 0 ] && rc=$r
  done
  exit $rc
  ;;
*) echo "unknown step $step"; exit 2 ;;
esac
