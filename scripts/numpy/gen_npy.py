#!/usr/bin/python3
"""NumPy-written .npy and .npz files for deferred-array's readers and
writers, and what each holds. Run from the repository root:

    /usr/bin/python3 scripts/numpy/gen_npy.py

Writes packages/deferred-array/test/fixtures/npy/:
  *.npy, *.npz   written by np.save, np.lib.format.write_array (format
                 versions 2.0 and 3.0), np.savez and np.savez_compressed
  manifest.json  per file: what NumPy wrote it from (dtype as NumPy names
                 it, shape, order, byte order, version) and its values as
                 the hex of their bytes, little-endian, in C order; for
                 files the package refuses, the error it must give

The tests read every file and compare the bits, and write each array
again and compare the bytes with NumPy's own file. Committed, so CI needs
no Python; a test also has NumPy read what the package writes when
python3 here has NumPy (read_back.py).
"""
import json
import os

import numpy as np

OUT = 'packages/deferred-array/test/fixtures/npy'

# Values that test the bits: signed zeros, infinities, NaNs with payloads, subnormals, extremes.
F64_SPECIAL = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 5e-324, -2.2250738585072014e-308,
                        1.7976931348623157e308, np.pi, -1 / 3, 1e-300, 123456789.125], dtype='<f8')
F64_SPECIAL_BITS = F64_SPECIAL.view('<u8').copy()
F64_SPECIAL_BITS[4] = 0x7FF8_0000_DEAD_BEEF  # a quiet NaN with a payload
F64_SPECIAL_BITS = np.append(F64_SPECIAL_BITS, np.uint64(0xFFF4_0000_0000_0001))  # a negative signalling NaN
F32_SPECIAL_BITS = np.array([0x00000000, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC0BEEF, 0x00000001,
                             0x80800000, 0x7F7FFFFF, 0x40490FDB, 0xBEAAAAAB, 0x3F800000, 0x4CBEBC20, 0xFFA00001],
                            dtype='<u4')


def values(dtype, n):
    """n values of `dtype` (a NumPy dtype, little-endian), the special ones first."""
    dt = np.dtype(dtype)
    if dt == np.float64:
        bits = np.resize(F64_SPECIAL_BITS, n)
        return bits.view('<f8')
    if dt == np.float32:
        return np.resize(F32_SPECIAL_BITS, n).view('<f4')
    if dt == np.float16:
        return np.resize(np.array([0x0000, 0x8000, 0x7C00, 0xFC00, 0x7E01, 0x0001, 0x3C00, 0x7BFF, 0xC000, 0x3555],
                                  dtype='<u2'), n).view('<f2')
    if dt == np.bool_:
        return (np.arange(n) % 3 == 1)
    info = np.iinfo(dt)
    base = np.array([info.min, info.max, 0, 1, -1 if info.min < 0 else 2, info.min + 1, info.max - 1], dtype=object)
    pattern = [int(base[i % len(base)]) if i < len(base) else int((i * 2654435761) % (int(info.max) - int(info.min) + 1) + int(info.min))
               for i in range(n)]
    return np.array(pattern, dtype=dt)


def hex_of(a):
    """The values' bytes, little-endian, C order (a byte swap, never a cast: NaN payloads stay)."""
    c = a.copy(order='C')
    if c.dtype.byteorder == '>' or (c.dtype.byteorder == '=' and not np.little_endian):
        c = c.byteswap().view(c.dtype.newbyteorder('<'))
    return c.tobytes().hex()


def in_order(a, endian):
    """`a` (little-endian or one byte) as `endian` ('<', '>', '|'), bit for bit."""
    if endian != '>':
        return a
    return a.byteswap().view(a.dtype.newbyteorder('>'))


def name_of(dt):
    return np.dtype(dt).name


manifest = {'numpy': np.__version__, 'files': []}


def record(fname, a, **extra):
    entry = {'file': fname, 'dtype': name_of(a.dtype), 'shape': list(a.shape), 'hex': hex_of(a)}
    entry.update(extra)
    manifest['files'].append(entry)


def save(fname, a, order='C', version=None, **extra):
    path = os.path.join(OUT, fname)
    # copy(order=), not asfortranarray or ascontiguousarray, which make a 0-d array 1-d.
    arr = a.copy(order='F') if order == 'F' else a
    if version is None:
        np.save(path, arr)
    else:
        with open(path, 'wb') as f:
            np.lib.format.write_array(f, arr, version=version)
    record(fname, a, order=order, version=list(version) if version else None, **extra)


def main():
    os.makedirs(OUT, exist_ok=True)
    for f in os.listdir(OUT):
        os.remove(os.path.join(OUT, f))
    codes = {'float64': 'f8', 'float32': 'f4', 'int32': 'i4', 'uint32': 'u4', 'int16': 'i2', 'uint16': 'u2',
             'int8': 'i1', 'uint8': 'u1', 'bool': 'b1'}
    for name, code in codes.items():
        one_byte = code[1] == '1'
        for endian in (['|'] if one_byte else ['<', '>']):
            le = np.dtype(('|' if one_byte else '<') + code)
            a = in_order(values(le, 24).astype(le), endian).reshape(2, 3, 4)
            tag = {'<': 'le', '>': 'be', '|': 'na'}[endian]
            save(f'{name}-{tag}-c.npy', a)
            save(f'{name}-{tag}-f.npy', a, order='F')
            save(f'{name}-{tag}-1d.npy', a.reshape(-1)[:7].copy())
        save(f'{name}-0d.npy', values(le, 1).astype(le).reshape(()))
        save(f'{name}-empty.npy', np.zeros((0, 3), dtype=le))
    # Other shapes and layouts.
    x = values('<f8', 60).reshape(3, 4, 5)
    save('float64-3d-f.npy', x, order='F')
    save('float64-empty-f.npy', np.zeros((4, 0), dtype='<f8'), order='F')
    save('float64-1x1.npy', x[:1, :1, 0].copy())
    save('float64-big-shape.npy', np.zeros((1, 1, 1, 1, 1, 1, 1, 1, 1, 2), dtype='<f8'))
    save('float64-strided.npy', x[:, ::2, ::-1])  # NumPy writes a non-contiguous array in C order
    # Format versions 2.0 and 3.0 (np.save writes 1.0 unless the header needs more).
    save('float32-v2.npy', values('<f4', 6).reshape(2, 3), version=(2, 0))
    save('int16-v3-f.npy', values('<i2', 6).reshape(2, 3), order='F', version=(3, 0))
    # Dtypes the package converts on request (dtype option), and those it refuses.
    # Wide integers near float32's and float64's rounding ties: 2^60 + 2^36 is a float32 tie (to even), one more rounds up.
    hard = [2**60 + 2**36, 2**60 + 2**36 + 1, 2**60 + 3 * 2**36, 2**53 + 1, 2**53 + 3, -(2**60 + 2**36 + 1), 2**62 - 1, 2**32 + 5]
    wide_i = np.concatenate([values('<i8', 8), np.array(hard, dtype='<i8')])
    wide_u = np.concatenate([values('<u8', 8), np.array([abs(h) for h in hard] + [2**64 - 1, 2**63 + 2**39], dtype='<u8')])
    for name, a, endian in [('int64', wide_i, '<'), ('uint64', wide_u, '<'), ('float16', values('<f2', 10), '<'), ('int64-be', wide_i, '>')]:
        a = in_order(a, endian).reshape(2, -1)
        conv = {t: hex_of(a.astype(t)) for t in ['float64', 'float32', 'int32', 'uint32', 'int16', 'uint8', 'bool']}
        save(f'{name}.npy', a, converted=conv)
    save('complex128.npy', np.array([1 + 2j, 3 - 4j]), refused='complex128')
    save('unicode.npy', np.array(['a', 'bc']), refused='<U2')
    np.save(os.path.join(OUT, 'object.npy'), np.array([1, 'a', None], dtype=object), allow_pickle=True)
    manifest['files'].append({'file': 'object.npy', 'refused': 'object'})
    save('structured.npy', np.zeros(2, dtype=[('a', '<f8'), ('b', '<i4')]), refused='structured dtype')
    save('datetime.npy', np.array(['2026-01-01'], dtype='datetime64[D]'), refused='<M8[D]')
    # .npz: members by name, stored and deflated.
    a = values('<f8', 12).reshape(3, 4)
    b = values('<i4', 5)
    c = in_order(values('<f4', 6), '>').reshape(2, 3).copy(order='F')
    np.savez(os.path.join(OUT, 'pair.npz'), a=a, b=b, c=c)
    np.savez_compressed(os.path.join(OUT, 'pair-compressed.npz'), a=a, b=b, c=c)
    np.savez(os.path.join(OUT, 'positional.npz'), a, b)
    for fname, members in [('pair.npz', {'a': a, 'b': b, 'c': c}), ('pair-compressed.npz', {'a': a, 'b': b, 'c': c}),
                           ('positional.npz', {'arr_0': a, 'arr_1': b})]:
        manifest['files'].append({'file': fname, 'members': {k: {'dtype': name_of(v.dtype), 'shape': list(v.shape), 'hex': hex_of(v)}
                                                             for k, v in members.items()}})
    with open(os.path.join(OUT, 'manifest.json'), 'w') as f:
        json.dump(manifest, f, indent=1)
        f.write('\n')
    print(f"wrote {len(manifest['files'])} files and manifest.json to {OUT}")


if __name__ == '__main__':
    main()
