# Sourced by the probe scripts on the device: the steps every probe run
# takes, so that a probe script is its list of kernels and pairs.
#   probe_begin NAME LIMIT_S   device_setup.sh (runtime, packs under
#                              /tmp/t, left()); output to /tmp/NAME, tarred
#                              to $OUT/NAME.tgz with NAME-summary.txt on exit
#   check_kernels DIR TIMEOUT [KERNELS]   run.py --quick (fp32 reference,
#                              poisoned outputs, odd shapes, NaN/Inf) and
#                              its table
#   memcheck DIR KERNELS TIMEOUT          compute-sanitizer memcheck
#   time_pairs NAME DIR PAIRS TIMEOUT [DIR_B]   pair.py, interleaved
#                              (ROUNDS, default 3; NS, default 1024,4096,16384);
#                              B kernels from DIR_B if given
# Each step prints its exit status and the seconds since the start.

probe_begin() {
  final=${OUT:-/tmp/out}
  probe_name=$1
  OUT=/tmp/$1
  source bench/device/probes/device_setup.sh "$2"
  trap 'tar czf "$final/$probe_name.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/$probe_name-summary.txt" 2>/dev/null' EXIT
  exec > >(tee "$out/summary.txt") 2>&1
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
}

probe_elapsed() { echo "[$(( $(date +%s) - t0 )) s]"; }

check_kernels() {
  timeout "$2" python3 bench/device/run.py --artifacts "$1" --runtime "$L" \
    --out "$out/check" --quick --no-isolate --kernel-timeout 30 ${3:+--kernels "$3"} \
    > "$out/check.log" 2>&1
  local rc=$?
  echo "$(probe_elapsed) run.py --quick: exit $rc"
  grep -E "FAIL|passed" "$out/check.log" | cut -c1-160 | head -12
  [ -f "$out/check/results.json" ] &&
    python3 bench/device/make_table.py "$out/check/results.json" > "$out/check-table.md"
  return $rc
}

memcheck() {
  timeout "$3" compute-sanitizer --tool memcheck --error-exitcode 3 \
    python3 bench/device/sanitize.py --artifacts "$1" --runtime "$L" "$2" > "$out/memcheck.log" 2>&1
  local rc=$?
  echo "$(probe_elapsed) memcheck: exit $rc"
  grep -E "ERROR SUMMARY|^FAIL" "$out/memcheck.log" | cut -c1-140 | tail -3
  return $rc
}

time_pairs() {
  timeout "$4" python3 bench/device/pair.py --artifacts "$2" ${5:+--artifacts-b "$5"} --runtime "$L" \
    --out "$out/$1.json" --rounds "${ROUNDS:-3}" --ns "${NS:-1024,4096,16384}" \
    --pairs "$3" > "$out/$1.txt" 2>&1
  local rc=$?
  echo "$(probe_elapsed) pairs $1: exit $rc"
  grep -E "A/B|ERROR" "$out/$1.txt" | cut -c1-120
  return $rc
}
