#!/usr/bin/env python3
"""Builds the `trs` pack of session43.sh: every variant of the named
kernels of an artifacts directory (build_artifacts.sh's) rewritten by
tensor_rowsum_ptx.py, assembled with ptxas -arch=sm_90a -O3 (its spill
counts printed), the JSON's shared_bytes grown by the 1 KiB of ones.
A dispatch variant that would then pass the 227 KiB limit is dropped
from the dispatch table (its sizes run on the next variant up: slower
perhaps, still correct) and not built.

With --wide, the wide form (tensor_rowsum_ptx.py --wide: P V as one
m64n(D+8) product against V and a chunk of ones); variants it cannot
rewrite (another tile shape) are dropped from the dispatch table, and a
copy of each kernel's JSON without a dispatch table, KERNEL__all, makes
run.py check the rewritten default kernel at every point.

usage: build_rowsum.py [--wide] SRC DST KERNEL...
"""

import json
import os
import re
import shutil
import subprocess
import sys

LIMIT = 232448


def main():
    args = sys.argv[1:]
    wide = args[0] == "--wide"
    if wide:
        args = args[1:]
    src, dst, kernels = args[0], args[1], args[2:]
    shutil.rmtree(dst, ignore_errors=True)
    os.makedirs(dst)
    here = os.path.dirname(os.path.abspath(__file__))
    for kernel in kernels:
        meta = json.load(open(os.path.join(src, kernel + ".json")))
        names = [kernel] + sorted(
            f[:-5] for f in os.listdir(src)
            if f.startswith(kernel + "__") and f.endswith(".json"))
        built = set()
        for name in names:
            d = json.load(open(os.path.join(src, name + ".json")))
            ptx = os.path.join(dst, name + ".sm_90a.ptx")
            if not wide and d["shared_bytes"] + 1024 > LIMIT:
                print("%s: dropped (shared memory)" % name)
                continue
            mode = ["--wide", "%d,%d" % (d["block_n"], d["threads"])] if wide else []
            r = subprocess.run([sys.executable, os.path.join(here, "tensor_rowsum_ptx.py")] + mode +
                               [os.path.join(src, name + ".sm_90a.ptx"), ptx,
                                str(d["shared_bytes"])], capture_output=True, text=True)
            if r.returncode:
                if name == kernel:
                    sys.exit(r.stderr or r.stdout)
                print("%s: dropped (%s)" % (name, (r.stderr or r.stdout).strip()[-120:]))
                continue
            new_shared = int(re.search(r"shared_bytes (\d+)", r.stdout).group(1)) if wide \
                else d["shared_bytes"] + 1024
            if new_shared > LIMIT:
                sys.exit("%s: %d bytes of shared memory" % (name, new_shared))
            p = subprocess.run(["ptxas", "-arch=sm_90a", "-O3", "-v", ptx, "-o",
                                os.path.join(dst, name + ".sm_90a.cubin")],
                               capture_output=True, text=True)
            if p.returncode:
                sys.exit(p.stderr)
            spills = re.findall(r"(\d+) bytes spill stores", p.stderr)
            print("%s: %s; spill stores %s%s" % (name, r.stdout.strip().split(": ")[-1],
                                                 "/".join(spills),
                                                 "; SERIALIZED (C7512)" if "C7512" in p.stderr else ""))
            d["shared_bytes"] = new_shared
            json.dump(d, open(os.path.join(dst, name + ".json"), "w"), indent=2)
            built.add(name)
        top = os.path.join(dst, kernel + ".json")
        d = json.load(open(top))
        if "dispatch" in d:
            d["dispatch"]["variants"] = [v for v in d["dispatch"]["variants"] if v["kernel"] in built]
            if not d["dispatch"]["variants"]:
                del d["dispatch"]
        if d.get("tma_fallback") and d["tma_fallback"] not in built:
            sys.exit("%s: its TMA fallback was not rewritten" % kernel)
        json.dump(d, open(top, "w"), indent=2)
        if wide:
            d.pop("dispatch", None)
            d["name"] = kernel + "__all"
            json.dump(d, open(os.path.join(dst, kernel + "__all.json"), "w"), indent=2)
        harness = os.path.join(src, kernel + ".harness.json")
        if os.path.exists(harness):
            shutil.copy(harness, dst)


if __name__ == "__main__":
    main()
