// The range reductions against exact BigInt arithmetic: the constants, the
// scalar Payne-Hanek helper for huge |x|, and the digits of 2/pi.
import { ModuleBuilder } from '../encode/module-builder.js';
import { defineRemPio2Large } from './rem-pio2-large.js';
import { CODY_WAITE_BOUND, INVPIO2, PIO2_1, PIO2_2, PIO2_3, PIO2_3T } from './rem-pio2.js';
import { piFixed, pio2Parts, twoOverPiDigits } from './two-over-pi.js';
import { Rng } from './sample-inputs.js';

const PRECISION = 1400n; // piFixed() = pi * 2^1400

/** x mod pi/2 exactly enough: [n mod 4, remainder as a double] for any finite x. */
function exactRemPio2(x: number): [number, number] {
  const v = new DataView(new ArrayBuffer(8));
  v.setFloat64(0, Math.abs(x));
  const bits = v.getBigUint64(0);
  const e = Number((bits >> 52n) & 0x7ffn) - 1075;
  const M = (bits & 0xfffffffffffffn) | (1n << 52n);
  const F = 240n; // fraction bits of x*2/pi kept
  let num = (M * 2n) << (F + PRECISION);
  num = e >= 0 ? num << BigInt(e) : num >> BigInt(-e);
  const q = num / piFixed(); // x*2/pi * 2^F
  const n = (q + (1n << (F - 1n))) >> F;
  const frac = q - (n << F); // in [-2^(F-1), 2^(F-1)]
  // frac * pi/2 / 2^F as a double: scale to keep 64 significant bits, then divide.
  const shift = BigInt(Math.max(0, frac.toString(2).replace('-', '').length - 64));
  const y = (Number(frac >> shift) * 2 ** Number(shift - F) * Math.PI) / 2;
  const sign = x < 0 ? -1 : 1;
  return [Number(((sign < 0 ? -n : n) % 4n + 4n) % 4n), sign * y];
}

describe('range reduction modulo pi/2', () => {
  test('the 24-bit digits of 2/pi match fdlibm ipio2[]', () => {
    expect(twoOverPiDigits(8)).toEqual([0xa2f983, 0x6e4e44, 0x1529fc, 0x2757d1, 0xf534dd, 0xc0db62, 0x95993c, 0x439041]);
  });

  test('the Cody-Waite parts of pi/2 are the leading bits of pi/2 (fdlibm constants)', () => {
    expect(pio2Parts([33, 33, 33, 0])).toEqual([PIO2_1, PIO2_2, PIO2_3, PIO2_3T]);
    expect(INVPIO2).toBe(2 / Math.PI);
    expect(CODY_WAITE_BOUND).toBeLessThan(2 ** 20 * (Math.PI / 2));
    expect(PRECISION).toBe(1400n);
  });

  test('Payne-Hanek: n mod 4 exact and the remainder within 1e-15 relative, over every exponent', () => {
    const m = new ModuleBuilder();
    const helper = defineRemPio2Large(m);
    const [, f] = m.func('run', ['f64'], ['f64', 'f64', 'i32'], true);
    f.op('local.get', f.param(0)).op('call', helper);
    const { exports } = new WebAssembly.Instance(new WebAssembly.Module(new Uint8Array(m.toBytes())));
    const run = exports['run'] as (x: number) => [number, number, number];
    const r = new Rng(3);
    const xs = [Number.MAX_VALUE, -Number.MAX_VALUE, 1e22, 2 ** 20, 6381956970095103 * 2 ** 797, 5e15, 2 ** 1023];
    for (let i = 0; i < 3000; i++) xs.push(r.sign() * 2 ** r.uniform(20, 1024));
    const failures: string[] = [];
    for (const x of xs) {
      if (!Number.isFinite(x)) continue;
      const [y0, y1, n] = run(x);
      const [wantN, wantY] = exactRemPio2(x);
      const ok = (((n - wantN) % 4) + 4) % 4 === 0 && Math.abs(y0 + y1 - wantY) <= Math.abs(wantY) * 1e-15 && Math.abs(y1) <= Math.abs(y0) * 2 ** -52;
      if (!ok) failures.push(`x=${x}: got n=${n} y=${y0}+${y1}, want n=${wantN} y=${wantY}`);
    }
    expect(failures).toEqual([]);
  });

  test('the worst case for double (Muller: 6381956970095103 * 2^797) keeps its tiny remainder', () => {
    const [, y] = exactRemPio2(6381956970095103 * 2 ** 797);
    expect(Math.abs(y)).toBeLessThan(2 ** -60);
  });
});
