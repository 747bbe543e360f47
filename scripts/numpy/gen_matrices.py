"""NumPy's answers for eye, tri, tril, triu, diagonal, diag, meshgrid and
indices, over the inputs api/matrices.test.ts builds, written to
packages/deferred-array/test/vectors/matrices.json (run: python3 this file)."""
import json
from pathlib import Path

import numpy as np

a = np.arange(24, dtype=np.float64).reshape(2, 3, 4) * 1.5 - 7
m = np.arange(12, dtype=np.float64).reshape(3, 4) - 5
v = np.array([1.0, 2.0, 3.0])
x, y, z = np.array([1.0, 2.0, 3.0]), np.array([10.0, 20.0]), np.array([5.0, 6.0, 7.0, 8.0])


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
}
target = Path(__file__).resolve().parents[2] / "packages/deferred-array/test/vectors/matrices.json"
target.write_text(json.dumps(out) + "\n")
print(f"wrote {target}")
