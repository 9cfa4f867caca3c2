#!/usr/bin/env python3
"""Timing probe (forty-fifth session): the common path of a speculative
reference for the f16 softcap, built on the fixed-reference kernel of the
`fb` pack (session44-fb*.sh: the 192 x 80 kernel compiled with
`max_bound` allowed for f16 P, wrong by design on randn inputs, realistic
on queries scaled by 16). Rewrites its PTX so that each block, after the
softmax's row sums, does what the speculative design's check would:

  * a vote over the warp's rows on `sum > 2^15` and a branch on it that is
    never taken on these inputs (here a predicated `trap`);
  * K's stage released after that check instead of right after the wait
    for the block's scores (a redo needs K still staged), by keeping the
    stage's address in a register from the old release point.

Usage: spec_check_ptx.py IN.ptx OUT.ptx  (then ptxas -arch=sm_90a -O3).
Not a kernel to ship: no redo path exists behind the branch.
"""
import re
import sys

src, dst = sys.argv[1], sys.argv[2]
lines = open(src).read().split('\n')
out = []
k_release = re.compile(r'^(\s*)mbarrier\.arrive\.shared\.b64\s+%rd\d+, \[(attn_smem|%r\d+)\+49176\];$')
sum_add = re.compile(r'^\s*add\.rn\.f32\s+(%r\d+), (%r\d+), (%r\d+);$')
shfl2 = re.compile(r'^\s*shfl\.sync\.bfly\.b32\s+(%r\d+), (%r\d+), 2, 31, -1;$')
sums = []
releases = checks = 0
declared = False
for i, line in enumerate(lines):
    if not declared and re.match(r'^\s*\.reg \.b64\s+%rd<\d+>;$', line):
        out.append(line)
        out.append('\t.reg .b32 \t%ksv;\n\t.reg .pred \t%pk<3>;\n\t.reg .b64 \t%rdk;')
        declared = True
        continue
    m = k_release.match(line)
    if m:
        out.append(f'{m.group(1)}mov.u32 \t%ksv, {m.group(2)};')
        releases += 1
        continue
    m = sum_add.match(line)
    if m and i > 0:
        s = shfl2.match(lines[i - 1])
        if s and s.group(1) == m.group(3) and s.group(2) == m.group(2):
            sums.append(m.group(1))
    if 'wgmma.wait_group.sync.aligned \t0;' in line and len(sums) >= 2 and \
            sum_add.match(lines[i - 1]) and sum_add.match(lines[i - 1]).group(1) == sums[-1]:
        a, b = sums[-2], sums[-1]
        out.append(f'\tsetp.gt.f32 \t%pk1, {a}, 0f47000000;')
        out.append(f'\tsetp.gt.f32 \t%pk2, {b}, 0f47000000;')
        out.append('\tor.pred \t%pk1, %pk1, %pk2;')
        out.append('\tvote.sync.any.pred \t%pk1, %pk1, -1;')
        out.append('\t@%pk1 trap;')
        out.append('\tmbarrier.arrive.shared.b64 \t%rdk, [%ksv+49176];')
        checks += 1
        sums = []
    out.append(line)
assert declared, 'no .reg .b64 declaration'
print(f'{releases} K releases moved, {checks} checks inserted')
if releases != 3 or checks != 2:
    sys.exit('unexpected kernel shape: expected 3 K releases (prologue, two '
             'loop tails) and 2 loop bodies')
open(dst, 'w').write('\n'.join(out))
