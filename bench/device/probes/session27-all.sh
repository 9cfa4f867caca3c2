#!/usr/bin/env bash
# Twenty-seventh session: the prepared device runs in one call, since
# machines were scarce (seven starts failed before this was written) and
# each start costs device time. The twenty-fifth session's scripts ran
# 40-130 s each where their limits allow 200-570, so three fit one call:
#  1. session24-dg.sh (the default group_m kernels, correctness);
#  2. session25-la.sh (loads_ahead: correctness, sanitizers, pairs), its
#     limit cut to what the pairs need;
#  3. the default score-modification kernels in run.py's full mode beside
#     cuDNN / FlashAttention-2 / FlexAttention, issue 8's two bar kernels
#     first (f16 D = 128 softcap and [1, 1, N, N] bias), then the other
#     bias and softcap kernels while time is left (results.json is written
#     after every kernel).
# Packs: dg.tgz, la.tgz (session24-dg.sh's and session25-la.sh's headers)
# and mods.tgz (session25-mods.sh's header) in .device/pack; carry
# .device/pack and .device/include. Outputs: dg-summary.txt, check-dg.log,
# la.tgz, la-summary.txt, mods.tgz, mods-summary.txt.
set -uo pipefail
final=${OUT:-/tmp/out}
s=$(date +%s)
el() { echo $(( $(date +%s) - s )); }
OUT=$final bash bench/device/probes/session24-dg.sh
OUT=$final LIMIT_S=$(( 370 - $(el) )) bash bench/device/probes/session25-la.sh
OUT=/tmp/mods
LIMIT_S=$(( ${TOTAL_S:-585} - $(el) ))
source bench/device/probes/device_setup.sh 200
finish() { tar czf "$final/mods.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/mods-summary.txt" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
for part in "a:mod_f16_d128_softcap,mod_f16_d128_bias_b1" \
            "b:mod_bf16_d128_softcap,mod_bf16_d128_bias_b1_none,mod_f16_d128_bias,mod_f16_d128_bias_h1,mod_f16_d128_bias_b1h1,mod_bf16_d128_bias,mod_f16_d128_bias_causal_tl,mod_bf16_d128_bias_causal_br,mod_f16_d128_softcap_causal_br,mod_f16_d64_softcap,mod_bf16_d64_softcap"; do
  tag=${part%%:*}; pats=${part#*:}
  [ "$(left)" -gt 40 ] || break
  timeout $(( $(left) - 15 )) python3 bench/device/run.py --artifacts /tmp/t/mods --runtime $L \
    --kernels "$pats" --out "$out/full-mods-$tag" --no-isolate --kernel-timeout 90 \
    > "$out/full-mods-$tag.log" 2>&1
  echo "run.py full mode (mods, $tag): exit $?"; grep -E "^\[|passed|FAIL" "$out/full-mods-$tag.log" | tail -24
  [ -f "$out/full-mods-$tag/results.json" ] && python3 bench/device/make_table.py \
    "$out/full-mods-$tag/results.json" > "$out/full-mods-$tag-table.md"
  echo "[$(( $(date +%s) - t0 )) s]"
done
echo "[$(el) s in all] done"
