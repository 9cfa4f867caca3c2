#!/usr/bin/env python3
"""Checks kernels whose key length is static (NK) on shapes with that key
length: odd query lengths, one row, GQA, more tiles than CTAs, the
[B, N, H, D] layout and NaN/Inf inputs, against the harness's fp32
reference (run.check_point: outputs poisoned first). The driver that
compute-sanitizer runs for such kernels too."""

import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import sanitize  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--artifacts", required=True)
    ap.add_argument("--runtime", required=True)
    ap.add_argument("--nk", type=int, required=True)
    ap.add_argument("--small", action="store_true", help="two small shapes only (sanitizers)")
    ap.add_argument("kernels")
    args = ap.parse_args()
    nk = args.nk
    points = [("one_row", (1, 2, 2, 1, nk), "bhnd"), ("odd", (1, 2, 2, 77, nk), "bhnd")]
    if not args.small:
        points += [("gqa", (2, 8, 2, 1000, nk), "bhnd"),
                   ("nq_gt_nk", (1, 4, 4, nk + 77, nk), "bhnd"),
                   ("many_tiles", (3, 40, 8, 1000, nk), "bhnd"),
                   ("strided", (2, 8, 2, 300, nk), "bnhd"),
                   ("nan_inf", (2, 4, 2, 300, nk), "bhnd")]
    bad = sanitize.check_kernels(args.artifacts, args.runtime, args.kernels.split(","),
                                 points, seed=11)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
