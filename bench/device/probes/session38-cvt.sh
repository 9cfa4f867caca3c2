#!/usr/bin/env bash
# Thirty-eighth session: is the per-score int -> float conversion what an
# index-based score modification costs? The relpos (0.01 (j - i)) and ALiBi
# kernels of 5900f72 convert an index per score with cvt.rn.f32.s32 (I2F,
# the conversion unit ex2 also runs on). Variant "magic": the same PTX with
# each conversion rewritten by cvt_magic.py into an integer add and a float
# subtract (exact for |x| < 2^22), assembled by the same ptxas. Checked
# (run.py --quick), then timed against the unmodified kernels, interleaved.
# Variant "bif": the same sources compiled with attn-compile (branch
# wip/bound-int-to-float, not on main)
# --bound-int-to-float (attn.int_to_float: a run-time range check per K/V
# block and a branch between the two conversions; ptxas reports 848 / 84
# bytes of spills for the relpos / ALiBi kernels), checked and timed too.
# Packs: full (build_artifacts.sh .device/full), magic (cvt_magic.py on
# full's relpos and ALiBi PTX, ptxas -arch=sm_90a -O3), bif (attn-compile
# --bound-int-to-float on full's three sources). Carry .device/pack,
# .device/include.
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/cvt
source bench/device/probes/device_setup.sh ${1:-200}
finish() { tar czf "$final/cvt.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/cvt-summary.txt" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
for k in mod_f16_d128_relpos mod_bf16_d128_alibi_causal_br; do
  for d in full magic/magic; do
    echo "$d $k SASS: I2F $(cuobjdump -sass /tmp/t/$d/$k.sm_90a.cubin | grep -c I2F)," \
      "MUFU.EX2 $(cuobjdump -sass /tmp/t/$d/$k.sm_90a.cubin | grep -c MUFU.EX2)"
  done
done
timeout 60 python3 bench/device/run.py --artifacts /tmp/t/bif/bif --runtime $L \
  --out "$out/quick-bif" --quick --no-isolate --kernel-timeout 30 --commit bound-int-to-float > "$out/quick-bif.log" 2>&1
stamp "run.py --quick (bif): exit $?"; grep -E "FAIL|passed" "$out/quick-bif.log" | cut -c1-200 | tail -4
timeout 60 python3 bench/device/run.py --artifacts /tmp/t/magic/magic --runtime $L \
  --out "$out/quick" --quick --no-isolate --kernel-timeout 30 --commit 5900f72+cvt_magic > "$out/quick.log" 2>&1
stamp "run.py --quick (magic): exit $?"; grep -E "FAIL|passed" "$out/quick.log" | cut -c1-200 | tail -4
timeout 100 python3 bench/device/pair.py --artifacts /tmp/t/magic/magic --artifacts-b /tmp/t/full \
  --runtime $L --out "$out/cvt-pairs.json" --rounds 5 --ns 1024,4096,16384 \
  --pairs mod_f16_d128_relpos=mod_f16_d128_relpos,mod_bf16_d128_alibi_causal_br=mod_bf16_d128_alibi_causal_br > "$out/cvt-pairs.txt" 2>&1
stamp "magic vs full: exit $?"; grep -E "A/B" "$out/cvt-pairs.txt" | cut -c1-100
timeout $(( $(left) - 5 )) python3 bench/device/pair.py --artifacts /tmp/t/bif/bif --artifacts-b /tmp/t/full \
  --runtime $L --out "$out/bif-pairs.json" --rounds 3 --ns 1024,4096,16384 \
  --pairs mod_f16_d128_relpos=mod_f16_d128_relpos,mod_bf16_d128_alibi_causal_br=mod_bf16_d128_alibi_causal_br > "$out/bif-pairs.txt" 2>&1
stamp "bif vs full: exit $?"; grep -E "A/B" "$out/bif-pairs.txt" | cut -c1-100
stamp done
