#!/usr/bin/python3
"""Generate NumPy reference vectors for deferred-array tests.

Run from the repository root, after `npm run build` (the ops and their
exactness come from the op table, packages/kernels-wasm/dist/op-table.json),
with the *system* Python (Debian's python3-numpy, NumPy 1.24):

    /usr/bin/python3 scripts/numpy/gen_vectors.py

or, to add new ops' entries to promotion.json and elementwise.json with any
NumPy (1.x or 2.x), leaving the other entries as they are:

    python3 scripts/numpy/gen_vectors.py --merge nextafter,gcd

Writes (and overwrites) these files in packages/deferred-array/test/vectors/:

    promotion.json    result dtypes (or errors) of binary/unary/reduction ops
    elementwise.json  bit-exact input/output vectors for unary and binary ops
    reductions.json   reduction cases (NaN, empty, 2x3x4 over several axes,
                      1000-element float sums for pairwise-summation checks)
    statistics.json   std, var, ptp, countNonzero, average, the nan-reductions,
                      isclose and allclose; column standardisation and softmax
    indexing.json     flip, roll, diff, tile, repeat, take, compress, nonzero,
                      x[mask], x[indices] and x[mask] = v
    scans.json        cumsum, cumprod, nancumsum (same case format)

The output is deterministic for a given NumPy version and CPU (transcendental
float results may depend on which SIMD paths NumPy dispatches to; the enabled
CPU features are recorded in each file's "meta").

Encoding of values (inputs and outputs):
  * float64 / float32 / float16: lowercase hex string of the IEEE bit pattern
    in that dtype (16 / 8 / 4 hex digits), e.g. 1.0 float64 -> "3ff0000000000000".
  * bool: 0 or 1.
  * integers: JSON numbers; integers with |x| > 2**53 are decimal strings.
Errors are encoded as "error:<Name>" where <Name> is the nearest builtin
exception class in the exception's MRO (e.g. TypeError, ValueError); the
exact NumPy class name is given alongside where it differs.
"""

import json
import os
import sys
import warnings

import numpy as np

# ---------------------------------------------------------------------------
# configuration

OUT_DIR = os.path.join("packages", "deferred-array", "test", "vectors")

DTYPES = ["float64", "float32", "int32", "uint32", "int16", "uint16", "int8", "uint8", "bool"]
# The dtypes of the first release, for the generators whose functions do not
# depend on an integer's width (statistics, indexing, scans): the narrow
# integer types are covered by promotion, elementwise and reductions.
BASE_DTYPES = ["float64", "float32", "int32", "uint8", "bool"]
NEW_INTS = ["uint32", "int16", "uint16", "int8"]

# The elementwise ops, their NumPy functions and which are exact all come from
# the op table (kernels-wasm's src/ops/elementwise-ops.ts), which kernels-wasm's
# build writes to dist/op-table.json: run `npm run build` first.
OP_TABLE = os.path.join("packages", "kernels-wasm", "dist", "op-table.json")


def snake(name):
    return "".join("_" + c.lower() if c.isupper() else c for c in name)


def numpy_function(name, row):
    """NumPy's function for an op: the row's `numpy` name, else the op's name or an alias in snake case."""
    for cand in [row.get("numpy"), snake(name)] + [snake(a) for a in row["aliases"]]:
        if cand and hasattr(np, cand):
            return getattr(np, cand)
    sys.exit("no NumPy function for %s (give its row a `numpy` name)" % name)


def load_table():
    if not os.path.exists(OP_TABLE):
        sys.exit("%s is missing: run `npm run build` first" % OP_TABLE)
    with open(OP_TABLE) as f:
        return json.load(f)["ops"]


TABLE = load_table()
BINARY_OPS = {op: numpy_function(op, row) for op, row in TABLE.items() if row["family"] == "binary"}
UNARY_OPS = {op: numpy_function(op, row) for op, row in TABLE.items() if row["family"] == "unary"}

REDUCE_OPS = {
    "sum": np.sum,
    "prod": np.prod,
    "min": np.min,
    "max": np.max,
    "mean": np.mean,
    "any": np.any,
    "all": np.all,
    "argmin": np.argmin,
    "argmax": np.argmax,
}

# Ops whose float results must match NumPy bit for bit (IEEE-exact, or ported
# step by step as floorDivide and mod are); the rest (transcendentals, power,
# hypot, logaddexp) are compared within the row's ulp bound. Integer and bool
# outputs are always exact.
EXACT_OPS = {op for op, row in TABLE.items() if row["exact"]}

SCALARS = {"int": 1, "float": 1.5, "bool": True,
           # extra kinds (beyond int/float/bool) that show where weak and
           # legacy promotion actually differ: out-of-range Python scalars
           "int300": 300, "intNeg1": -1, "int2pow40": 2 ** 40,
           "float1e300": 1e300}

# ---------------------------------------------------------------------------
# helpers

UINT_FOR_FLOAT = {2: np.uint16, 4: np.uint32, 8: np.uint64}
SAFE_INT = 2 ** 53


def error_name(exc):
    """Nearest builtin exception class name in the MRO (e.g. TypeError)."""
    for cls in type(exc).__mro__:
        if cls.__module__ == "builtins":
            return cls.__name__
    return type(exc).__name__


def error_str(exc):
    return "error:" + error_name(exc)


EXACT_ERROR_CLASSES = {}  # "error:X" -> set of exact class names seen


def record_error(exc):
    s = error_str(exc)
    EXACT_ERROR_CLASSES.setdefault(s, set()).add(
        type(exc).__module__ + "." + type(exc).__qualname__)
    return s


def encode(arr):
    """Encode a numpy array (any shape) as a flat C-order JSON list."""
    arr = np.ascontiguousarray(np.asarray(arr))
    flat = arr.reshape(-1)
    kind = arr.dtype.kind
    if kind == "f":
        size = arr.dtype.itemsize
        bits = flat.view(UINT_FOR_FLOAT[size])
        return [format(int(b), "0%dx" % (2 * size)) for b in bits]
    if kind == "b":
        return [1 if bool(v) else 0 for v in flat]
    if kind in "iu":
        out = []
        for v in flat:
            v = int(v)
            out.append(v if -SAFE_INT <= v <= SAFE_INT else str(v))
        return out
    raise TypeError("cannot encode dtype %s" % arr.dtype)


def call(fn, *args, **kwargs):
    """Call fn with all FP warnings/errors ignored; returns (result, warnings)."""
    with np.errstate(all="ignore"), warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        res = fn(*args, **kwargs)
    names = sorted({wi.category.__name__ for wi in w})
    return res, names


def result_dtype(res):
    return np.asarray(res).dtype.name


def umath():
    core = getattr(np, "_core", None) or np.core
    return core._multiarray_umath


def meta():
    feats = umath().__cpu_features__
    return {
        "numpy": np.__version__,
        "python": "%d.%d.%d" % sys.version_info[:3],
        "generator": "scripts/numpy/gen_vectors.py",
        "cpuFeaturesEnabled": [k for k, v in feats.items() if v],
        "cpuDispatch": list(umath().__cpu_dispatch__),
    }


# ---------------------------------------------------------------------------
# input value sets


def float_values(dt):
    fi = np.finfo(dt)
    smallest_sub = np.array(1, dtype=UINT_FOR_FLOAT[fi.bits // 8]).view(dt)[()]
    largest_sub = fi.tiny - smallest_sub
    vals = [0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, 2.5, -2.5, 3.0, -7.0]
    if dt == np.float64:
        vals.append(1e-300)
    vals += [smallest_sub, largest_sub, fi.tiny, fi.max, -fi.max,
             1e10, -1e10, 100.7, np.inf, -np.inf, np.nan,
             0.1, 2.0 / 3.0, 123.456]
    return np.array(vals, dtype=dt)


def float_binary_values(dt):
    fi = np.finfo(dt)
    smallest_sub = np.array(1, dtype=UINT_FOR_FLOAT[fi.bits // 8]).view(dt)[()]
    vals = [0.0, -0.0, 1.0, -1.0, 2.5, -2.5, 3.0, -7.0, np.inf, -np.inf,
            np.nan, smallest_sub, fi.max, 0.5, 1e10, 0.1]
    return np.array(vals, dtype=dt)


INT32_VALUES = [0, 1, -1, 2, -2, 3, 7, -7, 100, -100, 2147483647, -2147483648,
                65536, 46341]
UINT8_VALUES = [0, 1, 2, 3, 7, 100, 127, 128, 200, 255]


def int_values(name):
    """Special values of an integer dtype: its extremes, the edges of its
    halves, small numbers of either sign, and a square root of its range."""
    info = np.iinfo(name)
    cand = [0, 1, -1, 2, -2, 3, 7, -7, 100, -100, info.max, info.min, info.max - 1,
            info.min + 1, 2 ** (info.bits // 2), 2 ** (info.bits - 1), 2 ** (info.bits - 1) - 1]
    vals = []
    for v in cand:
        if info.min <= v <= info.max and v not in vals:
            vals.append(v)
    return vals


def unary_inputs(name):
    if name in ("float64", "float32"):
        return float_values(np.dtype(name).type)
    if name == "int32":
        return np.array(INT32_VALUES, dtype=np.int32)
    if name == "uint8":
        return np.array(UINT8_VALUES, dtype=np.uint8)
    if name in NEW_INTS:
        return np.array(int_values(name), dtype=name)
    return np.array([False, True])


def binary_inputs(name):
    if name in ("float64", "float32"):
        return float_binary_values(np.dtype(name).type)
    return unary_inputs(name)


# ---------------------------------------------------------------------------
# promotion.json


def gen_promotion(binary_ops=None, unary_ops=None, reductions=True):
    binary_ops = BINARY_OPS if binary_ops is None else binary_ops
    unary_ops = UNARY_OPS if unary_ops is None else unary_ops
    out = {"numpy": np.__version__, "meta": meta()}

    binary = {}
    for op, fn in binary_ops.items():
        table = {}
        for da in DTYPES:
            for db in DTYPES:
                a = np.ones(1, dtype=da)
                b = np.ones(1, dtype=db)
                try:
                    res, _ = call(fn, a, b)
                    table["%s,%s" % (da, db)] = result_dtype(res)
                except Exception as e:  # noqa: BLE001
                    table["%s,%s" % (da, db)] = record_error(e)
        binary[op] = table
    out["binary"] = binary

    unary = {}
    for op, fn in unary_ops.items():
        table = {}
        for d in DTYPES:
            try:
                res, _ = call(fn, np.ones(1, dtype=d))
                table[d] = result_dtype(res)
            except Exception as e:  # noqa: BLE001
                table[d] = record_error(e)
        unary[op] = table
    out["unary"] = unary

    reduce_ = {}
    for op, fn in (REDUCE_OPS if reductions else {}).items():
        table = {}
        for d in DTYPES:
            try:
                res, _ = call(fn, np.ones(3, dtype=d))
                table[d] = result_dtype(res)
            except Exception as e:  # noqa: BLE001
                table[d] = record_error(e)
        reduce_[op] = table
    out["reduce"] = reduce_

    def scalar_table(state):
        if not hasattr(np, "_set_promotion_state"):
            # NumPy 2 has NEP 50's weak promotion only.
            return scalar_rows() if state == "weak" else None
        prev = np._get_promotion_state()
        np._set_promotion_state(state)
        try:
            return scalar_rows()
        finally:
            np._set_promotion_state(prev)

    def scalar_rows():
        tbl = {}
        for op, fn in binary_ops.items():
            t = {}
            for d in DTYPES:
                for kind, scalar in SCALARS.items():
                    a = np.ones(1, dtype=d)
                    try:
                        res, _ = call(fn, a, scalar)
                        t["%s,%s" % (d, kind)] = result_dtype(res)
                    except Exception as e:  # noqa: BLE001
                        t["%s,%s" % (d, kind)] = record_error(e)
            tbl[op] = t
        return tbl

    out["weakPromotionState"] = "weak"
    out["weakScalars"] = {k: repr(v) for k, v in SCALARS.items()}
    out["weak"] = scalar_table("weak")
    # For comparison only: the same table under NumPy's default (legacy,
    # value-based) promotion state of this NumPy version.
    legacy = scalar_table("legacy")
    if legacy is not None:
        out["legacyPromotionState"] = "legacy"
        out["legacy"] = legacy
    return out


# ---------------------------------------------------------------------------
# elementwise.json


def is_exact(op, out_dtype):
    return op in EXACT_OPS or np.dtype(out_dtype).kind != "f"


def gen_elementwise(binary_ops=None, unary_ops=None):
    binary_ops = BINARY_OPS if binary_ops is None else binary_ops
    unary_ops = UNARY_OPS if unary_ops is None else unary_ops
    out = {"numpy": np.__version__, "meta": meta(),
           "exact": {op: (op in EXACT_OPS)
                     for op in list(unary_ops) + list(binary_ops)}}

    unary = {}
    for op, fn in unary_ops.items():
        per = {}
        for d in DTYPES:
            x = unary_inputs(d)
            try:
                res, _ = call(fn, x)
            except Exception:  # noqa: BLE001
                continue  # NumPy rejects: record nothing
            res = np.asarray(res)
            per[d] = {"outDtype": res.dtype.name,
                      "exact": is_exact(op, res.dtype.name),
                      "in": encode(x), "out": encode(res)}
        unary[op] = per
    out["unary"] = unary

    binary = {}
    for op, fn in binary_ops.items():
        per = {}
        for d in DTYPES:
            v = binary_inputs(d)
            n = len(v)
            a = np.repeat(v, n)
            b = np.tile(v, n)
            rejected = None
            try:
                res, _ = call(fn, a, b)
                res = np.asarray(res)
            except Exception as e:  # noqa: BLE001
                # Whole-array call rejected (e.g. int ** negative int):
                # evaluate pair by pair and keep the pairs NumPy accepts.
                keep, outs, rej = [], [], []
                for i in range(len(a)):
                    try:
                        r, _ = call(fn, a[i:i + 1], b[i:i + 1])
                        keep.append(i)
                        outs.append(np.asarray(r))
                    except Exception as e2:  # noqa: BLE001
                        rej.append((i, record_error(e2)))
                if not keep:
                    record_error(e)
                    continue
                idx = np.array(keep)
                a, b = a[idx], b[idx]
                res = np.concatenate(outs)
                ridx = np.array([i for i, _ in rej])
                av, bv = np.repeat(v, n), np.tile(v, n)
                rejected = {"a": encode(av[ridx]), "b": encode(bv[ridx]),
                            "error": sorted({s for _, s in rej})}
            entry = {"outDtype": res.dtype.name,
                     "exact": is_exact(op, res.dtype.name),
                     "a": encode(a), "b": encode(b), "out": encode(res)}
            if rejected is not None:
                entry["rejected"] = rejected
            per[d] = entry
        binary[op] = per
    out["binary"] = binary
    return out


# ---------------------------------------------------------------------------
# reductions.json

AXES = [None, 0, 1, 2, -1, (0, 2)]


def cube(d):
    r = np.arange(24)
    if d == "float64":
        a = (r - 9) * 0.75
        a[5] = a[17]  # a tie for argmin/argmax checks
        return a.astype(np.float64).reshape(2, 3, 4)
    if d == "float32":
        return ((r - 7) * 0.1).astype(np.float32).reshape(2, 3, 4)
    if d == "int32":
        a = (r * 7) % 19 - 9
        return a.astype(np.int32).reshape(2, 3, 4)
    if d == "uint8":
        return ((r * 37) % 256).astype(np.uint8).reshape(2, 3, 4)
    if d in NEW_INTS:
        info = np.iinfo(d)
        a = (r * 37) % 256 if info.min == 0 else (r * 7) % 19 - 9
        a = a.astype(d)
        a[3], a[20] = info.max, info.min  # the extremes, for min and max
        return a.reshape(2, 3, 4)
    return (((r * 5) % 7) < 4).reshape(2, 3, 4)


def one_d_cases(d):
    """(label, array) 1-D cases for dtype d."""
    cases = []
    if d in ("float64", "float32"):
        t = np.dtype(d).type
        nan = np.nan
        cases.append(("nan-middle", np.array([1.0, nan, 3.0, -2.0], dtype=t)))
        cases.append(("nan-first", np.array([nan, 1.0, -5.0], dtype=t)))
        cases.append(("two-nans", np.array([2.0, -nan, 4.0, nan], dtype=t)))
        cases.append(("inf-mixed", np.array([np.inf, -np.inf, 1.0], dtype=t)))
        cases.append(("signed-zeros", np.array([-0.0, 0.0, -0.0], dtype=t)))
        cases.append(("all-neg-zero", np.array([-0.0, -0.0], dtype=t)))
        cases.append(("ties", np.array([3.0, -1.0, -1.0, 3.0], dtype=t)))
        cases.append(("overflow", np.array([np.finfo(t).max,
                                            np.finfo(t).max], dtype=t)))
    elif d == "int32":
        cases.append(("ties", np.array([3, -1, -1, 3], dtype=np.int32)))
        cases.append(("extremes", np.array([2147483647, -2147483648, 2147483647,
                                            5], dtype=np.int32)))
        cases.append(("prod-big", np.array([65536, 65536, 3, -7],
                                           dtype=np.int32)))
        cases.append(("prod-wrap", np.array([2147483647, 2147483647,
                                             2147483647], dtype=np.int32)))
    elif d == "uint8":
        cases.append(("ties", np.array([200, 7, 7, 200], dtype=np.uint8)))
        cases.append(("big", np.array([255, 255, 200, 128, 1], dtype=np.uint8)))
        cases.append(("with-zero", np.array([0, 3, 255], dtype=np.uint8)))
    elif d in NEW_INTS:
        info = np.iinfo(d)
        cases.append(("extremes", np.array([info.max, info.min, info.max, 5], dtype=d)))
        cases.append(("ties", np.array([info.max, 7, 7, info.max], dtype=d)))
        cases.append(("half", np.array([2 ** (info.bits - 1), 2 ** (info.bits - 1) - 1, 1], dtype=d)
                      if info.min == 0 else np.array([-1, 0, 1], dtype=d)))
    else:
        cases.append(("mixed", np.array([False, True, False, True])))
        cases.append(("all-true", np.array([True, True, True])))
        cases.append(("all-false", np.array([False, False])))
    cases.append(("empty", np.zeros(0, dtype=d)))
    return cases


def reduce_case(op, fn, label, x, axis, keepdims):
    case = {"label": label, "inDtype": x.dtype.name, "inShape": list(x.shape),
            "in": encode(x),
            "axis": list(axis) if isinstance(axis, tuple) else axis,
            "keepdims": keepdims}
    try:
        res, w = call(fn, x, axis=axis, keepdims=keepdims)
        res = np.asarray(res)
        case["outDtype"] = res.dtype.name
        case["outShape"] = list(res.shape)
        case["out"] = encode(res)
        if w:
            case["warnings"] = w
    except Exception as e:  # noqa: BLE001
        case["error"] = record_error(e)
    return case


def long_arrays():
    rng = np.random.Generator(np.random.PCG64(20240601))
    # rng.random uses only integer bit manipulation -> platform independent.
    mag = rng.integers(-6, 12, size=1000)
    f64 = (rng.random(1000) - 0.5) * np.ldexp(1.0, mag)
    f32 = f64.astype(np.float32)
    # Also a smooth signal (recorded explicitly, so platform differences in
    # np.sin only affect the inputs, which are stored anyway).
    s64 = np.sin(np.arange(1000, dtype=np.float64)) * 1000.0
    s32 = s64.astype(np.float32)
    return [("rand1000", f64), ("rand1000", f32),
            ("sin1000", s64), ("sin1000", s32),
            ("ones-plus-tiny-1000",
             np.concatenate([[1.0], np.full(999, 2.0 ** -24)]).astype(np.float32)),
            ("ones-plus-tiny-1000",
             np.concatenate([[1.0], np.full(999, 2.0 ** -53)]).astype(np.float64))]


def gen_reductions():
    out = {"numpy": np.__version__, "meta": meta(), "cases": {}}
    for op, fn in REDUCE_OPS.items():
        cases = []
        for d in DTYPES:
            for label, x in one_d_cases(d):
                cases.append(reduce_case(op, fn, label, x, None, False))
            c = cube(d)
            for axis in AXES:
                for kd in (False, True):
                    cases.append(reduce_case(op, fn, "cube2x3x4", c, axis, kd))
        if op in ("sum", "mean"):
            for label, x in long_arrays():
                cases.append(reduce_case(op, fn, label, x, None, False))
            # 2-D long case: pairwise summation along the contiguous axis only
            rng = np.random.Generator(np.random.PCG64(7))
            m64 = (rng.random(3 * 400) - 0.25).reshape(3, 400) * 1000.0
            for x in (m64, m64.astype(np.float32)):
                for axis in (None, 0, 1):
                    cases.append(reduce_case(op, fn, "rand3x400", x, axis,
                                             False))
        out["cases"][op] = cases
    return out


# ---------------------------------------------------------------------------
# statistics.json


def stat_inputs(d):
    """(label, array) cases: the 1-D special cases, NaN-holding ones, a cube, 0-d."""
    cases = one_d_cases(d)
    if d in ("float64", "float32"):
        t = np.dtype(d).type
        cases.append(("all-nan", np.array([np.nan, np.nan], dtype=t)))
        c = cube(d).copy()
        c[0, 1, 2] = np.nan
        c[1, :, 3] = np.nan
        cases.append(("cube-nans", c))
    cases.append(("cube2x3x4", cube(d)))
    cases.append(("zero-d", np.array(cube(d).reshape(-1)[5])))
    cases.append(("empty2x0", np.zeros((2, 0), dtype=d)))
    return cases


STAT_FUNCS = {
    "var": np.var, "std": np.std, "ptp": np.ptp, "countNonzero": np.count_nonzero,
    "average": np.average, "nansum": np.nansum, "nanmean": np.nanmean,
    "nanmin": np.nanmin, "nanmax": np.nanmax, "nanvar": np.nanvar, "nanstd": np.nanstd,
}


def stat_case(name, label, x, kwargs):
    case = {"label": label, "inDtype": x.dtype.name, "inShape": list(x.shape),
            "in": encode(x), "options": {}}
    npkw = {}
    for k, v in kwargs.items():
        if k == "weights":
            case["weights"] = {"dtype": v.dtype.name, "shape": list(v.shape), "values": encode(v)}
            npkw[k] = v
        else:
            case["options"][k] = list(v) if isinstance(v, tuple) else v
            npkw[k] = v
    try:
        res, w = call(STAT_FUNCS[name], x, **npkw)
        res = np.asarray(res)
        case["outDtype"] = res.dtype.name
        case["outShape"] = list(res.shape)
        case["out"] = encode(res)
    except Exception as e:  # noqa: BLE001
        case["error"] = record_error(e)
    return case


def stat_option_sets(name, x):
    nd = x.ndim
    axes = [None] + ([0, -1] if nd >= 1 else []) + ([(0, 2)] if nd == 3 else [])
    sets = []
    for axis in axes:
        for kd in (False, True):
            sets.append({"axis": axis, "keepdims": kd})
    if name in ("var", "std", "nanvar", "nanstd"):
        for ddof in (1, 2, 5):
            sets.append({"axis": axes[-1], "keepdims": False, "ddof": ddof})
    if name == "average" and nd >= 1 and x.size > 0:
        n = x.shape[-1]
        for wd in ("float64", "float32", "int32"):
            w = (np.arange(n) % 3 + 1).astype(wd)
            sets.append({"axis": -1, "weights": w})
            sets.append({"axis": -1, "keepdims": True, "weights": w})
        full = (np.arange(x.size).reshape(x.shape) % 4 + 0.5).astype(np.float64)
        sets.append({"axis": None, "weights": full})
        sets.append({"axis": 0, "weights": full})
    return sets


def gen_statistics():
    out = {"numpy": np.__version__, "meta": meta(), "cases": {}}
    for name in STAT_FUNCS:
        cases = []
        for d in BASE_DTYPES:
            for label, x in stat_inputs(d):
                for kw in stat_option_sets(name, x):
                    cases.append(stat_case(name, label, x, kw))
        out["cases"][name] = cases
    close = []
    specials = [0.0, -0.0, 1.0, 1.0 + 1e-9, 1.0 + 1e-4, 1e-9, -1e-9, 1e10, 1e10 + 1e5, np.inf, -np.inf, np.nan]
    a = np.array([x for x in specials for _ in specials])
    b = np.array([y for _ in specials for y in specials])
    for d in ("float64", "float32"):
        for kw in ({}, {"rtol": 0.0, "atol": 0.0}, {"rtol": 1e-3}, {"atol": 1e-3, "equal_nan": True}):
            res, _ = call(np.isclose, a.astype(d), b.astype(d), **kw)
            close.append({"dtype": d, "a": encode(a.astype(d)), "b": encode(b.astype(d)),
                          "options": {("equalNan" if k == "equal_nan" else k): v for k, v in kw.items()},
                          "out": encode(res), "all": bool(np.allclose(a.astype(d), b.astype(d), **kw))})
    ia = np.array([-2147483648, -5, 0, 7, 2147483647], dtype=np.int32)
    ib = np.array([-2147483648, -5, 1, 7, 2147483646], dtype=np.int32)
    res, _ = call(np.isclose, ia, ib)
    close.append({"dtype": "int32", "a": encode(ia), "b": encode(ib), "options": {}, "out": encode(res),
                  "all": bool(np.allclose(ia, ib))})
    out["isclose"] = close
    # Issue 21's two programs, on inputs JS can build exactly: column
    # standardisation of a 1000 x 50 matrix and a softmax over the last axis
    # of a 100 x 1000 one. Every 7th output element is kept (the files stay small).
    i, j = np.meshgrid(np.arange(1000), np.arange(50), indexing="ij")
    x = ((i * 37 + j * 101) % 997) * 0.25 - 100.0 + j * 3.0
    z = (x - x.mean(axis=0)) / x.std(axis=0)
    i, j = np.meshgrid(np.arange(100), np.arange(1000), indexing="ij")
    s = ((i * 13 + j * 29) % 211) / 16.0 - 6.0
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    soft = e / e.sum(axis=-1, keepdims=True)
    out["programs"] = {
        "standardise": {"formula": "((i * 37 + j * 101) % 997) * 0.25 - 100 + j * 3", "shape": [1000, 50],
                        "every": 7, "out": encode(z.reshape(-1)[::7])},
        "softmax": {"formula": "((i * 13 + j * 29) % 211) / 16 - 6", "shape": [100, 1000],
                    "every": 7, "out": encode(soft.reshape(-1)[::7])},
    }
    return out


# ---------------------------------------------------------------------------


# ---------------------------------------------------------------------------
# indexing.json: flip, roll, diff, tile, repeat, take, compress, nonzero and
# boolean/integer indexing, over the dtypes, special values, empty and 0-d
# arrays, axes and views (the input transposed or reversed first).

def index_inputs(d):
    t = np.dtype(d)
    if d in ("float64", "float32"):
        line = np.array([0.0, -0.0, 1.5, np.nan, np.inf, -2.5, np.finfo(t).tiny / 4], dtype=t)
        grid = ((np.arange(12) * 7) % 12 - 5.5).astype(t).reshape(3, 4)
    elif d == "int32":
        line = np.array([0, -1, 2147483647, -2147483648, 7, 3, -7], dtype=t)
        grid = ((np.arange(12) * 7) % 12 - 5).astype(t).reshape(3, 4)
    elif d == "uint8":
        line = np.array([0, 1, 255, 128, 7, 3, 200], dtype=t)
        grid = ((np.arange(12) * 37) % 256).astype(t).reshape(3, 4)
    else:
        line = np.array([1, 0, 1, 1, 0, 0, 1], dtype=bool)
        grid = ((np.arange(12) * 7) % 3 == 0).reshape(3, 4)
    cube3 = np.arange(24).reshape(2, 3, 4).astype(t) if d != "bool" else (np.arange(24).reshape(2, 3, 4) % 5 == 1)
    return [("line", line, "plain"), ("grid", grid, "plain"), ("grid", grid, "T"), ("grid", grid, "rev"),
            ("cube", cube3, "plain"), ("zero-d", np.array(line[2]), "plain"),
            ("empty", np.zeros((0,), dtype=t), "plain"), ("empty2x0", np.zeros((2, 0), dtype=t), "plain")]


def apply_view(x, v):
    if v == "T":
        return x.T
    if v == "rev":
        return x[..., ::-1]
    return x


def arr_arg(a):
    a = np.asarray(a)
    return {"array": {"dtype": a.dtype.name, "shape": list(a.shape), "values": encode(a)}}


def index_option_sets(fn, x):
    nd = x.ndim
    axes = [None] + list(range(-1, nd)) if nd else [None]
    n = x.shape[0] if nd else 0
    sets = []
    if fn == "flip":
        sets = [{"axis": a} for a in axes] + ([{"axis": [0, nd - 1]}] if nd >= 2 else [])
    elif fn == "roll":
        for sh in (0, 1, -2, 9):
            sets += [{"shift": sh, "axis": a} for a in axes]
        if nd >= 2:
            sets += [{"shift": [1, -3], "axis": [0, 1]}, {"shift": 2, "axis": [0, 1, 0]}]
    elif fn == "diff":
        if nd:
            for k in (0, 1, 2, 5):
                sets += [{"n": k, "axis": a} for a in range(-1, nd)]
            edge = list(x.shape)
            edge[-1] = 1
            sets += [{"prepend": 1}, {"append": 0}, {"prepend": 0, "append": 2, "n": 2},
                     {"prepend": arr_arg(np.ones(edge, dtype=x.dtype))}]
        else:
            sets = [{"n": 1}]
    elif fn == "tile":
        sets = [{"reps": r} for r in (2, 0, [2, 1], [1, 3], [2, 2, 2], [])]
    elif fn == "repeat":
        sets = [{"repeats": r, "axis": a} for r in (2, 0) for a in axes]
        if nd >= 1:
            sets.append({"repeats": [(i * 5) % 3 for i in range(x.shape[-1])], "axis": -1})
            sets.append({"repeats": [1] * (x.size - 1) + [3] if x.size else [], "axis": None})
    elif fn == "take":
        for a in axes:
            m = x.size if a is None else (x.shape[a] if nd else 0)
            idx = np.array([0, m - 1, -1, 1 % max(m, 1), -m], dtype=np.int32) if m else np.zeros((0,), np.int32)
            sets.append({"indices": arr_arg(idx), "axis": a})
            if m:
                sets.append({"indices": arr_arg(np.array([[0, m - 1], [1 % m, 0]], dtype=np.int32)), "axis": a})
                sets.append({"indices": arr_arg(np.array([m, -m - 1, 2 * m + 1], dtype=np.int32)), "axis": a, "mode": "wrap"})
                sets.append({"indices": arr_arg(np.array([m, -m - 1, 2 * m + 1], dtype=np.int32)), "axis": a, "mode": "clip"})
                sets.append({"indices": arr_arg(np.array([m], dtype=np.int32)), "axis": a})
    elif fn == "compress":
        for a in axes:
            m = x.size if a is None else (x.shape[a] if nd else 0)
            sets.append({"condition": arr_arg(np.arange(m) % 3 != 1), "axis": a})
            if m > 1:
                sets.append({"condition": arr_arg(np.array([False, True])), "axis": a})
            sets.append({"condition": arr_arg(np.ones(m + 1, dtype=bool)), "axis": a})
    elif fn == "nonzero":
        sets = [{}]
    elif fn == "getMask":
        if nd:
            full = (np.arange(x.size).reshape(x.shape) % 3 == 0)
            sets = [{"mask": arr_arg(full)}, {"mask": arr_arg(np.zeros(x.shape, dtype=bool))},
                    {"mask": arr_arg(np.arange(n) % 2 == 0)}]
            if nd >= 2:
                sets.append({"mask": arr_arg(np.ones((n + 1,), dtype=bool))})
    elif fn == "getIndex":
        if nd:
            sets = [{"indices": arr_arg(np.array([n - 1, 0, -1], dtype=np.int32))},
                    {"indices": arr_arg(np.array([[0], [n - 1]], dtype=np.int32))},
                    {"indices": arr_arg(np.array([n], dtype=np.int32))}]
    elif fn == "setMask":
        if nd and x.size:
            full = (np.arange(x.size).reshape(x.shape) % 3 == 1)
            k = int(full.sum())
            lead = np.arange(n) % 2 == 1
            sets = [{"mask": arr_arg(full), "value": 5},
                    {"mask": arr_arg(full), "value": arr_arg(np.arange(k).astype(x.dtype))},
                    {"mask": arr_arg(full), "value": arr_arg(np.ones(1, dtype=x.dtype))},
                    {"mask": arr_arg(full), "value": arr_arg(np.ones(k + 1, dtype=x.dtype))},
                    {"mask": arr_arg(lead), "value": 0}]
            if nd >= 2:
                rows = int(lead.sum())
                sets.append({"mask": arr_arg(lead), "value": arr_arg(np.arange(rows * int(np.prod(x.shape[1:]))).reshape((rows,) + x.shape[1:]).astype(x.dtype))})
                sets.append({"mask": arr_arg(lead), "value": arr_arg(np.arange(x.shape[-1]).astype(x.dtype))})
    return sets


def unarg(v):
    if isinstance(v, dict) and "array" in v:
        a = v["array"]
        if a["dtype"] in ("float64", "float32"):
            raw = np.array([int(h, 16) for h in a["values"]], dtype=UINT_FOR_FLOAT[np.dtype(a["dtype"]).itemsize])
            return raw.view(a["dtype"]).reshape(a["shape"])
        return np.array(a["values"], dtype=a["dtype"]).reshape(a["shape"])
    return tuple(v) if isinstance(v, list) else v


def index_call(fn, x, o):
    k = {key: unarg(v) for key, v in o.items()}
    if fn == "flip":
        return np.flip(x, axis=k["axis"])
    if fn == "roll":
        return np.roll(x, k["shift"], axis=k["axis"])
    if fn == "diff":
        # A JS number given as prepend/append is a weak scalar: it takes x's
        # dtype (int32 next to bool). NumPy makes it an int64 array first,
        # which would promote the result; that we do not have.
        kw = dict(k)
        for e in ("prepend", "append"):
            if e in kw and not isinstance(kw[e], np.ndarray):
                kw[e] = np.asarray(kw[e], dtype=np.int32 if x.dtype == bool else x.dtype)
        return np.diff(x, **kw)
    if fn == "tile":
        return np.tile(x, k["reps"])
    if fn == "repeat":
        r = k["repeats"]
        return np.repeat(x, list(r) if isinstance(r, tuple) else r, axis=k["axis"])
    if fn == "take":
        return np.take(x, k["indices"], axis=k["axis"], mode=k.get("mode", "raise"))
    if fn == "compress":
        return np.compress(k["condition"], x, axis=k["axis"])
    if fn == "nonzero":
        return np.nonzero(x)
    if fn == "getMask":
        return x[k["mask"]]
    if fn == "getIndex":
        return x[k["indices"]]
    if fn == "setMask":
        y = x.copy()
        y[k["mask"]] = k["value"]
        return y
    raise ValueError(fn)


INDEX_FUNCS = ["flip", "roll", "diff", "tile", "repeat", "take", "compress", "nonzero", "getMask", "getIndex", "setMask"]


def gen_indexing():
    out = {"numpy": np.__version__, "meta": meta(), "cases": {}}
    for fn in INDEX_FUNCS:
        cases = []
        for d in BASE_DTYPES:
            for label, base, v in index_inputs(d):
                x = apply_view(base, v)
                for o in index_option_sets(fn, x):
                    case = {"label": label, "view": v, "inDtype": d, "inShape": list(base.shape),
                            "in": encode(base), "options": o}
                    try:
                        with warnings.catch_warnings():
                            warnings.simplefilter("error", DeprecationWarning)
                            res, _ = call(index_call, fn, x, o)
                        outs = list(res) if fn == "nonzero" else [res]
                        case["out"] = [{"dtype": np.asarray(r).dtype.name, "shape": list(np.shape(r)),
                                        "values": encode(r)} for r in outs]
                    except Exception as e:  # noqa: BLE001
                        case["error"] = record_error(e)
                    cases.append(case)
        out["cases"][fn] = cases
    return out



def gen_scans():
    """cumsum, cumprod, nancumsum: the indexing inputs and NaN-holding ones, every axis."""
    funcs = {"cumsum": np.cumsum, "cumprod": np.cumprod, "nancumsum": np.nancumsum}
    out = {"numpy": np.__version__, "meta": meta(), "cases": {}}
    for name, fn in funcs.items():
        cases = []
        for d in BASE_DTYPES:
            inputs = index_inputs(d)
            if d in ("float64", "float32"):
                t = np.dtype(d).type
                inputs.append(("nans", np.array([[1.5, np.nan, 2.0], [np.nan, np.nan, -1.0]], dtype=t), "plain"))
                inputs.append(("long", (np.arange(1000) % 17 * 0.1 - 0.7).astype(t), "plain"))
                inputs.append(("overflow", np.array([np.finfo(t).max, np.finfo(t).max, -np.inf], dtype=t), "plain"))
            elif d in ("int32", "uint8"):
                # Running products past 2^53 (and, for int32, int64's wrap).
                big = [46341, -46341, 46341, 46341, 3, -1] if d == "int32" else [255] * 9
                inputs.append(("big", np.array(big, dtype=d), "plain"))
            for label, base, v in inputs:
                x = apply_view(base, v)
                for a in [None] + list(range(-1, x.ndim)):
                    case = {"label": label, "view": v, "inDtype": d, "inShape": list(base.shape),
                            "in": encode(base), "options": {"axis": a}}
                    try:
                        res, _ = call(fn, x, axis=a)
                        case["out"] = [{"dtype": res.dtype.name, "shape": list(res.shape), "values": encode(res)}]
                    except Exception as e:  # noqa: BLE001
                        case["error"] = record_error(e)
                    cases.append(case)
        out["cases"][name] = cases
    return out


def write(name, obj):
    path = os.path.join(OUT_DIR, name)
    with open(path, "w") as f:
        json.dump(obj, f, allow_nan=False, separators=(",", ":"))
        f.write("\n")
    with open(path) as f:
        json.load(f)
    print("wrote %s (%d bytes)" % (path, os.path.getsize(path)))


def read(name):
    with open(os.path.join(OUT_DIR, name)) as f:
        return json.load(f)


def relabel_exact(elem):
    """The exact flags of elementwise.json, from the op table."""
    elem["exact"] = {op: (op in EXACT_OPS) for op in list(elem["unary"]) + list(elem["binary"])}
    for family in ("unary", "binary"):
        for op, per in elem[family].items():
            for entry in per.values():
                entry["exact"] = is_exact(op, entry["outDtype"])


def merge(ops):
    """Computes promotion.json's and elementwise.json's entries for `ops` only,
    and merges them into the committed files, whose other entries stay as their
    NumPy made them; the exact flags are rewritten from the op table."""
    unknown = [op for op in ops if op not in TABLE]
    if unknown:
        sys.exit("not in the op table: %s" % ", ".join(unknown))
    binary_ops = {op: BINARY_OPS[op] for op in ops if op in BINARY_OPS}
    unary_ops = {op: UNARY_OPS[op] for op in ops if op in UNARY_OPS}
    promo, elem = read("promotion.json"), read("elementwise.json")
    new_promo = gen_promotion(binary_ops, unary_ops, reductions=False)
    new_elem = gen_elementwise(binary_ops, unary_ops)
    for key in ("binary", "unary", "weak", "legacy"):
        if key in new_promo and key in promo:
            promo[key].update(new_promo[key])
    for key in ("binary", "unary"):
        elem[key].update(new_elem[key])
    relabel_exact(elem)
    made = {"numpy": np.__version__, "python": "%d.%d.%d" % sys.version_info[:3]}
    for obj in (promo, elem) if ops else ():
        obj["meta"].setdefault("merged", {}).update({op: made for op in ops})
        classes = obj["meta"].setdefault("errorClasses", {})
        for k, v in EXACT_ERROR_CLASSES.items():
            classes[k] = sorted(set(classes.get(k, [])) | v)
    write("promotion.json", promo)
    write("elementwise.json", elem)


def main():
    if not os.path.isdir(os.path.join("packages", "deferred-array")):
        sys.exit("run from the repository root")
    if len(sys.argv) == 3 and sys.argv[1] == "--merge":
        merge([op for op in sys.argv[2].split(",") if op])
        return
    if not hasattr(np, "_set_promotion_state"):
        sys.exit("regenerating every file needs NumPy 1.x (see test/vectors/README.md); "
                 "use --merge op,op to add ops with this NumPy")
    os.makedirs(OUT_DIR, exist_ok=True)
    np._set_promotion_state("legacy")
    promo = gen_promotion()
    elem = gen_elementwise()
    red = gen_reductions()
    stats = gen_statistics()
    idx = gen_indexing()
    scans = gen_scans()
    errs = {k: sorted(v) for k, v in sorted(EXACT_ERROR_CLASSES.items())}
    for obj in (promo, elem, red, stats, idx, scans):
        obj["meta"]["errorClasses"] = errs
    write("promotion.json", promo)
    write("elementwise.json", elem)
    write("reductions.json", red)
    write("statistics.json", stats)
    write("indexing.json", idx)
    write("scans.json", scans)


if __name__ == "__main__":
    main()
