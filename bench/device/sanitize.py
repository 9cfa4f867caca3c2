#!/usr/bin/env python3
"""The driver that compute-sanitizer runs: each named kernel on small odd
shapes (lengths not a multiple of any block, Nq != Nk, one row, GQA, the
[B, N, H, D] layout), checked against the harness's fp32 reference.

    compute-sanitizer --tool memcheck --error-exitcode 3 \
        python3 bench/device/sanitize.py --artifacts DIR --runtime LIB K1,K2,...

Exit status: 0 when every point launched and matched, 1 otherwise (the
sanitizer's own findings give its --error-exitcode)."""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run  # noqa: E402

# (label, (B, Hq, Hkv, Nq, Nk), layout)
SHAPES = [
    ("one_row", (1, 2, 2, 1, 1), "bhnd"),
    ("odd", (1, 2, 2, 77, 77), "bhnd"),
    ("nq_lt_nk_gqa", (2, 4, 2, 33, 100), "bhnd"),
    ("nq_gt_nk", (1, 2, 1, 130, 65), "bhnd"),
    ("strided", (1, 2, 2, 70, 150), "bnhd"),
    # Past the 512 keys of the shortest length-dispatch variant: the main
    # kernel of a dispatching artifact.
    ("long_odd", (1, 1, 1, 600, 700), "bhnd"),
    # More tiles (2 x 140 of 128 rows) than a GPU runs CTAs at once: a
    # persistent kernel's CTAs go through two or three each.
    ("many_tiles", (2, 70, 70, 130, 200), "bhnd"),
]


def check_kernels(artifacts, runtime, names, points, seed=7):
    """Each kernel of `names` on each (label, shape, layout) of `points`
    against the fp32 reference; one line per point; the number that
    failed."""
    import torch
    device = torch.device("cuda")
    rt = run.Runtime(runtime)
    bad = 0
    for name in names:
        meta = run.Meta(os.path.join(artifacts, name + ".json"))
        kernel = rt.load(artifacts, name)
        for i, (label, shape, layout) in enumerate(points):
            rec = run.check_point(kernel, meta, shape, label, layout, seed + i, device,
                                 sdpa_peer=False)
            torch.cuda.synchronize()
            bad += not rec["pass"]
            print("%-4s %-32s %-13s %s %s" % ("ok" if rec["pass"] else "FAIL", name, label,
                                            shape, "; ".join(rec["failures"])), flush=True)
        kernel.unload()
    return bad


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--artifacts", required=True)
    ap.add_argument("--runtime", required=True)
    ap.add_argument("kernels")
    args = ap.parse_args()
    bad = check_kernels(args.artifacts, args.runtime, args.kernels.split(","), SHAPES)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
