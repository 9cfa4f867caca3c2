#!/usr/bin/env bash
# Thirtieth session: session29-fin.sh's measurements on an H200 (the build
# as it is now: the H200 softcap tuning merged and the f16 softcap's slack,
# against the twenty-eighth session's build), then run.py's full mode on
# the two D = 128 softcap kernels: the device matrix's correctness points
# (odd lengths, NaN/Inf inputs, strided) and timing beside cuDNN /
# FlashAttention-2 (plain attention) and FlexAttention with the same
# score_mod (torch.compile, warmed first) on the same inputs. Between them,
# the tuned-against-heuristic pairs of session29-val.sh.
# Packs: .device/pack/{bases,fin,val}.tgz (session29-fin.sh's header);
# carry .device/pack and .device/include. usage: session30-h200.sh [LIMIT_S]
set -uo pipefail
source bench/device/probes/device_setup.sh ${1:-560}
exec > >(tee "$out/summary.txt") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
timeout 100 python3 bench/device/run.py --artifacts /tmp/t/fin --runtime $L --kernels 'mod_*,fin_*' \
  --out /tmp/check-fin --quick --no-isolate --kernel-timeout 40 > "$out/check.log" 2>&1
rc=$?; echo "[$(( $(date +%s) - t0 )) s] run.py --quick (fin): exit $rc"; grep -E "FAIL|passed" "$out/check.log" | cut -c1-160 | head
for tool in memcheck racecheck; do
  timeout 70 compute-sanitizer --tool $tool --error-exitcode 3 \
    python3 bench/device/sanitize.py --artifacts /tmp/t/fin --runtime $L fin_f16_n16384,fin_f16_n8192 > "$out/$tool.log" 2>&1
  echo "$tool: exit $?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|^FAIL" "$out/$tool.log" | cut -c1-140 | tail -3
done
timeout 120 python3 bench/device/pair.py --artifacts /tmp/t/fin --artifacts-b /tmp/t/bases --runtime $L \
  --out "$out/fin-vs-old.json" --rounds 3 --ns 512,1024,2048,4096,8192,16384 \
  --pairs mod_f16_d128_softcap=mod_f16_d128_softcap,mod_bf16_d128_softcap=mod_bf16_d128_softcap > "$out/fin-vs-old.txt" 2>&1
rc=$?; echo "[$(( $(date +%s) - t0 )) s] pairs new / committed build: exit $rc"; grep -E "A/B|ERROR" "$out/fin-vs-old.txt" | cut -c1-120
timeout 90 python3 bench/device/pair.py --artifacts /tmp/t/fin --artifacts-b /tmp/t/bases --runtime $L \
  --out "$out/fin-vs-plain.json" --rounds 5 --ns 1024,4096,16384 \
  --pairs mod_f16_d128_softcap=attn_f16_d128_none,mod_bf16_d128_softcap=attn_bf16_d128_none > "$out/fin-vs-plain.txt" 2>&1
rc=$?; echo "[$(( $(date +%s) - t0 )) s] pairs new softcap / plain: exit $rc"; grep -E "A/B|ERROR" "$out/fin-vs-plain.txt" | cut -c1-120
timeout 80 python3 bench/device/pair.py --artifacts /tmp/t/tval --runtime $L \
  --out "$out/tval-pairs.json" --rounds 3 --ns 1024,4096,16384 \
  --pairs "$(cat /tmp/t/tval/pairs.txt)" > "$out/tval-pairs.txt" 2>&1
rc=$?; echo "[$(( $(date +%s) - t0 )) s] pairs tuned / heuristic: exit $rc"; grep -E "A/B|ERROR" "$out/tval-pairs.txt" | cut -c1-120
timeout $(( $(left) - 10 )) python3 bench/device/run.py --artifacts /tmp/t/fin --runtime $L \
  --kernels 'mod_f16_d128_softcap,mod_bf16_d128_softcap' --out "$out/full" --no-isolate --kernel-timeout 150 > "$out/full.log" 2>&1
rc=$?; echo "[$(( $(date +%s) - t0 )) s] run.py full mode (softcap, with FlexAttention): exit $rc"; grep -E "^\[|passed|FAIL|timing N" "$out/full.log" | cut -c1-170 | tail -20
[ -f "$out/full/results.json" ] && python3 bench/device/make_table.py "$out/full/results.json" > "$out/full-table.md"
echo "[$(( $(date +%s) - t0 )) s] done"
