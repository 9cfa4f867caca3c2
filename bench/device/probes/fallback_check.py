#!/usr/bin/env python3
"""For kernels that stage their bias with TMA: on shapes whose Nk makes a
16-bit bias row a multiple of 16 bytes (the kernel runs) and not (its TMA
fallback runs), checks each point against the fp32 reference
(run.check_point, outputs poisoned first) and prints which kernel the
runtime launched (attn_kernel_info last_variant) and why (last_fallback)."""

import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import run  # noqa: E402

POINTS = [("aligned", (2, 8, 2, 1000, 1000), "bhnd", False),
          ("odd", (1, 2, 2, 77, 77), "bhnd", True),
          ("long_odd", (1, 4, 4, 4097, 4097), "bhnd", True),
          ("nq_ne_nk", (1, 4, 4, 300, 130), "bhnd", True),
          ("strided", (2, 8, 2, 1000, 1000), "bnhd", False)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--artifacts", required=True)
    ap.add_argument("--runtime", required=True)
    ap.add_argument("kernels")
    args = ap.parse_args()
    import torch
    device = torch.device("cuda")
    rt = run.Runtime(args.runtime)
    bad = 0
    for name in args.kernels.split(","):
        meta = run.Meta(os.path.join(args.artifacts, name + ".json"))
        kernel = rt.load(args.artifacts, name)
        for i, (label, shape, layout, falls) in enumerate(POINTS):
            rec = run.check_point(kernel, meta, shape, label, layout, 21 + i, device,
                                 sdpa_peer=False)
            torch.cuda.synchronize()
            ran = kernel.info("last_variant")
            why = kernel.info("last_fallback")
            # The kernel's or its length variant's fallback (<name>__unstaged).
            ok = rec["pass"] and ran.endswith("__unstaged") == falls and bool(why) == falls
            bad += not ok
            print("%-4s %-28s %-9s %s ran %s %s %s" % (
                "ok" if ok else "FAIL", name, label, shape, ran, why[:90],
                "; ".join(rec["failures"])), flush=True)
        kernel.unload()
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
