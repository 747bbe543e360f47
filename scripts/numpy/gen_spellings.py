"""NumPy's answers for the spellings a ported program writes and the helpers
around them: None (newaxis) in an index, the one-argument where, repeat with
an array of counts, sliding_window_view, unravel_index and ravel_multi_index
(both orders, every mode), identity, and trace (da.diagonal(x).sum(-1)), over
the inputs api/spellings-vectors.test.ts builds, written to
packages/deferred-array/test/vectors/spellings.json (run: python3 this file).
A case NumPy refuses is written with "error": its exception's class name."""
import json
from pathlib import Path

import numpy as np

x = np.arange(24, dtype=np.float64).reshape(2, 3, 4)
s = (np.arange(40, dtype=np.float64).reshape(2, 5, 4) * 1.5) - 10


def small(shape, mod):
    """Small integers: every sum is exact, so any summation order gives NumPy's value."""
    return (np.arange(int(np.prod(shape)), dtype=np.float64).reshape(shape) % mod) - mod // 2


def arr(g):
    g = np.asarray(g)
    return {"shape": list(g.shape), "values": [None if v != v else v for v in g.ravel().tolist()]}


def attempt(make, **case):
    try:
        return {**case, **make()}
    except (ValueError, IndexError, TypeError) as e:
        return {**case, "error": type(e).__name__}


NONE_INDICES = ["None", ":, None", ":, :, :, None", "..., None", "None, ..., None", "1, None, ::2",
                "None, 0, None, 1:3, -1", "np.newaxis, :, newaxis", ":, None, None, 2", "None, ::-1, 1",
                "..., None, ::-2", "-1, None", "None, None, None, None", "0, ..., None, 3", ":, None, -2:, None, ::3"]
NONE_ZERO_D = ["None", "..., None", "None, ..., None, None"]

WHERE = [[[0, 3, 0], [5, 0, 6]], [1, 0, 2, 0, 0, 7], [[[1, 0], [0, 1]], [[0, 0], [2, 2]]], [[0, 0, 0]],
         [float("nan"), 0.0, -0.0, 1e-320], [[True, False], [False, False]]]
WHERE_SHAPES = [[0, 3], [2, 0, 4]]

REPEAT = [([1.5, 2.5, 3.5], [2, 0, 3], None), ([[1, 2], [3, 4]], [1, 2], 0), ([[1, 2], [3, 4]], [3, 0], 1),
          ([[1, 2], [3, 4]], [2], None), ([[1, 2], [3, 4]], [1, 2, 0, 1], None), ([[1, 2], [3, 4]], [0, 0], 1),
          ([7.0], [4], 0), ([1, 2, 3], [1, 2], 0), ([1, 2, 3], [1, -1, 2], 0)]

SLIDING = [([2, 3, 2], None), (3, 1), (2, -1), ([2, 2], [1, 1]), (5, 1), (1, 0), ([2, 3], [2, 1]), ([4, 2, 1], [-1, 1, 0]),
           (6, 1), ([2, 2], None), (0, 2)]

UNRAVEL = [([0, 5, 23, 13], [2, 3, 4]), ([[1, 7], [3, 0]], [2, 4]), (5, [2, 3]), ([], [3, 3]), ([0, 1, 2], [1, 3, 1]),
           ([11, 0, 6], [12]), ([8], [2, 4]), ([-1], [2, 4]), ([0], [0, 3])]

RAVEL = [([[0, 1, 1], [2, 0, 3]], [2, 4], "raise"), ([[0, 5, -1], [2, 9, 3]], [2, 4], "wrap"),
         ([[0, 5, -1], [2, 9, 3]], [2, 4], "clip"), ([[0, 5, -1], [2, 9, 3]], [2, 4], ["clip", "wrap"]),
         ([[[0], [1]], [2, 0, 3]], [2, 4], "raise"), ([[1, 0], [2, 2], [3, 0]], [2, 3, 4], "raise"),
         ([[0, 2], [1, 1]], [2, 4], "raise"), ([[-1], [0]], [2, 4], "raise"), ([[1], [4]], [2, 4], "raise"),
         ([[], []], [3, 3], "raise"), ([[-7, 13], [-9, 100]], [3, 5], ["wrap", "clip"])]

TRACE = [(0, 0, 1), (1, 1, 2), (-1, 2, 0), (2, 0, 2), (5, 1, 2), (0, -1, -2), (-3, 1, 2)]


def none_index(a, text):
    return a[eval(f"np.s_[{text}]", {"np": np, "newaxis": None})]


out = {
    "numpy": np.__version__,
    "noneIndex": [{"index": t, **arr(none_index(x, t))} for t in NONE_INDICES],
    "noneIndexZeroD": [{"index": t, **arr(none_index(np.array(2.5), t))} for t in NONE_ZERO_D],
    "whereOne": [{"condition": arr(np.array(c)), "dtype": "bool" if isinstance(np.array(c).flat[0], np.bool_) else "float64",
                  "coordinates": [arr(i) for i in np.where(np.array(c))]} for c in WHERE]
    + [{"condition": arr(np.zeros(sh)), "dtype": "float64", "coordinates": [arr(i) for i in np.where(np.zeros(sh))]} for sh in WHERE_SHAPES],
    "repeat": [attempt(lambda a=a, r=r, ax=ax: arr(np.repeat(np.array(a, dtype=np.float64), np.array(r), axis=ax)),
                       x=arr(np.array(a, dtype=np.float64)), repeats=r, axis=ax) for (a, r, ax) in REPEAT],
    "slidingWindowView": [attempt(lambda w=w, ax=ax: arr(np.lib.stride_tricks.sliding_window_view(s, w, axis=ax)), window=w, axis=ax)
                          for (w, ax) in SLIDING],
    "unravelIndex": [attempt(lambda i=i, d=d, o=o: {"coordinates": [arr(c) for c in np.unravel_index(np.array(i, dtype=np.int64), d, order=o)]},
                             indices=arr(np.array(i, dtype=np.int64)), dims=d, order=o) for (i, d) in UNRAVEL for o in ["C", "F"]],
    "ravelMultiIndex": [attempt(lambda mi=mi, d=d, mo=mo, o=o: arr(np.ravel_multi_index(tuple(np.array(v, dtype=np.int64) for v in mi), d, mode=mo, order=o)),
                                multiIndex=[arr(np.array(v, dtype=np.int64)) for v in mi], dims=d, mode=mo, order=o)
                        for (mi, d, mo) in RAVEL for o in ["C", "F"]],
    "identity": [{"n": n, **arr(np.identity(n))} for n in [0, 1, 4]],
    "trace": [{"offset": o, "axis1": a1, "axis2": a2, **arr(np.trace(small([3, 4, 5], 7), o, a1, a2))} for (o, a1, a2) in TRACE],
}
target = Path(__file__).resolve().parents[2] / "packages/deferred-array/test/vectors/spellings.json"
target.write_text(json.dumps(out) + "\n")
print(f"wrote {target}")
