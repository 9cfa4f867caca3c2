#!/usr/bin/env python3
"""Probe (forty-first session): what the staged bias's f16 -> f32
conversions cost the consumers.

Rewrites every `cvt.f32.f16 D, S;` of a bias kernel's PTX (the only
f16 -> f32 conversions there: the bias elements read from shared memory
with ld.shared.v2.b16) into `mov.b32 D, {A, B}`, A and B the pair S was
loaded with, so that ptxas uses the loaded 32-bit register as it is: no
instruction. The values are wrong (two f16 bit patterns read as one f32,
finite for finite f16), so the kernel is for timing only: its time
against the original's bounds what writing the staged tile as f32 (the
producer warpgroup converting it) could gain the consumers. Conversions
of values not loaded in pairs (the unstaged fallback's) are left alone
and counted.

usage: bias_nocvt_ptx.py IN.ptx OUT.ptx
"""

import re
import sys


def main():
    src, dst = sys.argv[1], sys.argv[2]
    text = open(src).read()
    pair = {}
    for a, b in re.findall(r"ld\.shared\.v2\.b16\s+\{(%rs\d+), (%rs\d+)\}", text):
        pair[a] = pair[b] = (a, b)
    unpaired = 0

    def replace(m):
        nonlocal unpaired
        indent, d, s = m.group(1), m.group(2), m.group(3)
        if s not in pair:
            unpaired += 1
            return m.group(0)
        return "%smov.b32 \t%s, {%s, %s};" % (indent, d, *pair[s])

    out = re.sub(r"^(\s*)cvt\.f32\.f16\s+(%r\d+), (%rs\d+);", replace, text, flags=re.M)
    open(dst, "w").write(out)
    print("%s: %d conversions left (not loaded in pairs)" % (dst, unpaired))


if __name__ == "__main__":
    main()
