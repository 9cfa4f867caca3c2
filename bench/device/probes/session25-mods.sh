#!/usr/bin/env bash
# Twenty-fifth session, device run "mods" (outputs in $OUT/mods.tgz): the
# default build's score-modification kernels (build_artifacts.sh: softcap,
# bias of every broadcast shape, now with the grouped tile order where the
# bias is broadcast, ALiBi, a relative-position score_mod, a document
# mask_mod) in run.py's full mode: the device matrix's correctness points,
# then timing beside cuDNN / FlashAttention-2 where they apply and
# FlexAttention (torch.compile(flex_attention), the same score_mod,
# compiled and warmed before timing) on the same inputs. Written in the
# twenty-fifth session, when no device was lent. MODS (default the bias
# and softcap kernels, issue 8's two bars: 12 of the 17, about what fits
# one call) picks others, e.g. MODS='mod_*alibi*,mod_*relpos*,mod_*docmask*,mod_*_all'.
# Build:
#   bash bench/device/build_artifacts.sh .device/dflt; rm -rf .device/mods; mkdir -p .device/mods
#   cp .device/dflt/mod_* .device/mods/; tar czf .device/pack/mods.tgz -C .device mods
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/mods
source bench/device/probes/device_setup.sh 560
finish() { tar czf "$final/mods.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/mods-summary.txt" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
timeout $(( $(left) - 15 )) python3 bench/device/run.py --artifacts /tmp/t/mods --runtime $L \
  --kernels "${MODS:-mod_*bias*,mod_*softcap*}" --out "$out/full-mods" --no-isolate --kernel-timeout 90 > "$out/full-mods.log" 2>&1
echo "run.py full mode (mods): exit $?"; grep -E "^\[|passed|FAIL" "$out/full-mods.log" | tail -24
[ -f "$out/full-mods/results.json" ] && python3 bench/device/make_table.py "$out/full-mods/results.json" > "$out/full-mods-table.md"
echo "[$(( $(date +%s) - t0 )) s] done"
