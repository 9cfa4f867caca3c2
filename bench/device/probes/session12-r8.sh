#!/usr/bin/env bash
# Twelfth session, device run 8 (outputs in $OUT/r8.tgz): D = 128 variants
# (bench/device/probes/session12-d128-variants.txt, .device/pack/d128v.tgz)
# with rescale_slack = 8 / lazy_rescale on K/V blocks of 176 and 192 keys
# without the overlap (its second score tile does not fit beside them),
# against the 128 x 144 overlapped kernel with the slack (the main unmasked
# configuration), and the causal 128 x 176 kernel (the database's choice
# from 8192 keys) with and without the slack; run.py --quick on them first.
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/r8
source bench/device/probes/device_setup.sh 300
finish() { tar czf "$final/r8.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
timeout 80 python3 bench/device/run.py --artifacts /tmp/t/d128v --runtime $L \
  --out /tmp/d128v-check --quick --no-isolate --kernel-timeout 60 > "$out/d128v-check.log" 2>&1
echo "run.py --quick d128v: exit $?"; grep -E "FAIL|fail|passed|kernels" "$out/d128v-check.log" | tail -6
p="u176ls_f16_d128_none=u144_f16_d128_none,u176_f16_d128_none=u144_f16_d128_none,u192ls_f16_d128_none=u144_f16_d128_none"
p="$p,c176ls_f16_d128_causal_br=c176_f16_d128_causal_br,u144_f16_d128_none=cudnn,u176ls_f16_d128_none=cudnn"
timeout 150 python3 bench/device/pair.py --artifacts /tmp/t/d128v --runtime $L \
  --out "$out/pairs.json" --rounds 4 --ns 1024,4096,8192,16384 --pairs "$p" > "$out/pairs.txt" 2>&1
echo "pairs: exit $?"; grep -E "A/B" "$out/pairs.txt" | cut -c1-84
echo "[$(( $(date +%s) - t0 )) s] done"
