"""How the NumPy generators write values into JSON, shared by gen_sorting.py and gen_sets.py.

Floats are the hex of their IEEE bits (16 digits float64, 8 float32), so -0,
NaN payloads and subnormals survive; integers are decimal strings (exact past
2**53); bools are 0 or 1.
"""
import numpy as np


def enc(v, dt):
    """One value of dtype dt."""
    if dt.kind == 'f':
        return np.array(v, dtype=dt).view(np.uint64 if dt.itemsize == 8 else np.uint32).item().to_bytes(dt.itemsize, 'big').hex()
    if dt.kind == 'b':
        return int(bool(v))
    return str(int(v))


def arr(a):
    """An array as {"dtype", "shape", "data"}."""
    a = np.asarray(a)
    return {'dtype': a.dtype.name, 'shape': list(a.shape), 'data': [enc(v, a.dtype) for v in a.ravel()]}
