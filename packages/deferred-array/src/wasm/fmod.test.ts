// fmod in vector lanes (kernels-wasm's math/fmod.ts), and float mod and
// floorDivide on it (NumPy's npy_divmod, lower/float-divmod.ts): bit for bit
// the reference's (JavaScript's %, which is C's fmod, and its port of
// npy_divmod), in float64 and float32, on
// quotients near integers (where the rounded division's trunc is one too
// many), across the exponent range (huge quotients take the scalar long
// division) and on special values; in the vector loop and in the scalar one
// (a strided read), with no host call left in the kernel.
import * as da from '../index.js';
import { onBothBackends, readNumbers, sameNumber } from '../../test/against-reference.js';
import { seededRandom } from '../../test/seeded-random.js';
import { keepBackend } from '../../test/keep-backend.js';

keepBackend();
beforeEach(() => { da.configure({ backend: 'wasm' }); });


const SPECIAL = [0, -0, 1, -1, 3, -7.5, 0.1, 1e300, -1e-300, 5e-324, -5e-324, 2.2250738585072014e-308, 1.7976931348623157e308,
  Infinity, -Infinity, NaN];

/** n pairs: near-integer quotients, quotients from 1e-20 to 1e20, any bits, and every pair of special values. */
function operands(n: number, seed: number): [number[], number[]] {
  const r = seededRandom(seed);
  const bits = new Float64Array(1);
  const words = new Uint32Array(bits.buffer);
  const anyBits = (): number => { words[0] = r() * 2 ** 32; words[1] = r() * 2 ** 32; return bits[0]!; };
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < n; i++) {
    const x = r() < 0.7 ? (r() - 0.5) * 200 : anyBits();
    const pick = r();
    const k = 1 + Math.floor(r() * 1000);
    const y = pick < 0.4 ? (x / k) * (1 + (r() < 0.5 ? -1 : 1) * 10 ** (-10 - 7 * r()))
      : pick < 0.8 ? x * 10 ** (40 * r() - 20) : anyBits();
    a.push(x);
    b.push(y);
  }
  for (const x of SPECIAL) for (const y of SPECIAL) { a.push(x); b.push(y); }
  return [a, b];
}

const OPS = ['fmod', 'mod', 'floorDivide'] as const;
const call = (op: (typeof OPS)[number], a: da.DeferredArray, b: da.DeferredArray | number): da.DeferredArray =>
  (da[op] as (x: da.DeferredArray, y: da.DeferredArray | number) => da.DeferredArray)(a, b);

describe.each(['float64', 'float32'] as const)('%s', (dtype) => {
  test.each(OPS)('%s: vector and scalar loops agree with the reference bit for bit, with no host call', (op) => {
    const [xs, ys] = operands(4000, dtype === 'float64' ? 1 : 2);
    const a = da.array(xs, { dtype });
    const b = da.array(ys, { dtype });
    const text = call(op, a, b).explain({ kernels: true });
    expect(text).toMatch(/vectorised as (f64x2|f32x4)/);
    // Calls only to the module's own math routines (fmod, and its rare lanes' long division), none to the host.
    const calls = text.match(/call \$\S+/g) ?? [];
    expect(calls.filter((c) => !c.startsWith('call $math.'))).toEqual([]);
    for (const make of [() => call(op, a, b), () => call(op, a.get('::-3'), b.get('1::3')), () => call(op, a, 2.5), () => call(op, a, -0.75)]) {
      const [got, want] = onBothBackends(make);
      const bad = got.flatMap((g, i) => (sameNumber(g, want[i]!) ? [] : [`#${i}: ${xs[i]} ${op} ${ys[i]}: got ${g}, want ${want[i]}`]));
      expect(bad.slice(0, 5)).toEqual([]);
    }
  });
});

test('fmod takes the dividend\'s sign, mod and floorDivide the divisor\'s (NumPy\'s % and //)', () => {
  const got = readNumbers(da.fmod(da.array([-7.5, 7.5, -6, 1e300, 5e-324 * 3, -0]), da.array([2, -2, 3, 3, 5e-324 * 2, 5])));
  expect(got).toEqual([-1.5, 1.5, -0, 1e300 % 3, 5e-324, -0]);
  expect(Object.is(got[2], -0)).toBe(true);
  const a = da.array([-7.5, 7.5, -6, 6, 0.5, -0.5]);
  const b = da.array([2, -2, 3, -3, 0, 0]);
  expect(readNumbers(da.mod(a, b))).toEqual([0.5, -0.5, 0, -0, NaN, NaN]);
  expect(readNumbers(da.floorDivide(a, b))).toEqual([-4, -4, -2, -2, Infinity, -Infinity]);
});

describe.each([['int32', 'i32x4'], ['uint32', 'i32x4'], ['int16', 'i16x8'], ['uint16', 'i16x8'], ['int8', 'i8x16'], ['uint8', 'i8x16']] as const)('%s', (dtype, lanes) => {
  const ranges: Record<typeof dtype, readonly [number, number]> = { int32: [-(2 ** 31), 2 ** 31 - 1], uint32: [0, 2 ** 32 - 1], int16: [-32768, 32767], uint16: [0, 65535], int8: [-128, 127], uint8: [0, 255] };
  const [lo, hi] = ranges[dtype];
  // Extremes, zeros and -1 crossed (MIN // -1 wraps, a zero divisor gives 0), then random pairs over small and whole-range divisors.
  const specials = [lo, lo + 1, hi, -1, 0, 1, 2, 7, -7].filter((v) => v >= lo && v <= hi);
  const r = seededRandom(lo + hi);
  const any = (): number => lo + Math.floor(r() * (hi - lo + 1));
  const xs = [...specials.flatMap((x) => specials.map(() => x)), ...Array.from({ length: 3000 }, any)];
  const ys = [...specials.flatMap(() => specials), ...Array.from({ length: 3000 }, (_, i) => (i % 2 ? any() : Math.max(lo, Math.floor(r() * 21) - 10)))];

  test.each(OPS)(`%s: in ${lanes} lanes and in the scalar loop, the reference's bit for bit, with no host call`, (op) => {
    da.configure({ errors: { divide: 'ignore' } });
    try {
      const a = da.array(xs, { dtype });
      const b = da.array(ys, { dtype });
      const text = call(op, a, b).explain({ kernels: true });
      expect(text).toContain(`vectorised as ${lanes}`);
      expect(text.match(/call \$\S+/g) ?? []).toEqual([]);
      for (const make of [() => call(op, a, b), () => call(op, a.get('::-3'), b.get('::3')), () => call(op, a, 7), () => call(op, a, lo < 0 ? -1 : 3)]) {
        const [got, want] = onBothBackends(make);
        const bad = got.flatMap((g, i) => (g === want[i] ? [] : [`#${i}: got ${g}, want ${want[i]}`]));
        expect(bad.slice(0, 5)).toEqual([]);
      }
    } finally {
      da.configure({ errors: { divide: 'warn' } });
    }
  });
});
