#!/usr/bin/env bash
# Twenty-eighth session, second run: the softcap kernels with the 192 x 80
# (12 warps, async_pv) tile that the first run's tuning (session25-tsc.sh,
# on an H100) preferred at 2048-16384 keys, against the plain kernels
# (issue 8's bar: softcap at most 1.10x) and against today's softcap
# defaults, on one card in one run.
# Packs in .device/pack: bases.tgz (session28-all.sh's header), tsc.tgz
# (session25-tsc.sh's header) and sc.tgz: .device/sc holds
#  - attn_{f16,bf16}_d128_none* copied from .device/bases;
#  - mod_{f16,bf16}_d128_softcap* built by attn-compile with a scratch
#    database (the shipped one plus `attn-tune import` of the first run's
#    tuning-softcap.json), with the .harness.json files from .device/bases;
#  - sc192_{f16,bf16}: the same sources renamed, --seq-len=16384
#    --no-length-dispatch (the 192 x 80 kernel alone), for the sanitizers.
#   tar czf .device/pack/sc.tgz -C .device sc
# Carry .device/pack and .device/include. Outputs: sc-summary.txt, sc.tgz,
# and the tuning run again (tsc.tgz, tsc-summary.txt) in what is left.
set -uo pipefail
final=${OUT:-/tmp/out}
s=$(date +%s)
el() { echo $(( $(date +%s) - s )); }
(
  OUT=/tmp/sc
  source bench/device/probes/device_setup.sh 330
  finish() { tar czf "$final/sc.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/sc-summary.txt" 2>/dev/null; }
  trap finish EXIT
  exec > >(tee "$out/summary.txt") 2>&1
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
  timeout 120 python3 bench/device/run.py --artifacts /tmp/t/sc --runtime $L --kernels 'mod_*,sc192_*' \
    --out /tmp/check-sc --quick --no-isolate --kernel-timeout 40 > "$out/check-sc.log" 2>&1
  echo "run.py --quick (sc): exit $?"; grep -E "FAIL" "$out/check-sc.log" | cut -c1-160 | head; tail -3 "$out/check-sc.log" | cut -c1-200
  for tool in memcheck racecheck; do
    timeout 80 compute-sanitizer --tool $tool --error-exitcode 3 \
      python3 bench/device/sanitize.py --artifacts /tmp/t/sc --runtime $L sc192_f16,sc192_bf16 > "$out/$tool.log" 2>&1
    echo "$tool: exit $?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|^FAIL" "$out/$tool.log" | cut -c1-140 | tail -4
  done
  echo "[$(el) s]"
  timeout $(( $(left) - 100 )) python3 bench/device/pair.py --artifacts /tmp/t/sc --runtime $L \
    --out "$out/sc-vs-plain.json" --bases 'mod_*' --rounds 3 --ns 1024,4096,16384 > "$out/sc-vs-plain.txt" 2>&1
  echo "pairs new softcap / plain: exit $?"; grep -E "A/B" "$out/sc-vs-plain.txt" | cut -c1-120
  timeout $(( $(left) - 60 )) python3 bench/device/pair.py --artifacts /tmp/t/sc --artifacts-b /tmp/t/bases \
    --runtime $L --out "$out/sc-vs-old.json" --rounds 3 --ns 1024,4096,16384 \
    --pairs mod_f16_d128_softcap=mod_f16_d128_softcap,mod_bf16_d128_softcap=mod_bf16_d128_softcap > "$out/sc-vs-old.txt" 2>&1
  echo "pairs new softcap / old: exit $?"; grep -E "A/B" "$out/sc-vs-old.txt" | cut -c1-120
  timeout $(( $(left) - 5 )) python3 bench/device/pair.py --artifacts /tmp/t/bases --runtime $L \
    --out "$out/bases-pairs.json" --bases 'mod_*' --rounds 3 --ns 1024,4096,16384 > "$out/bases-pairs.txt" 2>&1
  echo "pairs old mods / plain: exit $?"; grep -E "A/B" "$out/bases-pairs.txt" | cut -c1-150
  echo "[$(el) s]"
)
OUT=$final LIMIT_S=$(( ${TOTAL_S:-585} - $(el) )) bash bench/device/probes/session25-tsc.sh
echo "[$(el) s in all] done"
