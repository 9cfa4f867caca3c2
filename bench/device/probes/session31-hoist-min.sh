#!/usr/bin/env bash
# session31-hoist.sh cut to what fits 120 s of device time: run.py --quick
# on the four hoisted kernels, then the hoisted-against-plain pairs of the
# three shapes at 4096 and 16384 keys and the softcap kernels against the
# plain f16 one at 16384 (3 rounds). Same packs (hm.tgz, all.tgz).
# usage: session31-hoist-min.sh [LIMIT_S]
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/hoist
source bench/device/probes/device_setup.sh ${1:-120}
finish() { tar czf "$final/hoist.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/hoist-summary.txt" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
timeout 45 python3 bench/device/run.py --artifacts /tmp/t/hm --runtime $L --kernels 'nh_f16,ch_f16,dh_f16,ph_f16' \
  --out "$out/check" --quick --no-isolate --kernel-timeout 20 > "$out/check.log" 2>&1
rc=$?; echo "[$(( $(date +%s) - t0 )) s] run.py --quick: exit $rc"; grep -E "FAIL|passed" "$out/check.log" | cut -c1-160 | head -8
[ -f "$out/check/results.json" ] && python3 bench/device/make_table.py "$out/check/results.json" > "$out/check-table.md"
timeout $(( $(left) * 6 / 10 )) python3 bench/device/pair.py --artifacts /tmp/t/hm --runtime $L \
  --out "$out/pairs.json" --rounds 3 --ns 4096,16384 \
  --pairs nh_f16=ns_f16,ch_f16=cs_f16,dh_f16=ds_f16 > "$out/pairs.txt" 2>&1
rc=$?; echo "[$(( $(date +%s) - t0 )) s] pairs: exit $rc"; grep -E "A/B|ERROR" "$out/pairs.txt" | cut -c1-120
timeout $(( $(left) - 3 )) python3 bench/device/pair.py --artifacts /tmp/t/hm --artifacts-b /tmp/t/all --runtime $L \
  --out "$out/vs-plain.json" --rounds 3 --ns 16384 \
  --pairs nh_f16=attn_f16_d128_none,ns_f16=attn_f16_d128_none > "$out/vs-plain.txt" 2>&1
rc=$?; echo "[$(( $(date +%s) - t0 )) s] pairs against plain: exit $rc"; grep -E "A/B|ERROR" "$out/vs-plain.txt" | cut -c1-120
