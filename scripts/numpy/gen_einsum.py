"""NumPy's einsum over the cases api/einsum.test.ts runs, inputs and answers,
written to packages/deferred-array/test/vectors/einsum.json (run: python3 this file).

Inputs are small integers (every sum of products is exact, so any order of
summation gives NumPy's bits) or, where marked "rounds", values whose
products round (the test then allows for a different order of summation)."""
import json
from pathlib import Path

import numpy as np


def small(shape, dtype, seed):
    n = int(np.prod(shape))
    return ((np.arange(n) * 7 + seed * 3) % 11 - 5).reshape(shape).astype(dtype)


def wave(shape, dtype, seed):
    n = int(np.prod(shape))
    return (np.sin(np.arange(n, dtype=np.float64) * 0.7 + seed) * 10).reshape(shape).astype(dtype)


def big(shape, dtype, seed):
    """Integers near the top of the type, so products and sums wrap."""
    info = np.iinfo(dtype)
    n = int(np.prod(shape))
    return (info.max - (np.arange(n) * 5 + seed) % 9).reshape(shape).astype(dtype)


# (subscripts, [(shape, dtype, fill)], ...): string form, NumPy's own spellings.
CASES = [
    ("ij,jk->ik", [((3, 4), "float64", "small"), ((4, 5), "float64", "small")]),
    ("ij,jk", [((3, 4), "float64", "small"), ((4, 2), "float64", "small")]),
    ("ij,jk->ki", [((2, 3), "float64", "small"), ((3, 4), "float64", "small")]),
    ("ij,kj->ik", [((3, 4), "float64", "rounds"), ((5, 4), "float64", "rounds")]),
    ("ji,jk->ik", [((4, 3), "float32", "rounds"), ((4, 5), "float32", "rounds")]),
    ("i,i", [((7,), "float64", "small"), ((7,), "float64", "small")]),
    ("i,i->", [((33,), "float64", "rounds"), ((33,), "float64", "rounds")]),
    ("i,j", [((3,), "float64", "small"), ((4,), "float64", "small")]),
    ("i,j->ji", [((3,), "float64", "small"), ((4,), "float64", "small")]),
    ("i,i->i", [((5,), "float64", "small"), ((5,), "float64", "small")]),
    ("ij,ij->ij", [((3, 4), "float64", "small"), ((3, 4), "float64", "small")]),
    ("ij,ij->", [((3, 4), "float64", "small"), ((3, 4), "float64", "small")]),
    ("ij,j->i", [((3, 4), "float64", "small"), ((4,), "float64", "small")]),
    ("ij,i->j", [((3, 4), "float64", "small"), ((3,), "float64", "small")]),
    ("ii", [((4, 4), "float64", "small")]),
    ("ii->i", [((4, 4), "float64", "small")]),
    ("iij->j", [((3, 3, 2), "float64", "small")]),
    ("iii->i", [((3, 3, 3), "float64", "small")]),
    ("ij->ji", [((2, 3), "float64", "small")]),
    ("ba", [((2, 3), "float64", "small")]),
    ("Ba", [((2, 3), "float64", "small")]),
    ("ij->", [((3, 4), "float64", "small")]),
    ("ij->j", [((3, 4), "float64", "small")]),
    ("ijk->kj", [((2, 3, 4), "float64", "small")]),
    ("i", [((5,), "float64", "small")]),
    ("", [((), "float64", "small")]),
    ("ij,->ij", [((2, 3), "float64", "small"), ((), "float64", "small")]),
    ("bij,bjk->bik", [((2, 3, 4), "float64", "small"), ((2, 4, 5), "float64", "small")]),
    ("bij,bjk->bki", [((3, 2, 4), "float64", "rounds"), ((3, 4, 2), "float64", "rounds")]),
    ("...ij,...jk->...ik", [((2, 3, 4), "float64", "small"), ((4, 5), "float64", "small")]),
    ("...ii->...i", [((2, 3, 3), "float64", "small")]),
    ("...i,...i->...", [((2, 3), "float64", "small"), ((5, 1, 3), "float64", "small")]),
    ("i...->...", [((2, 3, 4), "float64", "small")]),
    ("...", [((2, 3), "float64", "small")]),
    ("...,...", [((3,), "float64", "small"), ((2, 1), "float64", "small")]),
    ("i...,i", [((2, 3), "float64", "small"), ((2,), "float64", "small")]),
    ("ij...,jk...->ik...", [((2, 3, 2), "float64", "small"), ((3, 4, 1), "float64", "small")]),
    ("i,i", [((1,), "float64", "small"), ((3,), "float64", "small")]),
    ("ij,j->i", [((3, 4), "float64", "small"), ((1,), "float64", "small")]),
    ("ij,ij->ij", [((2, 1), "float64", "small"), ((1, 3), "float64", "small")]),
    ("ij,jk,kl->il", [((2, 3), "float64", "small"), ((3, 4), "float64", "small"), ((4, 5), "float64", "small")]),
    ("ij,jk,kl->", [((3, 2), "float64", "small"), ((2, 4), "float64", "small"), ((4, 3), "float64", "small")]),
    ("ea,fb,abcd,gc,hd->efgh", [((2, 3), "float64", "small"), ((2, 2), "float64", "small"), ((3, 2, 2, 3), "float64", "small"),
                                ((2, 2), "float64", "small"), ((3, 3), "float64", "small")]),
    ("i,j,k->ijk", [((2,), "float64", "small"), ((3,), "float64", "small"), ((2,), "float64", "small")]),
    ("ab,bc,cd,da->", [((2, 3), "float64", "small"), ((3, 4), "float64", "small"), ((4, 2), "float64", "small"), ((2, 2), "float64", "small")]),
    ("ijk,jil->kl", [((3, 4, 5), "float64", "small"), ((4, 3, 2), "float64", "small")]),
    ("ii,jj->ij", [((3, 3), "float64", "small"), ((2, 2), "float64", "small")]),
    ("ij,jk->ik", [((3, 4), "float32", "small"), ((4, 5), "float32", "small")]),
    ("ij,jk->ik", [((3, 4), "int32", "small"), ((4, 5), "int32", "small")]),
    ("i,i", [((4,), "float32", "small"), ((4,), "int32", "small")]),
    ("i,i", [((4,), "int32", "big"), ((4,), "int32", "big")]),
    ("i->", [((6,), "int32", "big")]),
    ("ij->i", [((3, 5), "uint8", "big")]),
    ("ij,jk->ik", [((2, 3), "uint8", "small"), ((3, 2), "uint8", "small")]),
    ("i,i", [((4,), "bool", "small"), ((4,), "bool", "small")]),
    ("i->", [((4,), "bool", "small")]),
    ("ij,jk->ik", [((2, 0), "float64", "small"), ((0, 3), "float64", "small")]),
    ("ij->j", [((0, 3), "float64", "small")]),
    ("i->", [((0,), "int32", "small")]),
    ("ij,jk", [((0, 3), "float64", "small"), ((3, 2), "float64", "small")]),
]

# The interleaved form: (operand cases, sublists, output sublist or None).
SUBLISTS = [
    ([((2, 3), "float64", "small"), ((3,), "float64", "small")], [[0, 1], [1]], [0]),
    ([((2, 3), "float64", "small"), ((3,), "float64", "small")], [[Ellipsis, 1], [1]], [Ellipsis]),
    ([((2, 3), "float64", "small"), ((3, 4), "float64", "small")], [[27, 0], [0, 30]], None),
    ([((3, 3), "float64", "small")], [[5, 5]], None),
]


def make(shape, dtype, fill, seed):
    if dtype == "bool":
        return small(shape, np.int32, seed) > 0
    return {"small": small, "rounds": wave, "big": big}[fill](shape, np.dtype(dtype), seed)


def arr(x):
    return {"shape": list(x.shape), "dtype": str(x.dtype), "values": [v.item() for v in x.ravel()]}


def case(subs, specs):
    ops = [make(s, d, f, k) for k, (s, d, f) in enumerate(specs)]
    r = np.asarray(np.einsum(subs, *ops))
    out = {"subscripts": subs, "operands": [arr(o) for o in ops], "rounds": any(f == "rounds" for _, _, f in specs), **arr(r)}
    if out["rounds"]:
        # The same sum over |terms|: a different order of summation moves the result by at most a few eps of it.
        out["magnitude"] = [v.item() for v in np.asarray(np.einsum(subs, *[np.abs(o) for o in ops])).ravel()]
    return out


def sublist_case(specs, lists, output):
    ops = [make(s, d, f, k) for k, (s, d, f) in enumerate(specs)]
    args = [a for pair in zip(ops, lists) for a in pair] + ([output] if output is not None else [])
    r = np.asarray(np.einsum(*args))
    enc = lambda l: ["..." if v is Ellipsis else v for v in l]
    return {"operands": [arr(o) for o in ops], "sublists": [enc(l) for l in lists], "output": None if output is None else enc(output), **arr(r)}


out = {
    "numpy": np.__version__,
    "cases": [case(s, sp) for (s, sp) in CASES],
    "sublists": [sublist_case(*c) for c in SUBLISTS],
    "paths": [{"subscripts": s, "shapes": [list(x) for x in shapes],
               "path": [list(p) for p in np.einsum_path(s, *[np.ones(x) for x in shapes], optimize="greedy")[0][1:]]}
              for (s, shapes) in [("ij,jk,kl->il", [(2, 3), (3, 4), (4, 5)]), ("ij,jk,kl->il", [(20, 3), (3, 40), (40, 5)]),
                                  ("ea,fb,abcd,gc,hd->efgh", [(2, 3), (2, 2), (3, 2, 2, 3), (2, 2), (3, 3)]),
                                  ("ab,cd,bc->ad", [(5, 6), (7, 8), (6, 7)])]],
}
target = Path(__file__).resolve().parents[2] / "packages/deferred-array/test/vectors/einsum.json"
target.write_text(json.dumps(out) + "\n")
print(f"wrote {target}: {len(out['cases'])} cases, {len(set(c['subscripts'] for c in out['cases']))} subscript strings")
