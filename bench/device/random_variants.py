#!/usr/bin/env python3
"""Random kernel variants for a correctness sweep on the device: lines for
build_variants.sh (NAME DTYPE D MASK[+mods] tile; gpu), each a random
element type, head dim, mask and modification with a random tile and GPU
configuration from utils/fuzz.py's generator (mostly consistent ones, the
flags' prerequisites drawn first, sometimes any combination). What the
compiler refuses, build_variants.sh reports and skips; what it compiles,
run.py --quick checks against the fp32 reference on odd shapes (NaN-poisoned
outputs, NaN/Inf inputs, strided views): every configuration the compiler
accepts must be correct, not only the tuned ones.

    bench/device/random_variants.py --seed 1 --count 48 > v.txt
    bash bench/device/build_variants.sh .device/rnd sm_90a < v.txt"""

import argparse
import os
import random
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "utils"))
from fuzz import random_config  # noqa: E402


def body(attr):
    return re.fullmatch(r"#attn\.\w+<(.*)>", attr).group(1)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=48)
    ap.add_argument("--prefix", default="rnd")
    ap.add_argument("--chip", default="sm_90a", choices=["sm_80", "sm_90a"],
                    help="sm_80: no wgmma among the consistent configurations")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    for i in range(args.count):
        dt = rng.choice(["f16", "bf16"])
        d = rng.choice([64, 128, 128, 256])
        mask = rng.choice(["none", "causal_br", "causal_tl", "window_br"])
        mod = rng.random()
        if mod < 0.25:
            mask += "+softcap=30.0"
        elif mod < 0.45:
            mask += "+bias=" + rng.choice(["full", "b1h1", "h1"])
        tile, gpu = random_config(rng, wgmma=0.7 if args.chip == "sm_90a" else 0)
        cfg = body(tile) + (("; " + body(gpu)) if body(gpu) else "")
        print("%s%02d %s %d %s %s" % (args.prefix, i, dt, d, mask, cfg))


if __name__ == "__main__":
    main()
