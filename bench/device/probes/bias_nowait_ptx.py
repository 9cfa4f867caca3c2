#!/usr/bin/env python3
"""Timing probe (forty-fifth session), on top of bias_noconsumer_ptx.py's
output: the consumers also stop waiting for the staged bias tile (the
`mbarrier.try_wait` loop on the bias's `full` barrier, at offset 91136 in
the default f16 [1, 1, N, N] kernel, is deleted; its release stays). The
tile is then read by nobody and waited for by nobody, while the producer
still copies it; the full barriers' phases drift, which nothing waits on.
So the kernel separates the consumers' wait for a late bias tile from
the copies' own cost. Timing only; never ship.

Usage: bias_nowait_ptx.py IN.ptx OUT.ptx [OFFSET]
"""
import re
import sys

src, dst = sys.argv[1], sys.argv[2]
offset = sys.argv[3] if len(sys.argv) > 3 else '91136'
text = open(src).read()
regs = set(re.findall(r'add\.s32\s+(%r\d+), %r\d+, ' + offset + ';', text))
pattern = re.compile(
    r'\t// begin inline asm\n\t\{\n\t\.reg \.pred\s+P1; \n\tLAB_WAIT: \n'
    r'\tmbarrier\.try_wait\.parity\.shared\.b64 P1, \[(%r\d+)\], %r\d+, 10000000; \n'
    r'\t@P1 bra\.uni DONE; \n\tbra\.uni\s+LAB_WAIT; \n\tDONE: \n\t\}\n\t// end inline asm\n')
n = 0


def drop(m):
    global n
    if m.group(1) not in regs:
        return m.group(0)
    n += 1
    return ''


text = pattern.sub(drop, text)
print(f'{n} waits on the bias full barrier deleted')
if n == 0:
    sys.exit('no wait found')
open(dst, 'w').write(text)
