#!/usr/bin/env bash
# Thirty-eighth session: index arithmetic on register tiles with the
# constant offsets folded (IotaLowering builds each register's index as the
# thread's first index plus an immediate; ElementwiseOnTiles turns a
# register's (a + c1) - (b + c2) into (a - b) + (c1 - c2), the difference
# shared by all registers). The seven kernels whose PTX changed (relpos,
# ALiBi, the D = 64 all-modifications kernel, sinks + window; relpos's
# 16384-key PTX 2838 lines against 3143, no or.b32 left) checked with
# run.py --quick and timed against 5900f72's, interleaved.
# Packs: full (build_artifacts.sh .device/full at 5900f72), iotap (the
# changed kernels of build_artifacts.sh .device/iota with this change).
# Carry .device/pack, .device/include.
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/iota
source bench/device/probes/device_setup.sh ${1:-200}
finish() { tar czf "$final/iota.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/iota-summary.txt" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
A=/tmp/t/iotap/iotap
timeout 40 python3 bench/device/run.py --artifacts $A --runtime $L \
  --out "$out/quick" --quick --no-isolate --kernel-timeout 30 --commit iota-offsets > "$out/quick.log" 2>&1
stamp "run.py --quick: exit $?"; grep -E "FAIL|passed" "$out/quick.log" | cut -c1-200 | tail -4
P=""
for k in mod_f16_d128_relpos mod_bf16_d128_alibi_causal_br mod_bf16_d64_all mod_f16_d128_sinkwin; do P="$P${P:+,}$k=$k"; done
timeout $(( $(left) - 5 )) python3 bench/device/pair.py --artifacts $A --artifacts-b /tmp/t/full \
  --runtime $L --out "$out/pairs.json" --rounds ${ROUNDS:-3} --ns ${NS:-1024,4096,16384} --pairs "$P" > "$out/pairs.txt" 2>&1
stamp "new vs 5900f72: exit $?"; grep -E "A/B" "$out/pairs.txt" | cut -c1-100
stamp done
