#!/usr/bin/env bash
# Eleventh session, device run 5.
#  1. the matrix of this tree (build_artifacts.sh: the O stores through a
#     quad transpose, 16 bytes per lane; the D = 192 heuristic; the database
#     with run 3's keys): run.py --quick over every artifact;
#  2. interleaved pairs (.device/pack/r5.tgz, session11-r5-build.sh): the
#     new stores against the kernels before (n_attn_* / attn_*, heuristic,
#     one kernel each) and the new D = 192 heuristic against the old one
#     (g_* / h_*), N = 512 / 1024 / 4096 / 16384, 4 rounds;
#  3. compute-sanitizer memcheck on the new stores (sanitize.py's odd
#     shapes: rows past the end, Nq != Nk) for attn_f16_d256_none and
#     attn_f16_d128_causal_br;
#  4. the 12 main kernels timed against cuDNN and FlashAttention-2.
# usage (device): bash bench/device/probes/session11-r5.sh
set -uo pipefail
source bench/device/probes/device_setup.sh 570
timeout 150 python3 bench/device/run.py --artifacts /tmp/t/art --runtime $L \
  --out /tmp/art-check --quick --no-isolate --kernel-timeout 60 > "$out/art-check.log" 2>&1
echo "run.py --quick: exit $?"; grep -E "FAIL|fail|passed|kernels" "$out/art-check.log" | tail -8
cp /tmp/art-check/results.json "$out/art-check.json" 2>/dev/null
echo "[$(( $(date +%s) - t0 )) s] matrix checked"
p="n_attn_f16_d256_none=attn_f16_d256_none,n_attn_bf16_d256_none=attn_bf16_d256_none,n_attn_f16_d128_none=attn_f16_d128_none"
p="$p,g_f16_d192_none=h_f16_d192_none,g_bf16_d192_none=h_bf16_d192_none,g_f16_d192_causal_br=h_f16_d192_causal_br"
timeout 150 python3 bench/device/pair.py --artifacts /tmp/t/r5 --runtime $L \
  --out "$out/pairs.json" --rounds 4 --ns 512,1024,4096,16384 --pairs "$p" > "$out/pairs.txt" 2>&1
echo "pairs: exit $?"; cat "$out/pairs.txt"
echo "[$(( $(date +%s) - t0 )) s] pairs"
timeout 90 compute-sanitizer --tool memcheck --error-exitcode 3 \
  python3 bench/device/sanitize.py --artifacts /tmp/t/art --runtime $L attn_f16_d256_none attn_f16_d128_causal_br > "$out/memcheck.log" 2>&1
echo "memcheck: exit $?"; tail -3 "$out/memcheck.log"
echo "[$(( $(date +%s) - t0 )) s] memcheck"
ks=""
for dt in f16 bf16; do for d in 64 128 256; do for m in none causal_br; do ks="$ks${ks:+,}attn_${dt}_d${d}_$m"; done; done; done
timeout $(( $(left) - 10 )) python3 bench/device/run.py --artifacts /tmp/t/art --runtime $L \
  --out /tmp/matrix --no-isolate --kernel-timeout 60 --commit session11-r5 --kernels "$ks" > "$out/matrix.log" 2>&1
echo "run.py timed: exit $?"; tail -3 "$out/matrix.log"
cp /tmp/matrix/results.json "$out/matrix.json" 2>/dev/null \
  && python3 bench/device/make_table.py /tmp/matrix/results.json > "$out/matrix.md"
grep -E "^\| (f16|bf16) \| (128|256) " "$out/matrix.md" | cut -d'|' -f2-5,10-11
echo "[$(( $(date +%s) - t0 )) s] done"
