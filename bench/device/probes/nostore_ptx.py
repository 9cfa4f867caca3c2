#!/usr/bin/env python3
"""Upper bound of what a different O store (a TMA store) could save.

Copies the artifacts of SRC into DST with every `st.global` of every
kernel's PTX predicated on a condition that is false at run time but that
ptxas cannot prove false (Q's pointer is null), so the kernel computes
everything it did (the products, the normalisation, the quad exchange)
and writes nothing: timed against the same PTX unchanged (both assembled
here with the same ptxas command), the difference is the whole cost of
the epilogue's global writes, which no store path can beat.
With --same, DST gets the PTX unchanged (the control).
usage: nostore_ptx.py SRC DST [--same]
"""
import os, re, shutil, subprocess, sys

src, dst = sys.argv[1], sys.argv[2]
same = "--same" in sys.argv
os.makedirs(dst, exist_ok=True)
for f in sorted(os.listdir(src)):
    if f.endswith(".json"):
        shutil.copy(os.path.join(src, f), dst)
    if not f.endswith(".ptx"):
        continue
    text = open(os.path.join(src, f)).read()
    if not same:
        lines, out, entry, done = text.split("\n"), [], None, False
        for line in lines:
            m = re.match(r"\.visible \.entry (\w+)\(", line)
            if m:
                entry, done = m.group(1), False
            if entry and not done and line.strip() == "{":
                out += [line, "\t.reg .pred %pnostore;", "\t.reg .b64 %rdnostore;",
                        "\tld.param.u64 %%rdnostore, [%s_param_0];" % entry,
                        "\tsetp.eq.u64 %pnostore, %rdnostore, 0;"]
                done = True
                continue
            s = line.lstrip()
            if s.startswith("st.global"):
                assert not s.startswith("@"), line
                line = line[:len(line) - len(s)] + "@%pnostore " + s
            out.append(line)
        n = sum(1 for l in out if "@%pnostore st.global" in l)
        assert n > 0, f
        text = "\n".join(out)
        print("%s: %d stores predicated off" % (f, n))
    open(os.path.join(dst, f), "w").write(text)
    cubin = os.path.join(dst, f[:-len(".ptx")] + ".cubin")
    subprocess.run(["ptxas", "-arch=sm_90a", "-O3", os.path.join(dst, f), "-o", cubin],
                   check=True)
