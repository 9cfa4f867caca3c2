#!/usr/bin/env python3
"""Probe (forty-first session): a warp-uniform polynomial tanh, by PTX rewrite.

Rewrites every run of consecutive `tanh.approx.f32 D, S;` lines of a
kernel's PTX (the softcap's tanh on a thread's score registers, one run
per block of keys) into

    m = max |S_i| over the run            (a tree of max.f32 of abs.f32)
    all = vote.sync.all(m < 1.0)
    if all:  D_i = S_i * p(S_i^2)         (5 FMA-pipe instructions each)
    else:    D_i = tanh.approx.f32(S_i)   (the run as it was)

p is a cubic fitted to tanh(x) / x on |x| <= 1 (near-minimax by
interpolation at Chebyshev nodes in x^2): relative error 8.4e-5 in f32
against tanh.approx.f32's 2^-11. NaN: max.f32 drops a NaN operand, so a
NaN may take the fast path, where p keeps it NaN (as tanh.approx does);
an infinite |S| fails the test and takes the MUFU path.

A probe of whether taking the tanh off the MUFU pipe pays, not the
compiler's code: if it does, the lowering of math.tanh on register tiles
emits the same thing.

With --no-test: the polynomial alone, no maximum, vote or branch (wrong
for |x| > 1: for timing the polynomial's own cost only; pack polynb).

usage: poly_tanh_ptx.py [--no-test] IN.ptx OUT.ptx
"""

import re
import sys

# p(u) = C0 + C1 u + C2 u^2 + C3 u^3, u = x^2 (fit in the session's notes).
C = ["0f3F7FFA7E", "0fBEA945A9", "0f3DF34374", "0fBCD985BE"]
THRESHOLD = "0f3F800000"  # 1.0
TANH = re.compile(r"^\s*tanh\.approx\.f32\s+(%\w+),\s*(%\w+);\s*$")


def polynomial(run):
    out = []
    for i, (d, s) in enumerate(run):
        out.append("\tmul.rn.f32 \t%%ptu%d, %s, %s;" % (i, s, s))
        out.append("\tfma.rn.f32 \t%%ptp%d, %%ptu%d, %s, %s;" % (i, i, C[3], C[2]))
        out.append("\tfma.rn.f32 \t%%ptp%d, %%ptp%d, %%ptu%d, %s;" % (i, i, i, C[1]))
        out.append("\tfma.rn.f32 \t%%ptp%d, %%ptp%d, %%ptu%d, %s;" % (i, i, i, C[0]))
        out.append("\tmul.rn.f32 \t%s, %s, %%ptp%d;" % (d, s, i))
    return out


def rewrite_untested(run, k):
    n = len(run)
    return (["\t{ // poly_tanh probe, no test: %d tanh" % n,
             "\t.reg .f32 %%ptu<%d>, %%ptp<%d>;" % (n, n)]
            + polynomial(run) + ["\t}"])


def rewrite(run, k):
    src = [s for _, s in run]
    n = len(run)
    out = ["\t{ // poly_tanh probe: %d tanh" % n,
           "\t.reg .f32 %%pta<%d>, %%ptu<%d>, %%ptp<%d>;" % (2 * n, n, n),
           "\t.reg .pred %ptq, %ptv;"]
    for i, s in enumerate(src):
        out.append("\tabs.f32 \t%%pta%d, %s;" % (i, s))
    # A tree of maxima: level by level into fresh registers.
    level, nxt = list(range(n)), n
    while len(level) > 1:
        new = []
        for j in range(0, len(level) - 1, 2):
            out.append("\tmax.f32 \t%%pta%d, %%pta%d, %%pta%d;" % (nxt, level[j], level[j + 1]))
            new.append(nxt)
            nxt += 1
        if len(level) % 2:
            new.append(level[-1])
        level = new
    assert nxt <= 2 * n
    out.append("\tsetp.lt.f32 \t%%ptq, %%pta%d, %s;" % (level[0], THRESHOLD))
    out.append("\tvote.sync.all.pred \t%ptv, %ptq, -1;")
    out.append("\t@%%ptv bra.uni \t$PT_FAST_%d;" % k)
    for d, s in run:
        out.append("\ttanh.approx.f32 \t%s, %s;" % (d, s))
    out.append("\tbra.uni \t$PT_DONE_%d;" % k)
    out.append("$PT_FAST_%d:" % k)
    out += polynomial(run)
    out.append("$PT_DONE_%d:" % k)
    out.append("\t}")
    return out


def main():
    args = [a for a in sys.argv[1:] if a != "--no-test"]
    emit = rewrite_untested if "--no-test" in sys.argv else rewrite
    src, dst = args[0], args[1]
    lines = open(src).read().split("\n")
    out, run, k = [], [], 0
    for line in lines + [""]:
        m = TANH.match(line)
        if m:
            d, s = m.group(1), m.group(2)
            # A run's outputs must not feed its own inputs (they are read
            # after the branch has written them otherwise).
            if s in [x for x, _ in run]:
                out += emit(run, k)
                k += 1
                run = []
            run.append((d, s))
            continue
        if run:
            out += emit(run, k)
            k += 1
            run = []
        out.append(line)
    open(dst, "w").write("\n".join(out[:-1]) + "\n")
    print("%s: %d tanh runs rewritten" % (dst, k))


if __name__ == "__main__":
    main()
