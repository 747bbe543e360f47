#!/usr/bin/python3
"""Generate NumPy reference results for da.linalg.

Run from the repository root with NumPy 2.x:

    python3 scripts/numpy/gen_linalg.py

Writes packages/deferred-array/test/vectors/linalg.json: a list of cases

    {"fn": name, "args": [matrix, ...], "options": {...}, "out": [array, ...]}

A matrix is {"shape", "dtype", "hash": [seed, scale, offset]} (the test makes
its values again: h = (i + seed) * 2654435761 mod 2**32, h = (h ^ (h >> 13))
* 1274126177 mod 2**32, then h / 2**32 * scale + offset, row-major, cast to
dtype: exact 32-bit steps, the same bits in NumPy and JavaScript) or
{"shape", "dtype", "values"}.
Results are {"shape", "dtype", "values"} with finite floats as JSON numbers
(each round-trips exactly; infinities and NaN as 'inf', '-inf', 'nan'). LAPACK's results agree with the package's to
rounding, so the test compares them within tolerances, and checks residuals.
"""
import json
import sys

import numpy as np

OUT = 'packages/deferred-array/test/vectors/linalg.json'


def lcg(shape, seed, scale=2.0, offset=-1.0, dtype='float64'):
    n = int(np.prod(shape))
    i = np.arange(n, dtype=np.uint64) + np.uint64(seed)
    h = (i * np.uint64(2654435761)) & np.uint64(0xffffffff)
    h = ((h ^ (h >> np.uint64(13))) * np.uint64(1274126177)) & np.uint64(0xffffffff)
    v = h.astype(np.float64) / 2.0**32 * scale + offset
    return {'shape': list(shape), 'dtype': dtype, 'hash': [seed, scale, offset]}, v.reshape(shape).astype(dtype)


def given(a):
    a = np.asarray(a)
    return {'shape': list(a.shape), 'dtype': a.dtype.name, 'values': [float(v) for v in a.ravel()]}, a


def res(a):
    a = np.asarray(a)
    # JSON has no infinities or NaN: those as the strings 'inf', '-inf' and 'nan'.
    enc = lambda v: v if np.isfinite(v) else str(v)
    return {'shape': list(a.shape), 'dtype': a.dtype.name, 'values': [enc(v.item()) for v in a.ravel()]}


cases = []


def case(fn, args, out, options=None):
    outs = out if isinstance(out, tuple) else (out,)
    cases.append({'fn': fn, 'args': [a[0] for a in args], 'options': options or {}, 'out': [res(o) for o in outs]})


def spd(n, seed, dtype='float64'):
    """A symmetric positive-definite matrix: m m^T + n I."""
    _, m = lcg((n, n), seed)
    a = (m @ m.T + n * np.eye(n)).astype(dtype)
    return given(a)


for n, seed in [(1, 3), (2, 5), (5, 7), (17, 11), (33, 13)]:
    A = lcg((n, n), seed)
    b = lcg((n,), seed + 100)
    B = lcg((n, 3), seed + 200)
    case('solve', [A, b], np.linalg.solve(A[1], b[1]))
    case('solve', [A, B], np.linalg.solve(A[1], B[1]))
    case('inv', [A], np.linalg.inv(A[1]))
    case('det', [A], np.linalg.det(A[1]))
    case('slogdet', [A], tuple(np.linalg.slogdet(A[1])))
    S = spd(n, seed)
    case('cholesky', [S], np.linalg.cholesky(S[1]))
    case('cholesky', [S], np.linalg.cholesky(S[1], upper=True), {'upper': True})
    case('eigh', [S], tuple(np.linalg.eigh(S[1])))
    case('eigh', [A], tuple(np.linalg.eigh(A[1], UPLO='U')), {'UPLO': 'U'})
    case('svd', [A], tuple(np.linalg.svd(A[1])))
    case('norm', [A], np.linalg.norm(A[1]))
    for ord in (1, -1, 2, -2, 'fro', 'nuc', 'inf', '-inf'):
        o = {'inf': np.inf, '-inf': -np.inf}.get(ord, ord) if isinstance(ord, str) else ord
        case('norm', [A], np.linalg.norm(A[1], ord=o), {'ord': ord})
    case('matrixRank', [A], np.linalg.matrix_rank(A[1]))
    case('pinv', [A], np.linalg.pinv(A[1]))

# Rectangular: qr, svd (full and reduced, both shapes), pinv, lstsq, rank.
for (m, n), seed in [((6, 3), 21), ((3, 6), 23), ((24, 15), 29), ((1, 4), 31)]:
    A = lcg((m, n), seed)
    for mode in ('reduced', 'complete'):
        case('qr', [A], tuple(np.linalg.qr(A[1], mode=mode)), {'mode': mode})
    case('qr', [A], np.linalg.qr(A[1], mode='r'), {'mode': 'r'})
    case('svd', [A], tuple(np.linalg.svd(A[1])))
    case('svd', [A], tuple(np.linalg.svd(A[1], full_matrices=False)), {'fullMatrices': False})
    case('svd', [A], np.linalg.svd(A[1], compute_uv=False), {'computeUV': False})
    case('pinv', [A], np.linalg.pinv(A[1]))
    case('matrixRank', [A], np.linalg.matrix_rank(A[1]))
    b = lcg((m,), seed + 1)
    x, r, k, s = np.linalg.lstsq(A[1], b[1])
    case('lstsq', [A, b], (x, r, np.int32(k), s))
    B = lcg((m, 2), seed + 2)
    x, r, k, s = np.linalg.lstsq(A[1], B[1])
    case('lstsq', [A, B], (x, r, np.int32(k), s))

# Rank-deficient and special matrices.
R = given(np.array([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [1.0, 0.0, 1.0]]))
case('matrixRank', [R], np.linalg.matrix_rank(R[1]))
case('det', [R], np.linalg.det(R[1]))
case('slogdet', [R], tuple(np.linalg.slogdet(R[1])))
case('svd', [R], np.linalg.svd(R[1], compute_uv=False), {'computeUV': False})
case('pinv', [R], np.linalg.pinv(R[1]))
x, r, k, s = np.linalg.lstsq(R[1], np.array([1.0, 2.0, 3.0]))
case('lstsq', [R, given(np.array([1.0, 2.0, 3.0]))], (x, r, np.int32(k), s))
Z = given(np.zeros((3, 2)))
case('svd', [Z], np.linalg.svd(Z[1], compute_uv=False), {'computeUV': False})
case('matrixRank', [Z], np.linalg.matrix_rank(Z[1]))
I = given(np.array([[3, 1], [1, 2]], dtype=np.int32))
case('inv', [I], np.linalg.inv(I[1]))
case('det', [I], np.linalg.det(I[1]))

# Scale: entries far from 1 (sums of squares would overflow or underflow unscaled); rank deficiency; triangles.
Rm = np.array([[0.3, -0.2, 0.5], [-0.2, 0.9, 0.1], [0.5, 0.1, 0.4]])
for k in (1e80, 1e155, 1e-200):
    Rk = given(Rm * k)
    case('svd', [Rk], np.linalg.svd(Rk[1], compute_uv=False), {'computeUV': False})
    case('eigh', [Rk], tuple(np.linalg.eigh(Rk[1])))
    case('svd', [Rk], tuple(np.linalg.svd(Rk[1])))
tiny = given(np.array([[1e-200, 1e-200], [1e-200, 1.1e-200]]))
case('eigh', [tiny], tuple(np.linalg.eigh(tiny[1])))
for shape in ((6, 3), (3, 6), (4, 4)):
    ones = given(np.ones(shape))
    case('svd', [ones], tuple(np.linalg.svd(ones[1], full_matrices=False)), {'fullMatrices': False})
    case('svd', [ones], tuple(np.linalg.svd(ones[1])))
Sp = np.array([[4.0, 2.0, 1.0], [2.0, 5.0, 3.0], [1.0, 3.0, 6.0]])
case('cholesky', [given(np.triu(Sp))], np.linalg.cholesky(np.triu(Sp), upper=True), {'upper': True})
case('eigh', [given(np.triu(Sp))], tuple(np.linalg.eigh(np.triu(Sp), UPLO='U')), {'UPLO': 'U'})
for t in (np.eye(3), np.array([[2.0, 1.0], [0.0, 3.0]]), np.array([[1.0, 2.0, 3.0], [0.0, 0.0, 4.0]])):
    case('qr', [given(t)], tuple(np.linalg.qr(t)))

# Stacks of matrices, and float32.
A = lcg((2, 3, 4, 4), 41)
b = lcg((2, 3, 4), 43)
case('solve', [A, lcg((2, 3, 4, 2), 45)], np.linalg.solve(A[1], lcg((2, 3, 4, 2), 45)[1]))
case('inv', [A], np.linalg.inv(A[1]))
case('det', [A], np.linalg.det(A[1]))
case('svd', [A], np.linalg.svd(A[1], compute_uv=False), {'computeUV': False})
case('norm', [A], np.linalg.norm(A[1], axis=(2, 3)), {'axis': [2, 3]})
case('norm', [A], np.linalg.norm(A[1], ord=2, axis=(-1, -2), keepdims=True), {'ord': 2, 'axis': [-1, -2], 'keepdims': True})
case('norm', [b], np.linalg.norm(b[1], ord=1, axis=-1), {'ord': 1, 'axis': -1})
case('matrixRank', [A], np.linalg.matrix_rank(A[1]))
S = spd(6, 47)
S3 = given(np.stack([S[1], S[1] * 2.0]))
case('eigh', [S3], tuple(np.linalg.eigh(S3[1])))
case('cholesky', [S3], np.linalg.cholesky(S3[1]))
F = lcg((5, 5), 51, dtype='float32')
case('solve', [F, lcg((5,), 53, dtype='float32')], np.linalg.solve(F[1], lcg((5,), 53, dtype='float32')[1]))
case('inv', [F], np.linalg.inv(F[1]))
case('svd', [F], np.linalg.svd(F[1], compute_uv=False), {'computeUV': False})
case('eigh', [spd(5, 55, 'float32')], tuple(np.linalg.eigh(spd(5, 55, 'float32')[1])))

# Vector norms.
v = lcg((25,), 61)
for ord in (None, 1, 2, 3, 0.5, 0, 'inf', '-inf', -1):
    o = {'inf': np.inf, '-inf': -np.inf}.get(ord, ord) if isinstance(ord, str) else ord
    case('norm', [v], np.linalg.norm(v[1], ord=o), {'ord': ord})

json.dump({'numpy': np.__version__, 'cases': cases}, open(OUT, 'w'), separators=(',', ':'))
print(f'{OUT}: {len(cases)} cases, NumPy {np.__version__}', file=sys.stderr)
