#!/usr/bin/env bash
# Forty-eighth session: attn.torch.attention with score modifications (an
# additive attn_mask as attn's bias, softcap, ALiBi) and everything it
# checked before: bench/device/torch_op_check.py on the prebuilt kernels
# of build_torch_artifacts.py (made here:
#   PYTHONPATH=build/python-bindings python3 bench/device/build_torch_artifacts.py .device/torchart
#   tar czf .device/pack/torchart.tgz -C .device torchart).
# Carry .device/pack (torchart.tgz), .device/include. Writes $OUT/torch-op.json.
# usage: session48-torch.sh [LIMIT_S]
set -uo pipefail
source bench/device/probes/device_setup.sh ${1:-200}
exec > >(tee "$out/summary.txt") 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
ATTN_RUNTIME_LIBRARY=$L ATTN_ARTIFACTS=/tmp/t/torchart ATTN_CACHE_DIR=/tmp/attn-cache \
  timeout $(( $(left) - 5 )) python3 bench/device/torch_op_check.py "$out/torch-op.json"
echo "torch_op_check: exit $?"
