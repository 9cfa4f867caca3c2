#!/usr/bin/env python3
"""The polynomial of WarpMMA::fmaExp2 (the #attn.gpu_config<fma_exp2 = k>
exponentials), fitted and checked here (plain Python, no numpy).

Fits 2^f on [-1/2, 1/2] as 1 + c1 f + ... + c5 f^5 (c0 = 1 exactly, so that
f = 0 gives 1.0 and a clamped -inf gives +0.0), minimising the maximum
relative error by Lawson's iteratively reweighted least squares on
Chebyshev nodes; then evaluates the whole function as the kernel does, in
f32 with one rounding per operation (FMA: one), over random x in
[-140, 0] and the special values, against 2^x of the f32 input.

    python3 bench/device/probes/fma_exp2_fit.py
Printed on 2026-12-02: coefficients 0.6931470036506653, 0.24022242426872253,
0.05550733581185341, 0.009671512991189957, 0.0013264723820611835; max
relative error 1.52e-07 (polynomial), 1.66e-07 (function, normal range);
-inf -> 0.0, 0 -> 1.0, NaN -> nan.
"""
import math
import random
import struct


def f32(x):
    return struct.unpack("f", struct.pack("f", x))[0]


def bits(x):
    return struct.unpack("I", struct.pack("f", x))[0]


def from_bits(u):
    return struct.unpack("f", struct.pack("I", u & 0xFFFFFFFF))[0]


def solve(a, b):
    n = len(a)
    m = [row[:] + [bb] for row, bb in zip(a, b)]
    for i in range(n):
        p = max(range(i, n), key=lambda r: abs(m[r][i]))
        m[i], m[p] = m[p], m[i]
        for r in range(n):
            if r != i:
                fac = m[r][i] / m[i][i]
                for c in range(i, n + 1):
                    m[r][c] -= fac * m[i][c]
    return [m[i][n] / m[i][i] for i in range(n)]


def fit(deg=5, nodes=400, iterations=60):
    xs = [0.5 * math.cos(math.pi * (i + 0.5) / nodes) for i in range(nodes)]
    w = [1.0] * nodes
    for _ in range(iterations):
        a = [[0.0] * deg for _ in range(deg)]
        b = [0.0] * deg
        for x, wi in zip(xs, w):
            t = 2 ** x
            phi = [x ** (k + 1) / t for k in range(deg)]
            r = (t - 1) / t
            for i in range(deg):
                b[i] += wi * phi[i] * r
                for j in range(deg):
                    a[i][j] += wi * phi[i] * phi[j]
        c = solve(a, b)
        errs = [abs((1 + sum(c[k] * x ** (k + 1) for k in range(deg)) - 2 ** x) / 2 ** x)
                for x in xs]
        s = sum(wi * e for wi, e in zip(w, errs))
        w = [wi * e / s * nodes for wi, e in zip(w, errs)]
    return [f32(v) for v in c]


def poly(c, f):
    acc = c[-1]
    for k in range(len(c) - 2, -1, -1):
        acc = f32(acc * f + c[k])
    return f32(acc * f + 1.0)


MAGIC = 12582912.0  # 1.5 x 2^23


def fma_exp2(c, x):
    x = f32(x)
    clamped = x if (x != x or x > -127.0) else -127.0
    shifted = f32(clamped + MAGIC)
    j = f32(shifted - MAGIC)
    f = f32(clamped - j)
    return from_bits(bits(poly(c, f)) + (bits(shifted) << 23))


def main():
    c = fit()
    print("coefficients", ", ".join(repr(v) for v in c))
    worst_poly = max(abs(poly(c, -0.5 + i / 20000) - 2 ** (-0.5 + i / 20000))
                     / 2 ** (-0.5 + i / 20000) for i in range(20001))
    print("max relative error, polynomial: %.3g" % worst_poly)
    rng = random.Random(1)
    worst = 0.0
    for i in range(200000):
        x = f32(-rng.random() * (140 if i % 2 else 2))
        got, want = fma_exp2(c, x), 2.0 ** x
        if want > 1.2e-38:
            worst = max(worst, abs(got - want) / want)
        else:
            assert 0.0 <= got < 1.2e-38, (x, got)
    print("max relative error, function (normal range): %.3g" % worst)
    print("-inf ->", fma_exp2(c, float("-inf")), " 0 ->", fma_exp2(c, 0.0),
          " NaN ->", fma_exp2(c, float("nan")))


if __name__ == "__main__":
    main()
