#!/usr/bin/env bash
# Forty-fifth session: the H200 part of session44-h200.sh that fits in a
# small budget. run.py --quick on every sm_90a kernel of the build, then
# the 18 benchmark kernels against cuDNN, interleaved, 2 rounds,
# N = 512..16384 (or $NS; B * N = 16384, H * D = 2048). Writes straight
# into $OUT.
# Packs: full (build_artifacts.sh .device/full). Carry .device/pack,
# .device/include. usage: session45-h200-lean.sh [LIMIT_S] [COMMIT]
set -uo pipefail
source bench/device/probes/device_setup.sh ${1:-300}
commit=${2:-main}
A=/tmp/t/full
exec > >(tee "$out/summary.txt") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
python3 -c "import torch; print('torch', torch.__version__, 'cuDNN', torch.backends.cudnn.version())"
stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
cudnn=""
for dt in f16 bf16; do for d in 64 128 256; do
  for m in none causal_br causal_tl; do cudnn="$cudnn${cudnn:+,}attn_${dt}_d${d}_${m}=cudnn"; done
done; done
timeout 130 python3 bench/device/run.py --artifacts $A --runtime $L \
  --out "$out/quick" --quick --no-isolate --kernel-timeout 60 --commit $commit > "$out/quick.log" 2>&1
stamp "run.py --quick (all kernels): exit $?"; grep -E "FAIL|passed" "$out/quick.log" | cut -c1-200 | tail -8
[ -f "$out/quick/results.json" ] && python3 bench/device/make_table.py "$out/quick/results.json" > "$out/quick-table.md"
rm -rf "$out/quick"
timeout $(( $(left) - 5 )) python3 bench/device/pair.py --artifacts $A --runtime $L \
  --out "$out/pairs-cudnn.json" --rounds 2 --ns ${NS:-512,1024,2048,4096,8192,16384} --pairs "$cudnn" > "$out/pairs-cudnn.txt" 2>&1
stamp "pairs vs cuDNN: exit $?"; grep -E "A/B" "$out/pairs-cudnn.txt" | cut -c1-90
