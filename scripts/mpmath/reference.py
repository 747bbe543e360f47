#!/usr/bin/python3
"""Correctly rounded reference values for kernels-wasm's vector math, from mpmath.

    /usr/bin/python3 scripts/mpmath/reference.py FN DTYPE IN OUT

IN holds little-endian float64 inputs (for the binary ones: pairs a0 b0 a1
b1 ...; atan2 takes (y, x) like C); OUT receives one float64 per input (or
pair): FN evaluated with mpmath and rounded to nearest, ties to even, to DTYPE
(float64 or float32, subnormals included), stored as float64. Inputs must be
finite; outside the real domain the output is NaN. Special values
(infinities, NaN) are tested elsewhere.

Rounding: each value is computed at 160 and at 320 bits; when the two round
differently (a result within 2^-150 of a rounding boundary) it is redone at
1280 bits. Exact results (log2(8), pow(3, 2)) come out exact from mpmath.
Debian's python3-mpmath: apt-get install -y python3-mpmath.
"""
import math
import struct
import sys

import mpmath
from mpmath import mp, mpf

FORMATS = {'float64': (53, -1022, 1023), 'float32': (24, -126, 127)}


def exp2(x):
    return mpmath.power(2, x)


def fmod(a, b):
    """C's fmod, x - trunc(x/y) y with x's sign: exact for doubles (the remainder is one), so Python's math.fmod."""
    if b == 0:
        return mpf('nan')
    return mpf(math.fmod(float(a), float(b)))


FUNCTIONS = {
    'exp': mpmath.exp, 'expm1': mpmath.expm1, 'exp2': exp2,
    'log': mpmath.log, 'log1p': mpmath.log1p, 'log2': lambda x: mpmath.log(x, 2), 'log10': mpmath.log10,
    'sin': mpmath.sin, 'cos': mpmath.cos, 'tan': mpmath.tan,
    'asin': mpmath.asin, 'acos': mpmath.acos, 'atan': mpmath.atan,
    'sinh': mpmath.sinh, 'cosh': mpmath.cosh, 'tanh': mpmath.tanh,
    'asinh': mpmath.asinh, 'acosh': mpmath.acosh, 'atanh': mpmath.atanh,
    'cbrt': lambda x: mpmath.cbrt(x) if x >= 0 else -mpmath.cbrt(-x),
    'pow': mpmath.power, 'atan2': mpmath.atan2, 'hypot': mpmath.hypot,
    'logaddexp': lambda a, b: mpmath.log(mpmath.exp(a) + mpmath.exp(b)),
    'logaddexp2': lambda a, b: mpmath.log(mpmath.power(2, a) + mpmath.power(2, b), 2),
    'fmod': fmod,
}
BINARY = {'pow', 'atan2', 'hypot', 'logaddexp', 'logaddexp2', 'fmod'}


def round_to(v, fmt):
    """v (an mpf) rounded to nearest-even in the binary format fmt, as a Python float."""
    p, emin, emax = FORMATS[fmt]
    if mpmath.isnan(v):
        return math.nan
    if mpmath.isinf(v):
        return math.inf if v > 0 else -math.inf
    if v == 0:
        return 0.0
    sign, man, exp, bc = v._mpf_
    e = exp + bc - 1  # v in [2^e, 2^(e+1))
    q = max(e - (p - 1), emin - (p - 1))  # the quantum
    if exp >= q:
        m = man << (exp - q)
    else:
        shift = q - exp
        m = man >> shift
        rem = man & ((1 << shift) - 1)
        half = 1 << (shift - 1)
        if rem > half or (rem == half and m & 1):
            m += 1
    if m.bit_length() + q > emax + 1:
        r = math.inf
    else:
        r = math.ldexp(m, q)  # exact: m has at most p+1 bits
    return -r if sign else r


def evaluate(fn, args, fmt):
    f = FUNCTIONS[fn]
    results = []
    for prec in (160, 320, 1280):
        mp.prec = prec
        v = f(*[mpf(a) for a in args])
        if isinstance(v, mpmath.mpc):
            return math.nan  # outside the real domain
        results.append(round_to(v, fmt))
        if len(results) >= 2 and results[-1] == results[-2]:
            return results[-1]
    return results[-1]


def main():
    fn, fmt, src, dst = sys.argv[1:5]
    if fn not in FUNCTIONS or fmt not in FORMATS:
        sys.exit(f'usage: reference.py FN DTYPE IN OUT; FN in {sorted(FUNCTIONS)}, DTYPE in {sorted(FORMATS)}')
    data = open(src, 'rb').read()
    xs = struct.unpack(f'<{len(data) // 8}d', data)
    arity = 2 if fn in BINARY else 1
    out = [evaluate(fn, xs[i:i + arity], fmt) for i in range(0, len(xs), arity)]
    with open(dst, 'wb') as fh:
        fh.write(struct.pack(f'<{len(out)}d', *out))


if __name__ == '__main__':
    main()
