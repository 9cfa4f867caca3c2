#!/usr/bin/env python3
"""Builds session47-fe.sh's pack: copies kernel NAME's files from SRC to
DST and, in the main kernel's PTX, moves the first `wgmma.wait_group 0`
that follows a `wgmma.wait_group 1` (P V's wait in an async_pv K/V loop)
to the top of that loop (right after the nearest label above it), then
assembles the PTX again with ptxas. A timing probe of the wait's place:
waiting earlier is always correct, only the overlap changes.

    early_pv_wait.py SRC DST NAME    (e.g. .device/full .device/fe
                                      mod_f16_d128_bias_b1h1)"""
import glob
import os
import shutil
import subprocess
import sys

src, dst, name = sys.argv[1:4]
os.makedirs(dst, exist_ok=True)
for f in glob.glob(os.path.join(src, name + "*")):
    shutil.copy(f, dst)
ptx = os.path.join(dst, name + ".sm_90a.ptx")
lines = open(ptx).read().split("\n")
waits1 = [i for i, l in enumerate(lines) if l.strip().startswith("wgmma.wait_group.sync.aligned") and l.strip().endswith("1;")]
if not waits1:
    sys.exit(f"{ptx}: no wgmma.wait_group 1")
wait0 = next((i for i, l in enumerate(lines) if i > waits1[0]
              and l.strip().startswith("wgmma.wait_group.sync.aligned") and l.strip().endswith("0;")), None)
if wait0 is None:
    sys.exit(f"{ptx}: no wgmma.wait_group 0 after the first wait_group 1")
label = max(i for i in range(wait0) if lines[i].startswith("$L__BB") and lines[i].endswith(":"))
if label < waits1[0]:
    sys.exit(f"{ptx}: no label between the first wait_group 1 and the wait_group 0")
print(f"{name}: wait_group 0 of line {wait0 + 1} moved after {lines[label]} (line {label + 1})")
lines.insert(label + 1, lines.pop(wait0))
open(ptx, "w").write("\n".join(lines))
ptxas = os.path.join(os.environ.get("CUDA_HOME", "/usr/local/cuda"), "bin", "ptxas")
out = subprocess.run([ptxas, "-arch=sm_90a", "-v", ptx, "-o", ptx[:-4] + ".cubin"],
                     capture_output=True, text=True)
print(out.stderr.strip().splitlines()[-1] if out.stderr else "", file=sys.stderr)
sys.exit(out.returncode)
