#!/usr/bin/env python3
"""Builds session48-fh.sh's pack: copies kernel NAME's files from SRC to
DST; in the main kernel's JSON the bias's TMA box copies half its rows,
and in its PTX the bias stage's `mbarrier.arrive.expect_tx` expects half
the bytes; then assembles the PTX again with ptxas. The consumers still
read the whole tile, half of it stale: a timing probe only (O is wrong),
the upper bound of what a two-CTA cluster sharing each bias tile by TMA
multicast saves in L2-to-SM bytes (each CTA would copy half the tile).
The bias stage is the expect_tx whose barrier offset is BARRIER (the
default kernel's: 91136 bytes into shared memory; check against the
kernel's IR before reusing this on another build).

    half_bias_box.py SRC DST NAME [BARRIER]   (e.g. .device/full .device/fh
                                               mod_f16_d128_bias_b1h1)"""
import glob
import json
import os
import re
import shutil
import subprocess
import sys

src, dst, name = sys.argv[1:4]
barrier = sys.argv[4] if len(sys.argv) > 4 else "91136"
os.makedirs(dst, exist_ok=True)
for f in glob.glob(os.path.join(src, name + "*")):
    shutil.copy(f, dst)
meta_path = os.path.join(dst, name + ".json")
meta = json.load(open(meta_path))
buffers = meta["buffers"]
maps = [m for m in meta["tensor_maps"] if "bias" in buffers[m["buffer"]]["roles"]]
if len(maps) != 1:
    sys.exit(f"{meta_path}: {len(maps)} tensor maps of the bias, expected 1")
box = maps[0]["box"]
rows = box[1]
if rows % 2:
    sys.exit(f"{meta_path}: the bias box has an odd row count {rows}")
box[1] = rows // 2
half = box[0] * box[1] * 2  # 16-bit elements
json.dump(meta, open(meta_path, "w"), indent=1, sort_keys=True)
ptx = os.path.join(dst, name + ".sm_90a.ptx")
text = open(ptx).read()
pat = re.compile(r"(mbarrier\.arrive\.expect_tx\.shared\.b64 %rd\d+, \[%r\d+\+" + barrier + r"\]), %r\d+;")
found = pat.findall(text)
if len(found) != 1:
    sys.exit(f"{ptx}: {len(found)} expect_tx on the barrier at +{barrier}, expected 1")
text = pat.sub(lambda m: f"{m.group(1)}, {half};", text)
open(ptx, "w").write(text)
print(f"{name}: bias box {box[0]} x {rows} -> {box[0]} x {box[1]}, expect_tx {half} bytes")
ptxas = os.path.join(os.environ.get("CUDA_HOME", "/usr/local/cuda"), "bin", "ptxas")
out = subprocess.run([ptxas, "-arch=sm_90a", "-v", ptx, "-o", ptx[:-4] + ".cubin"],
                     capture_output=True, text=True)
print(out.stderr.strip().splitlines()[-1] if out.stderr else "", file=sys.stderr)
sys.exit(out.returncode)
