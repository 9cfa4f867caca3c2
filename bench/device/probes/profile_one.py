#!/usr/bin/env python3
"""Launches each named kernel a few times on one timing-matrix shape (B*N =
16384, H*D = 2048), for a profiler to look at (ncu --launch-skip ...).

    ncu --kernel-name regex:NAME --launch-skip 2 --launch-count 1 \
        python3 bench/device/probes/profile_one.py --artifacts DIR --runtime LIB --n 4096 K1,K2
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import run  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--artifacts", required=True)
    ap.add_argument("--runtime", required=True)
    ap.add_argument("--n", type=int, default=4096)
    ap.add_argument("--launches", type=int, default=4)
    ap.add_argument("kernels")
    args = ap.parse_args()
    import torch
    rt = run.Runtime(args.runtime)
    for name in args.kernels.split(","):
        meta = run.Meta(os.path.join(args.artifacts, name + ".json"))
        kernel = rt.load(args.artifacts, name)
        n = args.n
        bsz, h = run.TIMING_TOKENS // n, run.TIMING_HIDDEN // meta.d
        dt = run.torch_dtype(meta.dtype)
        q = torch.randn(bsz, h, n, meta.d, dtype=dt, device="cuda")
        k = torch.randn(bsz, h, n, meta.d, dtype=dt, device="cuda")
        v = torch.randn(bsz, h, n, meta.dv, dtype=dt, device="cuda")
        o = torch.empty(bsz, h, n, meta.dv, dtype=dt, device="cuda")
        lse = torch.empty(bsz, h, n, dtype=torch.float32, device="cuda") if meta.has_lse else None
        for _ in range(args.launches):
            kernel.launch(q, k, v, o, lse)
        torch.cuda.synchronize()
        kernel.unload()
        print("launched", name, args.launches, "times at N =", n, flush=True)


if __name__ == "__main__":
    main()
