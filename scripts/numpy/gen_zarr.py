#!/usr/bin/python3
"""Zarr stores for deferred-array's da.fromZarr, written by zarr-python, and
the arrays they hold as .npy files NumPy wrote. Run from the repository
root with a Python that has zarr (Debian: apt install python3-zarr, which
is zarr-python 2 and writes format v2):

    /usr/bin/python3 scripts/numpy/gen_zarr.py

Writes packages/deferred-array/test/fixtures/zarr/:
  v2.zarr/           a group written by zarr-python: arrays under names
                     for each codec (Blosc, Zstd, GZip, none), dtype, byte
                     order and memory order, edge chunks, a 100-chunk array,
                     and a nested group
  v3.zarr/           a Zarr v3 array (zarr.json, chunk keys c/i/j) with the
                     bytes and gzip codecs, written here by the v3 spec:
                     zarr-python 3, which writes v3, is not installable here
  v3-transposed.zarr/  the same with the transpose codec (order [1, 0, 2])
  expected/NAME.npy  each array's values, by np.save
  manifest.json      per array: its path, dtype, shape, chunks, codec and
                     chunk count
"""
import gzip
import json
import os
import shutil

import numcodecs
import numpy as np
import zarr

OUT = 'packages/deferred-array/test/fixtures/zarr'


def values(shape, dtype, seed, specials=True):
    n = int(np.prod(shape))
    rng = np.random.default_rng(seed)
    dt = np.dtype(dtype)
    if dt.kind == 'f':
        v = np.round(rng.standard_normal(n) * 100, 3).astype(dt)
        if specials:
            v[:4] = [np.nan, -0.0, np.inf, -np.inf][: min(4, n)]
    elif dt.kind == 'b':
        v = rng.integers(0, 2, n).astype(bool)
    else:
        info = np.iinfo(dt)
        v = rng.integers(max(info.min, -(2**40)), min(info.max, 2**40), n, dtype=np.int64, endpoint=True).astype(dt)
        v[:2] = [info.min, info.max]
    return v.reshape(shape)


def main():
    shutil.rmtree(OUT, ignore_errors=True)
    os.makedirs(os.path.join(OUT, 'expected'))
    manifest = {'zarr': zarr.__version__, 'numcodecs': numcodecs.__version__, 'arrays': []}
    store = zarr.DirectoryStore(os.path.join(OUT, 'v2.zarr'))
    root = zarr.group(store=store, overwrite=True)

    def add(name, a, chunks, compressor, order='C', group=root, path=None, **extra):
        z = group.create_dataset(name, shape=a.shape, chunks=chunks, dtype=a.dtype, compressor=compressor, order=order,
                                 fill_value=None)
        z[...] = a
        key = (path or name).replace('/', '-')
        np.save(os.path.join(OUT, 'expected', f'{key}.npy'), a)
        grid = [-(-s // c) for s, c in zip(a.shape, chunks)]
        manifest['arrays'].append({'store': 'v2.zarr', 'path': path or name, 'expected': f'{key}.npy', 'dtype': np.dtype(a.dtype).name,
                                   'shape': list(a.shape), 'chunks': list(chunks), 'order': order,
                                   'codec': compressor.codec_id if compressor else None, 'chunkCount': int(np.prod(grid)), **extra})

    blosc = numcodecs.Blosc(cname='lz4', clevel=5, shuffle=numcodecs.Blosc.SHUFFLE)
    add('blosc', values((30, 40), '<f8', 1), (8, 16), blosc)
    add('zstd', values((30, 40), '<f8', 2), (8, 16), numcodecs.Zstd(level=3))
    add('gzip', values((30, 40), '<f8', 3), (8, 16), numcodecs.GZip(level=5))
    add('raw', values((30, 40), '<f8', 4), (8, 16), None)
    add('float32-be', values((17, 9), '>f4', 5), (5, 4), numcodecs.Zstd(level=1))
    add('int32', values((50,), '<i4', 6), (7,), blosc)
    add('uint8', values((6, 7), '|u1', 7), (4, 4), numcodecs.GZip(level=1))
    add('bool', values((5, 11), '|b1', 8), (2, 5), None)
    add('int16-f', values((9, 13), '<i2', 9), (4, 5), numcodecs.Zstd(level=1), order='F')
    add('int64', values((4, 6), '<i8', 10), (3, 3), None)
    add('zero-d', values((), '<f8', 11), (), None)
    # 100 chunks of 10 x 10: a sum over them is NumPy's.
    hundred = values((100, 100), '<f8', 12, specials=False)
    add('hundred', hundred, (10, 10), numcodecs.Zstd(level=1), numpySum=float(np.sum(hundred)))
    inner = root.create_group('nested/deeper')
    add('x', values((3, 5), '<f4', 13), (2, 2), numcodecs.GZip(level=1), group=inner, path='nested/deeper/x')

    # Zarr v3, by the spec: metadata in zarr.json, chunks under c/ with '/' separators, the bytes codec then gzip.
    a = values((7, 10), '<f8', 14)
    v3 = os.path.join(OUT, 'v3.zarr')
    os.makedirs(v3)
    meta = {
        'zarr_format': 3, 'node_type': 'array', 'shape': list(a.shape), 'data_type': 'float64',
        'chunk_grid': {'name': 'regular', 'configuration': {'chunk_shape': [3, 4]}},
        'chunk_key_encoding': {'name': 'default', 'configuration': {'separator': '/'}},
        'fill_value': 0.0, 'codecs': [{'name': 'bytes', 'configuration': {'endian': 'little'}},
                                      {'name': 'gzip', 'configuration': {'level': 1}}],
        'attributes': {}, 'dimension_names': None,
    }
    with open(os.path.join(v3, 'zarr.json'), 'w') as f:
        json.dump(meta, f, indent=1)
    for i in range(0, 7, 3):
        for j in range(0, 10, 4):
            chunk = np.zeros((3, 4), '<f8')
            part = a[i:i + 3, j:j + 4]
            chunk[:part.shape[0], :part.shape[1]] = part
            os.makedirs(os.path.join(v3, 'c', str(i // 3)), exist_ok=True)
            with open(os.path.join(v3, 'c', str(i // 3), str(j // 4)), 'wb') as f:
                f.write(gzip.compress(chunk.tobytes(), compresslevel=1, mtime=0))
    np.save(os.path.join(OUT, 'expected', 'v3.npy'), a)
    manifest['arrays'].append({'store': 'v3.zarr', 'path': '', 'expected': 'v3.npy', 'dtype': 'float64', 'shape': [7, 10],
                               'chunks': [3, 4], 'order': 'C', 'codec': 'gzip', 'chunkCount': 9})
    # A v3 array whose chunks are stored transposed (the transpose codec, order [1, 0, 2]): zarrita hands its
    # values over in that order, which the reader must undo.
    b = values((4, 3, 5), '<f8', 15, specials=False)
    v3t = os.path.join(OUT, 'v3-transposed.zarr')
    os.makedirs(v3t)
    meta_t = dict(meta, shape=list(b.shape), chunk_grid={'name': 'regular', 'configuration': {'chunk_shape': [2, 3, 5]}},
                  codecs=[{'name': 'transpose', 'configuration': {'order': [1, 0, 2]}},
                          {'name': 'bytes', 'configuration': {'endian': 'little'}}])
    with open(os.path.join(v3t, 'zarr.json'), 'w') as f:
        json.dump(meta_t, f, indent=1)
    for i in range(2):
        os.makedirs(os.path.join(v3t, 'c', str(i), '0'), exist_ok=True)
        with open(os.path.join(v3t, 'c', str(i), '0', '0'), 'wb') as f:
            f.write(np.ascontiguousarray(np.transpose(b[2 * i:2 * i + 2], (1, 0, 2))).tobytes())
    np.save(os.path.join(OUT, 'expected', 'v3-transposed.npy'), b)
    manifest['arrays'].append({'store': 'v3-transposed.zarr', 'path': '', 'expected': 'v3-transposed.npy', 'dtype': 'float64',
                               'shape': [4, 3, 5], 'chunks': [2, 3, 5], 'order': 'C', 'codec': 'transpose', 'chunkCount': 2})
    with open(os.path.join(OUT, 'manifest.json'), 'w') as f:
        json.dump(manifest, f, indent=1)
        f.write('\n')
    print(f"wrote {len(manifest['arrays'])} arrays to {OUT}")


if __name__ == '__main__':
    main()
