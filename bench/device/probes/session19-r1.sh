#!/usr/bin/env bash
# Nineteenth session, device run 1 (outputs in $OUT/r1.tgz):
#  1. the O store's ceiling: ns/ (every st.global predicated off at run
#     time, bench/device/probes/nostore_ptx.py) against ns0/ (the same PTX
#     unchanged, the same ptxas command), default kernels at 618e2d8
#     (ATTN_MAIN_ONLY=1 build_artifacts.sh), N = 512 .. 16384;
#  2. the default bias and softcap kernels against their bases (full/ from
#     build_artifacts.sh), N = 4096 / 16384: extra time and copy ceiling.
# Packs: .device/pack/ns.tgz, ns0.tgz, full.tgz.
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/r1
source bench/device/probes/device_setup.sh 400
finish() { tar czf "$final/r1.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
p="attn_f16_d128_none=attn_f16_d128_none,attn_bf16_d128_none=attn_bf16_d128_none,attn_f16_d64_none=attn_f16_d64_none"
p="$p,attn_f16_d256_none=attn_f16_d256_none,attn_f16_d128_causal_br=attn_f16_d128_causal_br"
timeout 200 python3 bench/device/pair.py --artifacts /tmp/t/ns --artifacts-b /tmp/t/ns0 \
  --runtime $L --out "$out/pairs-nostore.json" --rounds 2 --ns 512,1024,2048,4096,16384 --pairs "$p" > "$out/pairs-nostore.txt" 2>&1
echo "no store / store: exit $?"; grep -E "A/B" "$out/pairs-nostore.txt" | cut -c1-100
echo "[$(( $(date +%s) - t0 )) s]"
p="mod_f16_d128_bias=attn_f16_d128_none,mod_bf16_d128_bias=attn_bf16_d128_none,mod_f16_d128_bias_h1=attn_f16_d128_none"
p="$p,mod_f16_d128_bias_b1h1=attn_f16_d128_none,mod_bf16_d128_bias_b1_none=attn_bf16_d128_none"
p="$p,mod_f16_d128_bias_causal_tl=attn_f16_d128_causal_tl,mod_f16_d128_softcap=attn_f16_d128_none,mod_bf16_d128_softcap=attn_bf16_d128_none"
timeout $(( $(left) - 10 )) python3 bench/device/pair.py --artifacts /tmp/t/full --runtime $L \
  --out "$out/pairs-mods.json" --rounds 2 --ns 4096,16384 --pairs "$p" > "$out/pairs-mods.txt" 2>&1
echo "mods / base: exit $?"; grep -E "A/B|bias" "$out/pairs-mods.txt" | cut -c1-170
echo "[$(( $(date +%s) - t0 )) s] done"
