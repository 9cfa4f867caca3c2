#!/usr/bin/env bash
# Forty-first session: the warp-uniform polynomial tanh (perf-log.md,
# forty-first session), as a PTX rewrite of the default f16 / bf16 D = 128
# softcap kernels of the full pack (c5430fc's kernels).
#  1. SASS: MUFU.TANH, VOTE and FFMA counts, rewritten against not;
#  2. run.py --quick (with the new large_scores point: query rows scaled
#     1x-16x, so warps take both paths) on the rewritten kernels, the
#     originals and the plain kernels (the new point on them too);
#     compute-sanitizer memcheck and racecheck on the rewritten f16 one;
#  3. pair.py, 7 interleaved rounds, N = 1024 / 4096 / 16384: rewritten
#     against original (f16, bf16), and each against plain (the bar's
#     ratio, both in the same run);
#  4. q scaled by 16 (the MUFU path nearly everywhere): rewritten against
#     original, f16, 5 rounds, N = 4096 / 16384;
#  5. the compiler's form (session41-poly-tanh.patch: UniformPolyTanh,
#     `poly_tanh` set by the configuration passes for a softcap on wgmma
#     kernels; pack polyc):
#     run.py --quick, and against the original f16 / bf16, 5 rounds;
#  6. Nsight Compute on the rewritten f16 kernel at 4096, with time left.
# Packs: full; poly (bench/device/probes/poly_tanh_ptx.py on full's
# mod_{f16,bf16}_d128_softcap*.sm_90a.ptx, ptxas -arch=sm_90a -O3, the
# JSON and harness files copied, in a directory poly/:
# tar czf .device/pack/poly.tgz -C DIR poly); polyc (attn-compile built
# at 4ff2af1 with session41-poly-tanh.patch applied, on full's
# src/mod_{f16,bf16}_d128_softcap.mlir, harness files copied, in a
# directory polyc/; the patch was measured slower and is not on main). Carry .device/pack,
# .device/include.
# usage: session41.sh [LIMIT_S]
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/s41
source bench/device/probes/device_setup.sh ${1:-420}
A=/tmp/t/full P=/tmp/t/poly PC=/tmp/t/polyc
finish() { tar czf "$final/s41.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/s41-summary.txt" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
python3 -c "import torch; print('torch', torch.__version__, 'cuDNN', torch.backends.cudnn.version())"
stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
for d in $A $P; do
  cuobjdump -sass $d/mod_f16_d128_softcap.sm_90a.cubin > "$out/sass-$(basename $d).txt" 2>&1
  echo "$(basename $d) SASS: MUFU.TANH $(grep -c MUFU.TANH "$out/sass-$(basename $d).txt") MUFU.EX2 $(grep -c MUFU.EX2 "$out/sass-$(basename $d).txt") VOTE $(grep -c VOTE "$out/sass-$(basename $d).txt") FFMA $(grep -c FFMA "$out/sass-$(basename $d).txt") FMNMX $(grep -c FMNMX "$out/sass-$(basename $d).txt")"
done
timeout 60 python3 bench/device/run.py --artifacts $P --runtime $L --out "$out/quick-poly" --quick \
  --no-isolate --kernel-timeout 30 --commit poly-tanh-probe > "$out/quick-poly.log" 2>&1
stamp "run.py --quick poly: exit $?"; grep -E "FAIL|passed|large_scores" "$out/quick-poly.log" | cut -c1-200 | tail -8
timeout 80 python3 bench/device/run.py --artifacts $A --runtime $L --out "$out/quick-base" --quick \
  --no-isolate --kernel-timeout 30 --commit c5430fc \
  --kernels 'mod_f16_d128_softcap,mod_bf16_d128_softcap,attn_f16_d128_none,attn_bf16_d128_none,attn_f16_d128_causal_br,mod_f16_d128_bias_b1h1' > "$out/quick-base.log" 2>&1
stamp "run.py --quick originals and plain: exit $?"; grep -E "FAIL|passed|large_scores" "$out/quick-base.log" | cut -c1-200 | tail -14
for tool in memcheck racecheck; do
  timeout 60 compute-sanitizer --tool $tool --error-exitcode 3 \
    python3 bench/device/sanitize.py --artifacts $P --runtime $L mod_f16_d128_softcap > "$out/$tool.log" 2>&1
  stamp "$tool: exit $?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|^FAIL" "$out/$tool.log" | cut -c1-140 | tail -3
done
timeout 170 python3 bench/device/pair.py --artifacts $P --artifacts-b $A --runtime $L \
  --out "$out/poly.json" --rounds 7 --ns 1024,4096,16384 \
  --pairs mod_f16_d128_softcap=mod_f16_d128_softcap,mod_f16_d128_softcap=attn_f16_d128_none,mod_bf16_d128_softcap=mod_bf16_d128_softcap,mod_bf16_d128_softcap=attn_bf16_d128_none > "$out/poly.txt" 2>&1
stamp "poly vs original, poly vs plain: exit $?"; grep -E " vs |A/B" "$out/poly.txt" | cut -c1-110
timeout 90 python3 bench/device/pair.py --artifacts $A --runtime $L \
  --out "$out/base.json" --rounds 7 --ns 1024,4096,16384 \
  --pairs mod_f16_d128_softcap=attn_f16_d128_none,mod_bf16_d128_softcap=attn_bf16_d128_none > "$out/base.txt" 2>&1
stamp "original vs plain: exit $?"; grep -E " vs |A/B" "$out/base.txt" | cut -c1-110
timeout $(( $(left) > 70 ? 60 : $(left) - 10 )) python3 bench/device/pair.py --artifacts $P --artifacts-b $A --runtime $L \
  --out "$out/poly-q16.json" --rounds 5 --ns 4096,16384 --q-scale 16 \
  --pairs mod_f16_d128_softcap=mod_f16_d128_softcap > "$out/poly-q16.txt" 2>&1
stamp "q x 16, poly vs original: exit $?"; grep -E "A/B" "$out/poly-q16.txt" | cut -c1-110
timeout 40 python3 bench/device/run.py --artifacts $PC --runtime $L --out "$out/quick-polyc" --quick \
  --no-isolate --kernel-timeout 20 --commit poly-tanh-compiler > "$out/quick-polyc.log" 2>&1
stamp "run.py --quick polyc: exit $?"; grep -E "FAIL|passed|large_scores" "$out/quick-polyc.log" | cut -c1-200 | tail -6
timeout $(( $(left) > 100 ? 90 : $(left) - 10 )) python3 bench/device/pair.py --artifacts $PC --artifacts-b $A --runtime $L \
  --out "$out/polyc.json" --rounds 5 --ns 4096,16384 \
  --pairs mod_f16_d128_softcap=mod_f16_d128_softcap,mod_bf16_d128_softcap=mod_bf16_d128_softcap > "$out/polyc.txt" 2>&1
stamp "compiler's poly_tanh vs original: exit $?"; grep -E " vs |A/B" "$out/polyc.txt" | cut -c1-110
if [ $(left) -gt 60 ]; then
m="gpu__time_duration.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum"
m="$m,smsp__inst_executed_pipe_fma.sum,smsp__inst_executed_pipe_xu.sum,sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_active"
m="$m,sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active"
for d in $P $A; do
  timeout 50 ncu -k regex:'mod_' --launch-skip 2 --launch-count 1 --metrics "$m" \
    python3 bench/device/probes/ncu_pair.py $d $L mod_f16_d128_softcap 4096 > "$out/ncu-$(basename $d).txt" 2>&1
  echo "== ncu $(basename $d): exit $?"
  grep -E "inst_executed|duration|issue_active|pct_of_peak|ERROR" "$out/ncu-$(basename $d).txt" | awk '{print $1, $(NF)}' | paste -sd' ' | fold -w 200
  [ $(left) -gt 55 ] || break
done
fi
stamp done
