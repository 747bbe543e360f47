#!/usr/bin/python3
"""Writes packages/kernels-wasm/test/vectors/<fn>.<dtype>.bin: correctly rounded
reference values for kernels-wasm's vector math, computed with mpmath (see
reference.py for the rounding). Deterministic: run it again and the files come
out byte-identical.

    /usr/bin/python3 scripts/mpmath/generate_vectors.py [FN ...]

Format (little-endian, no header): rows of (input, [second input,] expected),
float64 values in the .float64.bin files and float32 values in the
.float32.bin files. Inputs are spread over each function's domain with extra
weight on its hard regions (near 0 and subnormals, near overflow and
underflow, near 1 for the logarithms, near multiples of pi/2 and huge
arguments for the trig functions, near +-1 for the inverse functions, random
bit patterns), and all are finite with a finite or infinite real result.
"""
import math
import os
import random
import struct
import sys

from reference import FUNCTIONS, BINARY, evaluate

ROWS = {'float64': 2048, 'float32': 1024}
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'packages', 'kernels-wasm', 'test', 'vectors')

MAX = {'float64': 1.7976931348623157e308, 'float32': 3.4028234663852886e38}
MIN_SUB = {'float64': 5e-324, 'float32': 1.401298464324817e-45}
EXP_HI = {'float64': 709.782712893384, 'float32': 88.72283905206835}
EXP_LO = {'float64': -745.1332191019412, 'float32': -103.97208178494026}


def to_dtype(x, dtype):
    if dtype == 'float64':
        return x
    try:
        return struct.unpack('<f', struct.pack('<f', x))[0]
    except OverflowError:
        return math.copysign(MAX['float32'], x)


def random_bits(r, dtype):
    while True:
        if dtype == 'float64':
            x = struct.unpack('<d', struct.pack('<Q', r.getrandbits(64)))[0]
        else:
            x = struct.unpack('<f', struct.pack('<I', r.getrandbits(32)))[0]
        if math.isfinite(x):
            return x


def log_uniform(r, lo, hi, positive=False):
    x = math.exp(r.uniform(math.log(lo), math.log(hi)))
    return x if positive or r.random() < 0.5 else -x


def near_pio2(r, kmax):
    k = math.floor(log_uniform(r, 1, kmax, True))
    x = k * math.pi / 2
    return (1 if r.random() < 0.5 else -1) * (x + x * 2.0 ** -52 * r.uniform(-64, 64))


def tiny(r, d):
    return log_uniform(r, MIN_SUB[d], 1e-6)


def around_one(r, d):
    return 1 + log_uniform(r, 1e-17, 0.5)


def near_pm1(r, d):
    return (1 if r.random() < 0.5 else -1) * (1 - log_uniform(r, 1e-17, 0.5, True))


def positives(r, d):
    return abs(random_bits(r, d))


def everywhere(r, d):
    return log_uniform(r, MIN_SUB[d], MAX[d])


TRIG = [lambda r, d: r.uniform(-10, 10), lambda r, d: near_pio2(r, 1e6), lambda r, d: log_uniform(r, 1, 1e6),
        lambda r, d: log_uniform(r, 1e6, 1e22), random_bits, tiny]
DOMAINS = {
    'exp': [lambda r, d: r.uniform(EXP_LO[d], EXP_HI[d]), lambda r, d: log_uniform(r, 1e-18, 2),
            lambda r, d: r.uniform(EXP_HI[d] - 2, EXP_HI[d]), lambda r, d: r.uniform(EXP_LO[d], EXP_LO[d] + 40), tiny],
    'expm1': [lambda r, d: r.uniform(EXP_LO[d], EXP_HI[d]), lambda r, d: log_uniform(r, 1e-18, 2),
              lambda r, d: r.uniform(-40, 40), lambda r, d: r.uniform(EXP_HI[d] - 2, EXP_HI[d]), tiny],
    'exp2': [lambda r, d: r.uniform(EXP_LO[d] / math.log(2), EXP_HI[d] / math.log(2)), lambda r, d: log_uniform(r, 1e-18, 2),
             lambda r, d: r.uniform(EXP_HI[d] / math.log(2) - 2, EXP_HI[d] / math.log(2)),
             lambda r, d: r.uniform(EXP_LO[d] / math.log(2), EXP_LO[d] / math.log(2) + 60), tiny],
    'log': [positives, around_one, lambda r, d: abs(everywhere(r, d)), lambda r, d: log_uniform(r, 1e-3, 1e3, True)],
    'log2': [positives, around_one, lambda r, d: abs(everywhere(r, d))],
    'log10': [positives, around_one, lambda r, d: abs(everywhere(r, d))],
    'log1p': [lambda r, d: r.uniform(-1, 1), lambda r, d: -1 + log_uniform(r, 1e-17, 1, True), tiny,
              lambda r, d: log_uniform(r, 1e-3, MAX[d], True), positives],
    'sin': TRIG, 'cos': TRIG, 'tan': TRIG,
    'asin': [lambda r, d: r.uniform(-1, 1), near_pm1, tiny],
    'acos': [lambda r, d: r.uniform(-1, 1), near_pm1, tiny],
    'atan': [lambda r, d: r.uniform(-4, 4), everywhere, random_bits, tiny],
    'sinh': [lambda r, d: r.uniform(-EXP_HI[d] - 0.6, EXP_HI[d] + 0.6), lambda r, d: r.uniform(-3, 3),
             lambda r, d: log_uniform(r, 1e-18, 1), tiny],
    'cosh': [lambda r, d: r.uniform(-EXP_HI[d] - 0.6, EXP_HI[d] + 0.6), lambda r, d: r.uniform(-3, 3),
             lambda r, d: log_uniform(r, 1e-18, 1), tiny],
    'tanh': [lambda r, d: r.uniform(-25, 25), lambda r, d: r.uniform(-2, 2), lambda r, d: log_uniform(r, 1e-18, 1), tiny],
    'asinh': [lambda r, d: r.uniform(-4, 4), everywhere, random_bits, tiny],
    'acosh': [lambda r, d: 1 + log_uniform(r, 1e-17, 4, True), lambda r, d: log_uniform(r, 1, MAX[d], True)],
    'atanh': [lambda r, d: r.uniform(-1, 1), near_pm1, tiny],
    'cbrt': [lambda r, d: r.uniform(-10, 10), random_bits, everywhere, tiny],
    'atan2': [lambda r, d: r.uniform(-4, 4), random_bits, everywhere],
    'hypot': [lambda r, d: r.uniform(-4, 4), random_bits, everywhere],
    'pow': [lambda r, d: log_uniform(r, 1e-3, 1e3, True), around_one, positives],
    'logaddexp': [lambda r, d: r.uniform(-10, 10), lambda r, d: r.uniform(-800, 800), lambda r, d: log_uniform(r, 1e-3, 1e4), tiny],
    'logaddexp2': [lambda r, d: r.uniform(-10, 10), lambda r, d: r.uniform(-1100, 1100), lambda r, d: log_uniform(r, 1e-3, 1e4), tiny],
    'fmod': [lambda r, d: r.uniform(-100, 100), random_bits, everywhere, tiny],
}


def second(fn, a, r, d):
    if fn == 'pow':
        if r.random() < 0.1:
            return float(r.randrange(-40, 40))  # integers, and negative bases below
        la = abs(math.log(a)) or 1e-300
        limit = min(EXP_HI[d] / la, 1e6)
        return r.uniform(-limit, limit) if r.random() < 0.85 else r.uniform(-2, 2) * limit
    if fn == 'atan2':
        return r.uniform(-4, 4) if r.random() < 0.5 else random_bits(r, d)
    if fn in ('logaddexp', 'logaddexp2'):
        # Near a (where the sum doubles), a few units off (the log1p term matters), and far off (it vanishes).
        pick = r.random()
        return a + (log_uniform(r, 1e-17, 1) if pick < 0.3 else r.uniform(-8, 8) if pick < 0.8 else r.uniform(-200, 200))
    if fn == 'fmod' and r.random() < 0.4:
        # Quotients near an integer, where the rounded division's trunc can be one too many.
        return a / r.randrange(1, 1000) * (1 + r.choice((-1, 1)) * log_uniform(r, 1e-17, 1e-10, True))
    return a * log_uniform(r, 1e-20, 1e20) if r.random() < 0.5 else random_bits(r, d)


def rows(fn, dtype):
    r = random.Random(f'{fn}:{dtype}')
    domain = DOMAINS[fn]
    out = []
    while len(out) < ROWS[dtype]:
        a = to_dtype(domain[r.randrange(len(domain))](r, dtype), dtype)
        args = [a]
        if fn in BINARY:
            b = to_dtype(second(fn, a, r, dtype), dtype)
            if fn == 'pow' and r.random() < 0.2 and b == int(b) and abs(b) < 2 ** 53:
                a = -a  # a negative base with an integer exponent
            args = [a, b]
        if not all(math.isfinite(v) for v in args) or (fn in ('pow', 'atan2') and 0.0 in args):
            continue
        y = evaluate(fn, args, dtype)
        if math.isnan(y):
            continue
        out.append(args + [y])
    return out


def main():
    fns = sys.argv[1:] or sorted(FUNCTIONS)
    os.makedirs(OUT, exist_ok=True)
    for fn in fns:
        for dtype in ('float64', 'float32'):
            code = 'd' if dtype == 'float64' else 'f'
            data = rows(fn, dtype)
            flat = [v for row in data for v in row]
            path = os.path.join(OUT, f'{fn}.{dtype}.bin')
            with open(path, 'wb') as fh:
                fh.write(struct.pack(f'<{len(flat)}{code}', *flat))
            print(f'{path}: {len(data)} rows', file=sys.stderr)


if __name__ == '__main__':
    main()
