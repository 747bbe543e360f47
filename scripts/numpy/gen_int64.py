#!/usr/bin/python3
"""Generate NumPy reference vectors for the int64 and uint64 dtypes.

Run from the repository root with NumPy 2.x:

    python3 scripts/numpy/gen_int64.py

Writes packages/deferred-array/test/vectors/int64.json:

    promotion    np.result_type of int64/uint64 with every dtype of the package
    binary       op -> dtype -> {a, b, out, outDtype} over values that reach
                 both ends of the type (wrap-around included)
    unary        op -> dtype -> {in, out, outDtype}
    reductions   op -> dtype -> {in, out, outDtype} over one 1-D array
    casts        "from->to" -> {in, out}

Every integer is a decimal string (exact past 2**53); floats are the hex of
their IEEE bits (16 digits float64, 8 float32); bools are 0 or 1.
"""
import json
import sys

import numpy as np

DTYPES = ['float64', 'float32', 'int64', 'uint64', 'int32', 'uint32', 'int16', 'uint16', 'int8', 'uint8', 'bool']


def enc(v, dtype):
    dt = np.dtype(dtype)
    if dt.kind == 'f':
        return np.array(v, dtype=dt).view(np.uint64 if dt.itemsize == 8 else np.uint32).item().to_bytes(dt.itemsize, 'big').hex()
    if dt.kind == 'b':
        return int(bool(v))
    return str(int(v))


def enc_all(arr):
    return [enc(v, arr.dtype) for v in arr.ravel()]


I64 = np.iinfo(np.int64)
U64 = np.iinfo(np.uint64)
A = {
    'int64': np.array([0, 1, -1, 7, -7, 2**53 + 1, -(2**53) - 1, I64.max, I64.min, 123456789012345, -98765, 3], dtype=np.int64),
    'uint64': np.array([0, 1, 2, 7, 2**53 + 1, 2**63, U64.max, U64.max - 1, 123456789012345, 98765, 3, 64], dtype=np.uint64),
}
B = {
    'int64': np.array([3, -2, 5, 7, -3, 2, -1, 1, -1, 1000, 64, 65], dtype=np.int64),
    'uint64': np.array([3, 2, 5, 7, 3, 2, 1, 1, 2, 1000, 64, 65], dtype=np.uint64),
}
SHIFT_B = {
    'int64': np.array([0, 1, 63, 64, 65, 3, 2, 1, 1, 10, 0, 62], dtype=np.int64),
    'uint64': np.array([0, 1, 63, 64, 65, 3, 2, 1, 1, 10, 0, 62], dtype=np.uint64),
}
POWER_B = {
    'int64': np.array([0, 5, 3, 2, 3, 2, 1, 2, 2, 2, 3, 40], dtype=np.int64),
    'uint64': np.array([0, 5, 3, 2, 3, 2, 1, 2, 2, 2, 3, 40], dtype=np.uint64),
}

BINARY = {
    'add': np.add, 'subtract': np.subtract, 'multiply': np.multiply, 'floorDivide': np.floor_divide,
    'mod': np.mod, 'fmod': np.fmod, 'power': np.power, 'minimum': np.minimum, 'maximum': np.maximum,
    'bitwiseAnd': np.bitwise_and, 'bitwiseOr': np.bitwise_or, 'bitwiseXor': np.bitwise_xor,
    'leftShift': np.left_shift, 'rightShift': np.right_shift, 'gcd': np.gcd,
    'equal': np.equal, 'notEqual': np.not_equal, 'less': np.less, 'lessEqual': np.less_equal,
    'greater': np.greater, 'greaterEqual': np.greater_equal, 'logicalAnd': np.logical_and,
    'logicalXor': np.logical_xor, 'divide': np.true_divide,
}
UNARY = {
    'negative': np.negative, 'abs': np.abs, 'sign': np.sign, 'square': np.square, 'invert': np.invert,
    'logicalNot': np.logical_not, 'isfinite': np.isfinite, 'sqrt': np.sqrt, 'positive': np.positive,
}
REDUCTIONS = {
    'sum': np.sum, 'prod': np.prod, 'min': np.min, 'max': np.max, 'mean': np.mean,
    'argmin': np.argmin, 'argmax': np.argmax, 'cumsum': np.cumsum, 'any': np.any, 'all': np.all,
}


def main():
    out = {'meta': {'numpy': np.__version__}, 'promotion': {}, 'binary': {}, 'unary': {}, 'reductions': {}, 'casts': {}}
    for w in ['int64', 'uint64']:
        for d in DTYPES:
            out['promotion'][f'{w},{d}'] = str(np.result_type(np.dtype(w), np.dtype(d)))
    with np.errstate(all='ignore'):
        for name, f in BINARY.items():
            out['binary'][name] = {}
            for t in ['int64', 'uint64']:
                a = A[t]
                b = SHIFT_B[t] if 'Shift' in name else POWER_B[t] if name == 'power' else B[t]
                if name == 'gcd' and t == 'int64':
                    a = a[a != I64.min]  # |min| does not fit: NumPy's answer there is undefined behaviour in C
                    b = b[: len(a)]
                r = f(a, b)
                out['binary'][name][t] = {'a': enc_all(a), 'b': enc_all(b), 'out': enc_all(r), 'outDtype': str(r.dtype)}
        for name, f in UNARY.items():
            out['unary'][name] = {}
            for t in ['int64', 'uint64']:
                r = f(A[t])
                out['unary'][name][t] = {'in': enc_all(A[t]), 'out': enc_all(r), 'outDtype': str(r.dtype)}
        for name, f in REDUCTIONS.items():
            out['reductions'][name] = {}
            for t in ['int64', 'uint64']:
                r = np.asarray(f(A[t]))
                out['reductions'][name][t] = {'in': enc_all(A[t]), 'out': enc_all(r), 'outDtype': str(r.dtype)}
        # Casts: into and out of the 64-bit types.
        ins = {
            'float64': np.array([0.0, -0.0, 1.5, -1.5, 2.0**53 + 2, -(2.0**62), 9.2e18, 1.8e19], dtype=np.float64),
            'int32': np.array([0, -1, 2**31 - 1, -(2**31)], dtype=np.int32),
            'uint32': np.array([0, 1, 2**32 - 1], dtype=np.uint32),
            'int8': np.array([0, -1, 127, -128], dtype=np.int8),
        }
        for t in ['int64', 'uint64']:
            for src, vals in ins.items():
                if t == 'uint64' and src == 'float64':
                    vals = vals[vals >= 0]
                if t == 'int64' and src == 'float64':
                    vals = vals[vals < 2.0**63]
                out['casts'][f'{src}->{t}'] = {'in': enc_all(vals), 'out': enc_all(vals.astype(t))}
            for dst in ['float64', 'float32', 'int32', 'uint32', 'int16', 'uint8', 'bool', 'int64', 'uint64']:
                if dst == t:
                    continue
                vals = A[t]
                out['casts'][f'{t}->{dst}'] = {'in': enc_all(vals), 'out': enc_all(vals.astype(dst))}
    path = 'packages/deferred-array/test/vectors/int64.json'
    with open(path, 'w') as f:
        json.dump(out, f, indent=1)
        f.write('\n')
    print(f'wrote {path}', file=sys.stderr)


if __name__ == '__main__':
    main()
