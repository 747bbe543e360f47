#!/usr/bin/python3
"""The coefficients of exp-f32.ts: P of degree 4 minimising the relative error
of 1 + r + r^2*P(r) against exp(r) on |r| <= ln2/2 (a little wider, for the
reduction's rounding), by Remez exchange in mpmath, then rounded to float32
(the printed error is the rounded polynomial's, evaluated exactly).

    /usr/bin/python3 scripts/mpmath/remez_exp_f32.py

Debian's python3-mpmath and python3-numpy.
"""
import mpmath as mp
import numpy as np

mp.mp.dps = 50
DEGREE = 4
A = mp.log(2) / 2 * mp.mpf('1.0001')


def g(r):
    return (mp.exp(r) - 1 - r) / r**2 if r != 0 else mp.mpf(1) / 2


def weight(r):
    return r**2 / mp.exp(r)


def remez():
    n = DEGREE + 2
    xs = [A * mp.cos(mp.pi * (n - 1 - i) / (n - 1)) for i in range(n)]
    grid = [A * mp.mpf(i) / 4000 for i in range(-4000, 4001)]
    for _ in range(30):
        m = mp.matrix(n, n)
        b = mp.matrix(n, 1)
        for i, x in enumerate(xs):
            for j in range(DEGREE + 1):
                m[i, j] = x**j
            m[i, DEGREE + 1] = (-1)**i / weight(x) if x != 0 else 0
            b[i] = g(x)
        sol = mp.lu_solve(m, b)
        c = [sol[j] for j in range(DEGREE + 1)]
        es = [(mp.polyval(c[::-1], x) - g(x)) * weight(x) for x in grid]
        # The new reference: the local extrema of the error, alternating in sign.
        ext = [0] + [i for i in range(1, len(grid) - 1) if abs(es[i]) >= abs(es[i - 1]) and abs(es[i]) >= abs(es[i + 1])] + [len(grid) - 1]
        merged = []
        for i in ext:
            if merged and mp.sign(es[i]) == mp.sign(es[merged[-1]]):
                if abs(es[i]) > abs(es[merged[-1]]):
                    merged[-1] = i
            else:
                merged.append(i)
        while len(merged) > n:
            merged.pop(0 if abs(es[merged[0]]) < abs(es[merged[-1]]) else -1)
        if len(merged) < n:
            break
        xs = [grid[i] for i in merged]
    return c, grid


def main():
    c, grid = remez()
    rounded = [float(np.float32(float(x))) for x in c]
    err = max(abs((mp.polyval([mp.mpf(x) for x in rounded[::-1]], r) - g(r)) * weight(r)) for r in grid)
    print('P =', ', '.join(repr(x) for x in rounded))
    print('max relative error of 1 + r + r^2*P(r): 2^%.2f' % float(mp.log(err, 2)))


main()
