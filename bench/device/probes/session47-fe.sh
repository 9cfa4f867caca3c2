#!/usr/bin/env bash
# Forty-seventh session: does an early P V wait cost the default bias
# kernel what accumulate_bias lacks? In the acc kernel ptxas places P V's
# wgmma.wait_group 0 before the row maximum (Nsight Compute, session47-
# ncu.sh); in the default kernel after the bias's reads, FMAs and the
# maximum. Pack fe: the default f16 [1, 1, N, N] bias kernel's main PTX
# with that wait moved by hand to the top of its K/V loop ($L__BB0_21,
# before the bias's stage wait), assembled again (no spill); its length
# variants and TMA fallback unchanged. Built by
#   python3 bench/device/probes/early_pv_wait.py .device/full .device/fe mod_f16_d128_bias_b1h1
#   tar czf .device/pack/fe.tgz -C .device fe
#  1. run.py --quick on fe; its SASS;
#  2. timing, 5 rounds, N = 4096 / 16384: fe / full.
# Carry .device/pack (full.tgz, fe.tgz), .device/include.
# usage: session47-fe.sh [LIMIT_S]
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/fe47
source bench/device/probes/device_setup.sh ${1:-100}
finish() { cp "$out"/*.json "$out"/*.txt "$out"/*.gz "$final/" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
K=mod_f16_d128_bias_b1h1
timeout 50 python3 bench/device/run.py --artifacts /tmp/t/fe --runtime $L --out "$out/quick-fe" --quick \
  --no-isolate --kernels "$K*" > "$out/quick-fe.txt" 2>&1
stamp "run.py --quick (fe): exit $?"; grep -E "FAIL|passed|error" "$out/quick-fe.txt" | cut -c1-200 | tail -4
cuobjdump -sass /tmp/t/fe/$K.sm_90a.cubin 2>/dev/null | gzip > "$out/fe.sass.gz"
timeout $(( $(left) - 5 )) python3 bench/device/pair.py --artifacts /tmp/t/fe --artifacts-b /tmp/t/full --runtime $L \
  --out "$out/fe-full.json" --rounds 5 --ns 4096,16384 --pairs $K=$K > "$out/fe-full.txt" 2>&1
stamp "fe / full: exit $?"; grep -E "A/B" "$out/fe-full.txt" | cut -c1-120
stamp done
