#!/usr/bin/env bash
# Twenty-first session, device run 1 (outputs in $OUT/r1.tgz): three
# consumer warpgroups (192-row Q blocks) and early_qk under a softcap.
# Written in the twenty-first session, when no device was lent: not run
# then; rebuild the variants first (build_variants.sh .device/w12 <
# bench/device/probes/session21-w12-variants.txt, then
# tar czf .device/pack/w12.tgz -C .device w12).
#  1. run.py --quick on w12/ (build_variants.sh,
#     bench/device/probes/session21-w12-variants.txt): every 192-row form,
#     causal both alignments among them, and the 128 x 192 references;
#  2. the MUFU / tensor overlap probe (mufu_tensor_overlap.cu): the best
#     overlap of the two pipes with no schedule's dependencies;
#  3. pair.py: each f16 softcap form against the 128 x 192 async_pv
#     persistent softcap kernel (sc_base), the softcap's cost on the
#     reference (sc_base / nosc_base), the 192-row forms without a softcap
#     against nosc_base, bf16; D = 64 with and without a softcap (192 x 128
#     forms against 128 x 128 async_pv persistent); N = 1024 / 4096 /
#     16384, 3 interleaved rounds; a staged [1, 1, N, N] f16 bias on
#     192-row forms against the database's 128 x 112 tile, and that tile
#     against itself without the bias; early_qk (both products under the
#     softmax) at 128 x 80 / 96 / 112, with ping-pong, bf16, and without a
#     softcap, against the same references, and with the staged bias.
# Pack: .device/pack/w12.tgz.
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/r1
source bench/device/probes/device_setup.sh 560
finish() { tar czf "$final/r1.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
timeout 120 python3 bench/device/run.py --artifacts /tmp/t/w12 --runtime $L --kernels '*' \
  --out /tmp/check --quick --no-isolate --kernel-timeout 30 > "$out/check.log" 2>&1
echo "run.py --quick: exit $?"; grep -E "FAIL" "$out/check.log" | cut -c1-160 | head; tail -3 "$out/check.log" | cut -c1-200
echo "[$(( $(date +%s) - t0 )) s]"
# 2. The overlap probe (mufu_tensor_overlap.cu): the best overlap of the
#    MUFU and tensor pipes with no schedule's dependencies, 2 and 3
#    warpgroups, with and without the tanh, and with a bias's per-score
#    work (twenty-second session).
nvcc -O3 -gencode=arch=compute_90a,code=sm_90a -o /tmp/mto bench/device/probes/mufu_tensor_overlap.cu \
  > "$out/mto-build.txt" 2>&1 && timeout 60 /tmp/mto 2048 > "$out/mto.txt" 2>&1
echo "overlap probe: exit $?"; cat "$out/mto.txt"
echo "[$(( $(date +%s) - t0 )) s]"
p="sc_base=nosc_base,w12_80a=sc_base,w12_80app=sc_base,w12_96n=sc_base,w12_96np=sc_base,w12_64o=sc_base,w12_64op=sc_base,w12_80o=sc_base,w12_112n=sc_base,w12_80a3=sc_base,nw12_80a=nosc_base,nw12_96n=nosc_base,bw12_80a=bsc_base,sd64=nd64,d64w12a=nd64,d64w12o=nd64,d64w12n=nd64,sd64w12a=sd64,sd64w12o=sd64,bb_base=nb_base,bb_w12_80a=bb_base,bb_w12_96n=bb_base,bb_w12_64a=bb_base,eq80=sc_base,eq96=sc_base,eq112=sc_base,eq96pp=sc_base,beq96=bsc_base,neq96=nosc_base,neq112=nosc_base,bb_eq96=bb_base,bb_eq80=bb_base"
timeout $(( $(left) - 10 )) python3 bench/device/pair.py --artifacts /tmp/t/w12 --runtime $L \
  --out "$out/pairs-w12.json" --rounds 3 --ns 1024,4096,16384 --pairs "$p" > "$out/pairs-w12.txt" 2>&1
echo "pairs: exit $?"; grep -E "A/B" "$out/pairs-w12.txt" | cut -c1-120
echo "[$(( $(date +%s) - t0 )) s] done"
