import { ModuleBuilder } from '../encode/module-builder.js';
import { Emitter } from './emitter.js';
import type { V } from './emitter.js';

/** A module whose f(x) evaluates `build` on the splat of x (f64x2) and returns lane 0. */
function polyModule(build: (e: Emitter, x: V) => V): (x: number) => number {
  const m = new ModuleBuilder();
  const [, f] = m.func('f', ['f64'], ['f64'], true);
  const e = new Emitter(f);
  f.op('local.get', f.param(0)).op('f64x2.splat');
  const y = build(e, e.save());
  e.push(y);
  f.op('f64x2.extract_lane', 0);
  const inst = new WebAssembly.Instance(new WebAssembly.Module(m.toBytes()), {});
  return inst.exports['f'] as (x: number) => number;
}

describe('Emitter polynomials', () => {
  const coeffs = [1.5, -0.25, 0.125, 3, -2, 0.75, 0.5];
  const exact = (x: number, n: number): number => coeffs.slice(0, n).reduceRight((acc, c) => c + x * acc, 0);

  test.each([1, 2, 3, 4, 5, 6, 7])('horner and pairedHorner agree with the polynomial (%i coefficients)', (n) => {
    const c = coeffs.slice(0, n);
    const horner = polyModule((e, x) => e.horner(x, c));
    const paired = polyModule((e, x) => e.pairedHorner(x, e.mul(x, x), c));
    for (const x of [0, 1, -1, 0.5, -0.3, 2, 1e-3]) {
      // Horner's rule rounds as the JS fold does; the paired form only differently.
      expect(horner(x)).toBe(exact(x, n));
      expect(paired(x)).toBeCloseTo(exact(x, n), 12);
    }
  });

  test('pairedHorner needs a coefficient', () => {
    const m = new ModuleBuilder();
    const [, f] = m.func('f', ['f64'], ['f64'], true);
    const e = new Emitter(f);
    expect(() => e.pairedHorner(e.f64(1), e.f64(1), [])).toThrow('pairedHorner needs at least one coefficient');
  });
});
