#!/usr/bin/python3
"""Generate NumPy reference vectors for unique, isin, intersect1d, union1d,
setdiff1d, bincount, histogram, add.at and interp.

Run from the repository root with NumPy 2.x:

    python3 scripts/numpy/gen_sets.py

Writes packages/deferred-array/test/vectors/sets.json: a list of cases

    {"fn": name, "args": [array, ...], "options": {...}, "out": [array, ...]}

where an array is {"dtype", "shape", "data"} with each element encoded as in
gen_sorting.py (floats as the hex of their bits, integers as decimal strings,
bools as 0 or 1); options that are arrays are encoded the same way. `out`
lists every array NumPy returns, in its order.
"""
import json
import sys
import warnings

import numpy as np

from encoding import arr as encoded

OUT = 'packages/deferred-array/test/vectors/sets.json'
rng = np.random.default_rng(20261128)


def arr(a):
    if isinstance(a, Lcg):
        return {'dtype': 'float64', 'shape': [a.n], 'lcg': [a.n, a.seed, a.scale, a.offset]}
    return encoded(a)


class Lcg:
    """A long float64 array the test makes again itself: ((i + seed) * 2654435761 mod 2**32) / 2**32 * scale + offset,
    exact integer steps and one rounding per float step, the same bits in NumPy and JavaScript."""

    def __init__(self, n, seed, scale, offset):
        self.n, self.seed, self.scale, self.offset = n, seed, scale, offset
        i = np.arange(n, dtype=np.int64) + seed
        self.values = ((i * 2654435761) % 2**32).astype(np.float64) / 2.0**32 * scale + offset


def val(a):
    return a.values if isinstance(a, Lcg) else a


cases = []


def case(fn, args, out, options=None):
    outs = out if isinstance(out, tuple) else (out,)
    options = {k: (arr(v) if isinstance(v, Lcg) else v) for k, v in (options or {}).items()}
    cases.append({'fn': fn, 'args': [arr(a) for a in args], 'options': options or {}, 'out': [arr(o) for o in outs]})


def floats(n, dtype='float64'):
    a = (rng.integers(-6, 7, n) / 2).astype(np.float64)
    for i, s in enumerate([np.nan, 0.0, -0.0, np.inf, -np.inf, np.nan, 5e-324]):
        if i < n:
            a[rng.integers(0, n)] = s
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        return a.astype(dtype)


def ints(n, dtype):
    info = np.iinfo(dtype)
    a = np.clip(rng.integers(-4, 9, n), info.min, info.max).astype(dtype)
    if n > 2:
        a[0], a[1] = info.max, info.min
    return a


# unique, every combination of the returns, over several dtypes.
for name, x in [('float64', floats(40)), ('float32', floats(30, 'float32')), ('int32', ints(35, np.int32).reshape(5, 7)),
                ('int64', ints(20, np.int64)), ('uint8', ints(25, np.uint8)), ('bool', rng.random(9) < 0.5), ('empty', np.zeros(0))]:
    for ri in (False, True):
        for rv in (False, True):
            for rc in (False, True):
                opts = {'returnIndex': ri, 'returnInverse': rv, 'returnCounts': rc}
                case('unique', [x], np.unique(x, return_index=ri, return_inverse=rv, return_counts=rc), opts)
x = floats(20)
case('unique', [x], np.unique(x, equal_nan=False, return_counts=True), {'equalNan': False, 'returnCounts': True})
rows = rng.integers(0, 3, (9, 3)).astype(np.int32)
for axis in (0, 1, -1):
    case('unique', [rows], np.unique(rows, axis=axis, return_index=True, return_inverse=True, return_counts=True),
         {'axis': axis, 'returnIndex': True, 'returnInverse': True, 'returnCounts': True})
frows = np.array([[1.0, np.nan], [1.0, np.nan], [0.0, 2.0], [-0.0, 2.0], [np.inf, 1.0]])
case('unique', [frows], np.unique(frows, axis=0, return_counts=True), {'axis': 0, 'returnCounts': True})
cube = rng.integers(0, 2, (3, 4, 2)).astype(np.int16)
case('unique', [cube], np.unique(cube, axis=1), {'axis': 1})

# isin and the set operations.
e = floats(30)
t = np.array([0.0, np.nan, 1.5, -3.0, np.inf])
for invert in (False, True):
    case('isin', [e.reshape(5, 6), t], np.isin(e.reshape(5, 6), t, invert=invert), {'invert': invert})
e32 = ints(20, np.int32)
case('isin', [e32, np.array([1.0, 2.5, -4.0])], np.isin(e32, np.array([1.0, 2.5, -4.0])))
a, b = ints(30, np.int32), ints(25, np.int32)
case('isin', [a, b], np.isin(a, b))
for (a, b) in [(floats(25), floats(25)), (ints(30, np.int32), ints(20, np.int32)), (ints(12, np.int64), ints(15, np.int64)),
               (ints(10, np.int16), floats(10))]:
    case('intersect1d', [a, b], np.intersect1d(a, b))
    case('intersect1d', [a, b], np.intersect1d(a, b, return_indices=True), {'returnIndices': True})
    case('union1d', [a, b], np.union1d(a, b))
    case('setdiff1d', [a, b], np.setdiff1d(a, b))
ua, ub = rng.permutation(20).astype(np.int32)[:12], rng.permutation(20).astype(np.int32)[:9]
case('intersect1d', [ua, ub], np.intersect1d(ua, ub, assume_unique=True, return_indices=True), {'assumeUnique': True, 'returnIndices': True})
case('setdiff1d', [ua, ub], np.setdiff1d(ua, ub, assume_unique=True), {'assumeUnique': True})

# Exactness: int64 values past 2^53 kept in setdiff1d, int64 against uint64 compared exactly in isin; a 1-d array's
# unique along its axis merges NaNs.
big = np.array([2**53 + 1, 5, 2**53 + 1], dtype=np.int64)
case('setdiff1d', [big, np.array([7.0])], np.setdiff1d(big, np.array([7.0])))
case('setdiff1d', [np.array([2**64 - 1, 2**64 - 2], dtype=np.uint64), np.array([0], dtype=np.int64)],
     np.setdiff1d(np.array([2**64 - 1, 2**64 - 2], dtype=np.uint64), np.array([0], dtype=np.int64)))
case('isin', [np.array([2**53 + 1, 3], dtype=np.int64), np.array([2**53, 3], dtype=np.uint64)],
     np.isin(np.array([2**53 + 1, 3], dtype=np.int64), np.array([2**53, 3], dtype=np.uint64)))
nan1 = np.array([np.nan, 1.0, np.nan, 0.0])
case('unique', [nan1], np.unique(nan1, axis=0, return_inverse=True, return_counts=True), {'axis': 0, 'returnInverse': True, 'returnCounts': True})

# bincount.
x = rng.integers(0, 12, 200).astype(np.int32)
case('bincount', [x], np.bincount(x))
case('bincount', [x], np.bincount(x, minlength=20), {'minlength': 20})
w = rng.standard_normal(200)
case('bincount', [x], np.bincount(x, weights=w), {'weights': arr(w)})
case('bincount', [np.zeros(0, np.int32)], np.bincount(np.zeros(0, np.int32), minlength=3), {'minlength': 3})
for x in (rng.random(10) < 0.5, rng.integers(0, 5, 30).astype(np.int64), rng.integers(0, 5, 30).astype(np.uint8)):
    case('bincount', [x], np.bincount(x))

# histogram: equal bins (own range, given range, float32 and integer data, a constant), edges, weights, density.
data = rng.standard_normal(1500) * 3
edges_on = np.concatenate((data, np.linspace(data.min(), data.max(), 11)))  # values exactly on edges
f32 = (rng.standard_normal(1000) * 2).astype(np.float32)
i32 = rng.integers(-20, 50, 1000).astype(np.int32)
for name, a in [('float64', data), ('edges', edges_on), ('float32', f32), ('int32', i32), ('const', np.full(7, 2.5)), ('empty', np.zeros(0))]:
    for bins in (10, 7, 1):
        case('histogram', [a], np.histogram(a, bins=bins), {'bins': bins})
    case('histogram', [a], np.histogram(a, bins=6, range=(-2.0, 3.5)), {'bins': 6, 'range': [-2.0, 3.5]})
    case('histogram', [a], np.histogram(a, bins=5, density=True), {'bins': 5, 'density': True})
case('histogram', [f32], np.histogram(f32, bins=8, range=(-1, 1)), {'bins': 8, 'range': [-1, 1]})
case('histogram', [i32], np.histogram(i32, bins=9, range=(0, 40)), {'bins': 9, 'range': [0, 40]})
wts = rng.random(len(data))
case('histogram', [data], np.histogram(data, bins=12, weights=wts), {'bins': 12, 'weights': arr(wts)})
case('histogram', [data], np.histogram(data, bins=12, weights=wts, density=True), {'bins': 12, 'weights': arr(wts), 'density': True})
big = Lcg(150000, 7, 6.0, -3.0)
bw = Lcg(150000, 11, 1.0, 0.0)
case('histogram', [big], np.histogram(val(big), bins=20, weights=val(bw)), {'bins': 20, 'weights': bw})
case('histogram', [big], np.histogram(val(big), bins=np.array([-3.0, -1.0, 0.0, 0.25, 3.0]), weights=val(bw)),
     {'bins': arr(np.array([-3.0, -1.0, 0.0, 0.25, 3.0])), 'weights': bw})
edges = np.array([-5.0, -1.0, 0.0, 0.5, 2.0, 9.0])
case('histogram', [edges_on], np.histogram(edges_on, bins=edges), {'bins': arr(edges)})
case('histogram', [edges_on], np.histogram(edges_on, bins=edges, density=True), {'bins': arr(edges), 'density': True})
case('histogram', [i32], np.histogram(i32, bins=np.array([0, 10, 10, 30])), {'bins': arr(np.array([0, 10, 10, 30]))})
e32 = np.array([-1.1, 0.3, 2.7], dtype=np.float32)
case('histogram', [data], np.histogram(data, bins=e32, density=True), {'bins': arr(e32), 'density': True})
case('histogram', [data], np.histogram(data, bins=np.array([0.5])), {'bins': arr(np.array([0.5]))})
case('histogram', [data], np.histogram(data, bins=np.array([-1.0, 1.0]), range=(5, 9)), {'bins': arr(np.array([-1.0, 1.0])), 'range': [5, 9]})

# add.at: repeated indices accumulate in order; sums in add's dtype, cast back unsafely.
def add_at(x, idx, v):
    y = x.copy()
    np.add.at(y, idx, v)
    return y


big_small = np.array([1e16, 1.0, -1e16, 3.0, 0.5, -0.0])
for x, idx, v in [
    (np.zeros(4), np.array([0, 0, 2, -1, 0, 3]), big_small),
    (np.full(3, -0.0), np.array([1, 1]), np.array([-0.0, -0.0])),
    (np.zeros(4, np.float32), np.array([0, 0, 1]), np.array([1e-8, 1.0, 3.3])),
    (np.array([2**31 - 1, 0, 5], np.int32), np.array([0, 0, 2]), np.array([1, 2, -7], np.int32)),
    (np.zeros(3, np.uint8), np.array([0, 0, 1]), np.array([-1, -1, 100], np.int8)),
    (np.zeros(3, np.int32), np.array([0, 0]), np.array([2.7, 2.7])),
    (np.arange(6.0).reshape(3, 2), np.array([2, 0, 2]), np.array([1.5, -2.0])),
    (np.arange(12, dtype=np.int64).reshape(3, 4), np.array([[0, 1], [1, 1]]), np.int64(2**62)),
    (np.zeros(5), np.array([], dtype=np.int64), np.array(1.0)),
]:
    cases.append({'fn': 'addAt', 'args': [arr(x), arr(idx), arr(v)], 'options': {}, 'out': [arr(add_at(x, idx, v))]})

# interp: inside, on the points, past both ends, NaN and infinities in x, infinite fp (the NaN fallbacks),
# repeated xp, left/right, period, one point, 2-d x, integer and float32 inputs.
xp = np.sort(rng.standard_normal(30)) * 3
xp[10] = xp[9]
fp = rng.standard_normal(30)
xq = np.concatenate((rng.uniform(-12, 12, 60), xp[::3], [np.nan, np.inf, -np.inf, -0.0]))
for opts in ({}, {'left': -7.5}, {'right': 99.0}, {'left': np.nan, 'right': -np.inf}):
    # Numbers as 0-d float64 arrays (JSON has no NaN or infinity); the test reads them back as numbers.
    cases.append({'fn': 'interp', 'args': [arr(xq), arr(xp), arr(fp)], 'options': {k: arr(np.float64(v)) for k, v in opts.items()},
                  'out': [arr(np.interp(xq, xp, fp, **opts))]})
finf = fp.copy(); finf[4] = np.inf; finf[5] = np.inf; finf[12] = -np.inf
xinf = np.array([-np.inf, 0.0, 1.0, np.inf]); finf2 = np.array([0.0, 1.0, 1.0, 5.0])
for a, b, c in [(xq, xp, finf), (np.array([-1e308, -1.0, 0.5, 3.0, 1e308]), xinf, finf2), (xq, np.array([0.5]), np.array([3.0])),
                (xq[:24].reshape(4, 6), xp, fp), (np.array([2, 7, -3], np.int32), np.array([0, 5, 10], np.int64), np.array([1, 2, 4], np.uint8)),
                (xq.astype(np.float32), xp.astype(np.float32), fp.astype(np.float32))]:
    cases.append({'fn': 'interp', 'args': [arr(a), arr(b), arr(c)], 'options': {}, 'out': [arr(np.interp(a, b, c))]})
ang = rng.uniform(-400, 400, 40)
for period in (360.0, -2 * np.pi):
    pxp, pfp = rng.uniform(-200, 500, 9), rng.standard_normal(9)
    cases.append({'fn': 'interp', 'args': [arr(ang), arr(pxp), arr(pfp)], 'options': {'period': period}, 'out': [arr(np.interp(ang, pxp, pfp, period=period))]})

json.dump({'numpy': np.__version__, 'cases': cases}, open(OUT, 'w'), separators=(',', ':'))
print(f'{OUT}: {len(cases)} cases, NumPy {np.__version__}', file=sys.stderr)
