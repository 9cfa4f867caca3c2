#!/usr/bin/env bash
# Twenty-ninth session: validation of the softcap keys tuned on the H200
# (session28-sc.sh's tuning half, tuning-softcap.json, imported into a
# scratch copy of the build's database), before they go into
# data/tuning/h200-sm_90a.json:
#  - .device/tval: ATTN_TUNING_DB=scratch bash bench/device/tune_validate.sh
#    .device/tsc .device/tval (tuned defaults t_* against the heuristic h_*);
#  - .device/scn: mod_{f16,bf16}_d128_softcap built by attn-compile --cubin
#    with the scratch database (the harness sidecars of .device/bases), run
#    through run.py --quick and paired against the committed database's
#    kernels in .device/bases (session28-all.sh's pack, bases.tgz).
#   tar czf .device/pack/val.tgz -C .device scn tval
# Carry .device/pack and .device/include.
set -uo pipefail
source bench/device/probes/device_setup.sh ${1:-250}
exec > >(tee "$out/summary.txt") 2>&1
timeout 100 python3 bench/device/run.py --artifacts /tmp/t/scn --runtime $L --kernels 'mod_*' \
  --out /tmp/check-scn --quick --no-isolate --kernel-timeout 40 > "$out/check.log" 2>&1
echo "run.py --quick (scn): exit $?"; grep -E "FAIL" "$out/check.log" | cut -c1-160 | head; tail -2 "$out/check.log" | cut -c1-200
timeout $(( $(left) / 2 )) python3 bench/device/pair.py --artifacts /tmp/t/scn --artifacts-b /tmp/t/bases --runtime $L \
  --out "$out/new-vs-old.json" --rounds 3 --ns 512,1024,2048,4096,8192,16384 \
  --pairs mod_f16_d128_softcap=mod_f16_d128_softcap,mod_bf16_d128_softcap=mod_bf16_d128_softcap > "$out/new-vs-old.txt" 2>&1
echo "pairs new db / committed db: exit $?"; grep -E "A/B" "$out/new-vs-old.txt" | cut -c1-120
timeout $(( $(left) - 5 )) python3 bench/device/pair.py --artifacts /tmp/t/tval --runtime $L \
  --out "$out/tval-pairs.json" --rounds 3 --ns 512,1024,4096,16384 \
  --pairs "$(cat /tmp/t/tval/pairs.txt)" > "$out/tval-pairs.txt" 2>&1
echo "pairs tuned / heuristic: exit $?"; grep -E "A/B" "$out/tval-pairs.txt" | cut -c1-120
