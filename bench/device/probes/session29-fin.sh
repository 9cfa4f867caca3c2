#!/usr/bin/env bash
# Twenty-ninth session: the softcap kernels as the build will make them
# after two changes, against the committed build's (session28-all.sh's
# bases.tgz), on the same card, before both land on the H200's numbers:
#  - the softcap keys tuned on the H200 (session28-sc.sh's tuning half)
#    merged into a scratch database by tune_trim.py (/tmp/s29/db/merged.sqlite
#    of the session);
#  - the lazy rescale with slack 8 for the f16 softcap beyond 1024 keys
#    (measured +2-6% on an H100, session29-lazy.sh).
# .device/fin: mod_{f16,bf16}_d128_softcap by attn-compile --cubin with that
# database (+ the harness sidecars of .device/bases), and fin_f16_n16384 /
# fin_f16_n8192 (the same source renamed, --seq-len=N --no-length-dispatch:
# PTX identical to the dispatch's kernels for those lengths) for the
# sanitizers.  tar czf .device/pack/fin.tgz -C .device fin
# Also val.tgz (session29-val.sh's header) for the tuned-against-heuristic
# pairs. Carry .device/pack and .device/include.
set -uo pipefail
source bench/device/probes/device_setup.sh ${1:-300}
exec > >(tee "$out/summary.txt") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
timeout 100 python3 bench/device/run.py --artifacts /tmp/t/fin --runtime $L --kernels 'mod_*,fin_*' \
  --out /tmp/check-fin --quick --no-isolate --kernel-timeout 40 > "$out/check.log" 2>&1
echo "run.py --quick (fin): exit $?"; grep -E "FAIL|passed" "$out/check.log" | cut -c1-160 | head
for tool in memcheck racecheck; do
  timeout 70 compute-sanitizer --tool $tool --error-exitcode 3 \
    python3 bench/device/sanitize.py --artifacts /tmp/t/fin --runtime $L fin_f16_n16384,fin_f16_n8192 > "$out/$tool.log" 2>&1
  echo "$tool: exit $?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|^FAIL" "$out/$tool.log" | cut -c1-140 | tail -3
done
timeout $(( $(left) * 5 / 10 )) python3 bench/device/pair.py --artifacts /tmp/t/fin --artifacts-b /tmp/t/bases --runtime $L \
  --out "$out/fin-vs-old.json" --rounds 3 --ns 512,1024,2048,4096,8192,16384 \
  --pairs mod_f16_d128_softcap=mod_f16_d128_softcap,mod_bf16_d128_softcap=mod_bf16_d128_softcap > "$out/fin-vs-old.txt" 2>&1
echo "pairs new / committed build: exit $?"; grep -E "A/B|ERROR" "$out/fin-vs-old.txt" | cut -c1-120
timeout $(( $(left) * 6 / 10 )) python3 bench/device/pair.py --artifacts /tmp/t/fin --artifacts-b /tmp/t/bases --runtime $L \
  --out "$out/fin-vs-plain.json" --rounds 3 --ns 1024,4096,16384 \
  --pairs mod_f16_d128_softcap=attn_f16_d128_none,mod_bf16_d128_softcap=attn_bf16_d128_none > "$out/fin-vs-plain.txt" 2>&1
echo "pairs new softcap / plain: exit $?"; grep -E "A/B|ERROR" "$out/fin-vs-plain.txt" | cut -c1-120
timeout $(( $(left) - 5 )) python3 bench/device/pair.py --artifacts /tmp/t/tval --runtime $L \
  --out "$out/tval-pairs.json" --rounds 3 --ns 512,1024,4096,16384 \
  --pairs "$(cat /tmp/t/tval/pairs.txt)" > "$out/tval-pairs.txt" 2>&1
echo "pairs tuned / heuristic: exit $?"; grep -E "A/B|ERROR" "$out/tval-pairs.txt" | cut -c1-120
