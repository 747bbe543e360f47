#!/usr/bin/python3
"""NumPy reading what deferred-array wrote (run by src/io/npy.test.ts):

    python3 scripts/numpy/read_back.py DIR < expected.json

expected.json: {"arrays": {file: {dtype, shape, hex}}, "archives": {file:
{member: {dtype, shape, hex}}}}, hex the values' bytes, little-endian, C
order. Loads each file in DIR with np.load (no pickles), compares dtype,
shape and bits, prints one line when all agree and exits 0; else names
each difference on stderr and exits 1.
"""
import json
import os
import sys

import numpy as np


def bits(a):
    c = a.copy(order='C')
    if c.dtype.byteorder == '>':
        c = c.byteswap().view(c.dtype.newbyteorder('<'))
    return c.tobytes().hex()


def check(where, a, want, errors):
    got = {'dtype': a.dtype.name, 'shape': list(a.shape), 'hex': bits(a)}
    for key in ('dtype', 'shape', 'hex'):
        if got[key] != want[key]:
            errors.append(f'{where}: {key} is {got[key]!r}, expected {want[key]!r}')


def main():
    folder = sys.argv[1]
    expected = json.load(sys.stdin)
    errors = []
    for name, want in expected['arrays'].items():
        check(name, np.load(os.path.join(folder, name), allow_pickle=False), want, errors)
    for name, members in expected['archives'].items():
        with np.load(os.path.join(folder, name), allow_pickle=False) as z:
            if sorted(z.files) != sorted(members):
                errors.append(f'{name}: members {z.files}, expected {list(members)}')
            for m, want in members.items():
                check(f'{name}[{m}]', z[m], want, errors)
    if errors:
        sys.stderr.write('\n'.join(errors) + '\n')
        sys.exit(1)
    print(f"read {len(expected['arrays'])} arrays and {len(expected['archives'])} archives: all equal")


if __name__ == '__main__':
    main()
