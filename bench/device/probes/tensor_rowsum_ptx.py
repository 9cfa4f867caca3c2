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
   fence (wgmma reads shared memory through the async proxy); shared_bytes
   grows by 1 KiB (build_rowsum.py edits the JSON).
2. Consumers (after `setmaxnreg.inc`) zero four accumulators %ts0-3 and
   build a no-swizzle descriptor of the ones (LBO 128 B, SBO 256 B: every
   k-step reads 256 B of ones, whatever the layout).
3. Before each group of P V k-steps (wgmmas with A in registers), the
   group's A fragments summed register by register (add.rn.f16x2 /
   bf16x2 chains: the column sums of P over the k-steps, in f16 / bf16)
   and one wgmma m64n8k16 of that sum against the ones into %ts0-3, with
   the group's scale-d. One small wgmma per k-step would be simpler, but
   ptxas serializes the group then (C7512, "insufficient register
   resources") at these kernels' register limits; one per group, issued
   first, it does not.
4. Where the output accumulator is rescaled in place (`mul.rn.f32 X, a,
   X` or `X, X, a` on its registers 0 and 2, rows r and r + 8), %ts0-1 and %ts2-3 are
   rescaled by the same factor, at the same point (after the wait for the
   previous P V product). Kernels with a max_bound rescale neither.
5. The row-sum chains (an FADD of an ex2 result with 0, the FADDs that
   follow from it, the quad shuffles and the sum's add into l) become
   moves of 0, so l stays 0 in the loop; before finalize reads l, l is
   set from %ts0 (row r) and %ts2 (row r + 8). Each column of P * ones is
   the whole row's sum, so no shuffle is needed.

6. The module's launch contract (attn_contract_<entry>, which the
   runtime checks against the JSON) gets the new shared_bytes.

With --wide BLOCK_N,THREADS (the 192 x 80 softcap kernels, where the
group form still serializes), steps 1-3 become: P V is one m64n(Dv+8)k16
wgmma whose B operand's third 64-column chunk is ones. It lies one LBO
past V's second chunk, so V's ring is re-laid (stage s at V + s * chunk,
its chunks 2 * chunk apart: the consumers' stage offsets, the
descriptors' LBO and the producer's TMA destinations change), the two
ones chunks (20 KiB at 80 keys) take the place of O's staging buffer,
which moves up by as much, and all threads fill them.

usage: tensor_rowsum_ptx.py [--wide BLOCK_N,THREADS] IN.ptx OUT.ptx SHARED_BYTES
"""

import re
import sys

def fail(msg):
    sys.exit("tensor_rowsum_ptx.py: " + msg)


def pv_scale_d(lines, i):
    """The scale-d of the P V k-step on line i: its scope's setp."""
    for j in range(i - 1, max(i - 4, 0), -1):
        m = re.match(r"setp\.ne\.b32 p, (\d), 0;", lines[j].strip())
        if m:
            return m.group(1)
    fail("no scale-d predicate before line %d" % (i + 1))


def defining(lines, reg, op):
    """The one line that defines `reg` with instruction `op`, as a match of
    its operands."""
    found = [m for line in lines
             for m in [re.match(r"\s*%s\s+%s, (.*);" % (re.escape(op), re.escape(reg)), line)] if m]
    if len(found) != 1:
        fail("%d definitions of %s by %s" % (len(found), reg, op))
    return [x.strip() for x in found[0].group(1).split(",")]


def widen_layout(lines, pv, block_n, shared):
    """The wide form's shared-memory layout (see the module docstring);
    returns the offset of the ones, the new shared_bytes and the lines."""
    chunk = block_n * 128  # one 64-column chunk of a V stage
    desc = next(m.group(5) for line in lines for m in [pv.search(line)] if m)
    rd, const = defining(lines, desc, "or.b64")
    const = int(const)
    if ((const >> 16) & 0x3FFF) * 16 != chunk or const >> 62 != 1:
        fail("P V descriptor %#x: not a 128B-swizzled V of %d-byte chunks" % (const, chunk))
    a, = defining(lines, rd, "cvt.u64.u32")
    b, _ = defining(lines, a, "and.b32")
    c, _ = defining(lines, b, "shr.u32")
    d, vbase = defining(lines, c, "add.s32")
    vbase = int(vbase)
    ostage = vbase + 4 * chunk  # the O staging buffer follows the V ring
    text = "\n".join(lines)
    # Consumers: stage s at vbase + s * chunk, its chunks 2 * chunk apart.
    n = len(re.findall(r"mul\.lo\.s32 \t(%%r\d+), (%%r\d+), %d;" % (2 * chunk), text))
    stage_regs = set()
    for line in lines:
        m = re.match(r"\s*add\.s32\s+(%r\d+), (%r\d+), " + str(vbase) + ";", line)
        if m and "mad.lo" not in line:
            try:
                base, stage = defining(lines, m.group(2), "add.s32")
                stage_regs.add(stage)
            except SystemExit:
                pass
    for r in stage_regs:
        text, k = re.subn(r"mul\.lo\.s32 \t%s, (%%r\d+), %d;" % (re.escape(r), 2 * chunk),
                          r"mul.lo.s32 \t%s, \1, %d;" % (r, chunk), text)
        if k != 1:
            fail("stage offset %s: %d definitions" % (r, k))
    # The descriptors: LBO from one chunk to two.
    for k in range(8):
        text = text.replace(str(const + 128 * k), str(const + 128 * k + ((chunk // 16) << 16)))
    # The producer: mad of the stage, then the two chunks' destinations.
    m = re.search(r"mad\.lo\.s32 \t(%%r\d+), (%%r\d+), %d, (%%r\d+);\n\tadd\.s32 \t%%r\d+, \1, %d;"
                  % (2 * chunk, vbase), text)
    if not m:
        fail("no producer V destination")
    r = m.group(1)
    text = text.replace(m.group(0), m.group(0).replace(", %d, " % (2 * chunk), ", %d, " % chunk))
    text, k = re.subn(r"add\.s32 \t(%%r\d+), %s, %d;" % (re.escape(r), vbase + chunk),
                      r"add.s32 \t\1, %s, %d;" % (r, vbase + 2 * chunk), text)
    if k != 1:
        fail("producer's second V chunk: %d" % k)
    # O staging moves up by the two ones chunks.
    moved = []

    def shift(m):
        v = int(m.group(2))
        if ostage <= v < shared:
            moved.append(v)
            return m.group(1) + str(v + 2 * chunk) + m.group(3)
        return m.group(0)
    text = re.sub(r"((?:\+|, ))(\d{5,6})([\];])", shift, text)
    print("wide: chunk %d, V at %d, %d stage muls, O staging from %d moved (%d constants: %s)"
          % (chunk, vbase, len(stage_regs), ostage, len(moved), sorted(set(moved))[:6]))
    return ostage, shared + 2 * chunk, text.split("\n")


def patch_contract(lines, old, new):
    """The module's launch contract (attn_contract_<entry>, checked by the
    runtime against the JSON) records shared_bytes as a little-endian
    64-bit field: old -> new."""
    for i, line in enumerate(lines):
        m = re.match(r"(\.visible \.global \.align 8 \.b8 attn_contract_\w+\[\d+\] = \{)(.*)(\};)", line)
        if not m:
            continue
        vals = [int(x) for x in m.group(2).split(",")]
        want = list(old.to_bytes(8, "little"))
        hits = [j for j in range(0, len(vals) - 7, 8) if vals[j:j + 8] == want]
        if len(hits) != 1:
            fail("contract: %d fields equal to %d" % (len(hits), old))
        vals[hits[0]:hits[0] + 8] = list(new.to_bytes(8, "little"))
        lines[i] = m.group(1) + ", ".join(str(v) for v in vals) + m.group(3)
        return
    fail("no launch contract")


def main():
    args = sys.argv[1:]
    wide = None
    if args[0] == "--wide":
        block_n, threads = (int(x) for x in args[1].split(","))
        wide, args = (block_n, threads), args[2:]
    src, dst, shared = args[0], args[1], int(args[2])
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
    if wide:
        ones_at, new_shared, lines = widen_layout(lines, pv, wide[0], shared)

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
    counts = dict(chain=0, shfl=0, rescale=0, pv=0, hadd2=0)
    quads, fence = [], None
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
        if "wgmma.fence.sync.aligned" in line:
            fence = len(out) - 1
        m = pv.search(line)
        if m and wide:
            n = int(m.group(1))
            out[-1] = line.replace("m64n%dk16" % n, "m64n%dk16" % (n + 8)).replace(
                m.group(3) + "}", m.group(3) + ", %ts0, %ts1, %ts2, %ts3}")
            counts["pv"] += 1
        elif m:
            quads.append(m.group(4).split(", "))
            scale_d = pv_scale_d(lines, i)
        if "wgmma.commit_group" in line and quads:
            # The group's A fragments summed register by register (chains
            # of packed adds), one wgmma of the sum against the ones,
            # issued first in the group: the k-steps' own small wgmmas
            # make ptxas serialize the group (C7512) at these kernels'
            # register limits.
            adds = []
            for r, column in enumerate(zip(*quads)):
                acc = column[0]
                for v in column[1:]:
                    adds.append("\tadd.rn.%sx2 \t%%tsa%d, %s, %s;" % (dtype, r, acc, v))
                    acc = "%%tsa%d" % r
                if acc != "%%tsa%d" % r:
                    adds.append("\tmov.b32 \t%%tsa%d, %s;" % (r, acc))
            wg = ["{", ".reg .pred p;", "setp.ne.b32 p, %s, 0;" % scale_d,
                  "wgmma.mma_async.sync.aligned.m64n8k16.f32.%s.%s {%%ts0, %%ts1, %%ts2, %%ts3}, "
                  "{%%tsa0, %%tsa1, %%tsa2, %%tsa3}, %%tsd, p, 1, 1, 0;" % (dtype, dtype), "}"]
            out[fence:fence + 1] = adds + [out[fence]] + wg
            counts["pv"] += 1
            counts["hadd2"] += len(adds)
            quads = []
        if re.match(r"\s*\.reg \.b64 \s*%rd<\d+>;", line):
            out.append("\t.reg .b32 \t%ts<4>;")
            out.append("\t.reg .b32 \t%tsx<4>;")
            out.append("\t.reg .b32 \t%tsa<4>;")
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
    if wide:
        words = (new_shared - shared) // 4
        fill = ["\tmov.u32 \t%tsx1, %tid.x;",
                "\tshl.b32 \t%tsx1, %tsx1, 2;",
                "\tmov.u32 \t%tsx2, attn_smem;",
                "\tadd.s32 \t%tsx2, %tsx2, %tsx1;",
                "\tmov.b32 \t%%tsx3, %s;" % ones]
        if words % wide[1]:
            fail("%d words of ones over %d threads" % (words, wide[1]))
        fill += ["\tst.shared.b32 \t[%%tsx2+%d], %%tsx3;" % (ones_at + 4 * wide[1] * j)
                 for j in range(words // wide[1])]
        fill.append("\tfence.proxy.async.shared::cta;")
        out[first_bar:first_bar] = fill
        patch_contract(out, shared, new_shared)
        open(dst, "w").write("\n".join(out))
        if (counts["rescale"] == 0) != (not alpha) or counts["pv"] == 0 or counts["chain"] == 0:
            fail("nothing rewritten: %s" % counts)
        print("%s: %s, l = %s / %s, acc = %s / %s, shared_bytes %d"
              % (dst, counts, l0, l1, acc0, acc2, new_shared))
        return
    fill = ["\tmov.u32 \t%tsx1, %tid.x;",
            "\tsetp.lt.u32 \t%tsp, %tsx1, 256;",
            "\tshl.b32 \t%tsx1, %tsx1, 2;",
            "\tmov.u32 \t%tsx2, attn_smem;",
            "\tadd.s32 \t%tsx2, %tsx2, %tsx1;",
            "\tmov.b32 \t%%tsx3, %s;" % ones,
            "\t@%%tsp st.shared.b32 \t[%%tsx2+%d], %%tsx3;" % shared,
            "\tfence.proxy.async.shared::cta;"]
    out[first_bar:first_bar] = fill
    patch_contract(out, shared, shared + 1024)
    open(dst, "w").write("\n".join(out))
    # With a max_bound (attn.online_softmax) nothing is rescaled: l is
    # only ever added to, and neither is the output.
    if (counts["rescale"] == 0) != (not alpha) or counts["pv"] == 0 or counts["chain"] == 0:
        fail("nothing rewritten: %s" % counts)
    print("%s: %s, l = %s / %s, acc = %s / %s" % (dst, counts, l0, l1, acc0, acc2))


if __name__ == "__main__":
    main()
