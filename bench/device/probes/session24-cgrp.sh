#!/usr/bin/env bash
# Twenty-fourth session, device run "cgrp" (outputs in $OUT/cgrp.tgz): the
# grouped tile order (gpu_config's group_m) of causal persistent kernels
# without a bias: how it balances the CTAs' work. Build first:
#   bash bench/device/build_variants.sh .device/cgrp < bench/device/probes/session24-cgrp-variants.txt
#   mkdir -p .device/pack && rm -f .device/pack/*.tgz && tar czf .device/pack/cgrp.tgz -C .device cgrp
# and carry .device/pack and .device/include.
#  1. run.py --quick on every variant; compute-sanitizer memcheck on two;
#  2. pair.py: causal persistent kernels (the database's tiles at 8192) with
#     group_m = 16 / 8 / 1 against the same kernel without, and against the
#     one-CTA-per-tile kernel the database picks at 16384; f16 D = 128
#     bottom-right, bf16 top-left, f16 D = 256; N = 4096 / 8192 / 16384.
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/cgrp
source bench/device/probes/device_setup.sh 400
finish() { tar czf "$final/cgrp.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/cgrp-summary.txt" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
timeout 120 python3 bench/device/run.py --artifacts /tmp/t/cgrp --runtime $L --kernels '*' \
  --out /tmp/check-cgrp --quick --no-isolate --kernel-timeout 30 > "$out/check-cgrp.log" 2>&1
echo "run.py --quick (cgrp): exit $?"; grep -E "FAIL" "$out/check-cgrp.log" | cut -c1-160 | head; tail -3 "$out/check-cgrp.log" | cut -c1-200
echo "[$(( $(date +%s) - t0 )) s]"
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 3 \
  python3 bench/device/sanitize.py --artifacts /tmp/t/cgrp --runtime $L c128p16,c256p16 > "$out/memcheck.log" 2>&1
echo "memcheck: exit $?"; grep -E "ERROR SUMMARY|^FAIL" "$out/memcheck.log" | cut -c1-140 | tail -3
echo "[$(( $(date +%s) - t0 )) s]"
p="c128p16=c128p,c128p8=c128p,c128p1=c128p,c128p16=c128n,c128p=c128n,bc128p16=bc128p,bc128p16=bc128n,c256p16=c256p,c256p16=c256n"
timeout $(( $(left) - 10 )) python3 bench/device/pair.py --artifacts /tmp/t/cgrp \
  --runtime $L --out "$out/pairs-cgrp.json" --rounds 3 --ns 4096,8192,16384 --pairs "$p" > "$out/pairs-cgrp.txt" 2>&1
echo "pairs: exit $?"; grep -E "A/B" "$out/pairs-cgrp.txt" | cut -c1-160
echo "[$(( $(date +%s) - t0 )) s] done"
