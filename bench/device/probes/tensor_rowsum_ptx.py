#!/usr/bin/env python3
"""Probe (forty-third session): the softmax's row sum on the tensor core.

The thirtieth session's untried idea (perf-log.md): every consumer thread
of a wgmma kernel adds its p values into a row sum, one FADD a score,
then two quad shuffles a row and block. A wgmma of P against a constant
tile of ones (m64n8k16, A from the same registers as the P V product)
gives each row's sum of the f16-rounded p, the same p the numerator
uses; its four accumulator registers are rescaled with the output's, so
the FADDs and the shuffles go. This rewrites a kernel's PTX into that
form, keeping it correct, so run.py can check it:

1. All threads fill 1 KiB of ones (f16 or bf16) at the end of the
   kernel's shared memory before its first `bar.sync 0`, with a proxy
   fence (wgmma reads shared memory through the async proxy); the JSON's
   shared_bytes grows by 1 KiB (the caller edits it).
2. Consumers (after `setmaxnreg.inc`) zero four accumulators %ts0-3 and
   build a no-swizzle descriptor of the ones (LBO 128 B, SBO 256 B: every
   k-step reads 256 B of ones, whatever the layout).
3. Inside each P V k-step's inline-asm block (a wgmma with A in
   registers), a wgmma m64n8k16 of the same A registers and scale-d
   predicate into %ts0-3.
4. Where the output accumulator is rescaled in place (`mul.rn.f32 X, a,
   X` or `X, X, a` on its registers 0 and 2, rows r and r + 8), %ts0-1 and %ts2-3 are
   rescaled by the same factor, at the same point (after the wait for the
   previous P V product). Kernels with a max_bound rescale neither.
5. The row-sum chains (an FADD of an ex2 result with 0, the FADDs that
   follow from it, the quad shuffles and the sum's add into l) become
   moves of 0, so l stays 0 in the loop; before finalize reads l, l is
   set from %ts0 (row r) and %ts2 (row r + 8). Each column of P * ones is
   the whole row's sum, so no shuffle is needed.

usage: tensor_rowsum_ptx.py IN.ptx OUT.ptx SHARED_BYTES
"""

import re
import sys

REG = r"%r\d+"


def fail(msg):
    sys.exit("tensor_rowsum_ptx.py: " + msg)


def main():
    src, dst, shared = sys.argv[1], sys.argv[2], int(sys.argv[3])
    lines = open(src).read().split("\n")

    # The P V k-steps: wgmma with an A register operand.
    pv = re.compile(
        r"wgmma\.mma_async\.sync\.aligned\.m64n(\d+)k16\.f32\.(f16|bf16)\.\2 "
        r"\{([^}]*)\}, \{(%r\d+, %r\d+, %r\d+, %r\d+)\}, (%rd\d+), p, 1, 1, (\d);")
    acc0 = acc2 = dtype = None
    for line in lines:
        m = pv.search(line)
        if m:
            regs = [r.strip() for r in m.group(3).split(",")]
            if acc0 is None:
                acc0, acc2, dtype = regs[0], regs[2], m.group(2)
            elif (regs[0], regs[2]) != (acc0, acc2):
                fail("P V products with different accumulators")
    if acc0 is None:
        fail("no P V wgmma with A in registers")

    # l: the operands of finalize's reciprocals, in order (rows r, r + 8).
    rcp = [(i, m.group(1)) for i, line in enumerate(lines)
           for m in [re.search(r"rcp\.rn\.f32\s+%r\d+, (%r\d+);", line)] if m]
    if len(rcp) != 2:
        fail("expected two rcp.rn.f32 of l, found %d" % len(rcp))
    l0, l1 = rcp[0][1], rcp[1][1]
    # Finalize's first use of l0 after the last full wait before the rcp.
    last_wait = max(i for i in range(rcp[0][0])
                    if "wgmma.wait_group.sync.aligned \t0;" in lines[i])
    fin = next(i for i in range(last_wait, rcp[0][0] + 1)
               if re.search(r"[ ,]%s[,;]" % re.escape(l0), lines[i]))

    # Alphas: l = l * alpha + sum pairs l0 / l1 with their factors; the
    # in-place rescale of acc0 / acc2 must use the same ones.
    alpha = {}
    for line in lines:
        m = re.search(r"mul\.rn\.f32\s+%r\d+, (%r\d+), (%r\d+);", line)
        if m:
            for x, y in ((m.group(1), m.group(2)), (m.group(2), m.group(1))):
                if x in (l0, l1):
                    alpha.setdefault(y, set()).add(x)

    ex2 = set()
    chain = set()
    out = []
    counts = dict(chain=0, shfl=0, rescale=0, pv=0)
    for i, line in enumerate(lines):
        if i == fin:
            out.append("\tmov.b32 \t%s, %%ts0;" % l0)
            out.append("\tmov.b32 \t%s, %%ts2;" % l1)
        m = re.match(r"\s*ex2\.approx\.ftz\.f32\s+(%r\d+),", line)
        if m:
            ex2.add(m.group(1))
        m = re.match(r"(\s*)add\.rn\.f32\s+(%r\d+), (%r\d+), (%r\d+|0f[0-9A-F]+);", line)
        if m and i < fin:
            d, a, b = m.group(2), m.group(3), m.group(4)
            seed = (a in ex2 and b == "0f00000000")
            if seed or a in chain or b in chain:
                if d not in (l0, l1):
                    chain.add(d)
                counts["chain"] += 1
                out.append("%smov.b32 \t%s, 0f00000000;" % (m.group(1), d))
                continue
        m = re.match(r"(\s*)shfl\.sync\.bfly\.b32\s+(%r\d+), (%r\d+),", line)
        if m and m.group(3) in chain:
            chain.add(m.group(2))
            counts["shfl"] += 1
            out.append("%smov.b32 \t%s, 0f00000000;" % (m.group(1), m.group(2)))
            continue
        out.append(line)
        m = re.match(r"(\s*)mul\.rn\.f32\s+(%r\d+), (%r\d+), (%r\d+);", line)
        if m and m.group(2) in (acc0, acc2) and m.group(2) in (m.group(3), m.group(4)):
            a = m.group(3) if m.group(2) == m.group(4) else m.group(4)
            row = 0 if m.group(2) == acc0 else 2
            want = l0 if row == 0 else l1
            if want not in alpha.get(a, set()):
                fail("rescale of %s by %s, which does not scale %s" % (m.group(2), a, want))
            out.append("%smul.rn.f32 \t%%ts%d, %s, %%ts%d;" % (m.group(1), row, a, row))
            out.append("%smul.rn.f32 \t%%ts%d, %s, %%ts%d;" % (m.group(1), row + 1, a, row + 1))
            counts["rescale"] += 1
        m = pv.search(line)
        if m:
            out.append(
                "wgmma.mma_async.sync.aligned.m64n8k16.f32.%s.%s {%%ts0, %%ts1, %%ts2, %%ts3}, "
                "{%s}, %%tsd, p, 1, 1, 0;" % (dtype, dtype, m.group(4)))
            counts["pv"] += 1
        if re.match(r"\s*\.reg \.b64 \s*%rd<\d+>;", line):
            out.append("\t.reg .b32 \t%ts<4>;")
            out.append("\t.reg .b32 \t%tsx<4>;")
            out.append("\t.reg .b64 \t%tsd;")
            out.append("\t.reg .pred \t%tsp;")
        if re.match(r"\s*setmaxnreg\.inc", line):
            out += ["\tmov.b32 \t%%ts%d, 0f00000000;" % k for k in range(4)]
            out += ["\tmov.u32 \t%tsx0, attn_smem;",
                    "\tadd.s32 \t%%tsx0, %%tsx0, %d;" % shared,
                    "\tshr.u32 \t%tsx0, %tsx0, 4;",
                    "\tand.b32 \t%tsx0, %tsx0, 16383;",
                    "\tcvt.u64.u32 \t%tsd, %tsx0;",
                    "\tor.b64 \t%%tsd, %%tsd, %d;" % ((16 << 32) | (8 << 16))]
    # The fill, before the first bar.sync 0.
    first_bar = next(i for i, line in enumerate(out) if "bar.sync \t0;" in line)
    ones = "0x3C003C00" if dtype == "f16" else "0x3F803F80"
    fill = ["\tmov.u32 \t%tsx1, %tid.x;",
            "\tsetp.lt.u32 \t%tsp, %tsx1, 256;",
            "\tshl.b32 \t%tsx1, %tsx1, 2;",
            "\tmov.u32 \t%tsx2, attn_smem;",
            "\tadd.s32 \t%tsx2, %tsx2, %tsx1;",
            "\tmov.b32 \t%%tsx3, %s;" % ones,
            "\t@%%tsp st.shared.b32 \t[%%tsx2+%d], %%tsx3;" % shared,
            "\tfence.proxy.async.shared::cta;"]
    out[first_bar:first_bar] = fill
    open(dst, "w").write("\n".join(out))
    # With a max_bound (attn.online_softmax) nothing is rescaled: l is
    # only ever added to, and neither is the output.
    if (counts["rescale"] == 0) != (not alpha) or counts["pv"] == 0 or counts["chain"] == 0:
        fail("nothing rewritten: %s" % counts)
    print("%s: %s, l = %s / %s, acc = %s / %s" % (dst, counts, l0, l1, acc0, acc2))


if __name__ == "__main__":
    main()
