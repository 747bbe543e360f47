#!/usr/bin/python3
"""Writes packages/kernels-wasm/src/math/tables.generated.ts: the lookup tables
of kernels-wasm's vector math (read per lane, see math/table-pool.ts), with
the values that need more precision than a double computed in mpmath.
Deterministic: run it again and the file comes out byte-identical. The
kernels read the packed copy that scripts/pack-tables.mjs makes of it, so
run that after:

    /usr/bin/python3 scripts/mpmath/generate_tables.py
    node scripts/pack-tables.mjs

Debian's python3-mpmath: apt-get install -y python3-mpmath.
"""
import os
import struct

from mpmath import mp, mpf
import mpmath

mp.prec = 200
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'packages', 'kernels-wasm', 'src', 'math', 'tables.generated.ts')


def hi_lo(v):
    """v as a double plus the double nearest the remainder (~106 bits)."""
    hi = float(v)
    return hi, float(v - mpf(hi))


def atan_rows():
    """atan.ts: one row per 1/8 of a binade of a = |x| from 2^-8 to 2^8, [p, c, atan(c) hi, lo].

    Rows 0-7 (a < 2^-7): c = 0, so t = a. Rows 8-119 (binades 2^-7 .. 2^7): c is the
    centre of a's eighth of its binade, so a - c is exact and |t| <= a/16. Rows 120-128
    (a >= 2^7, 256 being the clamp's top): c = inf, t = -1/a, and p = 0 turns
    (p*a - c)/(p + c*a) into that.
    """
    rows = []
    for e in range(-8, 8):
        for j in range(8):
            if e == -8:
                rows.append([1.0, 0.0, 0.0, 0.0])
            elif e == 7:
                rows.append([0.0, 1.0, *hi_lo(mp.pi / 2)])
            else:
                c = mpf(2) ** e * (1 + mpf(2 * j + 1) / 16)
                assert float(c) == c
                rows.append([1.0, float(c), *hi_lo(mpmath.atan(c))])
    rows.append([0.0, 1.0, *hi_lo(mp.pi / 2)])
    return rows


LOG_TABLE_BITS = 10
LOG_SHIFT = 52 - LOG_TABLE_BITS
LOG_OFF = 0x3fe6915500000000
LOG_INVC_BITS = 26
LOG_R_MAX = mpf(2) ** -10.99


def from_bits(b):
    return struct.unpack('<d', struct.pack('<Q', b))[0]


def ulp_of(d):
    """The spacing of doubles at |d| (a normal double)."""
    return mpf(2) ** (int(mpmath.floor(mpmath.log(abs(d), 2))) - 52)


def log_rows():
    """log.ts: one row per bucket of z in [OFF, 2*OFF) (x = 2^k * z, OFF ~ 0.7052), the
    bucket being bits 42-51 of bits(x) - bits(OFF): [1/c, log c].

    1/c has LOG_INVC_BITS significant bits, so that z*(1/c) - 1 is formed exactly as
    rh + rl (log.ts: dh, the top 53 - LOG_INVC_BITS bits of d = z - 1, times 1/c is
    exact, and so is rh = dh*(1/c) + (1/c - 1)), and c is 1/(1/c) by definition. It is the one, among the 6001 nearest the reciprocal of the
    bucket's midpoint, nearest it whose log(c) is near enough a double (log c's
    rounding error below 0.003 ulp of the smallest log(x) in the bucket, so one
    double holds it), and
    it is 1 for the bucket holding 1 (there r = z - 1 is exact and log c = 0). OFF puts
    1 two thirds of the way into its bucket, where z/c - 1 then spans as much on each
    side. Every z in a bucket has |z/c - 1| < LOG_R_MAX and below |log c| where c is
    not 1.
    """
    rows = []
    for i in range(1 << LOG_TABLE_BITS):
        z_lo = mpf(from_bits(LOG_OFF + (i << LOG_SHIFT)))
        z_hi = mpf(from_bits(LOG_OFF + ((i + 1) << LOG_SHIFT)))
        if z_lo <= 1 < z_hi:
            invc, logc = mpf(1), 0.0
        else:
            m = 2 / (z_lo + z_hi)
            scale = mpf(2) ** (LOG_INVC_BITS - 1 - int(mpmath.floor(mpmath.log(m, 2))))
            centre = mpmath.nint(m * scale)

            # log(x) is smallest at a bucket's end nearer 1 (k = 0); log c may be off by 0.003 ulp of it.
            bound = mpf('0.003') * ulp_of(float(min(abs(mpmath.log(z_lo)), abs(mpmath.log(z_hi)))))

            def rounding_error(j):
                exact = -mpmath.log((centre + j) / scale)
                return abs(mpf(float(exact)) - exact)

            j = next(j for j in sorted(range(-3000, 3001), key=lambda j: (abs(j), j)) if rounding_error(j) < bound)
            invc = (centre + j) / scale
            logc = float(-mpmath.log(invc))
        assert float(invc) == invc
        r_max = max(abs(z_lo * invc - 1), abs(z_hi * invc - 1))
        assert r_max < LOG_R_MAX
        # log.ts adds r to log c by Fast2Sum, which needs |log c| >= |r| (or log c = 0).
        assert invc == 1 or abs(logc) > r_max
        if invc != 1:
            assert rh_is_exact(z_lo, z_hi, invc), i
        rows.append([float(invc), logc])
    return rows


def rh_is_exact(z_lo, z_hi, invc):
    """Whether log.ts's rh = dh*invc + (invc - 1) is exact for every z in [z_lo, z_hi) (d = z - 1
    of one sign there): on the part where |d| is in [2^e, 2^(e+1)), dh (d cut to 27 bits) is a
    multiple of 2^(e-26), so both terms are multiples of grid = 2^(e-26) times invc's last
    bit, and the sum is exact while |rh| <= |r| + |rl| stays below 2^53 grids."""
    unit = mpf(2) ** (int(mpmath.floor(mpmath.log(invc, 2))) - (LOG_INVC_BITS - 1))
    d_lo, d_hi = sorted([abs(z_lo - 1), abs(z_hi - 1)])
    e = int(mpmath.floor(mpmath.log(d_lo, 2)))
    while mpf(2) ** e < d_hi:
        # The part of the bucket with |d| in [2^e, 2^(e+1)), and |r| at its ends (r is monotonic in z).
        ends = [max(d_lo, mpf(2) ** e), min(d_hi, mpf(2) ** (e + 1))]
        sign = 1 if z_lo > 1 else -1
        r_part = max(abs((1 + sign * d) * invc - 1) for d in ends)
        if not r_part * (1 + mpf(2) ** -20) < mpf(2) ** 53 * mpf(2) ** (e - 26) * unit:
            return False
        e += 1
    return True


def log_tail():
    """log1p(r) - r = r^2 * Q(r) on |r| <= LOG_R_MAX: Q = -1/2 + r*P(r), P a degree-2
    Chebyshev fit (mpmath chebyfit), absolute error of r^2*Q below 2^-70."""
    def h(r):
        if abs(r) < mpf(2) ** -60:
            return mpf(1) / 3
        return ((mpmath.log1p(r) - r) / r ** 2 + mpf(0.5)) / r
    poly = mpmath.chebyfit(h, [-LOG_R_MAX, LOG_R_MAX], 3)
    coeffs = [-0.5] + [float(c) for c in poly[::-1]]
    worst = max(abs(r * r * sum(mpf(c) * r ** j for j, c in enumerate(coeffs)) - (mpmath.log1p(r) - r))
                for r in (-LOG_R_MAX + 2 * LOG_R_MAX * k / 4000 for k in range(4001)))
    print('log tail: |error| < 2^%.2f' % float(mpmath.log(worst, 2)))
    assert worst < mpf(2) ** -70, worst
    return coeffs


def exp2_rows():
    """expm1.ts: 2^(j/64) as hi + lo, j = 0..63."""
    return [list(hi_lo(mpf(2) ** (mpf(j) / 64))) for j in range(64)]


def ts_rows(name, doc, rows):
    body = ',\n'.join('  [' + ', '.join(repr(v) for v in r) + ']' for r in rows)
    return f'/** {doc} */\nconst {name}: ReadonlyArray<readonly number[]> = [\n{body},\n];\n'


def main():
    parts = [
        '// Generated by scripts/mpmath/generate_tables.py; do not edit. Each value is\n'
        '// the double nearest the exact one (a lo value: the double nearest the\n'
        '// remainder after its hi), printed so that it reads back to the same double.\n',
        ts_rows('ATAN_ROWS', 'atan.ts: [p, c, atan(c) hi, atan(c) lo] per eighth of a binade of |x| in [2^-8, 2^8], and one for 2^8.', atan_rows()),
        ts_rows('LOG_ROWS', 'log.ts: [1/c, log c] per bucket of the reduced argument z in [0.7052, 1.4105) (bits 42-51 of bits(x) - 0x3fe6915500000000).', log_rows()),
        '/** log.ts: Q(r), log1p(r) - r = r^2*Q(r) on |r| <= 2^-10.99 (absolute error < 2^-70). */\n'
        'const LOG1P_TAIL: readonly number[] = [' + ', '.join(repr(c) for c in log_tail()) + '];\n',
        ts_rows('EXP2_ROWS', 'expm1.ts: [2^(j/64) hi, lo] for j = 0..63.', exp2_rows()),
        'export { ATAN_ROWS, LOG_ROWS, LOG1P_TAIL, EXP2_ROWS };\n',
    ]
    with open(OUT, 'w') as f:
        f.write('\n'.join(parts))


main()
