"""NumPy's answers for eye, tri, tril, triu, diagonal, diag, meshgrid,
indices, pad, tensordot, kron, cross, array_equal, correlate, convolve and
integer-index assignment, over the inputs api/matrices.test.ts builds, written to
packages/deferred-array/test/vectors/matrices.json (run: python3 this file)."""
import json
from pathlib import Path

import numpy as np

a = np.arange(24, dtype=np.float64).reshape(2, 3, 4) * 1.5 - 7
m = np.arange(12, dtype=np.float64).reshape(3, 4) - 5
v = np.array([1.0, 2.0, 3.0])
x, y, z = np.array([1.0, 2.0, 3.0]), np.array([10.0, 20.0]), np.array([5.0, 6.0, 7.0, 8.0])
p2 = np.arange(6, dtype=np.float64).reshape(2, 3) * 2 - 3


def small(shape, mod):
    """Small integers: every sum of products is exact, so any summation order gives NumPy's value."""
    return (np.arange(int(np.prod(shape)), dtype=np.float64).reshape(shape) % mod) - mod // 2


def wave(shape, seed):
    """Values whose products round (the test reads them from the file)."""
    n = int(np.prod(shape))
    return (np.sin(np.arange(n, dtype=np.float64) * 0.7 + seed) * 10).reshape(shape)


def assigned(dtype, index, value):
    """x[index] = value for x = arange(15).reshape(5, 3) - 4 of dtype."""
    x = (np.arange(15).reshape(5, 3) - 4).astype(dtype)
    x[np.array(index, dtype=np.int64)] = value
    return x


TENSORDOT = [([2, 3, 4], [3, 4, 5], 2), ([2, 3, 4], [4, 5], 1), ([2, 3], [4], 0),
             ([2, 3, 4], [4, 2, 5], [[0, 2], [1, 0]]), ([2, 3, 4], [5, 6, 3], [[1], [2]])]


def arr(g):
    return {"shape": list(g.shape), "values": g.ravel().tolist()}


out = {
    "numpy": np.__version__,
    "eye": [{"n": n, "m": mm, "k": k, **arr(np.eye(n, mm, k))} for (n, mm, k) in [(3, None, 0), (3, 5, 1), (4, 2, -1), (0, None, 0), (3, 3, 5)]],
    "tri": [{"n": n, "m": mm, "k": k, **arr(np.tri(n, mm, k))} for (n, mm, k) in [(3, None, 0), (3, 5, 1), (4, 2, -2)]],
    "tril": [{"k": k, **arr(np.tril(a, k))} for k in [0, 1, -2]],
    "triu": [{"k": k, **arr(np.triu(a, k))} for k in [0, 1, -2]],
    "diagonal": [{"offset": o, "axis1": a1, "axis2": a2, **arr(np.diagonal(a, o, a1, a2))}
                 for (o, a1, a2) in [(0, 0, 1), (1, 1, 2), (-1, 2, 0), (2, 0, 2), (5, 1, 2), (0, -1, -2)]],
    "diagOfVector": [{"k": k, **arr(np.diag(v, k))} for k in [0, 2, -1]],
    "diagOfMatrix": [{"k": k, **arr(np.diag(m, k))} for k in [0, 1, -2, 9]],
    "meshgrid": {ix: [arr(g) for g in np.meshgrid(x, y, z, indexing=ix)] for ix in ["xy", "ij"]},
    "indices": arr(np.indices((2, 3))),
    "pad": [{"width": w, "mode": mode, **({"constant": c} if c is not None else {}), **arr(np.pad(p2, w, mode=mode, **({"constant_values": c} if c is not None else {})))}
            for (w, mode, c) in [
                (1, "constant", None), ([[1, 2], [0, 3]], "constant", -1.5), (2, "edge", None),
                ([[2, 1], [3, 0]], "reflect", None), ([[5, 4], [7, 9]], "reflect", None),
                ([[2, 1], [3, 0]], "symmetric", None), ([[5, 4], [7, 9]], "symmetric", None),
                ([[2, 1], [3, 0]], "wrap", None), ([[5, 4], [7, 9]], "wrap", None), ([[0, 0], [2, 2]], "edge", None)]],
    "padOne": [{"mode": mode, **arr(np.pad(np.array([5.0]), 3, mode=mode))} for mode in ["edge", "reflect", "symmetric", "wrap"]],
    "kron": [{"a": arr(wave(sa, 1)), "b": arr(wave(sb, 2)), **arr(np.kron(wave(sa, 1), wave(sb, 2)))}
             for (sa, sb) in [([2, 3], [3, 2]), ([3], [2, 2]), ([2, 1, 2], [2]), ([0, 2], [2])]],
    "cross": [{"a": arr(wave([4, n], 3)), "b": arr(wave([4, n], 4)), **arr(np.cross(wave([4, n], 3), wave([4, n], 4)))} for n in [3, 2]],
    "correlate": [{"n": n, "m": mm, "mode": mode, "a": small([n], 7).tolist(), "v": (small([mm], 5) + 0.5).tolist(),
                   "c": np.correlate(small([n], 7), small([mm], 5) + 0.5, mode).tolist(), "k": np.convolve(small([n], 7), small([mm], 5) + 0.5, mode).tolist()}
                  for (n, mm) in [(10, 3), (10, 4), (7, 7), (3, 8), (4, 9), (1, 1), (40, 33)] for mode in ["valid", "same", "full"]],
    "setIndices": [{"dtype": dt, "index": ix, "value": val, **arr(assigned(dt, ix, val))}
                   for (dt, ix, val) in [("float64", [0, 2, -1], 7.5), ("float64", [1, 1, 3], [[1, 2, 3], [4, 5, 6], [7, 8, 9]]),
                                         ("float64", [[0, 1], [1, 4]], [10, 20, 30]), ("int32", [4, 0], 2.7), ("float64", [], 1.0),
                                         ("float64", [-5, 0, -5], [[1, 1, 1], [2, 2, 2], [3, 3, 3]])]],
    "tensordot": [{"a": sa, "b": sb, "axes": ax, **arr(np.tensordot(small(sa, 7), small(sb, 5), axes=ax))} for (sa, sb, ax) in TENSORDOT],
}
target = Path(__file__).resolve().parents[2] / "packages/deferred-array/test/vectors/matrices.json"
target.write_text(json.dumps(out) + "\n")
print(f"wrote {target}")
