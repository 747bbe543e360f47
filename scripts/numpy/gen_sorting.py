#!/usr/bin/python3
"""Generate NumPy reference vectors for sort, argsort, searchsorted, median,
quantile and percentile (weighted too), partition and argpartition.

Run from the repository root with NumPy 2.x:

    python3 scripts/numpy/gen_sorting.py

Writes packages/deferred-array/test/vectors/sorting.json: a list of cases

    {"fn": name, "x": array, "options": {...}, "q" or "v": operand, "out": array}

where an array is {"dtype", "shape", "data"} and data holds each element:
floats as the hex of their IEEE bits (16 digits float64, 8 float32), integers
as decimal strings (exact past 2**53), bools as 0 or 1. A q is
{"number": value} (a Python scalar: NumPy's weak q), {"ints": [...], "shape"}
(a list of Python ints: an int64 array) or {"floats": [...], "shape"} (a
float64 array). Sorts use kind='stable': the package's order is the stable one.
"""
import json
import sys
import warnings

import numpy as np

from encoding import arr

OUT = 'packages/deferred-array/test/vectors/sorting.json'
rng = np.random.default_rng(20261127)


SPECIAL = [np.nan, np.inf, -np.inf, 0.0, -0.0, 5e-324, -5e-324, 1.0, -1.0, 2.5, 2.5, -0.0, 0.0, np.nan, 1e308, -1e-300]


def floats(n, dtype):
    base = rng.integers(-20, 20, n).astype(np.float64) / 4  # many repeats, some -0 after the product below
    base[rng.random(n) < 0.1] *= -0.0
    k = min(n, len(SPECIAL))
    idx = rng.choice(n, k, replace=False) if n else []
    base[idx] = SPECIAL[:k]
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        return base.astype(dtype)


def ints(n, dtype):
    info = np.iinfo(dtype)
    a = rng.integers(-5, 6, n).astype(np.int64)
    a = np.clip(a, info.min, info.max).astype(dtype)
    ext = np.array([info.min, info.max, 0, info.max - 1, info.min + 1], dtype=dtype)
    k = min(n, len(ext))
    if k:
        a[rng.choice(n, k, replace=False)] = ext[:k]
    return a


def data(n, dtype):
    dt = np.dtype(dtype)
    if dt.kind == 'f':
        return floats(n, dt)
    if dt.kind == 'b':
        return rng.random(n) < 0.5
    return ints(n, dt)


cases = []


def case(fn, x, out, options=None, **operands):
    c = {'fn': fn, 'x': arr(x), 'options': options or {}}
    c.update(operands)
    c['out'] = arr(out)
    cases.append(c)


SORT_DTYPES = ['float64', 'float32', 'int64', 'uint64', 'int32', 'uint32', 'int16', 'uint8', 'int8', 'bool']
SHAPES = [((0,), [-1]), ((1,), [-1]), ((5,), [-1, None]), ((47,), [-1]), ((49,), [0]), ((130,), [-1]), ((4, 7), [0, 1, -1, None]), ((2, 3, 52), [1, 2, 0])]
for dtype in SORT_DTYPES:
    for shape, axes in SHAPES:
        x = data(int(np.prod(shape)), dtype).reshape(shape)
        for axis in axes:
            for fn, f in (('sort', np.sort), ('argsort', np.argsort)):
                case(fn, x, f(x, axis=axis, kind='stable'), {'axis': axis})

# lexsort: keys of several dtypes, the last deciding first; 2-d keys along either axis.
for dtypes in (['float64', 'int32'], ['int32', 'float32', 'uint8'], ['int64', 'bool']):
    keys = [data(60, d) for d in dtypes]
    for k in keys:
        if k.dtype.kind != 'b':
            k[:] = k[rng.integers(0, 6, 60)]  # many ties, so later keys decide
    cases.append({'fn': 'lexsort', 'keys': [arr(k) for k in keys], 'x': arr(keys[0]), 'options': {}, 'out': arr(np.lexsort(keys))})
    grid = [k.reshape(6, 10) for k in keys]
    for axis in (0, -1):
        cases.append({'fn': 'lexsort', 'keys': [arr(k) for k in grid], 'x': arr(grid[0]), 'options': {'axis': axis}, 'out': arr(np.lexsort(grid, axis=axis))})

# searchsorted: a sorted 1-d array (NaN last), values around and between its elements.
for dtype in ['float64', 'float32', 'int32', 'int64', 'uint8']:
    a = np.sort(data(40, dtype), kind='stable')
    v = data(30, dtype)
    for side in ('left', 'right'):
        case('searchsorted', a, np.searchsorted(a, v, side=side), {'side': side}, v=arr(v))
    perm = rng.permutation(len(a))
    shuffled = a[perm]
    sorter = np.argsort(shuffled, kind='stable').astype(np.int32)
    case('searchsorted', shuffled, np.searchsorted(shuffled, v, sorter=sorter), {'sorter': arr(sorter)}, v=arr(v))
a = np.array([1, 2, 2, 5], dtype=np.int32)
v = np.array([[1.5, 2.0], [-np.inf, np.nan]])
case('searchsorted', a, np.searchsorted(a, v), {}, v=arr(v))
case('searchsorted', np.array([], dtype=np.float64), np.searchsorted(np.array([], dtype=np.float64), np.array([1.0])), {}, v=arr(np.array([1.0])))

# median: odd and even lines, NaN, ints, float32, bool, empty, axes and keepdims.
with warnings.catch_warnings():
    warnings.simplefilter('ignore')
    for dtype in ['float64', 'float32', 'int32', 'int64', 'uint8', 'bool']:
        for shape, axes in [((7,), [None]), ((8,), [None]), ((5, 6), [0, 1, None, (0, 1)]), ((3, 4, 5), [2, (0, 2)])]:
            x = data(int(np.prod(shape)), dtype).reshape(shape)
            if np.dtype(dtype).kind == 'f':
                x = np.where(np.isnan(x), 1.5, x).astype(dtype)  # NaN cases below, one per line
            for axis in axes:
                for keepdims in (False, True):
                    case('median', x, np.asarray(np.median(x, axis=axis, keepdims=keepdims)), {'axis': list(axis) if isinstance(axis, tuple) else axis, 'keepdims': keepdims})
    x = np.array([[1.0, np.nan, 3.0, 4.0], [4.0, 3.0, 2.0, 1.0], [np.inf, -np.inf, 0.0, -0.0]])
    case('median', x, np.median(x, axis=1), {'axis': 1})
    case('median', x, np.asarray(np.median(x)), {})
    case('median', np.zeros((3, 0)), np.median(np.zeros((3, 0)), axis=1), {'axis': 1})
    for x in (np.array([-0.0]), np.array([-0.0, -0.0]), np.float32([-0.0, 1, -0.0])):
        case('median', x, np.asarray(np.median(x)), {})

    # quantile and percentile: every method, weak and array q, integer q.
    METHODS = ['linear', 'lower', 'higher', 'nearest', 'midpoint', 'hazen', 'weibull', 'median_unbiased', 'normal_unbiased', 'interpolated_inverted_cdf',
               'inverted_cdf', 'averaged_inverted_cdf', 'closest_observation']
    qs = np.array([0.0, 0.1, 0.25, 0.5, 0.75, 0.9, 1.0])
    for dtype in ['float64', 'float32', 'int32', 'int64', 'uint8']:
        x = data(6 * 11, dtype).reshape(6, 11)
        if np.dtype(dtype).kind == 'f':
            x = np.where(np.isnan(x), 0.5, x).astype(dtype)
            x[2, 3] = np.nan
        for method in METHODS:
            case('quantile', x, np.quantile(x, qs, axis=1, method=method), {'axis': 1, 'method': method}, q={'floats': list(qs), 'shape': [len(qs)]})
            case('quantile', x, np.asarray(np.quantile(x, 0.3, axis=0, method=method)), {'axis': 0, 'method': method}, q={'number': 0.3})
        case('quantile', x, np.asarray(np.quantile(x, 0.65)), {}, q={'number': 0.65})
        case('quantile', x, np.quantile(x, [0, 1], axis=1), {'axis': 1}, q={'ints': [0, 1], 'shape': [2]})
        case('quantile', x, np.quantile(x, [0, 1], axis=1, method='averaged_inverted_cdf'), {'axis': 1, 'method': 'averaged_inverted_cdf'}, q={'ints': [0, 1], 'shape': [2]})
        case('quantile', x, np.asarray(np.quantile(x, 1, axis=0, keepdims=True)), {'axis': 0, 'keepdims': True}, q={'number': 1})
        case('quantile', x, np.quantile(x, np.array([[0.2, 0.4], [0.6, 0.8]]), axis=(0, 1), keepdims=True),
             {'axis': [0, 1], 'keepdims': True}, q={'floats': [0.2, 0.4, 0.6, 0.8], 'shape': [2, 2]})
        case('percentile', x, np.asarray(np.percentile(x, 30, axis=1)), {'axis': 1}, q={'number': 30})
        case('percentile', x, np.asarray(np.percentile(x, 12.5)), {}, q={'number': 12.5})
        case('percentile', x, np.percentile(x, [10, 90], axis=0, method='nearest'), {'axis': 0, 'method': 'nearest'}, q={'ints': [10, 90], 'shape': [2]})
    # The discrete methods where n * q lands on whole numbers (their even and odd order statistics), short lines too.
    eighths = np.arange(9) / 8
    for n in (1, 2, 3, 8):
        for dtype in ['float64', 'int32']:
            x = (np.arange(n) * 3 % 7).astype(dtype)
            for method in ['inverted_cdf', 'averaged_inverted_cdf', 'closest_observation']:
                case('quantile', x, np.quantile(x, eighths, method=method), {'method': method}, q={'floats': list(eighths), 'shape': [9]})
    # A float32 q: NumPy computes its indices and gammas in float32, and the result's dtype promotes with it.
    q32 = np.array([0.0, 0.3, 0.5, 0.7, 1.0], dtype=np.float32)
    for dtype in ['float32', 'float64', 'int16', 'int32', 'uint8']:
        x = data(2 * 13, dtype).reshape(2, 13)
        if np.dtype(dtype).kind == 'f':
            x = np.where(np.isnan(x), 0.25, x).astype(dtype)
        for method in ['linear', 'hazen', 'midpoint', 'nearest', 'inverted_cdf', 'averaged_inverted_cdf', 'closest_observation']:
            case('quantile', x, np.quantile(x, q32, axis=1, method=method), {'axis': 1, 'method': method}, q={'float32': [float(v) for v in q32], 'shape': [5]})
        case('percentile', x, np.percentile(x, q32 * 100, axis=1), {'axis': 1}, q={'float32': [float(v) for v in q32 * 100], 'shape': [5]})
    # nanquantile and nanpercentile: lines with some NaNs, none, and nothing else.
    for dtype in ['float64', 'float32']:
        x = data(5 * 9, dtype).reshape(5, 9)
        x = np.where(np.isnan(x), 0.75, x).astype(dtype)
        x[0, [1, 4, 7]] = np.nan
        x[2, :] = np.nan
        x[3, 8] = np.nan
        for method in METHODS:
            case('nanquantile', x, np.nanquantile(x, qs, axis=1, method=method), {'axis': 1, 'method': method}, q={'floats': list(qs), 'shape': [len(qs)]})
            case('nanquantile', x, np.asarray(np.nanquantile(x, 0.3, axis=1, method=method)), {'axis': 1, 'method': method}, q={'number': 0.3})
        case('nanquantile', x, np.asarray(np.nanquantile(x, 0.4)), {}, q={'number': 0.4})
        case('nanquantile', x, np.nanquantile(x, [0, 1], axis=1), {'axis': 1}, q={'ints': [0, 1], 'shape': [2]})
        case('nanquantile', x, np.nanquantile(x, q32, axis=1), {'axis': 1}, q={'float32': [float(v) for v in q32], 'shape': [5]})
        case('nanpercentile', x, np.asarray(np.nanpercentile(x, 35, axis=0, keepdims=True)), {'axis': 0, 'keepdims': True}, q={'number': 35})
        case('nanpercentile', x, np.nanpercentile(x, [10, 90], axis=1, method='nearest'), {'axis': 1, 'method': 'nearest'}, q={'ints': [10, 90], 'shape': [2]})
        for axis in (1, 0, None):
            for keepdims in (False, True):
                case('nanmedian', x, np.asarray(np.nanmedian(x, axis=axis, keepdims=keepdims)), {'axis': axis, 'keepdims': keepdims})
    ix = ints(12, np.int32).reshape(3, 4)
    case('nanmedian', ix, np.nanmedian(ix, axis=1), {'axis': 1})
    case('nanquantile', ix, np.nanquantile(ix, qs, axis=1), {'axis': 1}, q={'floats': list(qs), 'shape': [len(qs)]})
    # NumPy's blend of an infinite end with itself: NaN at q = 1.0 (a float), the element at q = 1 (an int).
    x = np.array([1.0, 2.0, np.inf])
    case('quantile', x, np.quantile(x, np.array([1.0])), {}, q={'floats': [1.0], 'shape': [1]})
    case('quantile', x, np.asarray(np.quantile(x, 1)), {}, q={'number': 1})

# Weighted quantiles (method 'inverted_cdf', the only one NumPy weighs). Weights are multiples of 1/8, so
# their running sums are exact in any order: NumPy's argsort orders equal elements its own way.
wrng = np.random.default_rng(20261128)


def weights(shape, zeros=0.2):
    w = wrng.integers(1, 17, shape).astype(np.float64) / 8
    w[wrng.random(shape) < zeros] = 0.0
    return w


W = {'method': 'inverted_cdf'}
wq = [0.0, 0.1, 0.25, 0.5, 0.5, 0.75, 0.99, 1.0]
for dtype in ['float64', 'float32', 'int32', 'uint8', 'bool', 'int64']:
    x = data(28, dtype).reshape(4, 7)
    w = weights((4, 7))
    w[:, 0] = 1.0  # no line of zeros
    case('quantile', x, np.quantile(x, wq, axis=1, weights=w, **W), {'axis': 1, 'weights': arr(w), **W}, q={'floats': wq, 'shape': [len(wq)]})
    case('quantile', x, np.asarray(np.quantile(x, 0.3, weights=w, **W)), {'weights': arr(w), **W}, q={'number': 0.3})
    w0 = weights((4,), 0)
    case('quantile', x, np.quantile(x, wq, axis=0, weights=w0, **W), {'axis': 0, 'weights': arr(w0), **W}, q={'floats': wq, 'shape': [len(wq)]})
    case('percentile', x, np.percentile(x, [0, 30, 100], axis=1, weights=w, keepdims=True, **W),
         {'axis': 1, 'weights': arr(w), 'keepdims': True, **W}, q={'ints': [0, 30, 100], 'shape': [3]})
x = data(2 * 3 * 5, 'float64').reshape(2, 3, 5)
w = weights((3, 2), 0)
case('quantile', x, np.quantile(x, wq, axis=(1, 0), weights=w, **W), {'axis': [1, 0], 'weights': arr(w), **W}, q={'floats': wq, 'shape': [len(wq)]})
w = weights((2, 5), 0)
case('quantile', x, np.quantile(x, wq, axis=(0, 2), weights=w, **W), {'axis': [0, 2], 'weights': arr(w), **W}, q={'floats': wq, 'shape': [len(wq)]})
# Leading zero weights: q = 0 picks the first element with a weight; integer weights; a float32 q.
x = np.arange(12.0).reshape(2, 6)
w = np.array([[0, 0, 1, 2, 0, 1], [3, 0, 0, 0, 0, 1]], dtype=np.int64)
case('quantile', x, np.quantile(x, [0.0, 0.2, 0.5, 0.75, 1.0], axis=1, weights=w, **W), {'axis': 1, 'weights': arr(w), **W}, q={'floats': [0.0, 0.2, 0.5, 0.75, 1.0], 'shape': [5]})
q32 = np.array([0.0, 0.1, 0.3, 2 / 3, 1.0], dtype=np.float32)
xw = data(40, 'float64').reshape(5, 8)
w = weights((5, 8))
w[:, 3] = 0.375
case('quantile', xw, np.quantile(xw, q32, axis=1, weights=w, **W), {'axis': 1, 'weights': arr(w), **W}, q={'float32': [float(v) for v in q32], 'shape': [5]})
# nan variants: NaN elements leave with their weights; a line of NaN alone gives NaN.
xn = data(24, 'float64').reshape(4, 6)
xn[0, [1, 4]] = np.nan
xn[2, :] = np.nan
w = weights((4, 6))
w[:, 0] = 0.5
w[:, 5] = 0.25
with warnings.catch_warnings():
    warnings.simplefilter('ignore')
    case('nanquantile', xn, np.nanquantile(xn, wq, axis=1, weights=w, **W), {'axis': 1, 'weights': arr(w), **W}, q={'floats': wq, 'shape': [len(wq)]})
    case('nanpercentile', xn, np.nanpercentile(xn, [5, 50, 95], axis=1, weights=w, **W), {'axis': 1, 'weights': arr(w), **W}, q={'floats': [5.0, 50.0, 95.0], 'shape': [3]})
    # (NumPy 2.4 fails on nanquantile with weights of the axis's length alone: it indexes them per line.)
    case('nanquantile', xn, np.asarray(np.nanquantile(xn, 0.4, axis=1, weights=w, **W)), {'axis': 1, 'weights': arr(w), **W}, q={'number': 0.4})

# partition and argpartition: NumPy's own arrangement within the parts (introselect, unspecified there);
# the test checks the kth elements and each part's elements, not their order. Appended last, so that the
# cases above keep their draws.
for dtype in ['float64', 'float32', 'int64', 'uint64', 'int32', 'uint16', 'int8', 'bool']:
    for shape, axis, kth in [((1,), -1, [0]), ((9,), -1, [4]), ((9,), -1, [-1, 0, 3]), ((130,), -1, [2, 64, -3]),
                             ((300,), 0, [150]), ((4100,), -1, [7, 2050, -8]), ((4, 33), 0, [1, -2]),
                             ((4, 33), 1, [16]), ((3, 2, 40), None, [0, 100, 239])]:
        if shape == (4100,) and dtype not in ('float64', 'int32'):
            continue  # lines long enough for the radix selection: two dtypes keep the file small
        x = data(int(np.prod(shape)), dtype).reshape(shape)
        if dtype != 'bool':
            x.flat[rng.integers(0, x.size, x.size // 3)] = x.flat[rng.integers(0, x.size, x.size // 3)]  # ties
        case('partition', x, np.partition(x, kth, axis=axis), {'axis': axis, 'kth': kth})
        case('argpartition', x, np.argpartition(x, kth, axis=axis), {'axis': axis, 'kth': kth})

json.dump({'numpy': np.__version__, 'cases': cases}, open(OUT, 'w'), separators=(',', ':'))
print(f'{OUT}: {len(cases)} cases, NumPy {np.__version__}', file=sys.stderr)
