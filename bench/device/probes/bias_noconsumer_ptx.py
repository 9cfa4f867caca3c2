#!/usr/bin/env python3
"""Timing probe (forty-fifth session): the staged-bias kernel with the
consumers' bias work taken out. Every `fma.rn.f32 t, s, scale, b` whose
addend b is a `cvt.f32.f16` of the staged bias becomes `mul.rn.f32 t, s,
scale`; the conversions and the shared-memory loads of the bias are then
dead and ptxas drops them, while the producer's TMA copies of the bias and
the consumers' mbarrier waits and releases of its stages stay. So the
kernel still streams the bias through shared memory but adds nothing: the
bound of any design that moves the bias's per-score work off the
consumers (an f32 tile written by the producer and loaded as the
product's initial accumulator). Its O is that of attention without the
bias.

Usage: bias_noconsumer_ptx.py IN.ptx OUT.ptx  (then ptxas -arch=sm_90a -O3).
"""
import re
import sys

src, dst = sys.argv[1], sys.argv[2]
text = open(src).read()
cvts = set(re.findall(r'cvt\.f32\.f16\s+(%r\d+),', text))
n = 0


def rewrite(m):
    global n
    if m.group(4) not in cvts:
        return m.group(0)
    n += 1
    return f'{m.group(1)}mul.rn.f32 \t{m.group(2)}, {m.group(3)};'


text = re.sub(r'^(\s*)fma\.rn\.f32\s+(%r\d+), (%r\d+, 0f[0-9A-F]{8}), (%r\d+);$',
              rewrite, text, flags=re.M)
print(f'{n} bias FMAs made multiplies ({len(cvts)} conversions)')
if n == 0 or n != len(cvts):
    sys.exit('unexpected kernel shape: every conversion should feed one FMA')
open(dst, 'w').write(text)
