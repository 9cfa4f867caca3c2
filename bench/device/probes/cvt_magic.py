#!/usr/bin/env python3
"""A timing probe, not a compiler change: rewrites every
`cvt.rn.f32.s32 d, s` of a PTX file into the two-instruction conversion
`add.s32 d, s, 0x4B400000; sub.rn.f32 d, d, 1.5 * 2^23` (exact for
-2^22 <= s < 2^22), which runs on the integer and FMA pipes instead of the
conversion unit that ex2 also uses. It asks whether the per-score I2F of
an index-based score modification (relpos, ALiBi) is what they cost.

    python3 cvt_magic.py IN.ptx OUT.ptx"""
import re
import sys

src, dst = sys.argv[1], sys.argv[2]
pat = re.compile(r"^(\s*)cvt\.rn\.f32\.s32\s+(%r\d+),\s*(%r\d+);\s*$")
out, n = [], 0
for line in open(src):
    m = pat.match(line)
    if m:
        ind, d, s = m.groups()
        out.append("%sadd.s32 \t%s, %s, 1262485504;\n" % (ind, d, s))
        out.append("%ssub.rn.f32 \t%s, %s, 0f4B400000;\n" % (ind, d, d))
        n += 1
    else:
        out.append(line)
open(dst, "w").writelines(out)
print("%s: %d conversions rewritten" % (dst, n))
