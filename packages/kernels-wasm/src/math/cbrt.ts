// cbrt in f64x2, after FreeBSD msun's s_cbrt.c (Bruce D. Evans, 2009;
// error < 0.667 ulp): a 5-bit estimate from the exponent divided by 3 (the
// bias constants B1, B2 fold in the 2^54 prescaling of subnormals), a
// degree-4 polynomial in r = t^3/x refining 1/cbrt to 23 bits (|error| <
// 2^-23.5), rounding t away from zero to 22 bits so that t^2 is exact, and
// one Newton step t + t*(x/t^2 - t)/(2t + x/t^2). The division of the high
// word by 3 has no SIMD instruction: it is a multiply by 0xAAAAAAAB and a
// shift by 33, exact for every 31-bit numerator.
import type { Emitter, V } from './emitter.js';
import { SIGN_BIT } from './f64-bits.js';

const B1 = 715094163n; // (1023 - 1023/3 - 0.03306235651) * 2^20
const B2 = 696219795n; // (1023 - 1023/3 - 54/3 - 0.03306235651) * 2^20
const P = [
  1.87595182427177009643, // P0 0x3FFE03E6 0F61E692
  -1.88497979543377169875, // P1 0xBFFE28E0 92F02420
  1.621429720105354466140, // P2 0x3FF9F160 4A49D6C2
  -0.758397934778766047437, // P3 0xBFE844CB BEE751D9
  0.145996192886612446982, // P4 0x3FC2B000 D4E4EDD7
] as const;
const MIN_NORMAL = 2.2250738585072014e-308;

/** floor(v/3) for i64 lanes 0 <= v < 2^31. */
function div3(e: Emitter, v: V): V {
  return e.shift('i64x2.shr_u', e.op('i64x2.mul', v, e.i64(0xaaaaaaabn)), 33);
}

/** The high word's magnitude bits as an i64 lane value. */
function highMagnitude(e: Emitter, v: V): V {
  return e.and(e.shift('i64x2.shr_u', v, 32), e.i64(0x7fffffffn));
}

function cbrtF64(e: Emitter, x: V): V {
  const sign = e.and(x, e.i64(SIGN_BIT));
  const subnormal = e.lt(e.abs(x), e.f64(MIN_NORMAL));
  const scaled = e.mul(x, e.f64(2 ** 54));
  const high = e.select(subnormal, highMagnitude(e, scaled), highMagnitude(e, x));
  const bias = e.select(subnormal, e.i64(B2), e.i64(B1));
  let t = e.or(sign, e.shift('i64x2.shl', e.op('i64x2.add', div3(e, high), bias), 32));
  const r = e.mul(e.mul(t, t), e.div(t, x));
  t = e.mul(t, e.add(e.horner(r, [P[0], P[1], P[2]]), e.mul(e.mul(e.mul(r, r), r), e.horner(r, [P[3], P[4]]))));
  // Round away from zero to 22 bits: t*t is then exact.
  t = e.and(e.op('i64x2.add', t, e.i64(0x80000000n)), e.i64(0xffffffffc0000000n));
  const s = e.mul(t, t);
  const q = e.div(x, s);
  const w = e.add(t, t);
  const corr = e.div(e.sub(q, t), e.add(w, q));
  const y = e.add(t, e.mul(t, corr));
  // cbrt(+-0) = +-0, cbrt(+-Inf) = +-Inf, NaN stays NaN.
  const passThrough = e.or(e.eq(x, e.f64(0)), e.not(e.lt(e.abs(x), e.f64(Infinity))));
  return e.select(passThrough, x, y);
}

export { cbrtF64 };
