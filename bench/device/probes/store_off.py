#!/usr/bin/env python3
"""A probe, not a kernel: the artifact NAME in DIR copied as s_NAME with
every st.global of its PTX predicated on `address == 1`, which never holds
but which ptxas cannot prove false, so the kernel computes everything it
did (the normalization, the conversions, the addresses) and writes
nothing. Timed against NAME (pair.py), it bounds what the output stores
cost, the most a cheaper epilogue (a TMA store) could gain.

    python3 bench/device/probes/store_off.py DIR NAME"""
import json
import os
import re
import subprocess
import sys

d, name = sys.argv[1], sys.argv[2]
meta = json.load(open(os.path.join(d, name + ".json")))
ptx = open(os.path.join(d, meta["ptx"])).read()
store = re.compile(r"^(\s*)(st\.global\.[a-z0-9.]+\s+\[(%rd\d+)[^\]]*\],.*)$")
out, n = [], 0
declared = False
for line in ptx.split("\n"):
    m = store.match(line)
    if m:
        out.append("%ssetp.eq.u64 %%pnoout, %s, 1;" % (m.group(1), m.group(3)))
        out.append("%s@%%pnoout %s" % (m.group(1), m.group(2)))
        n += 1
        continue
    out.append(line)
    if not declared and line.strip().startswith(".reg .pred"):
        out.append("\t.reg .pred %pnoout;")
        declared = True
assert n > 0 and declared, "no st.global or no predicate declarations"
new = "s_" + name
meta.update(name=new, ptx=new + "." + meta["target"] + ".ptx",
            cubin=new + "." + meta["target"] + ".cubin")
meta.pop("dispatch", None)
open(os.path.join(d, meta["ptx"]), "w").write("\n".join(out))
subprocess.run(["ptxas", "-arch=" + meta["target"], "-O3", os.path.join(d, meta["ptx"]),
                "-o", os.path.join(d, meta["cubin"])], check=True)
json.dump(meta, open(os.path.join(d, new + ".json"), "w"), indent=1)
print("%s: %d stores predicated off" % (new, n))
