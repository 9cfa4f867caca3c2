#!/usr/bin/env bash
# The one command the device machine runs (through the device tool), from the
# repository root, with the artifacts from bench/device/build_artifacts.sh
# carried in .device/artifacts:
#   bash bench/device/device_run.sh COMMIT [run.py options...]
# (ATTN_ARTIFACTS=DIR takes the kernels from DIR instead.)
# Builds the runtime there, checks and times every kernel, and leaves
# results.tgz (all per-kernel records), results.json and table.md in $OUT.
set -uo pipefail
commit=${1:-unknown}; shift || true
out=${OUT:-/tmp/out}
res=/tmp/attn-results
mkdir -p "$out" "$res"
bash bench/device/build_runtime.sh /tmp/brt || exit 2
# The runtime's own end-to-end test (hand-written kernels of each ABI).
bash runtime/test/device/run.sh /tmp/brt /tmp/rt-device > "$res/runtime-device-test.txt" 2>&1
echo "runtime device test: exit $? ($(tail -1 "$res/runtime-device-test.txt"))"
export PYTHONUNBUFFERED=1
timeout "${ATTN_DEVICE_BUDGET_S:-540}" python3 bench/device/run.py \
  --artifacts "${ATTN_ARTIFACTS:-.device/artifacts}" --runtime /tmp/brt/libattn_runtime.so \
  --out "$res" --commit "$commit" "$@" 2>&1 | tee "$res/log.txt"
rc=${PIPESTATUS[0]}
cp "${ATTN_ARTIFACTS:-.device/artifacts}"/compile_times.txt "$res/" 2>/dev/null
tar czf "$out/results.tgz" -C /tmp attn-results
[ -f "$res/results.json" ] && cp "$res/results.json" "$out/" \
  && python3 bench/device/make_table.py "$res/results.json" > "$out/table.md"
exit "$rc"
