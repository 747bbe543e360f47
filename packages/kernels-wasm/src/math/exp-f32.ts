// exp natively in f32x4 (four lanes per instruction, twice the f64x2 rate):
// Cephes' expf (S. L. Moshier, cephes/single/expf.c): x = k*ln2 + r with ln2
// split as C1 = 0.693359375 (9 bits, so k*C1 is exact for |k| < 2^15) plus C2;
// exp(r) = 1 + r + r^2*P(r), P of degree 5 with peak relative error 4.2e-9
// (Moshier's fit). k = round(x/ln2) by adding 1.5*2^23 + 126, which leaves
// E = k + 126 in the low bits of the sum, so 2^k is built by integer shifts of
// the same sum (no saturating float-to-int conversion, which V8 spells out in
// several x86 instructions). Normal results are y times two normal
// powers of two, so overflow gives Inf and 2^128 need not exist; subnormal
// results are built as integers, rounded once. Branch-free: a masked softmax
// sends whole vectors to exp(-huge), so a slow path for them would be taken
// often. Within 1.014 ulp of the double exp on every float (at most 1 ulp from
// the correctly rounded result), as before the shift trick.
import type { Emitter, V } from './emitter.js';

const LOG2E = 1.44269504088896341;
const C1 = 0.693359375;
const C2 = -2.12194440e-4;
const P = [5.0000001201e-1, 1.6666665459e-1, 4.1665795894e-2, 8.3334519073e-3, 1.3981999507e-3, 1.9875691500e-4] as const;

/** 1.5 * 2^23 + 126: adding it rounds |v| < 2^22 to an integer k and leaves E = k + 126 in the low bits. */
const MAGIC = 12582912 + 126;
/** The bits of MAGIC - 126 + E, for the clamps on E. */
const biased = (E: number): number => 0x4b400000 + E;

function expF32(e: Emitter, x0: V): V {
  const F = (name: string, ...args: V[]): V => e.op(`f32x4.${name}`, ...args);
  const I = (name: string, ...args: V[]): V => e.op(`i32x4.${name}`, ...args);
  // exp(-104) rounds to 0 and exp(89) overflows; NaN passes the clamp as NaN.
  const x = e.clamp(x0, -104, 89, 'f32x4');
  const t = F('add', F('mul', x, e.f32(LOG2E)), e.f32(MAGIC));
  const kf = F('sub', t, e.f32(MAGIC));
  const r = F('sub', F('sub', x, F('mul', kf, e.f32(C1))), F('mul', kf, e.f32(C2)));
  const y = expReducedF32(e, r);
  // Lanes with E <= 0 (k <= -126) may have subnormal results; no lane may make a subnormal,
  // even one not selected (the hardware slows down many times over for one), so they take
  // E = 0 and y >= 1 here, and the integer form below where the result is subnormal.
  const low = I('lt_s', t, e.i32(biased(1)));
  const yn = e.select(low, F('pmax', y, e.f32(1)), y);
  // y * 2^(E-126) as (y * 2^(max(E,2) - 127)) * 2^(E + 1 - max(E,2)): two normal factors
  // (the second is 2, 1 or 1/2), so 2^128 need not exist.
  const en = I('max_s', t, e.i32(biased(0)));
  const top = I('max_s', en, e.i32(biased(2)));
  const normal = F('mul', F('mul', yn, e.shift('i32x4.shl', top, 23)),
    e.shift('i32x4.shl', I('add', I('sub', en, top), e.i32(128)), 23));
  // Subnormal results n * 2^-149: n = y * 2^(k + 149) rounded to an integer by adding 2^23
  // and keeping the low bits, which rounds exactly as the multiply would (while below 2^23).
  const m = F('mul', y, e.shift('i32x4.shl', I('add', I('min_s', t, e.i32(biased(0))), e.i32(150)), 23));
  const n = I('sub', F('add', m, e.f32(2 ** 23)), e.i32(0x4b000000));
  return e.select(e.and(low, F('lt', m, e.f32(2 ** 23))), n, normal);
}

/** exp(r) for the reduced |r| <= ln2/2: 1 + r + r^2*P(r). */
function expReducedF32(e: Emitter, r: V): V {
  const z = e.op('f32x4.mul', r, r);
  return e.op('f32x4.add', e.op('f32x4.add', e.op('f32x4.mul', e.estrin(r, P, 'f32x4'), z), r), e.f32(1));
}

export { expF32 };
