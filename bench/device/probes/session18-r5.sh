#!/usr/bin/env bash
# Eighteenth session, device run 5 (outputs in $OUT/r5.tgz): correctness
# of the default kernels that stage the bias, over the masks (s3.tgz:
# attn-compile's defaults for D = 128 with static key lengths 1024 / 4096,
# f16 and bf16, bias [B, H, Nq, Nk] or [1, 1, Nq, Nk], unmasked, causal
# bottom-right and top-left; every one stages the bias). static_check.py
# (odd Nq, one row, GQA, Nq > Nk with bottom-right rows that see no key,
# many tiles, [B, N, H, D], NaN/Inf); memcheck, racecheck, synccheck on
# small shapes of two causal kernels.
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/r5
source bench/device/probes/device_setup.sh 300
finish() { tar czf "$final/r5.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
timeout 100 python3 bench/device/probes/static_check.py --artifacts /tmp/t/s3 --runtime $L --nk 1024 \
  sb_f16_full_cbr_1k,sb_f16_b1h1_cbr_1k,sb_f16_full_ctl_1k,sb_bf16_full_cbr_1k > "$out/check-1k.log" 2>&1
echo "static_check 1024: exit $?"; grep -c "^ok" "$out/check-1k.log"; grep -v "^ok" "$out/check-1k.log" | cut -c1-160 | head
timeout 100 python3 bench/device/probes/static_check.py --artifacts /tmp/t/s3 --runtime $L --nk 4096 \
  sb_f16_full_cbr_4k,sb_bf16_b1h1_cbr_4k,sb_bf16_full_ctl_4k,sb_f16_full_none_4k > "$out/check-4k.log" 2>&1
echo "static_check 4096: exit $?"; grep -c "^ok" "$out/check-4k.log"; grep -v "^ok" "$out/check-4k.log" | cut -c1-160 | head
for tool in memcheck racecheck synccheck; do
  timeout 60 compute-sanitizer --tool $tool --error-exitcode 3 \
    python3 bench/device/probes/static_check.py --artifacts /tmp/t/s3 --runtime $L --nk 1024 --small \
    sb_f16_full_cbr_1k,sb_f16_full_ctl_1k > "$out/$tool.log" 2>&1
  echo "$tool: exit $?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|FAIL" "$out/$tool.log" | cut -c1-140 | tail -4
done
echo "[$(( $(date +%s) - t0 )) s] done"
