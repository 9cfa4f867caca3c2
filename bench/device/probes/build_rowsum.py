#!/usr/bin/env python3
"""Builds the `trs` pack of session43.sh: every variant of the named
kernels of an artifacts directory (build_artifacts.sh's) rewritten by
tensor_rowsum_ptx.py, assembled with ptxas -arch=sm_90a -O3 (its spill
counts printed), the JSON's shared_bytes grown by the 1 KiB of ones.
A dispatch variant that would then pass the 227 KiB limit is dropped
from the dispatch table (its sizes run on the next variant up: slower
perhaps, still correct) and not built.

usage: build_rowsum.py SRC DST KERNEL...
"""

import json
import os
import re
import shutil
import subprocess
import sys

LIMIT = 232448


def main():
    src, dst, kernels = sys.argv[1], sys.argv[2], sys.argv[3:]
    shutil.rmtree(dst, ignore_errors=True)
    os.makedirs(dst)
    here = os.path.dirname(os.path.abspath(__file__))
    for kernel in kernels:
        meta = json.load(open(os.path.join(src, kernel + ".json")))
        names = [kernel] + sorted(
            f[:-5] for f in os.listdir(src)
            if f.startswith(kernel + "__") and f.endswith(".json"))
        fits = lambda n: json.load(open(os.path.join(src, n + ".json")))["shared_bytes"] + 1024 <= LIMIT
        if not fits(kernel):
            sys.exit("%s: no room for the ones" % kernel)
        for name in names:
            if not fits(name):
                print("%s: dropped (shared memory)" % name)
                continue
            d = json.load(open(os.path.join(src, name + ".json")))
            ptx = os.path.join(dst, name + ".sm_90a.ptx")
            r = subprocess.run([sys.executable, os.path.join(here, "tensor_rowsum_ptx.py"),
                                os.path.join(src, name + ".sm_90a.ptx"), ptx,
                                str(d["shared_bytes"])], capture_output=True, text=True)
            if r.returncode:
                sys.exit(r.stderr or r.stdout)
            p = subprocess.run(["ptxas", "-arch=sm_90a", "-O3", "-v", ptx, "-o",
                                os.path.join(dst, name + ".sm_90a.cubin")],
                               capture_output=True, text=True)
            if p.returncode:
                sys.exit(p.stderr)
            spills = re.findall(r"(\d+) bytes spill stores", p.stderr)
            print("%s: %s; spill stores %s" % (name, r.stdout.strip().split(": ", 1)[1],
                                                "/".join(spills)))
            d["shared_bytes"] += 1024
            if "dispatch" in d:
                d["dispatch"]["variants"] = [v for v in d["dispatch"]["variants"]
                                             if fits(v["kernel"])]
            json.dump(d, open(os.path.join(dst, name + ".json"), "w"), indent=2)
        harness = os.path.join(src, kernel + ".harness.json")
        if os.path.exists(harness):
            shutil.copy(harness, dst)


if __name__ == "__main__":
    main()
