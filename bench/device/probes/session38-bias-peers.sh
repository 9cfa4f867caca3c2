#!/usr/bin/env bash
# Thirty-eighth session, second call: what a bias costs the vendor kernels.
# Issue 8 asks that a bias cost what reading it costs; ours costs more
# than its bytes for a broadcast bias. This times cuDNN (torch SDPA's
# CUDNN_ATTENTION) and the memory-efficient SDPA backend with the same
# bias as their float attn_mask, interleaved with our bias kernels, and
# the unbiased pairs (attn_f16/bf16_d128_none = cudnn) in the same run, so
# each side's cost of the bias is its own two times. Then the f16 and bf16
# softcap kernels against plain with 9 rounds at 16384 keys.
# Pack: full (build_artifacts.sh .device/full at 5900f72). Carry
# .device/pack, .device/include.
# usage: session38-bias-peers.sh [LIMIT_S]
set -uo pipefail
final=${OUT:-/tmp/out}
OUT=/tmp/h200b
source bench/device/probes/device_setup.sh ${1:-400}
A=/tmp/t/full
finish() { tar czf "$final/peers.tgz" -C "$out" . 2>/dev/null; cp "$out/summary.txt" "$final/peers-summary.txt" 2>/dev/null; }
trap finish EXIT
exec > >(tee "$out/summary.txt") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
python3 -c "import torch; print('torch', torch.__version__, 'cuDNN', torch.backends.cudnn.version())"
stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
P=attn_f16_d128_none=cudnn,attn_bf16_d128_none=cudnn
for k in mod_f16_d128_bias mod_f16_d128_bias_h1 mod_f16_d128_bias_b1h1 mod_bf16_d128_bias mod_bf16_d128_bias_b1_none; do
  P="$P,$k=cudnn"
done
P="$P,mod_f16_d128_bias=efficient,mod_f16_d128_bias_b1h1=efficient,attn_f16_d128_none=efficient"
timeout $(( $(left) - 130 )) python3 bench/device/pair.py --artifacts $A --runtime $L \
  --out "$out/bias-peers.json" --rounds 3 --ns 1024,4096,16384 --pairs "$P" > "$out/bias-peers.txt" 2>&1
stamp "bias vs cuDNN / efficient: exit $?"; grep -E "vs|A/B|ERROR" "$out/bias-peers.txt" | cut -c1-150
timeout $(( $(left) - 10 )) python3 bench/device/pair.py --artifacts $A --runtime $L \
  --out "$out/softcap9.json" --rounds 9 --ns 16384 \
  --pairs mod_f16_d128_softcap=attn_f16_d128_none,mod_bf16_d128_softcap=attn_bf16_d128_none > "$out/softcap9.txt" 2>&1
stamp "softcap vs plain, 9 rounds: exit $?"; grep -E "A/B" "$out/softcap9.txt" | cut -c1-110
stamp done
