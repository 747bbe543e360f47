#!/usr/bin/python3
"""Philox 4x32-10 vectors for deferred-array's random arrays, computed with
NumPy's uint64 arithmetic from the published algorithm (Salmon et al., SC'11)
and checked here against Random123's known-answer tests before anything is
written. Run from the repository root:

    /usr/bin/python3 scripts/numpy/gen_philox.py

Writes packages/kernels-wasm/test/vectors/philox.json:
  kat:     Random123's tests/kat_vectors lines for philox4x32 10 (counter,
           key, expected words), as published
  streams: for several keys and streams, elements e = 0..N-1 of a random
           array (counter [e, 0, stream0, stream1]): the four words, the
           float64 ((w1 * 2^32 + w0) >> 11) * 2^-53 and the float32
           (w0 >> 8) * 2^-24, as NumPy computes them (hex of their bits)

NumPy's own Philox bit generator is the 4x64 variant; it has no 4x32, so the
arrays cannot be compared with a NumPy Generator's output.
"""
import json
import os

import numpy as np

M = (np.uint64(0xD2511F53), np.uint64(0xCD9E8D57))
W = (np.uint64(0x9E3779B9), np.uint64(0xBB67AE85))
MASK = np.uint64(0xFFFFFFFF)

KAT = [
    ([0, 0, 0, 0], [0, 0], [0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8]),
    ([0xFFFFFFFF] * 4, [0xFFFFFFFF] * 2, [0x408F276D, 0x41C83B0E, 0xA20BC7C6, 0x6D5451FD]),
    ([0x243F6A88, 0x85A308D3, 0x13198A2E, 0x03707344], [0xA4093822, 0x299F31D0],
     [0xD16CFE09, 0x94FDCCEB, 0x5001E420, 0x24126EA1]),
]


def philox(ctr, key):
    """ctr: uint64 arrays (4, n) holding 32-bit words; key: two ints."""
    c = [np.asarray(x, dtype=np.uint64) for x in ctr]
    k0, k1 = np.uint64(key[0]), np.uint64(key[1])
    for r in range(10):
        if r > 0:
            k0 = (k0 + W[0]) & MASK
            k1 = (k1 + W[1]) & MASK
        p0 = c[0] * M[0]
        p1 = c[2] * M[1]
        c = [((p1 >> np.uint64(32)) ^ c[1] ^ k0) & MASK, p1 & MASK,
             ((p0 >> np.uint64(32)) ^ c[3] ^ k1) & MASK, p0 & MASK]
    return c


def main():
    if not os.path.isdir(os.path.join("packages", "kernels-wasm")):
        raise SystemExit("run from the repository root")
    for ctr, key, want in KAT:
        got = [int(w) for w in philox([[x] for x in ctr], key)]
        assert got == want, (ctr, key, [hex(g) for g in got])
    n = 67
    streams = []
    for key in ([0, 0], [42, 0], [0xFFFFFFFF, 0xFFFFFFFF], [0x12345678, 0x9ABCDEF0]):
        for stream in ([0, 0], [1, 0], [0xFFFFFFFF, 0x7FFFFFFF]):
            e = np.arange(n, dtype=np.uint64)
            w = philox([e, np.zeros(n, np.uint64), np.full(n, stream[0], np.uint64),
                        np.full(n, stream[1], np.uint64)], key)
            u64 = (w[1] << np.uint64(32)) | w[0]
            f64 = (u64 >> np.uint64(11)).astype(np.float64) * (1.0 / 9007199254740992.0)
            f32 = ((w[0] >> np.uint64(8)).astype(np.float32) * np.float32(1.0 / 16777216.0)).astype(np.float32)
            streams.append({
                "key": key, "stream": stream,
                "words": [[int(w[i][j]) for i in range(4)] for j in range(n)],
                "float64": [format(int(b), "016x") for b in f64.view(np.uint64)],
                "float32": [format(int(b), "08x") for b in f32.view(np.uint32)],
            })
    out = {"numpy": np.__version__, "generator": "scripts/numpy/gen_philox.py",
           "kat": [{"counter": c, "key": k, "words": w} for c, k, w in KAT], "streams": streams}
    path = os.path.join("packages", "kernels-wasm", "test", "vectors", "philox.json")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump(out, f, separators=(",", ":"))
        f.write("\n")
    print("wrote %s (%d bytes)" % (path, os.path.getsize(path)))


if __name__ == "__main__":
    main()
