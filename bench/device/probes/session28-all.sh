#!/usr/bin/env bash
# Twenty-eighth session: issue 8's two score-modification bars as in-run
# ratios, then the softcap tuning run (session25-tsc.sh) in what is left.
#  1. pair.py --bases: every default softcap / bias kernel against the
#     plain kernel its harness names as its base (same tile family, same
#     inputs, interleaved rounds), N = 1024 / 4096 / 16384.
#  2. session25-tsc.sh with the remaining limit (resumable with SKIP).
# Packs in .device/pack: bases.tgz (the default artifacts
# mod_{f16,bf16}_d128_softcap*, mod_f16_d128_bias_b1h1*,
# mod_f16_d128_bias.* / __*, attn_{f16,bf16}_d128_none* from
# `bash bench/device/build_artifacts.sh .device/dflt`, copied to
# .device/bases and `tar czf .device/pack/bases.tgz -C .device bases`) and
# tsc.tgz (session25-tsc.sh's header). Carry .device/pack and
# .device/include. Outputs: bases-pairs.json, bases-summary.txt, tsc.tgz,
# tsc-summary.txt.
set -uo pipefail
final=${OUT:-/tmp/out}
s=$(date +%s)
el() { echo $(( $(date +%s) - s )); }
(
  OUT=$final
  source bench/device/probes/device_setup.sh 170
  timeout $(( $(left) - 5 )) python3 bench/device/pair.py --artifacts /tmp/t/bases --runtime $L \
    --out "$final/bases-pairs.json" --bases 'mod_*' --rounds 3 --ns 1024,4096,16384 2>&1 \
    | tee "$final/bases-summary.txt"
  echo "pair.py: exit ${PIPESTATUS[0]} [$(el) s]"
)
OUT=$final LIMIT_S=$(( ${TOTAL_S:-585} - $(el) )) bash bench/device/probes/session25-tsc.sh
echo "[$(el) s in all] done"
